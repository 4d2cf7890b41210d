"""R 11.4 combat, R 13 ship abilities, R 14 destruction; EX-2, EX-3, EX-4, EX-6 (R 20)."""

import pytest
from engine_kit import card, decision, do, ids, pass_windows, position

from engine import notation as N
from engine import values as V
from engine.actions import IllegalAction
from engine.game import legal_actions
from engine.view import view

LACI, DANI = 0, 1

EX2 = """
kgk players=laci,dani turn=4 active=laci
laci credits=7
laci colony: Rozsdafog*40
laci centre: Tüzér
laci surface: Aknagyűrű (down u2)
laci hangar: Marduk Kurios
dani credits=3
dani colony: Pilótahal*40
dani surface: Chazma töltet (down)
dani hangar: Holdimádó
"""


def ex2_to_bombardment(state, mode):
    """EX-2 steps 1-5 and EX-3: Laci attacks the face-down trap with Marduk + Tüzér."""
    do(state, "upgrade", card="Aknagyűrű")
    do(state, "upgrade", card="Aknagyűrű")
    do(state, "pay", card="Aknagyűrű")
    pass_windows(state)  # paying is an interrupt: its window (R 11.3.2)
    do(state, "place", card="Tüzér", to="canteen")
    do(state, "attack", target="base", card="Chazma töltet")
    assert decision(state) == (LACI, "attackers")
    do(state, "choose", value="Marduk Kurios")
    do(state, "board", card="Tüzér", ship="Marduk Kurios")
    assert decision(state) == (DANI, "defenders")
    do(state, "done")  # EX-3 step 1: Dani does not defend
    assert decision(state) == (LACI, "payments")
    do(state, "pay", card="Tüzér")  # EX-3 step 2
    pass_windows(state)  # paying is an interrupt: its window (R 11.3.2)
    assert decision(state) == (LACI, "mode")  # the end of the payment step (R 11.4.3.3)
    do(state, "choose", value=mode)


def test_ex2_aknagyuru_makes_the_opponents_attacks_cost_one_credit():
    """EX-2 assertion 3 / AMB-35."""
    state = position(EX2)
    for _ in range(2):
        do(state, "upgrade", card="Aknagyűrű")
    do(state, "pay", card="Aknagyűrű")
    pass_windows(state)  # paying is an interrupt: its window (R 11.3.2)
    do(state, "end_turn")
    pass_windows(state)
    assert state.active == DANI
    assert V.attack_surcharge(state, DANI) == 1 and V.attack_surcharge(state, LACI) == 0
    credits = state.players[DANI].credits
    do(state, "attack", target="colony")
    assert state.players[DANI].credits == credits - 1


def test_ex2_no_attack_without_the_surcharge():
    state = position(
        EX2.replace("dani credits=3", "dani credits=0")
        .replace("active=laci", "active=dani")
        .replace("Aknagyűrű (down u2)", "Aknagyűrű (u4)")
    )
    assert ids(state, "attack") == []
    with pytest.raises(IllegalAction) as err:
        do(state, "attack", target="colony")
    assert err.value.code == "INSUFFICIENT_CREDITS"


def test_ex2_unpaid_crew_boards_and_fills_capacity():
    """EX-2 assertion 4 (AMB-03): an upright unpaid crew card may board."""
    state = position(EX2)
    do(state, "place", card="Tüzér", to="canteen")
    do(state, "attack", target="colony")
    do(state, "choose", value="Marduk Kurios")
    do(state, "board", card="Tüzér", ship="Marduk Kurios")
    marduk = card(state, "Marduk Kurios")
    assert V.capacity_left(state, marduk) == 0
    assert decision(state) == (DANI, "defenders")


def test_ex3_no_defence_end_of_payment_choice_bombardment_three():
    """EX-3: firing is skipped; Tüzér's +3 bombardment; Marduk 5-1-2-3; Laci -5, Dani 3."""
    state = position(EX2)
    ex2_to_bombardment(state, mode=1)
    assert state.combat["defenders"] == []
    assert decision(state) == (LACI, "bombers")  # EX-3 assertion 1: straight to bombardment
    assert N.stats(state, "Marduk Kurios") == "5-1-2-3"  # EX-3 assertion 2
    assert state.players[LACI].credits == 7 - 2 - 5  # EX-3 assertion 4
    assert state.players[DANI].credits == 3


def test_ex3_with_firepower_the_bombardment_does_nothing():
    """EX-3 assertion 3: +3 firepower leaves bombardment 0 < 2: the unpaid base survives."""
    state = position(EX2)
    ex2_to_bombardment(state, mode=0)
    assert N.stats(state, "Marduk Kurios") == "5-4-2-0"
    do(state, "choose", value="Marduk Kurios")
    assert decision(state) == (LACI, "main")  # no trap decision with a total below 2
    assert card(state, "Chazma töltet").zone == "surface"
    assert card(state, "Marduk Kurios").orientation == "used"  # R 11.4.5.7


def test_ex4_trap_paid_destroys_marduk_and_tuzer():
    """EX-4: Dani pays 3 for Chazma töltet; Laci destroys his only ship; trashes +2 / +1."""
    state = position(EX2)
    ex2_to_bombardment(state, mode=1)
    do(state, "choose", value="Marduk Kurios")
    assert decision(state) == (DANI, "trap")
    do(state, "pay", card="Chazma töltet")
    pass_windows(state)  # paying is an interrupt: its window (R 11.3.2)
    assert state.players[DANI].credits == 0
    laci_trash = [state.cards[c].code for c in state.players[LACI].trash]
    assert sorted(N.find(state, n) for n in ("Marduk Kurios", "Tüzér")) == sorted(
        state.players[LACI].trash
    )
    assert len(laci_trash) == 2
    assert state.players[DANI].trash == [N.find(state, "Chazma töltet")]
    assert state.players[DANI].wasteland == []
    assert decision(state) == (LACI, "main")


def test_ex4_control_variant_unpaid_base_destroyed_face_down():
    """EX-4 assertion 3: the base goes face down to Dani's wasteland, unrevealed."""
    state = position(EX2)
    ex2_to_bombardment(state, mode=1)
    do(state, "choose", value="Marduk Kurios")
    events = do(state, "decline")
    trap = card(state, "Chazma töltet")
    assert trap.zone == "wasteland" and not trap.face_up
    laci_view = str(view(state, LACI))
    assert "Chazma" not in laci_view and "KG1-020" not in laci_view
    from engine.view import view_events

    assert "KG1-020" not in str(view_events(events, LACI))
    assert "KG1-020" in str(view_events(events, DANI))


def test_ex4_trap_cannot_be_paid_below_two_or_outside_the_bombardment():
    """EX-4 assertion 2."""
    state = position(EX2.replace("active=laci", "active=dani").replace("turn=4", "turn=5"))
    with pytest.raises(IllegalAction) as err:
        do(state, "pay", card="Chazma töltet")
        pass_windows(state)  # paying is an interrupt: its window (R 11.3.2)
    assert err.value.code == "TRAP_ONLY_WHEN_BOMBARDED"


def test_r6_10_2_the_trap_decision_is_offered_for_any_unpaid_base():
    """No leak: a bombarded face-down non-trap also gets the decision, with only decline."""
    state = position(
        """
        kgk players=laci,dani turn=4 active=laci
        laci colony: Rozsdafog*10
        laci hangar: Mamut I.
        dani credits=9
        dani colony: Pilótahal*10
        dani surface: Mélyvár (down)
        """
    )
    do(state, "attack", target="base", card="Mélyvár")
    do(state, "choose", value="Mamut I.")
    do(state, "choose", value="Mamut I.")  # bomber
    assert decision(state) == (DANI, "trap")
    assert [a.id for a in legal_actions(state)] == ["decline"]


# --- EX-6: a full combat with burst fire ----------------------------------------------------

EX6 = """
kgk players=laci,dani turn=6 active=dani
laci colony: Rozsdafog*30
laci hangar: Cobra Flash, Halálszárny
dani credits=4
dani colony: Pilótahal*30
dani hangar: Mamut I., CRX
"""


def test_ex6_full_combat_with_burst_fire():
    state = position(EX6)
    do(state, "attack", target="colony")
    do(state, "choose", value="Mamut I.")
    do(state, "choose", value="CRX")
    assert decision(state) == (LACI, "defenders")
    do(state, "choose", value="Cobra Flash")
    do(state, "choose", value="Halálszárny")
    # R 11.4.4.2: Laci's ships (5, 5) are faster than Dani's (2, 0)
    assert decision(state) == (LACI, "fire")
    cobra, hal, mamut, crx = (
        N.find(state, n) for n in ("Cobra Flash", "Halálszárny", "Mamut I.", "CRX")
    )
    assert f"fire:ship={cobra},target={crx}" in ids(state, "fire")  # assertion 1: free order
    # shot 1
    do(state, "fire", ship="Halálszárny", target="Mamut I.")
    assert decision(state) == (DANI, "return_fire")
    do(state, "hold_fire")
    m = card(state, "Mamut I.")
    assert V.armour_left(state, m) == 2 and m.hit and m.orientation == "active"
    assert card(state, "Halálszárny").orientation == "used"
    # shot 2: Dani returns fire with CRX and distributes its 5 damage (R 13.4)
    do(state, "fire", ship="Cobra Flash", target="CRX")
    do(state, "return_fire")
    assert decision(state) == (DANI, "distribute")
    for _ in range(3):
        do(state, "choose", value=cobra)
    do(state, "choose", value=hal)  # 3 + 1; the fifth point has no legal recipient (AMB-23)
    assert V.armour_left(state, card(state, "CRX")) == 3  # 5 - 2 from Cobra Flash
    # assertion 2: both of Laci's ships are destroyed, to his trash
    assert sorted(state.players[LACI].trash) == sorted([cobra, hal])
    assert state.players[LACI].hangar == []
    # both players pass; end of firing: the hit ships turn damaged (assertion 3)
    # bombardment: no active attacking ship (assertion 4); Dani's main phase resumes
    assert decision(state) == (DANI, "main")
    assert card(state, "Mamut I.").orientation == "damaged"
    assert card(state, "CRX").orientation == "damaged"
    assert V.armour_left(state, card(state, "Mamut I.")) == 2
    assert len(state.players[LACI].colony) == 30
    # assertion 5: Dani's end phase
    do(state, "end_turn")
    for name, armour in (("Mamut I.", 3), ("CRX", 5)):
        ship = card(state, name)
        assert ship.orientation == "used" and V.armour_left(state, ship) == armour
    assert ids(state, "attack") == []  # Laci's turn: nothing of Laci's can attack
    do(state, "end_turn")
    assert state.active == DANI
    with pytest.raises(IllegalAction) as err:  # still used during Dani's next turn
        do(state, "attack", target="colony")
    assert err.value.code == "NO_ACTIVE_SHIP"
    do(state, "end_turn")
    assert card(state, "Mamut I.").orientation == "active"


def test_ex6_halalszarny_used_cannot_return_burst_fire():
    """EX-6 assertion 7 / AMB-24: only active recipients may fire back."""
    state = position(EX6)
    do(state, "attack", target="colony")
    do(state, "choose", value="CRX")
    do(state, "done")
    do(state, "choose", value="Cobra Flash")
    do(state, "choose", value="Halálszárny")
    hal = N.find(state, "Halálszárny")
    do(state, "fire", ship="Cobra Flash", target="CRX")
    do(state, "return_fire")
    do(state, "choose", value=hal)  # Halálszárny is still active: it may answer
    do(state, "done")
    assert decision(state) == (LACI, "burst_return_fire")
    do(state, "return_fire")
    # CRX took 2 from Cobra and 1 from Halálszárny's return fire
    assert V.armour_left(state, card(state, "CRX")) == 2


# --- firing priority (R 11.4.4, AMB-20) -------------------------------------------------------

DUEL = """
kgk players=laci,dani turn=4 active=laci
laci credits={credits}
laci colony: Rozsdafog*10
laci hangar: {att}
dani colony: Pilótahal*10
dani hangar: {dfn}
"""


def duel(att, dfn, credits=0):
    state = position(DUEL.format(att=att, dfn=dfn, credits=credits))
    do(state, "attack", target="colony")
    for name in att.split(", "):
        if decision(state) == (LACI, "attackers"):
            do(state, "choose", value=name.split(" (")[0].split(" [")[0])
    if decision(state) == (LACI, "attackers"):
        do(state, "done")
    for name in dfn.split(", "):
        if decision(state) == (DANI, "defenders"):
            do(state, "choose", value=name.split(" (")[0].split(" [")[0])
    return state


def test_r11_4_4_2_equal_speed_goes_to_the_attacker():
    state = duel("Holdimádó", "Kitinvadász")  # 3 vs 3
    assert decision(state) == (LACI, "fire")


def test_r11_4_4_2_the_faster_side_acts_and_only_with_faster_ships():
    state = duel("Marduk Kurios, Holdimádó", "Hidrogénfaló")  # 5 and 3 vs 3
    marduk = N.find(state, "Marduk Kurios")
    holdi = N.find(state, "Holdimádó")
    shooters = {a.get("ship") for a in legal_actions(state) if a.kind == "fire"}
    assert shooters == {marduk, holdi}  # 3 = 3: the attacker wins ties
    state = duel("Holdimádó", "Cobra Flash")
    assert decision(state) == (DANI, "fire")


def test_r11_4_4_5_a_pass_gives_the_opponent_one_action_then_two_passes_end():
    state = duel("Cobra Flash", "Holdimádó")
    do(state, "pass")
    assert decision(state) == (DANI, "fire")
    do(state, "fire", ship="Holdimádó", target="Cobra Flash")
    do(state, "hold_fire")
    assert decision(state) == (LACI, "fire")  # priority determined again
    do(state, "pass")
    # Dani has no eligible ship: his pass is automatic and firing ends (R 11.4.4.5);
    # the hit Cobra Flash turns damaged (R 11.4.4.8), so nobody can bombard
    assert card(state, "Cobra Flash").orientation == "damaged"
    assert decision(state) == (LACI, "main")


def test_r11_4_4_6_return_fire_is_simultaneous_and_marks_hits():
    state = duel("Cobra Flash", "Holdimádó")
    do(state, "fire", ship="Cobra Flash", target="Holdimádó")
    do(state, "return_fire")
    cobra, holdi = card(state, "Cobra Flash"), card(state, "Holdimádó")
    assert V.armour_left(state, cobra) == 1 and V.armour_left(state, holdi) == 1
    # both were hit: the firing step ended and they turned damaged (R 11.4.4.8)
    assert cobra.orientation == holdi.orientation == "damaged"
    assert decision(state) == (LACI, "main")


def test_r13_3_rapid_fire_cannot_be_fired_back_at():
    state = duel("Vasököl", "Kitinvadász")  # rapid fire 4-3-2-0 vs 3-2-4-0
    do(state, "fire", ship="Vasököl", target="Kitinvadász")
    # no return-fire decision: the damage is dealt and Dani's ship acts in its own turn
    assert decision(state) == (DANI, "fire")
    assert V.armour_left(state, card(state, "Kitinvadász")) == 1
    assert V.armour_left(state, card(state, "Vasököl")) == 2


def test_r13_8_repair_turns_used_instead_of_damaged():
    state = duel("Cobra Flash", "Indás vadász")  # repair, 3-2-3-1
    do(state, "fire", ship="Cobra Flash", target="Indás vadász")
    do(state, "hold_fire")
    assert card(state, "Indás vadász").hit
    assert decision(state) == (DANI, "fire")
    do(state, "pass")  # Laci has no eligible ship left: his pass is automatic
    assert card(state, "Indás vadász").orientation == "used"  # not damaged (R 11.4.4.8)
    assert card(state, "Cobra Flash").orientation == "used"


def test_r13_6_stealth_bombards_immediately_instead_of_firing():
    state = duel("Portyázó", "Holdimádó")  # stealth scout 5-1-1-1
    do(state, "stealth", ship="Portyázó")
    assert len(state.players[DANI].colony) == 9
    assert card(state, "Portyázó").orientation == "used"


def test_t7_heavy_weapons_cap_twice_the_base_firepower():
    """R 13.7 / AMB-27: Kalapácsfej (FP 3) can reach 6: three activations for 6 CR."""
    state = duel("Kalapácsfej", "Holdimádó", credits=12)
    for _ in range(3):
        do(state, "heavy_weapons", ship="Kalapácsfej")
    assert V.stat(state, card(state, "Kalapácsfej"), "firepower") == 6
    assert "heavy_weapons" not in [a.kind for a in legal_actions(state)]
    assert state.players[LACI].credits == 6


def test_t8_ordnance_up_to_twice_the_base_bombardment():
    """R 13.9 / AMB-28: Királynő bárkája (BMB 3) discards at most 3 colony cards."""
    state = duel("Királynő bárkája", "Holdimádó")
    while decision(state)[1] in ("fire", "return_fire"):
        do(state, "pass")
    do(state, "choose", value="Királynő bárkája")
    for _ in range(3):
        do(state, "ordnance", ship="Királynő bárkája")
    assert "ordnance" not in [a.kind for a in legal_actions(state)]
    assert len(state.players[LACI].colony) == 7 and len(state.players[LACI].wasteland) == 3
    # nothing is left to decide ("done" is automatic): total bombardment 6
    assert len(state.players[DANI].colony) == 10 - 6


def test_r13_5_formation_shares_damage():
    state = duel("Cobra Flash", "Járőr-7, Bástya")  # formation 4-1-2-0 and 2-3-4-2
    do(state, "fire", ship="Cobra Flash", target="Járőr-7")
    do(state, "hold_fire")
    assert decision(state) == (DANI, "distribute")
    do(state, "choose", value="Bástya")
    do(state, "choose", value="Bástya")
    assert V.armour_left(state, card(state, "Járőr-7")) == 2
    assert V.armour_left(state, card(state, "Bástya")) == 2


# --- bombardment outcomes (R 11.4.5) -----------------------------------------------------------

RAID = """
kgk players=laci,dani turn=4 active=laci
laci colony: Rozsdafog*10
laci hangar: {ship}
dani colony: Pilótahal*{colony}
dani centre: Halálszárny, Cobra Flash
dani canteen: Tüzér (down), Zsoldos
dani surface: Kristálybunker, Chazma töltet (down)
"""


def raid(ship, target, card_name=None, colony=10):
    state = position(RAID.format(ship=ship, colony=colony))
    do(state, "attack", target=target, card=card_name)
    pass_windows(state)  # Dani holds cards: he may answer the declaration (R 11.4.1.2)
    do(state, "choose", value=ship)
    pass_windows(state)  # the equip and payment steps' windows (R 12.2)
    do(state, "choose", value=ship)  # the only bomber
    if decision(state) == (LACI, "bombers"):  # ordnance would still be possible
        do(state, "done")
    pass_windows(state)  # the bombardment step's window (R 11.4.5, R 12.2)
    return state


def test_t4_centre_bombardment_below_two_does_nothing():
    state = raid("Halálszárny", "centre")  # BMB 1
    assert len(state.players[DANI].centre) == 2


def test_t4_centre_bombardment_discards_exactly_one_of_the_defenders_choice():
    state = raid("Ostromtörő", "centre")  # BMB 4
    assert decision(state) == (DANI, "discard")
    do(state, "choose", value="Cobra Flash")
    assert len(state.players[DANI].centre) == 1
    assert len(state.players[DANI].wasteland) == 1


def test_t6_colony_bombardment_and_the_win():
    state = raid("Ostromtörő", "colony", colony=3)  # BMB 4 > 3 cards
    assert state.players[DANI].colony == [] and len(state.players[DANI].wasteland) == 3
    do(state, "end_turn")
    assert state.winner == LACI


def test_r11_4_5_4_crew_bombardment():
    state = raid("Ostromtörő", "crew", "Zsoldos")
    assert card(state, "Zsoldos").zone == "trash"  # paid: trash
    state = raid("Ostromtörő", "crew", "Tüzér")
    assert card(state, "Tüzér").zone == "wasteland"  # unpaid: wasteland


def test_amb48_crew_aboard_cannot_be_bombarded():
    state = position(
        """
        kgk players=laci,dani turn=4 active=laci
        laci colony: Rozsdafog*10
        laci hangar: Ostromtörő
        dani colony: Pilótahal*10
        dani canteen: Zsoldos
        dani hangar: Holdimádó
        """
    )
    do(state, "attack", target="crew", card="Zsoldos")
    do(state, "choose", value="Ostromtörő")
    do(state, "choose", value="Holdimádó")
    do(state, "board", card="Zsoldos", ship="Holdimádó")
    assert decision(state) == (DANI, "fire")  # speed 3 > 2
    do(state, "pass")
    do(state, "pass")
    do(state, "choose", value="Ostromtörő")
    do(state, "done")
    zsoldos = card(state, "Zsoldos")
    assert zsoldos.zone == "canteen" and zsoldos.orientation == "active"  # R 11.4.6.1


def test_t5_paid_base_loses_armour_and_turns_damaged():
    """Kristálybunker (ARM 4) vs Mamut I. (BMB 3): armour 1, damaged; reset at the end phase."""
    state = raid("Mamut I.", "base", "Kristálybunker")
    base = card(state, "Kristálybunker")
    assert V.armour_left(state, base) == 1 and base.orientation == "damaged"
    do(state, "end_turn")
    assert V.armour_left(state, base) == 4 and base.orientation == "damaged"


def test_r11_4_5_6_paid_base_destroyed_when_the_total_reaches_its_armour():
    state = raid("Ostromtörő", "base", "Kristálybunker")  # 4 >= 4
    assert card(state, "Kristálybunker").zone == "trash"


def test_r11_4_5_8_successful_bombardment_triggers_on_bombard():
    """Gyökérkapitány (captain, on_bombard: gain 2) aboard a successful bomber."""
    state = position(
        """
        kgk players=laci,dani turn=4 active=laci
        laci credits=0
        laci colony: Rozsdafog*10
        laci canteen: Gyökérkapitány
        laci hangar: Halálszárny
        dani colony: Pilótahal*10
        """
    )
    do(state, "attack", target="colony")
    do(state, "choose", value="Halálszárny")
    do(state, "board", card="Gyökérkapitány", ship="Halálszárny")
    do(state, "choose", value="Halálszárny")
    assert state.players[LACI].credits == 2
    assert len(state.players[DANI].colony) == 9  # Halálszárny: bombardment 1
    crew = card(state, "Gyökérkapitány")
    assert crew.zone == "canteen" and crew.orientation == "used"  # R 4.4.5: from a used ship


# --- payment step, missiles, disarm -------------------------------------------------------------


def test_r4_3_5_missile_paid_in_combat_acts_at_the_end_of_payment_then_trashed():
    state = position(
        """
        kgk players=laci,dani turn=4 active=laci
        laci credits=5
        laci colony: Rozsdafog*10
        laci hangar: Cobra Flash [Torpedó (down)]
        dani colony: Pilótahal*10
        dani hangar: Holdimádó
        """
    )
    do(state, "attack", target="colony")
    do(state, "choose", value="Cobra Flash")
    do(state, "choose", value="Holdimádó")
    assert decision(state) == (LACI, "payments")
    do(state, "pay", card="Torpedó")
    pass_windows(state)  # paying is an interrupt: its window (R 11.3.2)
    assert card(state, "Holdimádó").zone == "trash"  # 3 damage to armour 3
    while decision(state) != (LACI, "main"):
        action = legal_actions(state)[-1]
        do(state, action.kind, **dict(action.params))
    assert card(state, "Torpedó").zone == "trash"  # R 4.3.5c: paid missiles, at disarm


def test_amb51_several_attacks_per_turn_with_unused_ships():
    state = position(DUEL.format(att="Cobra Flash, Halálszárny", dfn="Holdimádó (used)", credits=0))
    do(state, "attack", target="colony")
    do(state, "choose", value="Cobra Flash")
    do(state, "choose", value="Halálszárny")
    # Dani cannot defend (his ship is used), nothing to pay: straight to the bombers
    assert decision(state) == (LACI, "bombers")
    do(state, "choose", value="Halálszárny")
    do(state, "done")
    assert card(state, "Halálszárny").orientation == "used"  # R 11.4.5.7
    assert card(state, "Cobra Flash").orientation == "active"  # it neither fired nor bombed
    assert len(state.players[DANI].colony) == 9
    do(state, "attack", target="colony")  # AMB-51: a second attack with the unused ship
    assert state.combat is not None


# --- §22 ruleset flags ----------------------------------------------------------------------


def flagged(text, **flags):
    from engine.ruleset import Ruleset

    return position(text, ruleset=Ruleset(**flags))


def test_amb21_rotate_shooter_after_damage_flag():
    state = flagged(
        DUEL.format(att="Cobra Flash", dfn="Kitinvadász", credits=0),
        rotate_shooter_on_declare=False,
    )
    do(state, "attack", target="colony")
    do(state, "choose", value="Cobra Flash")
    do(state, "choose", value="Kitinvadász")
    do(state, "fire", ship="Cobra Flash", target="Kitinvadász")
    assert card(state, "Cobra Flash").orientation == "active"  # not yet
    do(state, "return_fire")
    assert card(state, "Cobra Flash").orientation in ("used", "damaged")


def test_amb22_cloak_blocks_fire_flag():
    text = DUEL.format(att="Cobra Flash", dfn="Diplomatahajó", credits=0)
    for flag, first in ((False, LACI), (True, DANI)):
        state = flagged(text, cloak_blocks_fire=flag)
        do(state, "attack", target="colony")
        do(state, "choose", value="Cobra Flash")
        do(state, "choose", value="Diplomatahajó")
        # with the flag Cobra Flash has nothing to fire at: its pass is automatic
        assert decision(state) == (first, "fire")


def test_amb24_burst_return_fire_only_when_firing_flag():
    state = flagged(EX6, burst_return_fire_scope="when_firing")
    do(state, "attack", target="colony")
    do(state, "choose", value="CRX")
    do(state, "done")
    do(state, "choose", value="Cobra Flash")
    do(state, "choose", value="Halálszárny")
    do(state, "fire", ship="Cobra Flash", target="CRX")
    do(state, "return_fire")
    do(state, "choose", value="Halálszárny")
    do(state, "done")
    assert decision(state) != (LACI, "burst_return_fire")  # CRX was returning fire


def test_amb26_trap_payable_vs_stealth_flag():
    text = """
        kgk players=laci,dani turn=4 active=laci
        laci colony: Rozsdafog*5
        laci hangar: Inváziós bárka
        dani credits=5
        dani colony: Pilótahal*5
        dani surface: Chazma töltet (down)
        dani hangar: Holdimádó
        """
    for flag, asked in ((False, False), (True, True)):
        state = flagged(text, trap_payable_vs_stealth=flag)
        do(state, "attack", target="base", card="Chazma töltet")
        do(state, "choose", value="Inváziós bárka")
        do(state, "choose", value="Holdimádó")
        do(state, "pass")  # Holdimádó (3) is faster than Inváziós bárka (2)
        do(state, "stealth", ship="Inváziós bárka")
        assert (decision(state) == (DANI, "trap")) is asked
        if not asked:
            assert card(state, "Chazma töltet").zone == "wasteland"  # AMB-26


def test_amb10_hangar_limit_on_play_flag():
    text = """
        kgk players=laci,dani turn=4 active=laci
        laci credits=20
        laci colony: Rozsdafog*5
        laci centre: CRX
        laci hangar: Mamut I., Cobra Flash, Halálszárny
        dani colony: Pilótahal*5
        """
    assert ids(position(text), "play")  # 9 + 4 = 13: allowed by default
    state = flagged(text, hangar_limit_on_play=True)
    with pytest.raises(IllegalAction) as err:
        do(state, "play", card="CRX")
    assert err.value.code == "HANGAR_FULL"


def test_amb03_active_requires_paid_for_boarding_flag():
    text = """
        kgk players=laci,dani turn=4 active=laci
        laci colony: Rozsdafog*5
        laci canteen: Tüzér (down)
        laci hangar: Marduk Kurios
        dani colony: Pilótahal*5
        """
    for flag, can_board in ((False, True), (True, False)):
        state = flagged(text, active_requires_paid_for_boarding=flag)
        do(state, "attack", target="colony")
        do(state, "choose", value="Marduk Kurios")
        assert (decision(state) == (LACI, "board")) is can_board


def test_amb15_passenger_return_flag():
    text = """
        kgk players=laci,dani turn=4 active=laci
        laci colony: Rozsdafog*5
        laci canteen: Kalmár
        laci hangar: Marduk Kurios
        dani colony: Pilótahal*5
        """
    for flag, back in ((False, "used"), (True, "active")):
        state = flagged(text, passenger_exempt_from_return_used=flag)
        do(state, "attack", target="colony")
        do(state, "choose", value="Marduk Kurios")
        do(state, "board", card="Kalmár", ship="Marduk Kurios")
        do(state, "choose", value="Marduk Kurios")  # bombs: Marduk turns used (R 11.4.5.7)
        assert card(state, "Kalmár").orientation == back
