"""A whole online event played by bots (`manage.py simulate_tournament`).

Bot entrants are real users with real, legal decks (validated and frozen by registration,
R 9.6); their registrations carry `bot`, so the matches app seats an engine bot for them
and the games are played move by move by the Celery workers (or in-process in the
embedded default). The organiser pairs, publishes, starts the playoff and awards the
prizes through the same services staff use; if a game stops without a winner (a
simulation's turn limit, or the hour of R 18.4) the organiser decides it as a judge.
"""

from __future__ import annotations

import datetime
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

from cards_data.definitions import card_dicts
from cards_data.models import Card
from decks.services import save_deck
from engine.catalog import RACE_PAIRS
from engine.rng import Rng

from . import online, services
from .models import OnlineGame, Registration, Round, TableSet, Tournament

POLL_SECONDS = 0.5
COPIES, NAMES, SHIPS = 3, 15, 6  # R 9.1-9.2: 45 cards, at most 3 copies of a name


class Stalled(RuntimeError):
    """No game finished for too long (no worker running?)."""


@dataclass
class Progress:
    done: int
    total: int
    stage: str


def legal_colony_names(rng_seed: str, ships: int = SHIPS) -> list[str]:
    """The 15 codes of a random legal colony (R 9.1-9.3): one race of each compatible pair,
    `ships` ships first, then the other names; the same `rng_seed` gives the same codes.
    (The matches tests build their colonies with it too.)"""
    rng = Rng.from_seed(rng_seed)
    races = [pair[rng.below(2)] for pair in RACE_PAIRS]
    cards = sorted(card_dicts().values(), key=lambda c: c["code"])
    pool = [c for c in cards if c["race"] in races]
    ship_pool = [c for c in pool if c["type"] == "ship"]
    other_pool = [c for c in pool if c["type"] != "ship"]
    rng.shuffle(ship_pool)
    rng.shuffle(other_pool)
    chosen = ship_pool[:ships] + other_pool[: NAMES - ships]
    return [c["code"] for c in chosen]


def bot_colony(seed: str) -> list[tuple[str, int]]:
    """A legal colony (R 9): one race of each compatible pair, 15 names x 3 copies."""
    return sorted((code, COPIES) for code in legal_colony_names(f"sim-colony-{seed}"))


def _bot_users(tag: str, players: int):
    users = get_user_model().objects  # no password given: nobody can log in as them
    organiser = users.create_user(f"sim-{tag}-org")
    entrants = [users.create_user(f"sim-{tag}-{i:03d}") for i in range(1, players + 1)]
    return organiser, entrants


def set_up(
    players: int,
    *,
    bot: str = "heuristic",
    rounds: int | None = None,
    match_format: str = "bo1",
    turn_limit: int = 0,
    tag: str | None = None,
) -> Tournament:
    """An online event with `players` bot entrants registered, checked in and started."""
    tag = tag or secrets.token_hex(3)
    organiser, entrants = _bot_users(tag, players)
    t = services.create_tournament(
        organiser,
        name=f"Simulated event {tag}",
        date=datetime.date.today(),
        online=True,
        swiss_rounds=rounds,
        match_format=match_format,
        game_turn_limit=turn_limit,
    )
    for i, user in enumerate(entrants):
        deck = save_deck(user, name=f"Bot colony {i + 1}", cards=bot_colony(f"{tag}-{i}"))
        reg = services.register(t, user, deck)  # validated with the original rules (R 9.6)
        Registration.objects.filter(pk=reg.pk).update(bot=bot)
        services.check_in(reg, user)
    services.start(t, organiser)
    return Tournament.objects.get(pk=t.pk)


def _judge_stopped_games(t: Tournament, rng: Rng):
    """Games that stopped without a winner: the organiser decides as a judge (R 18.4)."""
    waiting = OnlineGame.objects.filter(
        match__tournament=t, match__status=TableSet.NEEDS_JUDGE, winner=None
    ).select_related("match__player_a", "match__player_b", "game")
    for og in waiting:
        if og.game.status not in ("needs_judge", "finished"):
            continue
        winner = (og.match.player_a, og.match.player_b)[rng.below(2)]
        online.judge_game(og, t.organiser, winner, "time")


def _wait(
    t: Tournament,
    matches,
    stage: str,
    report: Callable[[Progress], None],
    stall: float,
    rng: Rng,
):
    """Poll until every match in `matches` (a queryset) is confirmed."""
    total = matches.count()
    last_done, last_change = -1, time.monotonic()
    while True:
        _judge_stopped_games(t, rng)
        done = matches.filter(status=TableSet.CONFIRMED).count()
        if done != last_done:
            last_done, last_change = done, time.monotonic()
            report(Progress(done, total, stage))
        if done >= total:
            return
        if time.monotonic() - last_change > stall:
            raise Stalled(
                f"{stage}: no match finished for {stall:.0f} s ({done}/{total} done); "
                "is a Celery worker running?"
            )
        time.sleep(POLL_SECONDS)


def play_swiss(t: Tournament, report, stall: float, rng: Rng):
    for number in range(1, t.planned_rounds() + 1):
        with transaction.atomic():
            rnd = services.pair_next_round(t, t.organiser)
            services.publish_round(rnd, t.organiser)
        stage = f"round {number}/{t.planned_rounds()}"
        _wait(t, Round.objects.get(pk=rnd.pk).matches.all(), stage, report, stall, rng)


def play_playoff(t: Tournament, report, stall: float, rng: Rng):
    services.start_playoff(t, t.organiser)
    playoff = t.matches.filter(round__isnull=True)
    _wait(t, playoff.filter(stage="semi"), "semi-finals", report, stall, rng)
    _wait(t, playoff.exclude(stage="semi"), "final", report, stall, rng)


def award_prizes(t: Tournament):
    """The first three ultra-rare cards by code to the top three (R 18.6)."""
    codes = list(Card.objects.filter(rarity="ultra_rare").order_by("code")[:3])
    t.refresh_from_db()
    services.award_prizes(t, t.organiser, {i: c.code for i, c in enumerate(codes, 1)})


def run(
    players: int,
    *,
    report: Callable[[Progress], None] = lambda p: None,
    stall: float = 120.0,
    seed: str = "0",
    **options,
) -> Tournament:
    """Set up and play a whole event (Swiss rounds, playoff, prizes); returns it finished."""
    t = set_up(players, **options)
    rng = Rng.from_seed(f"sim-judge-{seed}")
    play_swiss(t, report, stall, rng)
    play_playoff(t, report, stall, rng)
    award_prizes(t)
    return Tournament.objects.get(pk=t.pk)
