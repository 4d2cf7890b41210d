"""R 12 interrupts, the chain and response windows; R 1.6 lost targets; EX-5 (R 20)."""

import pytest
from engine_kit import card, decision, do, ids, pass_windows, position

from engine import values as V
from engine.actions import IllegalAction
from engine.game import legal_actions

LACI, DANI = 0, 1

EX5 = """
kgk players=laci,dani turn=4 active=laci
laci credits=3
laci colony: Rozsdafog*10
laci centre: Extra találat, Felsőbb parancs
laci hangar: Cobra Flash
dani credits=3
dani colony: Pilótahal*10
dani centre: Durmacél célterelő, Felülbírálás
dani hangar: Holdimádó
"""


def ex5_to_window(state):
    do(state, "attack", target="colony")
    pass_windows(state)  # the declaration window (R 11.4.1.2)
    do(state, "choose", value="Cobra Flash")
    do(state, "choose", value="Holdimádó")  # Dani defends
    pass_windows(state)  # the equip and payment steps' windows (R 11.4.2, R 11.4.3, R 12.2)
    do(state, "fire", ship="Cobra Flash", target="Holdimádó")  # EX-5 step 1
    do(state, "return_fire")  # step 2
    assert card(state, "Cobra Flash").orientation == "used"  # AMB-21: at announcement
    assert card(state, "Holdimádó").orientation == "used"
    assert decision(state) == (LACI, "respond")  # step 3: before damage (R 11.4.4.6.3)


def test_ex5_interrupt_chain_during_a_shot():
    state = position(EX5)
    ex5_to_window(state)
    events = []
    events += do(state, "play", card="Extra találat")  # (a) +1 FP to Cobra Flash
    events += do(state, "play", card="Durmacél célterelő")  # (b) +1 ARM to Holdimádó
    events += do(state, "play", card="Felsőbb parancs")  # (c) neutralise ...
    assert decision(state) == (LACI, "target")
    events += do(state, "choose", value="Durmacél célterelő")  # ... Durmacél célterelő
    events += do(state, "play", card="Felülbírálás")  # (d) neutralise ...
    assert decision(state) == (DANI, "target")
    assert sorted(a.get("value") for a in legal_actions(state)) == sorted(
        card(state, n).id for n in ("Extra találat", "Durmacél célterelő", "Felsőbb parancs")
    )
    events += do(state, "choose", value="Felsőbb parancs")  # ... Felsőbb parancs, for 2 CR
    # both centres are empty: both passes are automatic; the chain resolves d, c, b, a
    paid = [(e.data["player"], -e.data["change"]) for e in events if e.kind == "credits"]
    assert paid == [(LACI, 1), (DANI, 1), (LACI, 2), (DANI, 2)]  # assertion 1: play order
    resolved = [e.data["code"] for e in events if e.kind == "resolve"]
    names = {c: state.defs[c]["name"] for c in state.defs}
    assert [names[c] for c in resolved] == ["Felülbírálás", "Durmacél célterelő", "Extra találat"]
    neutralized = [e for e in events if e.kind == "move" and e.data["why"] == "neutralized"]
    assert [e.data["card"]["name"] for e in neutralized] == ["Felsőbb parancs"]
    assert state.players[LACI].credits == 0 and state.players[DANI].credits == 0  # assertion 2
    trash = {
        seat: sorted(state.defs[state.cards[c].code]["name"] for c in state.players[seat].trash)
        for seat in (0, 1)
    }
    assert trash[LACI] == ["Extra találat", "Felsőbb parancs"]  # assertion 3
    assert trash[DANI] == ["Durmacél célterelő", "Felülbírálás"]
    # assertion 4 (AMB-36): Holdimádó 3 + 1 - 3 = 1 survives; Cobra Flash 3 - 2 = 1
    assert V.armour_left(state, card(state, "Holdimádó")) == 1
    assert V.armour_left(state, card(state, "Cobra Flash")) == 1


def test_ex5_without_felulbiralas_holdimado_is_destroyed():
    state = position(EX5)
    ex5_to_window(state)
    do(state, "play", card="Extra találat")
    do(state, "play", card="Durmacél célterelő")
    do(state, "play", card="Felsőbb parancs")
    do(state, "choose", value="Durmacél célterelő")
    do(state, "pass")  # Dani keeps Felülbírálás; the chain resolves: c, b (neutralised), a
    assert card(state, "Durmacél célterelő").zone == "trash"
    assert decision(state) == (DANI, "respond")  # AMB-13: a new window after resolution
    do(state, "pass")
    assert card(state, "Holdimádó").zone == "trash"
    assert card(state, "Durmacél célterelő").zone == "trash"


def test_r12_2_passes_alternate_and_the_window_asks_whoever_holds_cards():
    """No timing leak: a player with cards in the centre is asked even without interrupts."""
    state = position(
        EX5.replace("dani centre: Durmacél célterelő, Felülbírálás", "dani centre: Pilótahal")
    )
    ex5_to_window(state)
    do(state, "pass")
    assert decision(state) == (DANI, "respond")
    assert [a.id for a in legal_actions(state)] == ["pass"]
    do(state, "pass")
    assert V.armour_left(state, card(state, "Holdimádó")) == 1  # 3 - 2


def test_r1_6_an_interrupt_that_lost_its_target_has_no_effect():
    state = position(
        """
        kgk players=laci,dani turn=4 active=laci
        laci credits=1
        laci colony: Rozsdafog*10
        laci centre: Extra találat
        laci hangar: Halálszárny
        dani credits=2
        dani colony: Pilótahal*10
        dani centre: Rajtaütés
        dani hangar: Kitinvadász
        """
    )
    do(state, "attack", target="colony")
    pass_windows(state)
    do(state, "choose", value="Halálszárny")
    do(state, "choose", value="Kitinvadász")
    pass_windows(state)  # the equip and payment steps' windows (R 12.2)
    do(state, "fire", ship="Halálszárny", target="Kitinvadász")
    do(state, "hold_fire")
    events = do(state, "play", card="Extra találat")
    events += do(state, "play", card="Rajtaütés")  # 2 damage to Halálszárny (armour 1)
    assert card(state, "Halálszárny").zone == "trash"
    assert any(e.kind == "lost_target" for e in events)
    assert card(state, "Extra találat").zone == "trash"
    assert state.players[LACI].credits == 0  # the credits are lost (R 1.6)
    assert card(state, "Kitinvadász").damage == 0  # the shooter is gone: no damage


def test_r12_5_an_event_can_be_neutralised_in_response():
    """Káoszhullám (reaction): mode 'neutralise an event' chosen when played (R 12.2)."""
    state = position(
        """
        kgk players=laci,dani turn=4 active=laci
        laci credits=3
        laci colony: Rozsdafog*10
        laci centre: Befektetés
        dani credits=3
        dani colony: Pilótahal*10
        dani centre: Káoszhullám
        """
    )
    do(state, "play", card="Befektetés")
    assert decision(state) == (DANI, "respond")
    do(state, "play", card="Káoszhullám")  # only the event mode has a target: chosen for him
    assert state.players[LACI].credits == 0  # paid 3, gained nothing
    assert card(state, "Befektetés").zone == "trash"
    assert state.players[DANI].credits == 0


def test_r4_7_3_interrupt_windows_by_subtype():
    state = position(
        """
        kgk players=laci,dani turn=4 active=laci
        laci credits=5
        laci colony: Rozsdafog*10
        laci centre: Extra találat, Kedvezmény, Váratlan támadás
        dani colony: Pilótahal*10
        dani hangar: Holdimádó
        """
    )
    with pytest.raises(IllegalAction) as err:
        do(state, "play", card="Extra találat")  # combat: only in a combat phase
    assert err.value.code == "WRONG_PHASE"
    with pytest.raises(IllegalAction):
        do(state, "play", card="Kedvezmény")  # start: only in a start phase
    do(state, "play", card="Váratlan támadás")  # general: main phase (rotates a ship)
    pass_windows(state)
    assert card(state, "Holdimádó").orientation == "used"


def test_r11_2_2_start_interrupts_in_the_start_window():
    """Kedvezmény (start, 0 CR): the next card costs 2 less (R 1.4: never below 0)."""
    state = position(
        """
        kgk players=dani,laci turn=4 active=dani
        dani colony: Pilótahal*10
        laci credits=0
        laci colony: Rozsdafog*10
        laci centre: Kedvezmény, Marduk Kurios
        """
    )
    laci = 1
    do(state, "end_turn")
    assert decision(state) == (laci, "respond")
    assert ids(state, "play") == [f"play:card={card(state, 'Kedvezmény').id}"]
    do(state, "play", card="Kedvezmény")
    assert state.players[laci].credits == 5
    pass_windows(state)
    do(state, "play", card="Marduk Kurios")  # 3 - 2 = 1
    assert state.players[laci].credits == 4
    assert state.cost_mods == []  # "next" is used up


def test_r11_4_1_2_general_interrupts_in_the_declaration_window_can_end_the_combat():
    state = position(
        """
        kgk players=laci,dani turn=4 active=laci
        laci colony: Rozsdafog*10
        laci hangar: Cobra Flash
        dani credits=3
        dani colony: Pilótahal*10
        dani centre: Bürokratikus késleltetés
        """
    )
    do(state, "attack", target="colony")
    assert decision(state) == (DANI, "respond")
    do(state, "play", card="Bürokratikus késleltetés")  # end_combat
    assert state.combat is None and decision(state) == (LACI, "main")
    assert card(state, "Cobra Flash").orientation == "active"
