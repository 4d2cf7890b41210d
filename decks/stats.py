"""Colony statistics and draw odds: a colony of 45 (R 9.1), an opening hand of 5
(R 10.4) and one mulligan (R 10.5).

Pure Python (no Django, no database). Probabilities are exact `Fraction`s; use
`float()` to show them. Legality is not decided here (engine.deck.check_deck).
"""

import random
from collections.abc import Iterable
from fractions import Fraction
from math import comb

from engine.catalog import KEYWORDS, RACES, STATS, SUBTYPES, TYPES
from engine.deck import DECK_SIZE

OPENING_HAND = 5  # R 10.4
CURVE_TOP = 10  # credit costs of 10 or more share the "10+" column
VARIABLE_COST = "X"  # e.g. Felülbírálás: its cost is the neutralised interrupt's (R 21.3)
NO_RACE = "none"  # AMB-31: cards without a race


# --------------------------------------------------------------------------- draw odds


def _check_int(name: str, value) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{name} must be a non-negative int, not {value!r}")
    return value


def p_at_least(
    k: int, successes: int, deck_size: int = DECK_SIZE, draws: int = OPENING_HAND
) -> Fraction:
    """P(at least `k` of the `successes` wanted cards are among `draws` cards drawn
    without replacement from `deck_size`): the hypergeometric tail, exact."""
    if not isinstance(k, int) or isinstance(k, bool):
        raise ValueError(f"k must be an int, not {k!r}")
    _check_int("successes", successes)
    _check_int("deck_size", deck_size)
    _check_int("draws", draws)
    if successes > deck_size:
        raise ValueError(f"successes ({successes}) cannot exceed deck_size ({deck_size})")
    if draws > deck_size:
        raise ValueError(f"draws ({draws}) cannot exceed deck_size ({deck_size})")
    if k <= 0:
        return Fraction(1)
    ways = sum(
        comb(successes, hits) * comb(deck_size - successes, draws - hits)
        for hits in range(k, min(successes, draws) + 1)
    )
    return Fraction(ways, comb(deck_size, draws))


def p_at_least_one(copies: int, deck_size: int = DECK_SIZE, hand: int = OPENING_HAND) -> Fraction:
    """P(a card with `copies` copies is in the opening hand), R 10.4.

    3 copies in 45 cards, 5 drawn: 1 - C(42,5)/C(45,5) = 431/1419 ≈ 30.4 %.
    """
    return p_at_least(1, copies, deck_size, hand)


def p_at_least_one_with_mulligan(
    copies: int, deck_size: int = DECK_SIZE, hand: int = OPENING_HAND
) -> Fraction:
    """The same, when the player takes R 10.5's single mulligan whenever the card is
    missing: the 5 cards are shuffled back and 5 new ones drawn, so the second hand
    is independent of the first: 1 - (1 - p)².

    3 copies in 45: 1 - (988/1419)² ≈ 51.5 %. (NOTES.md's 51.6 % squares the
    rounded 30.4 %: 1 - 0.696² = 0.5156.)
    """
    miss = 1 - p_at_least_one(copies, deck_size, hand)
    return 1 - miss * miss


# --------------------------------------------------------------------------- deck statistics


def _numeric_cost(card: dict) -> int | None:
    cost = card.get("credit_cost")
    if isinstance(cost, int) and not isinstance(cost, bool):
        return cost
    return None


def _ordered(counts: dict[str, int], order: Iterable[str]) -> dict[str, int]:
    """`counts` with known keys in catalogue order first, then the rest sorted."""
    known = [key for key in order if key in counts]
    rest = sorted(key for key in counts if key not in set(known))
    return {key: counts[key] for key in known + rest}


def deck_stats(entries: Iterable[tuple[dict, int]]) -> dict:
    """Numbers for the deck builder, JSON-serialisable.

    total: cards (R 9.1 wants 45); cards: distinct codes; curve: copies per credit
    cost "0".."9", "10+" and "X" (variable cost, e.g. Felülbírálás); average_cost:
    over numeric costs only (None if there are none); types (all six, rulebook
    order), subtypes, races (present ones; "none" for raceless cards); ships;
    ship_stats: speed, firepower, armour and bombardment summed over ships × copies;
    keywords: copies of cards with each keyword.
    """
    entries = [(card, count) for card, count in entries if count > 0]
    curve = {str(cost): 0 for cost in range(CURVE_TOP)} | {f"{CURVE_TOP}+": 0, VARIABLE_COST: 0}
    types = {type_: 0 for type_ in TYPES}
    subtypes: dict[str, int] = {}
    races: dict[str, int] = {}
    keywords: dict[str, int] = {}
    ship_stats = {stat: 0 for stat in STATS}
    total = ships = cost_sum = costed = 0
    for card, count in entries:
        total += count
        cost = _numeric_cost(card)
        if cost is None:
            curve[VARIABLE_COST] += count
        else:
            cost_sum += cost * count
            costed += count
            curve[str(cost) if cost < CURVE_TOP else f"{CURVE_TOP}+"] += count
        type_ = card.get("type") or "other"
        types[type_] = types.get(type_, 0) + count
        if card.get("subtype"):
            subtypes[card["subtype"]] = subtypes.get(card["subtype"], 0) + count
        race = card.get("race") or NO_RACE
        races[race] = races.get(race, 0) + count
        for keyword in set(card.get("keywords") or ()):
            keywords[keyword] = keywords.get(keyword, 0) + count
        if type_ == "ship":
            ships += count
            for stat in STATS:
                ship_stats[stat] += (card.get(stat) or 0) * count
    subtype_order = [sub for subs in SUBTYPES.values() for sub in subs]
    return {
        "total": total,
        "cards": len({card["code"] for card, _ in entries}),
        "curve": curve,
        "average_cost": cost_sum / costed if costed else None,
        "types": types,
        "subtypes": _ordered(subtypes, subtype_order),
        "races": _ordered(races, [*RACES, NO_RACE]),
        "ships": ships,
        "ship_stats": ship_stats,
        "keywords": _ordered(keywords, KEYWORDS),
    }


# --------------------------------------------------------------------------- sample hands


def _code(card) -> str:
    return card["code"] if isinstance(card, dict) else str(card)


def sample_hand(
    entries: Iterable[tuple[dict, int]], seed: int | str | bytes, size: int = OPENING_HAND
) -> list:
    """A reproducible random opening hand (R 10.4): `size` cards of the colony.

    Only `random.Random(seed).random()` is used (a Fisher–Yates shuffle on top):
    Python keeps that sequence stable across versions, not `shuffle`'s or
    `choice`'s (NOTES.md). The colony is laid out by code first, so the hand
    depends on the deck and the seed, not on the order of `entries`.
    """
    if seed is None or isinstance(seed, bool) or not isinstance(seed, int | str | bytes):
        raise TypeError(f"seed must be an int, str or bytes, not {type(seed).__name__}")
    _check_int("size", size)
    pile = [
        card
        for card, count in sorted(entries, key=lambda entry: _code(entry[0]))
        for _ in range(count)
    ]
    rng = random.Random(seed)
    drawn = min(size, len(pile))
    for position in range(drawn):  # partial Fisher–Yates: only the drawn places
        other = position + int(rng.random() * (len(pile) - position))
        pile[position], pile[other] = pile[other], pile[position]
    return pile[:drawn]
