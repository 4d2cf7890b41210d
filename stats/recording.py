"""A finished game's figures, added once (the task `stats.tasks.record_game`), and the
rebuild of every figure from the stored games (`manage.py rebuild_stats`).

Only FINISHED games are read: an unfinished game's log holds its hidden cards (R 16), and
an aborted game or one waiting for a judge has no result yet. Figures come from two-player
games with a winner; a multiplayer table (R 17) or a game without a winner is marked
processed and counted nowhere (docs/stats.md says why).
"""

import functools
from collections import Counter
from contextlib import nullcontext

from django.db import IntegrityError, connection, transaction
from django.db.models.fields.json import KT
from django.utils import timezone

from decks.models import DeckVersion
from matches.models import Match, MatchEvent, Seat
from tournaments.models import Registration, Tournament

from . import archetypes, beside, reports
from .catalogue import card_races, list_race
from .figures import primary_race
from .gamelog import seen_in_draws
from .models import (
    Archetype,
    CardBeside,
    CardTally,
    DecklistCard,
    DecklistRace,
    EventReport,
    MatchupTally,
    ProcessedGame,
    SeatResult,
)

TALLIES = (
    CardTally, MatchupTally, SeatResult, ProcessedGame, DecklistCard, DecklistRace, Archetype,
    EventReport, CardBeside,
)  # fmt: skip
SEAT_COLUMNS = (
    "seat", "user_id", "bot", "deck_id", "colony", "match__winner_seat", "match__finished",
    "match__casual", "match__tournament_game",
)  # fmt: skip
# a SeatResult as _figures gives it (attribute names), the SQL of _write's statement
RESULT_COLUMNS = (
    "match_id", "seat", "user_id", "deck_id", "deck_version", "race", "opponent_race", "won",
    "bots", "source", "finished",
)  # fmt: skip
PROCESSED_COLUMNS = ("match", "counted", "processed")
MATCHUP_KEYS, MATCHUP_COUNTERS = ("month", "race", "opponent_race", "bots"), ("games", "wins")
CARD_KEYS, CARD_COUNTERS = ("code", "bots"), CardTally.COUNTERS
# the columns of each insert of _one_statement, in order
WIDTHS = (
    len(PROCESSED_COLUMNS), len(RESULT_COLUMNS), len(MATCHUP_KEYS) + len(MATCHUP_COUNTERS),
    len(CARD_KEYS) + len(CARD_COUNTERS),
)  # fmt: skip


def record_game(match_id: int) -> bool:
    """Add a finished game's figures; False when it is not finished or already counted.

    The ProcessedGame row is inserted first, in the transaction that adds the figures: a
    second run of the same game (at-least-once delivery) fails on its unique key and adds
    nothing; on PostgreSQL a concurrent second run waits for the first's commit, then fails.
    (No savepoint around the insert: its failure must undo the transaction anyway.) The
    figures are computed before it from reads of a finished game, which nothing changes.
    """
    seats = _seats(match_id)
    if not seats:
        return False
    try:
        if len(seats) == 2 and seats[0].match__winner_seat is not None:
            _write(match_id, *_figures(match_id, seats))
        else:
            with transaction.atomic():
                ProcessedGame.objects.create(match_id=match_id, counted=False)
    except IntegrityError:  # counted already: the whole transaction, figures too, undone
        if not ProcessedGame.objects.filter(match_id=match_id).exists():
            raise  # another constraint: the game is not counted, and that must be seen
        return False
    return True


def rebuild() -> int:
    """Every figure again from the stored games and lists, then the archetypes and every
    finished event's report; returns how many games were counted."""
    with transaction.atomic():
        for model in TALLIES:
            model.objects.all().delete()
    for registration in Registration.objects.filter(bot="").iterator():
        record_decklist(registration)
    finished = Match.objects.filter(status=Match.FINISHED).order_by("finished", "pk")
    counted = sum(record_game(pk) for pk in finished.values_list("pk", flat=True).iterator())
    archetypes.refresh()
    beside.refresh_beside()
    for event in Tournament.objects.filter(status=Tournament.FINISHED).order_by("pk"):
        reports.store_event_report(event)
    return counted


def record_decklist(registration: Registration) -> None:
    """Keep a tournament decklist's primary race (a simulation's bot entries count nowhere,
    as bots' games count apart)."""
    if registration.bot:
        DecklistRace.objects.filter(registration=registration).delete()
        return
    race = list_race(registration.cards, card_races(code for code, _n in registration.cards))
    decklist, _new = DecklistRace.objects.update_or_create(
        registration=registration,
        defaults={"tournament_id": registration.tournament_id, "race": race},
    )
    decklist.cards.all().delete()
    DecklistCard.objects.bulk_create(
        DecklistCard(decklist=decklist, code=code, count=count)
        for code, count in registration.cards
    )


def _seats(match_id: int) -> list:
    """The seats of a FINISHED game, in seat order, with the few columns of its match
    read here (R 16: an unfinished game's log holds hidden cards), and its tournament game
    if it is one (a join: an EXISTS annotation cost a worker ~0.3 ms to compile)."""
    rows = Seat.objects.filter(match_id=match_id, match__status=Match.FINISHED).order_by("seat")
    return list(rows.values_list(*SEAT_COLUMNS, named=True))


def _figures(match_id: int, seats: list) -> tuple[list, list, list]:
    """The game's seat results (RESULT_COLUMNS values), and the rows to add to the
    matchup and card tallies ((key values, counter values), see _merged)."""
    races = card_races([code for seat in seats for code in seat.colony])
    primary = [primary_race(Counter(races.get(code, "") for code in s.colony)) for s in seats]
    bots = any(seat.bot for seat in seats)
    first = seats[0]
    tournament = not first.match__casual and first.match__tournament_game is not None
    source = SeatResult.TOURNAMENT if tournament else SeatResult.ONLINE
    seen = seen_in_draws(_draws(match_id))
    finished, winner = first.match__finished, first.match__winner_seat
    month = finished.date().replace(day=1)
    versions = _versions(seats)
    results, matchups, cards = [], [], []
    for seat in seats:
        won = int(winner == seat.seat)
        race, opponent = primary[seat.seat], primary[1 - seat.seat]
        version = versions.get(seat.seat)
        result = (seat.seat, seat.user_id, seat.deck_id, version, race, opponent, bool(won))
        results.append((match_id, *result, bots, source, finished))
        matchups.append(((month, race, opponent, bots), (1, won)))
        cards += _card_rows(seat, seen.get(seat.seat), won, bots)
    return results, matchups, cards


def _write(match_id: int, results: list, matchups: list, cards: list) -> None:
    """The ProcessedGame row first, then the figures, in one transaction: on PostgreSQL
    one statement (its own transaction, or a savepoint in a caller's), on SQLite one
    statement a table."""
    matchups, cards = _merged(matchups, len(MATCHUP_COUNTERS)), _merged(cards, len(CARD_COUNTERS))
    if connection.vendor == "postgresql":
        tables = ([(match_id, True, timezone.now())], results, matchups, cards)
        params = [c for rows, n in zip(tables, WIDTHS, strict=True) for c in _columns(rows, n)]
        with _atomic_unless_alone(), connection.cursor() as cursor:
            cursor.execute(_one_statement(), params)
        return
    with transaction.atomic():
        ProcessedGame.objects.create(match_id=match_id, counted=True)
        SeatResult.objects.bulk_create(
            SeatResult(**dict(zip(RESULT_COLUMNS, row, strict=True))) for row in results
        )
        _add(MatchupTally, MATCHUP_KEYS, MATCHUP_COUNTERS, matchups)
        _add(CardTally, CARD_KEYS, CARD_COUNTERS, cards)


def _card_rows(seat, seen, won: int, bots: bool) -> list:
    drawn = seen.drawn if seen else set()
    opening = seen.opening if seen else set()
    rows = []
    for code in sorted(set(seat.colony)):
        was_drawn, was_opening = int(code in drawn), int(code in opening)
        counts = (1, won, was_drawn, was_drawn * won, was_opening, was_opening * won)
        rows.append(((code, bots), counts))
    return rows


def _draws(match_id: int) -> list[tuple]:
    """(owner, code, why) of each card the game moved from a colony to a centre, in log
    order (gamelog.seen_in_draws): four keys as text, so no event is decoded whole."""
    rows = MatchEvent.objects.filter(
        match_id=match_id, data__kind="move", data__data__to="centre", data__data__from="colony"
    ).order_by("seq")
    keys = ("data__data__card__owner", "data__data__card__code", "data__secret__code")
    read = rows.values_list(*(KT(key) for key in keys), KT("data__data__why"))
    # seen_cards' reading of an event: the card's own code, else the secret one
    return [
        (int(owner), code or secret, why)
        for owner, code, secret, why in read
        if owner is not None and (code or secret) is not None
    ]


def _versions(seats: list) -> dict[int, int]:
    """seat -> the number of its deck's version whose cards the game's colony is (the
    newest such version); a seat without a deck, or whose colony no version is, has none."""
    decks = {seat.deck_id for seat in seats if seat.deck_id is not None}
    if not decks:
        return {}
    versions = DeckVersion.objects.filter(deck_id__in=decks).order_by("-number")
    listed = list(versions.values_list("deck_id", "number", "cards"))
    found = {}
    for seat in seats:
        cards = sorted([code, count] for code, count in Counter(seat.colony).items())
        for deck_id, number, version_cards in listed:
            if deck_id == seat.deck_id and sorted(map(list, version_cards)) == cards:
                found[seat.seat] = number
                break
    return found


def _merged(rows: list, counters: int) -> list[tuple]:
    """`rows` ((key values, counter values)) one a key, their counters summed (ON CONFLICT
    may not touch a row twice), as (*key, *counters), in key order: concurrent games lock
    the tallies' rows they share in the same order, so one waits for the other instead of
    both deadlocking."""
    merged: dict[tuple, list[int]] = {}
    for key, counts in rows:
        total = merged.setdefault(key, [0] * counters)
        for i, count in enumerate(counts):
            total[i] += count
    return [(*key, *counts) for key, counts in sorted(merged.items())]


def _add(model, keys: tuple[str, ...], counters: tuple[str, ...], values: list) -> None:
    """SQLite: add `values` (_merged) to `model`'s counters in one statement."""
    if not values:
        return
    fields = [model._meta.get_field(name) for name in (*keys, *counters)]
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    params = [
        field.get_db_prep_value(value, connection)
        for line in values
        for field, value in zip(fields, line, strict=True)
    ]
    sql = _upsert_sql(model, keys, counters, "VALUES " + ", ".join([row] * len(values)))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


@functools.cache
def _one_statement() -> str:
    """PostgreSQL: a counted game's rows as one statement, its inserts data-modifying CTEs
    of arrays a column (unnest): the same text for every game (built once), which psycopg
    splits once, where a row of placeholders a card cost ~1 ms of a worker's CPU a game to
    split (bench/RESULTS.md). Each insert is gated on the row the ProcessedGame insert
    returns, so that insert runs first: the second run of a game fails on its key (after
    waiting for the first's commit) before it locks a tally row, and adds nothing."""
    gate = " WHERE EXISTS (SELECT FROM processed)"
    processed = _insert_sql(
        ProcessedGame, PROCESSED_COLUMNS, _arrays(ProcessedGame, PROCESSED_COLUMNS)
    )
    seats = _insert_sql(SeatResult, RESULT_COLUMNS, _arrays(SeatResult, RESULT_COLUMNS) + gate)
    tallies = [
        _upsert_sql(model, keys, counters, _arrays(model, (*keys, *counters)) + gate)
        for model, keys, counters in (
            (MatchupTally, MATCHUP_KEYS, MATCHUP_COUNTERS),
            (CardTally, CARD_KEYS, CARD_COUNTERS),
        )
    ]
    return (
        f"WITH processed AS ({processed} RETURNING 1), seats AS ({seats}), "
        f"matchups AS ({tallies[0]}) {tallies[1]}"
    )


def _columns(rows: list[tuple], width: int) -> list[list]:
    """The rows as one list a column (the arrays of _one_statement), empty ones too."""
    return [[row[i] for row in rows] for i in range(width)]


def _arrays(model, names: tuple[str, ...]) -> str:
    types = [model._meta.get_field(name).db_type(connection) for name in names]
    # the columns' types from the model's metadata; every value is a parameter
    return "SELECT * FROM unnest(" + ", ".join(f"%s::{kind}[]" for kind in types) + ")"  # nosec B608


def _insert_sql(model, names: tuple[str, ...], source: str) -> str:
    quote = connection.ops.quote_name
    columns = ", ".join(quote(model._meta.get_field(name).column) for name in names)
    # names from the model's metadata, quoted; every value is a parameter
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) {source}"  # nosec B608


def _upsert_sql(model, keys: tuple[str, ...], counters: tuple[str, ...], source: str) -> str:
    """An insert whose conflict on the key adds to the row there (SQLite and PostgreSQL
    speak the same ON CONFLICT), so no read-modify-write race between workers."""
    quote, table = connection.ops.quote_name, connection.ops.quote_name(model._meta.db_table)
    keyed = ", ".join(quote(model._meta.get_field(name).column) for name in keys)
    columns = [quote(model._meta.get_field(name).column) for name in counters]
    updates = ", ".join(f"{c} = {table}.{c} + excluded.{c}" for c in columns)
    insert = _insert_sql(model, (*keys, *counters), source)
    return f"{insert} ON CONFLICT ({keyed}) DO UPDATE SET {updates}"  # nosec B608 (names only)


def _atomic_unless_alone():
    """Nothing around one statement in autocommit: a transaction of its own (a BEGIN and
    a COMMIT less); in a caller's transaction (a test's), a savepoint, so a game counted
    already does not break it."""
    return nullcontext() if connection.get_autocommit() else transaction.atomic()
