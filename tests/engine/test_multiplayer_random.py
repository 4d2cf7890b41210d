"""Random multiplayer games (issue 17): the invariants after every decision, hidden identities
between every ordered pair of seats, games that finish and replay to the same hash, and bots
in any seat. Tables of 3, 4, 5 and 6 colonies (R 17.1, AMB-54).

The 2,000-game run is marked `soak` (test_soak.py's marker, `make test-soak`); a smaller
count runs in the normal suite.
"""

import pytest
from engine_kit import Watcher, random_colony, random_game, tagged_colony
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_random_games import check_invariants, end_of_turn_limits
from test_views import TAG, check_no_hidden_id_survives_a_move, tags

from engine.basic_bots import HeuristicBot, RandomBot
from engine.colonies import load_cards
from engine.game import apply, legal_actions, new_game, pending
from engine.ops import public
from engine.rng import Rng
from engine.serialize import dump, load, replay, state_hash
from engine.simulate import simulate_table
from engine.soak import soak_table
from engine.state import IN_PLAY, live_seats
from engine.view import view, view_events

SEATS = [3, 4, 5, 6]


def colonies(n, seed):
    rng = Rng.from_seed(f"mp-colonies-{seed}")
    return [random_colony(rng) for _ in range(n)]


def check_table(state):
    """The multiplayer bookkeeping (AMB-44): an eliminated seat has nothing in play, is never
    the active player and never decides; every elimination is credited once."""
    table = state.table
    out = table["out"]
    assert len(set(out)) == len(out)
    assert sum(table["eliminations"]) == len(out) == len(table["eliminated"])
    for seat in out:
        player = state.players[seat]
        assert not (player.hangar or player.surface or player.canteen)
    if state.phase != "over":
        assert state.active not in out and len(live_seats(state)) >= 2
        p = pending(state)
        assert p is None or p.player not in out
    else:
        assert len(live_seats(state)) == 1 and sorted(table["ranking"]) == list(
            range(len(state.players))
        )
        assert state.winner == table["ranking"][0]


def checked_table_game(n, seed, ruleset=None, max_decisions=2500):
    def on_step(state, action, events):
        check_invariants(state)
        check_table(state)
        end_of_turn_limits(state, action, events)

    return random_game(
        seed, colonies(n, seed), ruleset=ruleset, on_step=on_step, max_decisions=max_decisions
    )


@pytest.mark.parametrize("n", SEATS)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**9))
def test_invariants_after_every_decision_at_a_table(n, seed):
    """Each card exactly once, nothing below 0 (R 1.4), the end-phase limits (R 11.5), only
    the deciding player acts, and the table's bookkeeping (AMB-44)."""
    checked_table_game(n, seed)


@pytest.mark.parametrize("n", [3, 5])
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=10**9),
    flags=st.fixed_dictionaries(
        {
            "elimination_repeat": st.booleans(),
            "combat_opponent": st.sampled_from(["combatant", "choose"]),
            "static_opponent": st.sampled_from(["neighbours", "all"]),
            "response_order": st.sampled_from(["from_actor", "from_active"]),
            "responders": st.sampled_from(["all", "combatants"]),
            "cut": st.sampled_from(["auto", "choose"]),
        }
    ),
)
def test_invariants_under_the_multiplayer_flags(n, seed, flags):
    from engine.ruleset import Ruleset

    checked_table_game(n, seed, Ruleset(**flags), max_decisions=1500)


# --- hidden identities between every ordered pair of seats (R 16.2, R 17.1.5) ---------------


def check_table_never_leaks(n, seed, max_decisions=1200):
    rng = Rng.from_seed(f"mp-tags-{seed}")
    viewers = [*range(n), None]
    known = {v: set() for v in viewers}  # tags a viewer has legitimately seen
    watchers = {}
    places = {}

    def tag_of(state, card):
        return TAG.search(state.defs[card.code]["name"]).group(0)

    def own(seat):
        return {f"⟨p{seat}c{i}⟩" for i in range(45)} if seat is not None else set()

    def on_step(state, action, events):
        check_no_hidden_id_survives_a_move(state, events, places)
        if not watchers:
            watchers.update({v: Watcher(state, v) for v in viewers})
        public_now = {tag_of(state, c) for c in state.cards.values() if public(c)}
        for viewer in viewers:
            v, evs = view(state, viewer), view_events(events, viewer)
            watchers[viewer].observe(state, events, v, evs)
            followed = watchers[viewer].followed(state)
            for owner in range(n):  # every ordered pair (viewer, owner)
                theirs = [code for code in followed if f"⟨p{owner}c" in code]
                assert not theirs, f"viewer {viewer} followed {owner}'s {theirs} ({action.id})"
            for e in events:  # a reveal (R 16.4) shows cards to its viewer only
                if e.kind == "reveal" and viewer in e.to:
                    known[viewer] |= tags(e.secret)
            allowed = known[viewer] | public_now | own(viewer)
            leaked = (tags(v) | tags(evs)) - allowed
            for owner in range(n):
                theirs = {t for t in leaked if t.startswith(f"⟨p{owner}c")}
                assert not theirs, f"viewer {viewer} saw {owner}'s {sorted(theirs)} ({action.id})"
            known[viewer] |= public_now

    tables = [tagged_colony(rng, seat) for seat in range(n)]
    assert all(TAG.search(c["name"]) for colony in tables for c in colony)
    state, _ = random_game(seed, tables, on_step=on_step, max_decisions=max_decisions)
    return state


@pytest.mark.parametrize("n", SEATS)
@settings(max_examples=1, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**9))
def test_no_view_or_event_shows_a_hidden_card_to_any_other_seat(n, seed):
    """The tag search and the id-following Watcher over random 3- to 6-player games, for
    every viewer (each seat and a spectator) and every other seat's cards."""
    check_table_never_leaks(n, seed)


def test_the_table_tag_check_catches_a_leak():
    rng = Rng.from_seed("mp-tags-self-test")
    state = new_game([tagged_colony(rng, seat) for seat in range(4)], 7)
    hidden = state.cards[state.players[2].centre[0]]
    assert not public(hidden)
    assert TAG.search(state.defs[hidden.code]["name"]).group(0) not in tags(view(state, 1))
    assert TAG.search(state.defs[hidden.code]["name"]).group(0) in tags(view(state, 2))


# --- games finish, replay to the same hash, bots play any seat --------------------------------


@pytest.mark.parametrize("n", SEATS)
def test_random_table_games_finish_and_replay_to_the_same_hash(n):
    result = soak_table(n, games=10, replays=3, seed=f"pytest-table-{n}")
    assert result["errors"] == [] and result["replay_mismatches"] == []
    assert result["replays"] == 3
    assert sum(result["wins_by_seat"]) == 10  # every game ended with a winner (AMB-44)


@pytest.mark.soak
def test_two_thousand_random_multiplayer_games_never_raise_and_replay():
    """Issue 17: 2,000 random games at tables of 3 to 6 (500 each), 50 of each replayed."""
    for n in SEATS:
        result = soak_table(n, games=500, replays=50, seed=f"pytest-soak-table-{n}")
        assert result["errors"] == [], result["errors"][:1]
        assert result["replay_mismatches"] == []
        assert sum(result["wins_by_seat"]) == 500


def test_a_table_state_dumps_loads_and_hashes_the_same():
    state = new_game(colonies(5, "dump"), "dump")
    rng = Rng.from_seed("dump-walk")
    for _ in range(400):
        acts = legal_actions(state)
        apply(state, acts[rng.below(len(acts))])
    again = load(dump(state))
    assert state_hash(again) == state_hash(state) and again.table == state.table
    assert [a.id for a in legal_actions(again)] == [a.id for a in legal_actions(state)]


def test_a_table_game_replays_from_its_log():
    cols = colonies(4, "replay")
    state, log = random_game("replay", cols, max_decisions=3000)
    assert state_hash(replay(cols, "replay", log)) == state_hash(state)


@pytest.mark.parametrize("n", [3, 6])
def test_bots_play_any_seat(n):
    """Random and heuristic bots mixed around the table; every seat's decisions are theirs."""
    from engine.ruleset import Ruleset

    state = new_game(colonies(n, "bots"), "bots", Ruleset(turn_limit=300))
    bots = [HeuristicBot(s) if s % 2 else RandomBot(s) for s in range(n)]
    deciders = set()
    while (p := pending(state)) is not None:
        deciders.add(p.player)
        apply(state, bots[p.player].choose(state, p.player))
    assert deciders == set(range(n))


def test_the_simulator_reports_win_rates_per_seat_and_per_race():
    cards = load_cards()
    summary = simulate_table(cards, seats=4, games=4, seed="t", bot_names=["random"] * 4)
    assert summary["games"] == 4 and len(summary["by_seat"]) == 4
    assert sum(s["wins"] for s in summary["by_seat"]) == summary["finished"]
    assert summary["by_race"]
    for race, row in summary["by_race"].items():
        assert 0 <= row["wins"] <= row["seats"], race


def test_every_card_of_a_table_is_in_play_or_a_pile():
    state, _ = checked_table_game(4, 11, max_decisions=600)
    held = sum(len(p.zone(z)) for p in state.players for z in (*IN_PLAY, "colony", "centre"))
    assert held > 0
