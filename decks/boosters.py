"""Simulated boosters: rarity frequencies of R 8.1 (30 : 10 : 3), never an ultra-rare."""

import random

from engine.catalog import RARITIES

BOOSTER_SIZE = 15


def rarity_weights() -> dict[str, int]:
    """R 8.1 / AMB-42: common 30, uncommon 10, rare 3; ultra-rares only as prizes (R 8.1.2)."""
    return {rarity: info["weight"] for rarity, info in RARITIES.items() if info.get("weight")}


def open_booster(cards: list[dict], seed: int | str, size: int = BOOSTER_SIZE) -> list[dict]:
    """`size` cards drawn slot by slot: a rarity by weight, then a card of it uniformly."""
    rng = random.Random(str(seed))
    by_rarity: dict[str, list[dict]] = {}
    for card in sorted(cards, key=lambda c: c["code"]):
        by_rarity.setdefault(card["rarity"], []).append(card)
    weights = {r: w for r, w in rarity_weights().items() if by_rarity.get(r)}
    total = sum(weights.values())
    pack = []
    for _ in range(size):
        pool = by_rarity[_pick_rarity(weights, rng.random() * total)]
        pack.append(pool[int(rng.random() * len(pool))])
    return pack


def _pick_rarity(weights: dict[str, int], roll: float) -> str:
    """The rarity whose share of the weight line [0, total) contains `roll`."""
    for rarity, weight in weights.items():
        if roll < weight:
            return rarity
        roll -= weight
    return rarity  # float rounding at the very end of the line
