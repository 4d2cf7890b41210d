"""The seat circle (R 17.1.1, R 17.1.2): every two-player assumption of the engine goes through
engine.state's seat helpers, and a two-player game is their smallest case."""

import pytest

from engine.rng import Rng
from engine.ruleset import DEFAULT
from engine.state import (
    CardTable,
    GameState,
    PlayerState,
    clockwise,
    neighbours,
    next_seat,
    opponents,
    prev_seat,
    seats,
)


def table(n):
    """n seats and nothing else (a real GameState: the compiled engine checks the type)."""
    players = [PlayerState(s, f"p{s}") for s in range(n)]
    return GameState(
        ruleset=DEFAULT, defs={}, players=players, cards=CardTable(), rng=Rng(bytes(32))
    )


def test_two_players_each_is_the_others_everything():
    """Two seats: next, previous, the only neighbour and the only opponent are the other seat
    (so the two-player game is exactly what it was: turns alternate, the opponent cuts)."""
    two = table(2)
    for seat in (0, 1):
        other = 1 - seat
        assert next_seat(two, seat) == prev_seat(two, seat) == other
        assert neighbours(two, seat) == list(opponents(two, seat)) == [other]
        assert clockwise(two, seat) == (seat, other)
    assert list(seats(two)) == [0, 1]


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_r17_1_1_turns_go_clockwise_and_the_cut_counter_clockwise(n):
    state = table(n)
    assert [next_seat(state, s) for s in range(n)] == [*range(1, n), 0]
    assert [prev_seat(state, s) for s in range(n)] == [n - 1, *range(n - 1)]
    assert clockwise(state, 2) == tuple((2 + i) % n for i in range(n))
    assert opponents(state, 2) == clockwise(state, 2)[1:]


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_r17_1_2_a_player_attacks_only_their_two_neighbours(n):
    state = table(n)
    for seat in range(n):
        assert sorted(neighbours(state, seat)) == sorted({(seat + 1) % n, (seat - 1) % n})
    if n == 3:  # with three players that is both others
        assert sorted(neighbours(state, 0)) == [1, 2]
