"""A finished game's figures, added once (the task `stats.tasks.record_game`), and the
rebuild of every figure from the stored games (`manage.py rebuild_stats`).

Only FINISHED games are read: an unfinished game's log holds its hidden cards (R 16), and
an aborted game or one waiting for a judge has no result yet. Figures come from two-player
games with a winner; a multiplayer table (R 17) or a game without a winner is marked
processed and counted nowhere (docs/stats.md says why).
"""

from collections import Counter

from django.db import IntegrityError, connection, transaction

from decks.models import DeckVersion
from matches.models import Match, MatchEvent, Seat
from tournaments.models import OnlineGame, Registration, Tournament

from . import archetypes, beside, reports
from .catalogue import card_races, list_race
from .figures import primary_race
from .gamelog import seen_cards
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


def record_game(match_id: int) -> bool:
    """Add a finished game's figures; False when it is not finished or already counted.

    The ProcessedGame row is inserted first, in the transaction that adds the figures: a
    second run of the same game (at-least-once delivery) fails on its unique key and adds
    nothing; on PostgreSQL a concurrent second run waits for the first's commit, then fails.
    (No savepoint around the insert: its failure must undo the transaction anyway.)
    """
    seats = list(
        Seat.objects.filter(match_id=match_id, match__status=Match.FINISHED)
        .select_related("match")
        .defer("match__snapshot", "match__legal_ids", "match__engine_options")  # not read here
        .order_by("seat")
    )
    if not seats:
        return False
    match = seats[0].match
    countable = len(seats) == 2 and match.winner_seat is not None
    try:
        with transaction.atomic():
            ProcessedGame.objects.create(match=match, counted=countable)
            if countable:
                _add_figures(match, seats)
    except IntegrityError:  # counted already: the whole transaction, figures too, undone
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


def _add_figures(match: Match, seats: list) -> None:
    races = card_races([code for seat in seats for code in seat.colony])
    primary = [primary_race(Counter(races.get(code, "") for code in s.colony)) for s in seats]
    bots = any(seat.bot for seat in seats)
    source = SeatResult.TOURNAMENT if _in_tournament(match) else SeatResult.ONLINE
    seen = seen_cards(_moves(match))
    month = match.finished.date().replace(day=1)
    versions = _versions(seats)
    results, matchups, cards = [], [], []
    for seat in seats:
        won = int(match.winner_seat == seat.seat)
        race, opponent = primary[seat.seat], primary[1 - seat.seat]
        version = versions.get(seat.seat)
        results.append(_seat_result(match, seat, version, race, opponent, won, bots, source))
        matchups.append(((month, race, opponent, bots), (1, won)))
        cards += _card_rows(seat, seen.get(seat.seat), won, bots)
    SeatResult.objects.bulk_create(results)
    _add(MatchupTally, ("month", "race", "opponent_race", "bots"), ("games", "wins"), matchups)
    _add(CardTally, ("code", "bots"), CardTally.COUNTERS, cards)


def _seat_result(match, seat, version, race, opponent, won, bots, source) -> SeatResult:
    return SeatResult(
        match=match,
        seat=seat.seat,
        user_id=seat.user_id,
        deck_id=seat.deck_id,
        deck_version=version,
        race=race,
        opponent_race=opponent,
        won=bool(won),
        bots=bots,
        source=source,
        finished=match.finished,
    )


def _card_rows(seat, seen, won: int, bots: bool) -> list:
    drawn = seen.drawn if seen else set()
    opening = seen.opening if seen else set()
    rows = []
    for code in sorted(set(seat.colony)):
        was_drawn, was_opening = int(code in drawn), int(code in opening)
        counts = (1, won, was_drawn, was_drawn * won, was_opening, was_opening * won)
        rows.append(((code, bots), counts))
    return rows


def _in_tournament(match: Match) -> bool:
    return not match.casual and OnlineGame.objects.filter(game=match).exists()


def _moves(match: Match) -> list[dict]:
    """The game's "move" events in log order (the only kind seen_cards reads)."""
    # only the moves from a colony to a centre: the rest of the log is never decoded
    rows = MatchEvent.objects.filter(
        match=match, data__kind="move", data__data__to="centre", data__data__from="colony"
    ).order_by("seq")
    return list(rows.values_list("data", flat=True))


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


def _add(model, keys: tuple[str, ...], counters: tuple[str, ...], rows: list) -> None:
    """Add `rows` ((key values, counter values)) to `model`'s counters in one statement:
    an insert whose conflict on the key adds to the row there (SQLite and PostgreSQL
    speak the same ON CONFLICT), so no read-modify-write race between workers."""
    if not rows:
        return
    merged: dict[tuple, list[int]] = {}
    for key, counts in rows:  # one row per key: ON CONFLICT may not touch a row twice
        total = merged.setdefault(key, [0] * len(counters))
        for i, count in enumerate(counts):
            total[i] += count
    table = connection.ops.quote_name(model._meta.db_table)
    fields = [model._meta.get_field(name) for name in (*keys, *counters)]
    columns = [connection.ops.quote_name(f.column) for f in fields]
    values = [(*key, *counts) for key, counts in merged.items()]
    source, params = _rows_source(fields, values)
    updates = ", ".join(f"{c} = {table}.{c} + excluded.{c}" for c in columns[len(keys) :])
    # names from the model's metadata, quoted; every value is a parameter
    sql = (
        f"INSERT INTO {table} ({', '.join(columns)}) {source} "  # nosec B608
        f"ON CONFLICT ({', '.join(columns[: len(keys)])}) DO UPDATE SET {updates}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _rows_source(fields: list, values: list[tuple]) -> tuple[str, list]:
    """The rows to insert as SQL and its parameters. On PostgreSQL one array a column
    (unnest): the same text for every game, which psycopg splits once, where a row of
    placeholders a card cost ~1 ms of a worker's CPU a game to split (bench/RESULTS.md)."""
    if connection.vendor == "postgresql":
        arrays = ", ".join(f"%s::{field.db_type(connection)}[]" for field in fields)
        return f"SELECT * FROM unnest({arrays})", [list(c) for c in zip(*values, strict=True)]  # nosec B608
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    params = [
        field.get_db_prep_value(value, connection)
        for line in values
        for field, value in zip(fields, line, strict=True)
    ]
    return "VALUES " + ", ".join([row] * len(values)), params
