"""Standings and tiebreakers (R 18.7, MTR Appendix C), against hand-computed tables."""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings import (
    FLOOR,
    Entrant,
    SetRecord,
    player_records,
    standings,
)
from tournaments.swiss import pair_round

# Event 1: five players, best-of-three, three rounds; E has the round-1 bye,
# D loses round 1 and drops.
#   R1  A-B 2-0   C-D 2-1   E bye (2-0)
#   R2  A-E 2-1   C-B 0-2
#   R3  A-C 2-0   E-B 2-1
EVENT1_PLAYERS = [
    Entrant("A"),
    Entrant("B"),
    Entrant("C"),
    Entrant("D", dropped=True),
    Entrant("E"),
]
EVENT1 = [
    SetRecord(1, "A", "B", 2, 0),
    SetRecord(1, "C", "D", 2, 1),
    SetRecord.bye(1, "E"),
    SetRecord(2, "A", "E", 2, 1),
    SetRecord(2, "C", "B", 0, 2),
    SetRecord(3, "A", "C", 2, 0),
    SetRecord(3, "E", "B", 2, 1),
]

# Computed by hand (each figure below is worked out in the comment):
#   match-win %:  A 9/9 = 1, B 3/9 = 1/3, C 3/9 = 1/3, D 0/3 -> 0.33, E 6/9 = 2/3
#   game-win %:   A 6/7, B 3/7, C 2/7 = 0.286 -> 0.33, D 1/3, E 5/8 (bye = 2-0)
#   OMW% A = (B 1/3 + E 2/3 + C 1/3) / 3 = 4/9
#        B = (A 1 + C 1/3 + E 2/3) / 3 = 2/3
#        C = (D 0.33 + B 1/3 + A 1) / 3 = (99 + 100 + 300)/300 / 3 = 499/900
#        D = C 1/3
#        E = (A 1 + B 1/3) / 2 = 2/3          (the bye is not an opponent)
#   OGW% A = (B 3/7 + E 5/8 + C 0.33) / 3 = (600 + 875 + 462)/1400 / 3 = 1937/4200
#        B = (A 6/7 + C 0.33 + E 5/8) / 3 = (1200 + 462 + 875)/1400 / 3 = 2537/4200
#        C = (D 1/3 + B 3/7 + A 6/7) / 3 = (7 + 9 + 18)/21 / 3 = 34/63
#        D = C 0.33
#        E = (A 6/7 + B 3/7) / 2 = 9/14
#   order: A 9, E 6, B 3 (OMW 0.667) above C 3 (OMW 0.554), D 0 (dropped, still listed)
EVENT1_TABLE = [
    # id, pts, W, L, byes, GW, GL, MW%, OMW%, GW%, OGW%
    ("A", 9, 3, 0, 0, 6, 1, F(1), F(4, 9), F(6, 7), F(1937, 4200)),
    ("E", 6, 2, 1, 1, 5, 3, F(2, 3), F(2, 3), F(5, 8), F(9, 14)),
    ("B", 3, 1, 2, 0, 3, 4, F(1, 3), F(2, 3), F(3, 7), F(2537, 4200)),
    ("C", 3, 1, 2, 0, 2, 5, F(1, 3), F(499, 900), FLOOR, F(34, 63)),
    ("D", 0, 0, 1, 0, 1, 2, FLOOR, F(1, 3), F(1, 3), FLOOR),
]


def test_hand_computed_table_with_bye_and_drop():
    rows = standings(EVENT1_PLAYERS, EVENT1)
    got = [
        (r.id, r.points, r.wins, r.losses, r.byes, r.game_wins, r.game_losses)
        + (r.mwp, r.omw, r.gwp, r.ogw)
        for r in rows
    ]
    assert got == EVENT1_TABLE
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5]
    assert [r.dropped for r in rows] == [False, False, False, False, True]
    assert not any(r.tied for r in rows)
    by_id = {r.id: r for r in rows}
    assert by_id["E"].opponents == ("A", "B")  # the bye is not an opponent
    assert by_id["C"].opponents == ("D", "B", "A")  # round order


def test_explain_shows_each_computation():
    by_id = {r.id: r for r in standings(EVENT1_PLAYERS, EVENT1)}
    c = by_id["C"].explain
    assert c["points"] == "3 x 1 match wins = 3"
    assert c["MW%"] == "3 / (3 x 3 rounds) = 1/3 = 0.3333"
    assert c["GW%"].endswith("= 2/7 = 0.2857, below 0.33, so 0.33")
    assert c["OMW%"].startswith("mean(D dropped 0.3300*, B 0.3333, A 1.0000) = 499/900 = 0.5544")
    assert "floor" in c["OMW%"]
    e = by_id["E"].explain
    assert "1 of them by bye" in e["points"]
    assert "byes counted 2-0" in e["GW%"]
    assert e["OMW%"] == "mean(A 1.0000, B 0.3333) = 2/3 = 0.6667; 1 bye round(s) left out"
    d = by_id["D"].explain
    assert d["MW%"] == "0 / (3 x 1 rounds) = 0 = 0.0000, below 0.33, so 0.33"
    assert "OMW%" in by_id["A"].explain_text


def test_mtr_appendix_c_match_win_examples():
    """MTR Appendix C's examples (no draws in KGK): 1-3 then withdraws -> 0.25 -> 0.33;
    3-2 including a first-round bye, then withdraws -> 9/15 = 0.60."""
    players = ["X", "Y"] + [f"o{i}" for i in range(9)]
    matches = [
        SetRecord(1, "Y", "o0", 2, 0),
        SetRecord(2, "Y", "o1", 0, 2),
        SetRecord(3, "Y", "o2", 1, 2),
        SetRecord(4, "Y", "o3", 0, 2),
        SetRecord.bye(1, "X"),
        SetRecord(2, "X", "o4", 2, 1),
        SetRecord(3, "X", "o5", 2, 0),
        SetRecord(4, "X", "o6", 0, 2),
        SetRecord(5, "X", "o7", 1, 2),
    ]
    rows = {r.id: r for r in standings([Entrant(p, p in "XY") for p in players], matches)}
    assert rows["Y"].mwp == FLOOR
    assert rows["Y"].explain["MW%"] == "3 / (3 x 4 rounds) = 1/4 = 0.2500, below 0.33, so 0.33"
    assert rows["X"].mwp == F(9, 15) == F(3, 5)
    # X's games: bye 2-0, 2-1, 2-0, 0-2, 1-2 -> 7 of 12
    assert (rows["X"].game_wins, rows["X"].game_losses, rows["X"].gwp) == (7, 5, F(7, 12))
    # o4 lost to X (who is 3-2 with a bye): o4's OMW% uses X's 0.60
    assert rows["o4"].omw == F(3, 5)
    # o8 never played: every figure is the floor
    assert (rows["o8"].mwp, rows["o8"].omw, rows["o8"].gwp, rows["o8"].ogw) == (FLOOR,) * 4


def test_ties_broken_in_order_then_by_id():
    # Round 1 only, best-of-three. P1 and P3 both 2-0 over 0-2 opponents: tied on
    # everything. P5 beat P6 2-1: same points and OMW% (0.33 floor), lower GW%.
    matches = [
        SetRecord(1, "P3", "P4", 2, 0),
        SetRecord(1, "P1", "P2", 2, 0),
        SetRecord(1, "P5", "P6", 2, 1),
    ]
    rows = standings(["P1", "P2", "P3", "P4", "P5", "P6"], matches)
    assert [r.id for r in rows] == ["P1", "P3", "P5", "P6", "P2", "P4"]
    assert [r.tied for r in rows] == [True, True, False, False, True, True]
    assert (
        rows[0].explain["order"]
        == "equal on points, OMW%, GW% and OGW% to P3: ordered by player id"
    )
    # P5: GW 2/3; P6 (0 pts) GW 1/3 is above P2/P4's 0 -> 0.33 floor.
    assert rows[2].gwp == F(2, 3) and rows[3].gwp == F(1, 3) and rows[4].gwp == FLOOR
    # OMW% of the winners: one opponent at 0/3 -> floored.
    assert rows[0].omw == rows[2].omw == FLOOR


def test_integer_ids_sort_numerically_on_full_ties():
    matches = [SetRecord(1, 10, 11, 1, 0), SetRecord(1, 9, 12, 1, 0)]
    rows = standings([9, 10, 11, 12], matches)
    assert [r.id for r in rows] == [9, 10, 11, 12]


def test_best_of_one_games_and_byes():
    rows = {
        r.id: r
        for r in standings(["a", "b", "c"], [SetRecord(1, "a", "b", 1, 0), SetRecord.bye(1, "c")])
    }
    assert (rows["a"].game_wins, rows["a"].gwp) == (1, F(1))
    assert (rows["c"].game_wins, rows["c"].game_losses) == (2, 0)  # a bye is 2-0 (R 18.7)
    assert rows["c"].omw == FLOOR and rows["c"].explain["OMW%"].startswith("no opponents yet")
    one = {r.id: r for r in standings(["c"], [SetRecord.bye(1, "c")], bye_games=(1, 0))}
    assert one["c"].game_wins == 1


def test_rematch_opponent_counts_twice():
    matches = [
        SetRecord(1, "a", "b", 2, 0),
        SetRecord(2, "a", "b", 2, 0),
        SetRecord(1, "c", "d", 2, 0),
    ]
    matches.append(SetRecord(2, "c", "d", 0, 2))
    rows = {r.id: r for r in standings("abcd", matches)}
    assert rows["a"].opponents == ("b", "b")
    assert rows["c"].omw == F(1, 2)


@pytest.mark.parametrize(
    "matches, message",
    [
        ([SetRecord(1, "a", "z", 2, 0)], "unknown player"),
        ([SetRecord(1, "a", "b", 2, 0), SetRecord(1, "a", "c", 2, 0)], "two results"),
        ([SetRecord(1, "a", "b", 2, 0), SetRecord.bye(1, "b")], "two results"),
    ],
)
def test_bad_results_are_rejected(matches, message):
    with pytest.raises(ValueError, match=message):
        standings("abc", matches)


def test_no_draws_r18_4():
    with pytest.raises(ValueError, match="no draws"):
        SetRecord(1, "a", "b", 1, 1)
    with pytest.raises(ValueError):
        SetRecord(1, "a", "a", 2, 0)
    with pytest.raises(ValueError, match="listed twice"):
        standings(["a", "a"], [])


def test_records_for_the_next_pairing():
    rows = standings(EVENT1_PLAYERS, EVENT1)
    recs = {r.id: r for r in player_records(rows)}
    assert recs["E"].had_bye and not recs["A"].had_bye
    assert recs["D"].dropped
    assert recs["C"].opponents == frozenset("DBA")
    assert [recs[x].rank for x in "AEBCD"] == [1, 2, 3, 4, 5]
    pairing = pair_round(recs.values(), seed="r4")
    # Four active players (D dropped), so no bye.
    assert sorted(x for p in pairing.pairs for x in p) == ["A", "B", "C", "E"]
    assert pairing.bye is None
    # A has played everyone else: the fewest rematches is one, and staff are warned.
    assert pairing.rematches == 1 and pairing.warnings


@st.composite
def results(draw):
    n = draw(st.integers(2, 9))
    ids = list(range(n))
    matches, dropped = [], set()
    rounds = draw(st.integers(1, 5))
    # late entrants: first round played (1 = on time); earlier rounds are missed
    first = {i: draw(st.integers(1, rounds)) if draw(st.booleans()) else 1 for i in ids}
    for rnd in range(1, rounds + 1):
        for i in ids:
            if rnd < first[i]:
                matches.append(SetRecord.missed_round(rnd, i))
        pool = [i for i in ids if i not in dropped and first[i] <= rnd]
        pool = draw(st.permutations(pool))
        if len(pool) % 2:
            matches.append(SetRecord.bye(rnd, pool.pop()))
        for a, b in zip(pool[::2], pool[1::2], strict=True):
            ga, gb = draw(st.sampled_from([(2, 0), (2, 1), (1, 2), (0, 2), (1, 0), (0, 1)]))
            matches.append(SetRecord(rnd, a, b, ga, gb))
        if draw(st.booleans()):
            dropped.add(draw(st.sampled_from(ids)))
    return [Entrant(i, i in dropped) for i in ids], matches


@settings(max_examples=150, deadline=None)
@given(results())
def test_invariants(event):
    players, matches = event
    rows = standings(players, matches)
    missed = [m for m in matches if m.missed]
    decided = len(matches) - len(missed)
    assert sorted(r.id for r in rows) == sorted(p.id for p in players)
    assert sum(r.points for r in rows) == 3 * decided
    assert sum(r.wins for r in rows) == decided
    assert sum(r.missed for r in rows) == len(missed)
    assert sum(r.losses for r in rows) == sum(1 for m in matches if m.b is not None) + len(missed)
    assert all(r.points == 3 * r.wins and r.missed <= r.losses for r in rows)
    for r in rows:
        for x in (r.mwp, r.omw, r.gwp, r.ogw):
            assert FLOOR <= x <= 1
        assert set(r.explain) >= {"points", "MW%", "GW%", "OMW%", "OGW%"}
    keys = [(-r.points, -r.omw, -r.gwp, -r.ogw) for r in rows]
    assert keys == sorted(keys)


# Event 2 (R 18 late entry, R 18.7, MTR Appendix C): a late entrant, a bye and a drop
# in one table. Best-of-three, three rounds. F enters late for round 2 (round 1 is a
# match loss, 0-2, without an opponent); E has the round-1 bye, B the round-3 bye;
# D drops after round 2.
#   R1  A-B 2-0   C-D 2-1   E bye (2-0)   F missed (0-2)
#   R2  A-C 2-1   E-D 2-0   F-B 2-1
#   R3  A-E 2-0   C-F 2-0   B bye (2-0)   (D dropped)
EVENT2_PLAYERS = [
    Entrant("A"),
    Entrant("B"),
    Entrant("C"),
    Entrant("D", dropped=True),
    Entrant("E"),
    Entrant("F"),
]
EVENT2 = [
    SetRecord(1, "A", "B", 2, 0),
    SetRecord(1, "C", "D", 2, 1),
    SetRecord.bye(1, "E"),
    SetRecord.missed_round(1, "F"),
    SetRecord(2, "A", "C", 2, 1),
    SetRecord(2, "E", "D", 2, 0),
    SetRecord(2, "F", "B", 2, 1),
    SetRecord(3, "A", "E", 2, 0),
    SetRecord(3, "C", "F", 2, 0),
    SetRecord.bye(3, "B"),
]

# Computed by hand:
#   points:  A 3 wins = 9; B 1 (the bye) = 3; C 2 = 6; D 0; E 2 (one a bye) = 6;
#            F 1 = 3 (the missed round 1 is a loss: 0 points)
#   match-win % (points / 3 x rounds; F's missed round is a round played and lost):
#            A 9/9 = 1, B 3/9 = 1/3, C 6/9 = 2/3, D 0/6 -> 0.33, E 6/9 = 2/3,
#            F 3/9 = 1/3
#   game-win % (bye 2-0, missed round 0-2):
#            A 6/7; B 0+1+2 / 7 = 3/7; C 2+1+2 / 8 = 5/8; D 1/5 = 0.2 -> 0.33;
#            E 2+2+0 / 6 = 2/3; F 0+2+0 / 7 = 2/7 = 0.286 -> 0.33
#   opponents (byes and missed rounds are not opponents):
#            A: B, C, E   B: A, F   C: D, A, F   D: C, E   E: D, A   F: B, C
#   OMW% A = (1/3 + 2/3 + 2/3) / 3 = 5/9
#        B = (1 + 1/3) / 2 = 2/3
#        C = (0.33 + 1 + 1/3) / 3 = (99 + 300 + 100)/300 / 3 = 499/900
#        D = (2/3 + 2/3) / 2 = 2/3
#        E = (0.33 + 1) / 2 = 133/200
#        F = (1/3 + 2/3) / 2 = 1/2
#   OGW% A = (3/7 + 5/8 + 2/3) / 3 = (72 + 105 + 112)/168 / 3 = 289/504
#        B = (6/7 + 0.33) / 2 = (600 + 231)/700 / 2 = 831/1400
#        C = (0.33 + 6/7 + 0.33) / 3 = (231 + 600 + 231)/700 / 3 = 177/350
#        D = (5/8 + 2/3) / 2 = (15 + 16)/24 / 2 = 31/48
#        E = (0.33 + 6/7) / 2 = 831/1400
#        F = (3/7 + 5/8) / 2 = (24 + 35)/56 / 2 = 59/112
#   order: A 9; E 6 (OMW 0.665) above C 6 (OMW 0.554); B 3 (OMW 0.667) above
#          F 3 (OMW 0.5); D 0 (dropped, still listed)
EVENT2_TABLE = [
    # id, pts, W, L, byes, missed, GW, GL, MW%, OMW%, GW%, OGW%
    ("A", 9, 3, 0, 0, 0, 6, 1, F(1), F(5, 9), F(6, 7), F(289, 504)),
    ("E", 6, 2, 1, 1, 0, 4, 2, F(2, 3), F(133, 200), F(2, 3), F(831, 1400)),
    ("C", 6, 2, 1, 0, 0, 5, 3, F(2, 3), F(499, 900), F(5, 8), F(177, 350)),
    ("B", 3, 1, 2, 1, 0, 3, 4, F(1, 3), F(2, 3), F(3, 7), F(831, 1400)),
    ("F", 3, 1, 2, 0, 1, 2, 5, F(1, 3), F(1, 2), FLOOR, F(59, 112)),
    ("D", 0, 0, 2, 0, 0, 1, 4, FLOOR, F(2, 3), FLOOR, F(31, 48)),
]


def test_hand_computed_table_with_late_entry_bye_and_drop():
    """R 18.7 with the MTR's treatment of a late entrant: the missed round is a match
    loss (0-2) for F's own points, MW% and GW%, and, like a bye, no opponent."""
    rows = standings(EVENT2_PLAYERS, EVENT2)
    got = [
        (r.id, r.points, r.wins, r.losses, r.byes, r.missed, r.game_wins, r.game_losses)
        + (r.mwp, r.omw, r.gwp, r.ogw)
        for r in rows
    ]
    assert got == EVENT2_TABLE
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]
    assert [r.dropped for r in rows] == [False] * 5 + [True]
    by_id = {r.id: r for r in rows}
    assert by_id["F"].opponents == ("B", "C")  # the missed round is not an opponent
    assert by_id["B"].opponents == ("A", "F")
    # the pairing sees F as a 3-point player who has had no bye
    rec = {r.id: r for r in player_records(rows)}["F"]
    assert rec.points == 3 and not rec.had_bye and rec.opponents == frozenset("BC")


def test_explain_shows_the_missed_round():
    f = {r.id: r for r in standings(EVENT2_PLAYERS, EVENT2)}["F"].explain
    assert f["points"] == (
        "3 x 1 match wins = 3 (1 round(s) missed by entering late: losses, 0 points)"
    )
    assert f["MW%"] == "3 / (3 x 3 rounds, 1 missed by entering late) = 1/3 = 0.3333"
    assert f["GW%"] == (
        "2 game wins / 7 games (missed rounds counted 0-2) = 6 / (3 x 7) = 2/7 = 0.2857,"
        " below 0.33, so 0.33"
    )
    assert f["OMW%"] == (
        "mean(B 0.3333, C 0.6667) = 1/2 = 0.5000; 1 missed round(s) (late entry) left out"
    )
    assert f["OGW%"].startswith("mean(B 0.4286, C 0.6250) = 59/112 = 0.5268")
    # C met F: F's MW% includes the missed loss, F's GW% is floored
    c = {r.id: r for r in standings(EVENT2_PLAYERS, EVENT2)}["C"].explain
    assert c["OMW%"].startswith("mean(D dropped 0.3300*, A 1.0000, F 0.3333) = 499/900")
    assert c["OGW%"].startswith("mean(D dropped 0.3300*, A 0.8571, F 0.3300*) = 177/350")


def test_a_late_entrant_who_has_only_missed_rounds():
    rows = {
        r.id: r
        for r in standings(
            "abc", [SetRecord(1, "a", "b", 1, 0), SetRecord.missed_round(1, "c")], bye_games=(1, 0)
        )
    }
    c = rows["c"]
    assert (c.points, c.wins, c.losses, c.missed, c.game_wins, c.game_losses) == (0, 0, 1, 1, 0, 2)
    assert (c.mwp, c.omw, c.gwp, c.ogw) == (FLOOR,) * 4
    assert c.explain["OMW%"] == "no opponents yet (missed rounds only): 0.33 (floor)"
    assert c.explain["MW%"] == (
        "0 / (3 x 1 rounds, 1 missed by entering late) = 0 = 0.0000, below 0.33, so 0.33"
    )
    # a missed round is not an opponent of anybody
    assert rows["a"].opponents == ("b",) and rows["a"].omw == FLOOR


def test_missed_rounds_are_checked():
    with pytest.raises(ValueError, match="no opponent"):
        SetRecord(1, "a", "b", 0, 2, missed=True)
    with pytest.raises(ValueError, match="two results"):
        standings("ab", [SetRecord.missed_round(1, "a"), SetRecord(1, "a", "b", 1, 0)])
    with pytest.raises(ValueError, match="unknown player"):
        standings("ab", [SetRecord.missed_round(1, "z")])
    assert SetRecord.missed_round(2, "a").games_b == 2 and not SetRecord.missed_round(2, "a").is_bye
    assert SetRecord.bye(2, "a").is_bye
