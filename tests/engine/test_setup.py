"""R 10 game setup and R 20 EX-1, through engine.game (no database)."""

import pytest
from engine_kit import decision, do, ids, position, random_colony

from engine.actions import IllegalAction
from engine.game import apply, legal_actions, new_game, pending
from engine.rng import Rng
from engine.ruleset import Ruleset
from engine.serialize import state_hash

LACI, DANI = 0, 1
LACI_RACES = ["xeno", "insectoid", "zarg", "space_shark"]  # R 20 EX-1
DANI_RACES = ["human", "carnoplantus", "cerebrite", "space_shark"]


def ex1_game(seed=1, **kw):
    rng = Rng.from_seed(f"decks-{seed}")
    colonies = [random_colony(rng, LACI_RACES), random_colony(rng, DANI_RACES)]
    return new_game(colonies, seed, names=("laci", "dani"), **kw)


def pass_windows(state):
    while decision(state) is not None and decision(state)[1] == "respond":
        apply(state, "pass")


def test_r10_1_to_10_4_colony_centre_and_credits():
    state = ex1_game()
    for player in state.players:
        assert len(player.colony) == 40  # R 10.4: five cards drawn from 45
        assert len(player.centre) == 5
        assert player.credits == 5  # R 10.3 / AMB-04
    assert state.turn == 0 and state.phase == "setup"


def test_r10_2_the_die_roll_is_seeded_and_fair_enough():
    starters = {ex1_game(seed).starting_player for seed in range(12)}
    assert starters == {0, 1}
    assert ex1_game(5).starting_player == ex1_game(5).starting_player
    assert state_hash(ex1_game(5)) == state_hash(ex1_game(5))
    assert ex1_game(5, starting_player=DANI).starting_player == DANI  # R 18.7 override


def test_r10_5_ex1_mulligan_starting_player_first_and_only_once():
    """EX-1: Dani starts and mulligans, Laci keeps; then turn 1 begins (AMB-08)."""
    state = ex1_game(starting_player=DANI)
    assert decision(state) == (DANI, "mulligan")  # the starting player decides first
    old_hand = set(state.players[DANI].centre)
    do(state, "mulligan")
    dani = state.players[DANI]
    assert len(dani.centre) == 5 and len(dani.colony) == 40  # EX-1 assertion 2
    assert not old_hand & set(dani.centre)  # fresh ids after the reshuffle (R 16.1)
    assert dani.mulligan_used
    assert decision(state) == (LACI, "mulligan")
    with pytest.raises(IllegalAction) as err:  # EX-1 assertion 3: no second mulligan
        apply(state, "mulligan", player=DANI)
    assert err.value.code == "NOT_YOUR_DECISION"
    do(state, "keep")
    assert state.turn == 1 and state.active == DANI
    pass_windows(state)
    assert decision(state) == (DANI, "main")
    with pytest.raises(IllegalAction):  # the window closed when turn 1 started
        do(state, "mulligan")


def test_r10_5_second_mulligan_is_rejected():
    state = ex1_game(starting_player=LACI)
    do(state, "mulligan")
    state.stack[-1]["i"] = 0  # pretend Laci is asked again (defensive check)
    assert [a.id for a in legal_actions(state)] == ["keep"]
    with pytest.raises(IllegalAction) as err:
        do(state, "mulligan")
    assert err.value.code == "MULLIGAN_USED"


def test_r10_6_ex1_credit_schedule_1_2_3_4_then_5():
    """EX-1 assertion 4: 5 + 1 = 6 for Dani, 5 + 2 = 7 for Laci, then +3, +4, +5."""
    state = ex1_game(starting_player=DANI)
    do(state, "keep")
    do(state, "keep")
    seen = []
    for _ in range(6):
        pass_windows(state)
        seen.append((state.active, state.players[state.active].credits))
        do(state, "end_turn")
    assert seen == [(DANI, 6), (LACI, 7), (DANI, 9), (LACI, 11), (DANI, 14), (LACI, 16)]


def test_r10_7_ex1_no_attack_in_the_starting_players_first_turn():
    state = position(
        """
        kgk players=dani,laci turn=1 active=dani start=dani
        dani credits=6
        dani hangar: Cobra Flash
        dani colony: Pilótahal*40
        laci colony: Pilótahal*40
        """
    )
    assert ids(state, "attack") == []
    with pytest.raises(IllegalAction) as err:
        do(state, "attack", target="colony")
    assert err.value.code == "FIRST_TURN_NO_ATTACK"
    state = position(
        """
        kgk players=dani,laci turn=2 active=laci start=dani
        laci credits=7
        laci hangar: Cobra Flash
        laci colony: Pilótahal*40
        dani colony: Pilótahal*40
        """
    )
    assert "attack:target=colony" in ids(state, "attack")  # EX-1 assertion 5: from turn 2 on


def test_r9_illegal_colonies_are_refused():
    rng = Rng.from_seed(3)
    colony = random_colony(rng, LACI_RACES)
    with pytest.raises(ValueError, match="DECK_SIZE"):
        new_game([colony[:-1], colony], 1)
    new_game([colony[:-1], colony], 1, Ruleset(check_decks=False))  # tests may opt out


def test_r16_1_the_opponent_may_choose_the_cut():
    state = ex1_game(ruleset=Ruleset(cut="choose"), starting_player=LACI)
    assert decision(state) == (DANI, "cut")  # setup shuffles are cut by the opponent
    while decision(state)[1] == "cut":
        do(state, "cut", at=3)
    assert decision(state) == (LACI, "mulligan")
    do(state, "mulligan")
    assert decision(state) == (DANI, "cut")
    do(state, "cut", at=4)
    assert len(state.players[LACI].centre) == 5
    assert len(state.players[LACI].colony) == 40
    assert pending(state).decision == "mulligan"
