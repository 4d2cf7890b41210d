"""The cyclic collector is paused while a game is played out (engine/collector.py, issue 18):
it comes back on whatever happens, a caller's own pause is left alone, and a game (random,
heuristic, a search bot's decisions) makes no reference cycles, so the pause keeps no
memory: with the collector off throughout, ``gc.collect()`` finds nothing afterwards.
Run on both builds (the compiled engine and KGK_ENGINE_PURE=1), as every engine test."""

import gc

import pytest

from decklab.simulation import play_one
from engine.basic_bots import RandomBot
from engine.collector import collector_paused
from engine.colonies import PRESETS, build_colony, load_cards, random_colony
from engine.game import apply, new_game, pending
from engine.rng import Rng
from engine.ruleset import Ruleset
from engine.search import SearchBot
from engine.simulate import play_game


@pytest.fixture
def collector_on():
    """The collector on at the start and again at the end (a failing test leaves it so)."""
    was = gc.isenabled()
    gc.enable()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def test_off_inside_and_on_again_after(collector_on):
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_on_again_after_an_error(collector_on):
    with pytest.raises(ZeroDivisionError), collector_paused():
        1 / 0  # noqa: B018
    assert gc.isenabled()


def test_a_callers_own_pause_is_theirs_to_end(collector_on):
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_the_play_loops_pause_it_and_give_it_back(collector_on, monkeypatch):
    """engine.simulate's and the deck lab's games run with the collector off; it is on after."""
    seen = []

    class Watching:  # a random player that notes the collector's state at each decision
        name = "watching"

        def __init__(self, seed):
            self.bot = RandomBot(seed)

        def choose(self, state, seat):
            seen.append(gc.isenabled())
            return self.bot.choose(state, seat)

    cards = load_cards()
    colonies = [build_colony(cards, PRESETS["laci"]), build_colony(cards, PRESETS["dani"])]
    play_game(colonies, "paused", [Watching("a"), Watching("b")], Ruleset())
    assert seen and not any(seen) and gc.isenabled()
    seen.clear()
    monkeypatch.setattr("decklab.simulation.make_bots", lambda bot, seed: [Watching(seed)] * 2)
    play_one(colonies, "paused-lab", True, Ruleset(turn_limit=300))
    assert seen and not any(seen) and gc.isenabled()


def _no_cycles_left(play):
    gc.collect()
    gc.disable()
    try:
        play()
        found = gc.collect()
    finally:
        gc.enable()
    assert found == 0


def test_a_random_game_makes_no_reference_cycles(collector_on):
    cards = load_cards()
    colonies = [build_colony(cards, PRESETS["laci"]), build_colony(cards, PRESETS["dani"])]
    _no_cycles_left(
        lambda: play_game(colonies, "cycles", [RandomBot("a"), RandomBot("b")], Ruleset())
    )


def test_a_heuristic_game_makes_no_reference_cycles(collector_on):
    cards = load_cards()
    colonies = [build_colony(cards, PRESETS["laci"]), build_colony(cards, PRESETS["dani"])]
    _no_cycles_left(lambda: play_one(colonies, "cycles-h", False, Ruleset(turn_limit=300)))


def test_search_decisions_make_no_reference_cycles(collector_on):
    """A few searched decisions (both methods: the tree of "easy", the rollouts of "hard")."""
    cards = load_cards()
    rng = Rng.from_seed("cycles-s")
    state = new_game([random_colony(rng, cards), random_colony(rng, cards)], "cycles-s")
    bots = [
        SearchBot("cycles", "easy", iterations=24, seconds=None),
        SearchBot("cycles", "hard", rollouts=8, seconds=None, depth=40, minor=0.0),
    ]

    def play():
        for _ in range(40):
            p = pending(state)
            assert p is not None
            apply(state, bots[p.player].choose(state, p.player))
            assert not gc.isenabled()  # the caller's pause (the test's) is kept

    _no_cycles_left(play)
