"""The engine's fast paths give the same values as the plain definitions they replace.

Checked after every decision of random games between random colonies (all races, so
conditional static abilities, cost modifiers, surcharges and activated abilities occur):
static abilities by effect, stats and costs without a given static list, activatable
abilities, the armour check of ``ops.check_state``, the combat's participants, the
pending decision.
"""

import dataclasses

import pytest
from engine_kit import random_game

from engine import combat as C
from engine import ops
from engine import values as V
from engine.game import Pending, pending
from engine.resolve import activatable, can_activate
from engine.state import cards_in_play

EFFECTS = ("modify_stat", "cost_modifier", "attack_surcharge", "grant_keyword")


def reference_statics(state):
    """values.static_abilities as first written: a walk over every card in play."""
    out = []
    for card in cards_in_play(state):
        if not V.effective(state, card):
            continue
        for ability in V.abilities(state, card):
            if ability["trigger"] == "static" and V.condition_ok(
                state, ability.get("condition"), card, card.controller
            ):
                out.append((card, ability))
    return out


def reference_activatable(state, seat):
    out = []
    for card in cards_in_play(state, seat):
        if not card.paid:
            continue
        for i, ability in enumerate(V.abilities(state, card)):
            if ability["trigger"] == "activated" and can_activate(state, seat, card, i):
                out.append((card.id, i))
    return out


def key(pairs):
    return [(card.id, id(ability)) for card, ability in pairs]


def check_fast_paths(state, action=None, events=None):
    full = V.static_abilities(state)
    assert sorted(key(full)) == sorted(key(reference_statics(state)))
    for effect in EFFECTS:
        subset = [p for p in full if any(e["effect"] == effect for e in p[1]["effects"])]
        assert key(V.static_abilities(state, effect)) == key(subset)
    for seat in (0, 1):
        for card in cards_in_play(state, seat):
            for stat in V.STAT_NAMES:
                assert V.stat(state, card, stat) == V.stat(state, card, stat, full)
        for cid in state.players[seat].centre + state.players[seat].surface:
            card = state.cards[cid]
            assert V.card_cost(state, seat, card) == V.card_cost(state, seat, card, statics=full)
        for what, base in (("upgrade", 1), ("draw", 1)):
            assert V.action_cost(state, seat, what, base) == V.action_cost(
                state, seat, what, base, full
            )
        assert V.attack_surcharge(state, seat) == V.attack_surcharge(state, seat, full)
        assert activatable(state, seat) == reference_activatable(state, seat)
    armoured = all(
        V.armour_left(state, state.cards[cid], ()) > 0 for p in state.players for cid in p.hangar
    )
    assert ops._all_armoured(state, V.state_info(state)) == armoured
    if state.combat is not None:  # R 11.4: each side's ships still in the combat
        for seat in (0, 1):
            plain = [C.in_hangar(state, cid, seat) for cid in C.side(state.combat, seat)]
            fast = C.participants(state, seat)
            assert [id(c) for c in fast] == [id(c) for c in plain if c is not None]
    check_pending(state)


def check_pending(state):
    """game.pending builds its frozen Pending without the dataclass __init__: the same value."""
    p = pending(state)
    if p is None:
        return
    plain = Pending(p.player, p.decision, p.info)
    assert type(p) is Pending and p == plain
    assert repr(p) == repr(plain) and dataclasses.asdict(p) == dataclasses.asdict(plain)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.player = 1 - p.player


@pytest.mark.parametrize("seed", [3, 17, 29, 41])
def test_fast_paths_match_their_definitions(seed):
    random_game(seed, on_step=check_fast_paths, max_decisions=700)
