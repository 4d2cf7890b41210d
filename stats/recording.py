"""A finished game's figures, added once (the task `stats.tasks.record_game`), and the
rebuild of every figure from the stored games (`manage.py rebuild_stats`).

Only FINISHED games are read: an unfinished game's log holds its hidden cards (R 16), and
an aborted game or one waiting for a judge has no result yet. Figures come from two-player
games with a winner; a multiplayer table (R 17) or a game without a winner is marked
processed and counted nowhere (docs/stats.md says why).
"""

from collections import Counter
from collections.abc import Iterable

from django.db import IntegrityError, connection, transaction

from cards_data.models import Card
from decks.models import DeckVersion
from matches.models import Match, MatchEvent
from tournaments.models import OnlineGame, Registration

from .figures import primary_race
from .gamelog import seen_cards
from .models import CardTally, DecklistRace, MatchupTally, ProcessedGame, SeatResult

TALLIES = (CardTally, MatchupTally, SeatResult, ProcessedGame, DecklistRace)


def record_game(match_id: int) -> bool:
    """Add a finished game's figures; False when it is not finished or already counted.

    The ProcessedGame row is inserted first, in the transaction that adds the figures: a
    second run of the same game (at-least-once delivery) fails on its unique key and adds
    nothing; on PostgreSQL a concurrent second run waits for the first's commit, then fails.
    """
    match = Match.objects.filter(pk=match_id, status=Match.FINISHED).first()
    if match is None:
        return False
    seats = list(match.seats.order_by("seat"))
    countable = len(seats) == 2 and match.winner_seat is not None
    with transaction.atomic():
        try:
            with transaction.atomic():
                ProcessedGame.objects.create(match=match, counted=countable)
        except IntegrityError:
            return False
        if countable:
            _add_figures(match, seats)
    return True


def rebuild() -> int:
    """Every figure again from the stored games; returns how many games were counted."""
    with transaction.atomic():
        for model in TALLIES:
            model.objects.all().delete()
    for registration in Registration.objects.filter(bot="").iterator():
        record_decklist(registration)
    finished = Match.objects.filter(status=Match.FINISHED).order_by("finished", "pk")
    return sum(record_game(pk) for pk in finished.values_list("pk", flat=True).iterator())


def record_decklist(registration: Registration) -> None:
    """Keep a tournament decklist's primary race (a simulation's bot entries count nowhere,
    as bots' games count apart)."""
    if registration.bot:
        DecklistRace.objects.filter(registration=registration).delete()
        return
    races = _races(code for code, _count in registration.cards)
    copies = Counter()
    for code, count in registration.cards:
        copies[races.get(code, "")] += count
    DecklistRace.objects.update_or_create(
        registration=registration,
        defaults={"tournament_id": registration.tournament_id, "race": primary_race(copies)},
    )


def _add_figures(match: Match, seats: list) -> None:
    races = _races([code for seat in seats for code in seat.colony])
    primary = [primary_race(Counter(races.get(code, "") for code in s.colony)) for s in seats]
    bots = any(seat.bot for seat in seats)
    source = SeatResult.TOURNAMENT if _in_tournament(match) else SeatResult.ONLINE
    seen = seen_cards(_moves(match))
    month = match.finished.date().replace(day=1)
    results, matchups, cards = [], [], []
    for seat in seats:
        won = int(match.winner_seat == seat.seat)
        race, opponent = primary[seat.seat], primary[1 - seat.seat]
        results.append(_seat_result(match, seat, race, opponent, won, bots, source))
        matchups.append(((month, race, opponent, bots), (1, won)))
        cards += _card_rows(seat, seen.get(seat.seat), won, bots)
    SeatResult.objects.bulk_create(results)
    _add(MatchupTally, ("month", "race", "opponent_race", "bots"), ("games", "wins"), matchups)
    _add(CardTally, ("code", "bots"), CardTally.COUNTERS, cards)


def _seat_result(match, seat, race, opponent, won, bots, source) -> SeatResult:
    return SeatResult(
        match=match,
        seat=seat.seat,
        user_id=seat.user_id,
        deck_id=seat.deck_id,
        deck_version=_version(seat.deck_id, seat.colony),
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


def _races(codes: Iterable[str]) -> dict[str, str]:
    return dict(Card.objects.filter(code__in=set(codes)).values_list("code", "race"))


def _in_tournament(match: Match) -> bool:
    return not match.casual and OnlineGame.objects.filter(game=match).exists()


def _moves(match: Match) -> list[dict]:
    """The game's "move" events in log order (the only kind seen_cards reads)."""
    rows = MatchEvent.objects.filter(match=match, data__kind="move").order_by("seq")
    return list(rows.values_list("data", flat=True))


def _version(deck_id: int | None, colony: list[str]) -> int | None:
    """The number of the deck's version whose cards the game's colony is (newest first)."""
    if deck_id is None:
        return None
    cards = sorted([code, count] for code, count in Counter(colony).items())
    versions = DeckVersion.objects.filter(deck_id=deck_id).order_by("-number")
    for number, listed in versions.values_list("number", "cards"):
        if sorted(map(list, listed)) == cards:
            return number
    return None


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
    key_columns = columns[: len(keys)]
    values = ", ".join(["(" + ", ".join(["%s"] * len(columns)) + ")"] * len(merged))
    updates = ", ".join(f"{c} = {table}.{c} + excluded.{c}" for c in columns[len(keys) :])
    sql = (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES {values} "
        f"ON CONFLICT ({', '.join(key_columns)}) DO UPDATE SET {updates}"
    )
    params = [
        field.get_db_prep_value(value, connection)
        for key, counts in merged.items()
        for field, value in zip(fields, (*key, *counts), strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
