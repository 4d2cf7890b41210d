"""Issue 14: the standings in integer form (`standings.tabulate`) give exactly what the
Fraction-per-player standings gave (R 18.7, MTR Appendix C), and their work is linear in
the matches played.

`reference_standings.py` is the standings module of main at 8c20b83, unchanged: every
row's numbers, order, ties, opponents and explain texts are compared with it on random
histories (byes, missed rounds of late entrants, drops, rematches, best-of-one and
best-of-three, integer and text ids) and on larger Swiss-like ones.
"""

import random

import pytest
import reference_standings as ref
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import standings as new


def run(module, players, history, **kw):
    """`module.standings` on a history of ("m", round, a, b, ga, gb) / ("bye", round, a)
    / ("miss", round, a) with `players` as (id, dropped)."""
    entrants = [module.Entrant(pid, dropped) for pid, dropped in players]
    matches = []
    for kind, rnd, a, *rest in history:
        if kind == "bye":
            matches.append(module.SetRecord.bye(rnd, a))
        elif kind == "miss":
            matches.append(module.SetRecord.missed_round(rnd, a))
        else:
            matches.append(module.SetRecord(rnd, a, *rest))
    return module.standings(entrants, matches, **kw)


def flat(row):
    return (
        row.rank,
        row.id,
        row.points,
        row.wins,
        row.losses,
        row.byes,
        row.game_wins,
        row.game_losses,
        row.mwp,
        row.omw,
        row.gwp,
        row.ogw,
        row.opponents,
        row.dropped,
        row.missed,
        row.tied,
        dict(row.explain),
        row.explain_text,
    )


def assert_same(players, history, **kw):
    got = run(new, players, history, **kw)
    want = run(ref, players, history, **kw)
    assert [flat(r) for r in got] == [flat(r) for r in want]
    assert new.player_records(got) == ref.player_records(want)
    entrants = [new.Entrant(pid, dropped) for pid, dropped in players]
    table = new.tabulate(entrants, [_raw(h) for h in history], **kw)
    assert table.records() == new.player_records(got)
    # The service's path: bare ids with their dropped flags, the results as columns.
    columns = list(zip(*[_raw(h) for h in history], strict=True)) or [()] * 6
    ids, flags = [pid for pid, _ in players], [dropped for _, dropped in players]
    by_columns = new.tabulate_columns(ids, *columns, dropped=flags, **kw)
    assert [flat(r) for r in by_columns.rows()] == [flat(r) for r in want]
    assert by_columns.records() == table.records()
    return got


def _raw(h):
    kind, rnd, a, *rest = h
    if kind == "bye":
        return (rnd, a, None, 2, 0, False)
    if kind == "miss":
        return (rnd, a, None, 0, 2, True)
    return (rnd, a, *rest, False)


@st.composite
def histories(draw):
    n = draw(st.integers(1, 12))
    kind = draw(st.sampled_from(["int", "str", "mixed"]))
    ids = [
        i if kind == "int" or (kind == "mixed" and i % 2) else f"p{i}"
        for i in draw(st.permutations(range(n)))
    ]
    scores = draw(
        st.sampled_from(
            [[(1, 0), (0, 1)], [(2, 0), (2, 1), (1, 2), (0, 2)], [(2, 0), (0, 2), (1, 0), (0, 3)]]
        )
    )
    history, dropped = [], set()
    rounds = draw(st.integers(0, 6))
    first = {i: draw(st.integers(1, max(rounds, 1))) if draw(st.booleans()) else 1 for i in ids}
    for rnd in draw(st.permutations(range(1, rounds + 1))):  # results in any order
        for i in ids:
            if rnd < first[i]:
                history.append(("miss", rnd, i))
        pool = draw(st.permutations([i for i in ids if i not in dropped and first[i] <= rnd]))
        if len(pool) % 2:
            history.append(("bye", rnd, pool.pop()))
        for a, b in zip(pool[::2], pool[1::2], strict=True):  # rematches happen
            history.append(("m", rnd, a, b, *draw(st.sampled_from(scores))))
        if ids and draw(st.booleans()):
            dropped.add(draw(st.sampled_from(ids)))
    players = [(i, i in dropped) for i in ids]
    return players, draw(st.permutations(history))


@settings(max_examples=400, deadline=None)
@given(histories(), st.sampled_from([(2, 0), (1, 0)]))
def test_same_rows_as_the_reference_on_random_histories(event, bye_games):
    players, history = event
    assert_same(players, history, bye_games=bye_games)


def swiss_like(seed, n, rounds, best_of=3):
    """A Swiss-like event: each round pairs neighbours in the standings (so score groups
    and ties are realistic), with late entrants, drops and byes."""
    rng = random.Random(seed)
    ids = list(range(1, n + 1))
    rng.shuffle(ids)
    first = {i: (rng.randrange(2, 4) if rng.random() < 0.03 else 1) for i in ids}
    points = dict.fromkeys(ids, 0)
    dropped, history = set(), []
    scores = [(2, 0), (2, 1), (1, 2), (0, 2)] if best_of == 3 else [(1, 0), (0, 1)]
    for rnd in range(1, rounds + 1):
        for i in ids:
            if rnd < first[i]:
                history.append(("miss", rnd, i))
        pool = sorted(
            (i for i in ids if i not in dropped and first[i] <= rnd),
            key=lambda i: (-points[i], rng.random()),
        )
        if len(pool) % 2:
            bye = pool.pop()
            history.append(("bye", rnd, bye))
            points[bye] += 3
        for a, b in zip(pool[::2], pool[1::2], strict=True):
            ga, gb = rng.choice(scores)
            history.append(("m", rnd, a, b, ga, gb))
            points[a if ga > gb else b] += 3
        for i in ids:
            if rng.random() < (0.05 if points[i] < 3 * rnd / 2 else 0.005):
                dropped.add(i)
    return [(i, i in dropped) for i in ids], history


@pytest.mark.parametrize(
    "seed, n, rounds, best_of",
    [(1, 64, 6, 3), (2, 301, 9, 3), (3, 300, 9, 1), (4, 1000, 10, 1), (5, 17, 8, 1)],
)
def test_same_rows_as_the_reference_on_swiss_like_events(seed, n, rounds, best_of):
    rows = assert_same(*swiss_like(seed, n, rounds, best_of))
    assert any(r.tied for r in rows) or n < 100  # the large events do have full ties


@pytest.mark.parametrize(
    "result, message",
    [
        ((1, "a", "b", 1, 1, False), "no draws"),
        ((1, "a", "a", 2, 0, False), "cannot play themselves"),
        ((1, "a", "b", -1, 2, False), "negative game count"),
        ((1, "a", "b", 2, 0, True), "missed round has no opponent"),
        ((1, "a", "z", 2, 0, False), "unknown player"),
        ((1, "z", None, 2, 0, False), "unknown player"),
    ],
)
def test_raw_results_are_checked_as_matches_are(result, message):
    """tabulate() reads plain tuples (the service's path): the checks of SetRecord and
    standings() still apply, draws included (R 18.4)."""
    with pytest.raises(ValueError, match=message):
        new.tabulate("ab", [result])
    with pytest.raises(ValueError, match="two results"):
        new.tabulate("ab", [(1, "a", "b", 2, 0, False), (1, "b", None, 0, 2, True)])


@pytest.mark.parametrize(
    "results, message",
    [
        (
            [(1, "a", "b", 1, 0, False), (2, "a", "z", 1, 0, False), (3, "a", "b", 1, 1, False)],
            "unknown",
        ),
        (
            [(3, "a", "b", 1, 1, False), (2, "a", "z", 1, 0, False), (1, "a", "b", 1, 0, False)],
            "no draws",
        ),
        (
            [(1, "b", "a", 0, 1, False), (2, "z", None, 2, 0, False), (2, "a", "a", 1, 0, False)],
            "unknown",
        ),
        ([(2, "a", "b", -1, 1, False), (1, "a", "b", 1, 1, False)], "negative"),
        (
            [(1, "a", "b", 1, 0, False), (2, "a", "b", 0, 1, False), (1, "b", None, 2, 0, False)],
            "round 1: 'b' has two",
        ),
    ],
)
def test_the_first_bad_result_is_the_one_reported(results, message):
    """tabulate checks whole columns at once; the error is still the one of the first bad
    result in the order given, as the row-by-row reading (and `standings()`) reported it."""
    with pytest.raises(ValueError, match=message):
        new.tabulate("ab", results)
    with pytest.raises(ValueError, match=message):
        new.tabulate_columns(list("ab"), *zip(*results, strict=True), dropped=[False, False])


class CountedId:
    """A player id that counts every hash, comparison and str() made of it."""

    calls = 0
    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v

    def __hash__(self):
        CountedId.calls += 1
        return hash(self.v)

    def __eq__(self, other):
        CountedId.calls += 1
        return isinstance(other, CountedId) and self.v == other.v

    def __ne__(self, other):
        return not self == other

    def __str__(self):
        CountedId.calls += 1
        return f"p{self.v:06d}"

    __repr__ = __str__


def work(n, rounds):
    """(operations on player ids, results read, results) for standings of n players
    after `rounds` Swiss-like rounds, rows and records made (texts not read)."""
    players, history = swiss_like(7, n, rounds, best_of=1)
    ids = {pid: CountedId(pid) for pid, _ in players}
    entrants = [new.Entrant(ids[pid], dropped) for pid, dropped in players]
    results = []
    for kind, rnd, a, *rest in history:
        if kind == "m":
            b, ga, gb = rest
            results.append((rnd, ids[a], ids[b], ga, gb, False))
        else:
            results.append(_raw((kind, rnd, ids[a])))
    read = 0

    def counted():
        nonlocal read
        for r in results:
            read += 1
            yield r

    CountedId.calls = 0
    table = new.tabulate(entrants, counted())
    table.records()
    table.rows()
    return CountedId.calls, read, len(results)


def test_the_work_is_linear_in_the_matches():
    """Every result is read once, and the operations on player ids are at most 3 per
    player plus 5 per result, from 64 to 2,048 players and 0 to 11 rounds (measured:
    3 per player, about 4.5 per result). Before round 1 everyone is tied: the old
    standings named every tied player in every row of that group, n² comparisons."""
    for n, rounds in [(64, 0), (64, 4), (64, 8), (512, 0), (512, 8), (2048, 0), (2048, 11)]:
        calls, read, results = work(n, rounds)
        assert read == results
        assert calls <= 3 * n + 5 * results, (n, rounds, calls, results)
