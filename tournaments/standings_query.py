"""The standings of an event read from its database rows (R 18.7), and the SQL that reads
them: the one place the tournaments app turns stored results into `standings.py`'s columns.
"""

from __future__ import annotations

from itertools import compress

from django.contrib.postgres.aggregates import ArrayAgg
from django.db import connection
from django.db.models import BooleanField, ExpressionWrapper, Q

# The collector off while standings or a pairing are made: they allocate hundreds of thousands
# of lists and tuples that live until the work is done, and the collections they set off were
# half the CPU of pairing 16,384 players (bench/RESULTS.md, issue 14). One home: the engine's.
from engine.collector import collector_paused

from . import standings as standings_mod
from .models import Round, TableSet, Tournament


def current_standings(t: Tournament) -> list[standings_mod.Row]:
    """R 18.7 standings from every confirmed Swiss result (byes count 2-0).

    One rule for every missed round, whatever the path (late entry, re-activation):
    an active player who was not seated in a published round gets a match loss, 0-2,
    without an opponent (MTR practice; standings.py `SetRecord.missed_round`): it counts
    for their points, MW% and GW%, not for OMW%/OGW%. A dropped player's rounds after
    their drop are not losses (they left). With the event's `late_entry_losses` off,
    only the rounds played count (rulings.md). Three queries, linear in the matches.
    """
    with collector_paused():
        return standings_table(t).rows()


def standings_table(t: Tournament) -> standings_mod.Table:
    """`current_standings` in integer form (`standings.tabulate_columns`): the pairing
    takes its records from it without making a `Row` per player. Three queries whatever
    the number of rounds: the registrations, the published rounds, and their matches.
    On PostgreSQL the matches come as one row per round holding one array per column
    (`array_agg`): no Python object per match but the integers themselves, and no
    cursor round trips (bench/RESULTS.md, issue 14); elsewhere as plain tuples."""
    regs = list(t.registrations.values_list("pk", "dropped", "dropped_after_round"))
    rounds = dict(t.rounds.filter(status=Round.PUBLISHED).values_list("pk", "number"))
    matches = TableSet.objects.filter(round_id__in=list(rounds), stage="swiss").order_by()
    fields = ("player_a_id", "player_b_id", "games_a", "games_b")
    if connection.vendor == "postgresql":
        confirmed = ExpressionWrapper(Q(status=TableSet.CONFIRMED), output_field=BooleanField())
        blocks = list(
            matches.values("round_id")
            .annotate(**{f"{f}s": ArrayAgg(f) for f in fields}, ok=ArrayAgg(confirmed))
            .values_list("round_id", *(f"{f}s" for f in fields), "ok")
        )
    else:
        by_round: dict[int, list] = {}
        for round_id, *row in matches.values_list("round_id", *fields, "status"):
            by_round.setdefault(round_id, []).append(row)
        blocks = []
        for round_id, rows in by_round.items():
            a, b, games_a, games_b, status = zip(*rows, strict=True)
            blocks.append(
                (round_id, a, b, games_a, games_b, [x == TableSet.CONFIRMED for x in status])
            )
    return standings_mod.tabulate_columns(
        [pk for pk, _dropped, _after in regs],
        *_result_columns(t, regs, rounds, blocks),
        dropped=[dropped for _pk, dropped, _after in regs],
    )


def _result_columns(t: Tournament, regs, rounds: dict, blocks) -> tuple[list, ...]:
    """The results for `standings.tabulate_columns`: six columns (round, a, b, games_a,
    games_b, missed), from one block a round (round id, then the round's matches as
    columns a, b, games_a, games_b and whether each is confirmed). Only confirmed matches
    are results; with `late_entry_losses`, every active player seated in none of a
    published round's matches missed it (a dropped player, only up to their drop)."""
    number_of, a_col, b_col, ga_col, gb_col = [], [], [], [], []
    late = t.late_entry_losses
    seated: dict[int, set] = {}  # players seated (any status), per round id
    for round_id, a, b, games_a, games_b, ok in blocks:
        if late:
            seated[round_id] = seats = set(a)
            seats.update(b)
        if not all(ok):
            a, b, games_a, games_b = (list(compress(x, ok)) for x in (a, b, games_a, games_b))
        number_of += [rounds[round_id]] * len(a)
        a_col += a
        b_col += b
        ga_col += games_a
        gb_col += games_b
    missed = [False] * len(a_col)
    if late:
        every = {pk for pk, _dropped, _after in regs}
        left = {pk: after or 0 for pk, dropped, after in regs if dropped}
        for round_id, number in sorted(rounds.items(), key=lambda item: item[1]):
            for pk in sorted(every - seated.get(round_id, set())):
                if pk in left and number > left[pk]:
                    continue  # not a loss: they had left
                number_of.append(number)
                a_col.append(pk)
                b_col.append(None)
                ga_col.append(None)
                gb_col.append(None)
                missed.append(True)
    return number_of, a_col, b_col, ga_col, gb_col, missed
