"""Dump/load, state hashes, replay from (colonies, seed, actions), and the notation round trip."""

import json

import pytest
from engine_kit import CARDS, position, random_colony, random_game

from engine import notation as N
from engine.actions import IllegalAction, MalformedAction, parse_action
from engine.game import apply, legal_actions, new_game, pending
from engine.rng import Rng
from engine.ruleset import Ruleset
from engine.serialize import clone, dump, load, replay, state_hash


def colonies(seed):
    rng = Rng.from_seed(f"test-{seed}")
    return [random_colony(rng), random_colony(rng)]


def test_dump_load_round_trip_at_every_kind_of_decision():
    seen = set()

    def on_step(state, action, events):
        p = pending(state)
        if p is None or p.decision in seen:
            return
        seen.add(p.decision)
        text = dump(state)
        again = load(text)
        assert dump(again) == text
        assert [a.id for a in legal_actions(again)] == [a.id for a in legal_actions(state)]

    for seed in range(4):
        random_game(seed, on_step=on_step, max_decisions=2500)
    assert {"main", "mulligan", "attackers", "fire"} <= seen


def test_replay_gives_the_same_state_hash():
    for seed in (11, 12, 13):
        state, log = random_game(seed, max_decisions=1500)
        again = replay(colonies(seed), seed, log)
        assert state_hash(again) == state_hash(state)


def test_a_loaded_game_continues_exactly_like_the_original():
    seed = 21
    state, log = random_game(seed, max_decisions=1200)
    half = replay(colonies(seed), seed, log[:600])
    resumed = load(dump(half))
    for action_id in log[600:]:
        apply(resumed, action_id)
    assert state_hash(resumed) == state_hash(state)


def test_clone_is_independent():
    state = new_game(colonies(1), 1)
    copy = clone(state)
    apply(copy, legal_actions(copy)[0])
    assert state_hash(copy) != state_hash(state)


def test_clone_is_load_of_dump():
    """Issue 18: clone is made field by field, not through JSON; it must be the very state
    load(dump(state)) gives (same dump), and play on as it does (same actions, events and
    hashes), at every 5th decision of a random game and every 30th of a table of four (R 17.1)."""
    for seed, seats, every in ((3, 2, 5), (5, 4, 30)):
        rng = Rng.from_seed(f"clone-{seed}")
        state = new_game([random_colony(rng) for _ in range(seats)], seed)
        while pending(state) is not None:
            if state.decisions % every:
                actions = legal_actions(state)
                apply(state, actions[rng.below(len(actions))])
                continue
            copy, loaded = clone(state), load(dump(state))
            assert dump(copy) == dump(loaded) == dump(state)
            actions = legal_actions(state)
            pick = actions[rng.below(len(actions))].id
            assert [a.id for a in legal_actions(copy)] == [a.id for a in actions]
            events = [e.to_dict() for e in apply(copy, pick)]
            assert events == [e.to_dict() for e in apply(loaded, pick)]
            assert dump(state) != dump(copy) or not events  # the copy moved, not the state
            assert state_hash(copy) == state_hash(loaded)
            apply(state, pick)
            assert dump(state) == dump(copy)


def test_r10_1_the_seed_changes_the_shuffle():
    assert state_hash(new_game(colonies(1), 1)) != state_hash(new_game(colonies(1), 2))


def test_r0_6_ruleset_round_trip_and_unimplemented_flags():
    rules = Ruleset(armour_reset_scope="own", bluff_slots=("surface",))
    assert Ruleset.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    simple = Ruleset(simplified_combat=True)  # R 17.2: a ruleset option
    assert Ruleset.from_dict(json.loads(json.dumps(simple.to_dict()))) == simple
    with pytest.raises(ValueError):
        Ruleset(allow_responses_during_resolution=True)  # AMB-13: not implemented
    with pytest.raises(ValueError):
        Ruleset(armour_reset_scope="some")


def test_notation_round_trip_r5_4_armour_left():
    text = """
    kgk players=laci,dani turn=4 active=laci start=dani
    laci credits=7 mulligan=used
    laci colony: Rozsdafog*3, Cobra Flash
    laci centre: Tüzér
    laci surface: Aknagyűrű (down u2 b1)
    laci hangar: Marduk Kurios (used dmg1) [Páncéllemez (down), Tüzér]
    laci trash: Kaszás
    dani credits=3 mulligan=used
    dani colony: Pilótahal*4
    dani surface: Chazma töltet (down)
    dani wasteland: Halálszárny
    """
    state = position(text)
    out = N.to_text(state)
    assert N.to_text(N.parse(out, CARDS)) == out
    assert (
        out.splitlines()[5] == "laci hangar: Marduk Kurios (used dmg1) [Páncéllemez (down), Tüzér]"
    )
    assert N.stats(state, "Marduk Kurios") == "5-1-1-0"  # armour 2 - 1; unpaid plate adds nothing


def test_malformed_and_illegal_actions_have_codes():
    state = position("kgk players=a,b turn=4 active=a\na colony: Rozsdafog*3")
    for bad, code in (
        ("fly", "UNKNOWN_KIND"),
        ({"kind": "draw", "card": 3}, "UNKNOWN_PARAM"),
        ({"kind": "upgrade"}, "MISSING_PARAM"),
        ({"kind": "upgrade", "card": "3"}, "BAD_PARAM"),
        ({"kind": "upgrade", "card": True}, "BAD_PARAM"),
        ("place:card=1,to=moon", "BAD_PARAM"),
        ("attack:target=colony,card=4", "BAD_PARAM"),
        (42, "NOT_AN_ACTION"),
    ):
        with pytest.raises(MalformedAction) as err:
            apply(state, bad)
        assert err.value.code == code
    before = dump(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, "upgrade:card=999")
    assert err.value.code == "NOT_YOUR_BASE"
    with pytest.raises(IllegalAction) as err:
        apply(state, "end_turn", player=1)
    assert err.value.code == "NOT_YOUR_DECISION"
    assert dump(state) == before  # a rejected action changes nothing


def test_action_ids_are_stable_and_parse_back():
    action = parse_action({"kind": "fire", "target": 30, "ship": 12})
    assert action.id == "fire:ship=12,target=30"
    assert parse_action(action.id) == action
    assert parse_action(action.to_dict()) == action


def test_format_1_dumps_still_load():
    """Format 2 stores cards as rows; a format-1 text (a dict per card) still loads."""
    state, _ = random_game(31, max_decisions=700)
    from engine.serialize import to_dict

    old = to_dict(state)
    old["format"] = 1
    old["cards"] = [c.to_dict() for c in state.cards.values()]
    again = load(json.dumps(old, sort_keys=True, ensure_ascii=False))
    assert to_dict(again) == to_dict(state)  # equal dicts (the old text had sorted keys)
    assert [a.id for a in legal_actions(again)] == [a.id for a in legal_actions(state)]
    assert json.loads(dump(state))["format"] == 2


def test_loaded_states_do_not_share_mutable_cards():
    state, _ = random_game(32, max_decisions=700)
    text = dump(state)
    a, b = load(text), load(text)
    for cid, card in a.cards.items():
        other = b.cards[cid]
        assert card.attachments is not other.attachments and card.mods is not other.mods
    apply(a, legal_actions(a)[0])
    assert dump(b) == text


def test_the_card_definitions_of_many_games_stay_parsed():
    """A process serving many games loads each with its definitions parsed once: the 40th
    game's load does not push the first game's definitions out (the cache held 8), and a
    state loaded from a dump still dumps to the same text."""
    texts = [dump(new_game(colonies(100 + g), f"defs-{g}")) for g in range(40)]
    first = [load(text) for text in texts]
    again = [load(text) for text in texts]
    assert all(a.defs is b.defs for a, b in zip(first, again, strict=True))
    assert [dump(state) for state in again] == texts
