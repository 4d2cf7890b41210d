"""R 11.2, 11.3 (M1-M9), 11.5 (end phase), R 6 (paid, face down, bluffing) and R 15."""

import pytest
from engine_kit import card, decision, do, ids, position

from engine import values as V
from engine.actions import IllegalAction
from engine.game import legal_actions
from engine.main_actions import main_actions, main_candidates
from engine.main_phase import check_main
from engine.ruleset import Ruleset

P1, P2 = 0, 1

BASIC = """
kgk players=laci,dani turn=4 active=laci
laci credits={credits}
laci colony: Rozsdafog*20
dani colony: Pilótahal*20
"""


def basic(extra="", credits=10, **kw):
    return position(BASIC.format(credits=credits) + extra, **kw)


def reason(state, kind, **params):
    with pytest.raises(IllegalAction) as err:
        do(state, kind, **params)
    return err.value.code


# --- M1 face-down play and R 6.10 bluffing --------------------------------------------------


def test_m1_bases_crew_armaments_enter_face_down_unpaid_with_fresh_ids():
    """R 4.3.1, 4.4.1, 4.5.1 / AMB-02; NOTES: a card entering a hidden place gets a new id."""
    state = basic("laci centre: Aknagyűrű, Tüzér, Páncéllemez\nlaci hangar: Marduk Kurios")
    old = {card(state, n).id for n in ("Aknagyűrű", "Tüzér", "Páncéllemez")}
    do(state, "place", card="Aknagyűrű", to="surface")
    do(state, "place", card="Tüzér", to="canteen")
    do(state, "place", card="Páncéllemez", to="ship", ship="Marduk Kurios")
    base, crew, armour = (card(state, n) for n in ("Aknagyűrű", "Tüzér", "Páncéllemez"))
    assert (base.zone, crew.zone, armour.zone) == ("surface", "canteen", "hangar")
    assert not any(c.paid or c.face_up for c in (base, crew, armour))
    assert not old & {base.id, crew.id, armour.id}
    assert armour.attached_to == card(state, "Marduk Kurios").id
    assert state.players[P1].credits == 10  # M1 costs nothing


def test_r4_2_4_capacity_counts_armaments_and_crew():
    state = basic("laci centre: Páncéllemez, Célzóradar\nlaci hangar: Marduk Kurios")
    do(state, "place", card="Páncéllemez", to="ship", ship="Marduk Kurios")
    assert reason(state, "place", card="Célzóradar", to="ship", ship="Marduk Kurios") == "SHIP_FULL"


def test_r6_10_bluff_an_event_as_a_base_upgrade_it_never_pay_it():
    state = basic("laci centre: Jó üzlet")
    do(state, "place", card="Jó üzlet", to="surface")
    bluff = card(state, "Jó üzlet")
    do(state, "upgrade", card=bluff.id)  # R 6.10: it can be upgraded like a base
    assert bluff.upgrades == 1
    assert f"pay:card={bluff.id}" not in ids(state, "pay")
    assert reason(state, "pay", card=bluff.id) == "CANNOT_PAY"


def test_amb39_bluff_slots_flag():
    state = basic("laci centre: Jó üzlet", ruleset=Ruleset(bluff_slots=("surface",)))
    assert reason(state, "place", card="Jó üzlet", to="canteen") == "BLUFF_NOT_ALLOWED"
    do(state, "place", card="Jó üzlet", to="surface")


# --- M4 playing ships and events ---------------------------------------------------------------


def test_m4_a_ship_enters_face_up_paid_and_active():
    """R 4.2.1, 4.2.8, 6.2."""
    state = basic("laci centre: Cobra Flash, Aknagyűrű", credits=6)
    assert reason(state, "play", card="Aknagyűrű") == "PLAY_FACE_DOWN"
    do(state, "play", card="Cobra Flash")
    ship = card(state, "Cobra Flash")
    assert (ship.zone, ship.face_up, ship.paid, ship.orientation) == (
        "hangar",
        True,
        True,
        "active",
    )
    assert state.players[P1].credits == 0


def test_m4_insufficient_credits():
    state = basic("laci centre: Cobra Flash", credits=5)
    assert reason(state, "play", card="Cobra Flash") == "INSUFFICIENT_CREDITS"


def test_m4_an_event_resolves_and_goes_to_the_trash():
    """R 4.6.1: Befektetés (3 CR): gain 6 credits."""
    state = basic("laci centre: Befektetés", credits=3)
    do(state, "play", card="Befektetés")
    assert state.players[P1].credits == 6
    assert card(state, "Befektetés").zone == "trash"


# --- M5 paying, M6 upgrading, M3 cashing upgrades -----------------------------------------------


def test_ex2_upgrades_twice_per_base_per_turn_then_pay_for_free():
    """EX-2 steps 1-2 and assertions 1-2 (R 4.5.2, 4.5.4)."""
    state = basic("laci surface: Aknagyűrű (down u2)", credits=7)
    assert reason(state, "pay", card="Aknagyűrű") == "NOT_ENOUGH_UPGRADES"
    do(state, "upgrade", card="Aknagyűrű")
    with pytest.raises(IllegalAction):  # 3 < 4 upgrades
        do(state, "pay", card="Aknagyűrű")
    do(state, "upgrade", card="Aknagyűrű")
    assert reason(state, "upgrade", card="Aknagyűrű") == "UPGRADE_LIMIT_PER_TURN"
    do(state, "pay", card="Aknagyűrű")
    base = card(state, "Aknagyűrű")
    assert base.paid and base.face_up and base.upgrades == 4
    assert state.players[P1].credits == 5


def test_r4_5_2_the_upgrade_limit_resets_each_turn():
    state = basic("laci surface: Aknagyűrű (down u2 b2)")
    assert ids(state, "upgrade") == []
    do(state, "end_turn")
    do(state, "end_turn")  # Dani's turn, empty centres: no windows
    assert state.active == P1
    do(state, "upgrade", card="Aknagyűrű")
    assert card(state, "Aknagyűrű").bought == 1


def test_m3_two_upgrades_for_one_credit():
    """R 4.5.3 / AMB-47: from one or two bases, paid or not."""
    state = basic("laci surface: Aknagyűrű (down u1), Mélyvár (u3)", credits=0)
    a, b = card(state, "Aknagyűrű"), card(state, "Mélyvár")
    lo, hi = sorted((a.id, b.id))
    do(state, "cash", a=lo, b=hi)
    assert (a.upgrades, b.upgrades, state.players[P1].credits) == (0, 2, 1)
    do(state, "cash", a=b.id, b=b.id)
    assert b.upgrades == 0 and state.players[P1].credits == 2
    assert reason(state, "cash", a=b.id, b=b.id) == "NOT_ENOUGH_UPGRADES"


def test_r4_5_9_traps_are_not_paid_in_the_main_phase():
    state = basic("laci surface: Chazma töltet (down u4)")
    assert reason(state, "pay", card="Chazma töltet") == "TRAP_ONLY_WHEN_BOMBARDED"


def test_r4_3_5_missiles_are_not_paid_in_the_main_phase():
    state = basic("laci hangar: Marduk Kurios [Torpedó (down)]")
    assert reason(state, "pay", card="Torpedó") == "MISSILE_ONLY_IN_COMBAT"


def test_m5_crew_in_the_canteen_and_armaments_are_paid_in_the_main_phase():
    state = basic("laci canteen: Tüzér (down)\nlaci hangar: Marduk Kurios [Páncéllemez (down)]")
    do(state, "pay", card="Tüzér")
    do(state, "pay", card="Páncéllemez")
    assert state.players[P1].credits == 10 - 5 - 2
    assert V.stat(state, card(state, "Marduk Kurios"), "armour") == 4  # R 5.2 icon bonus


def test_r4_5_5_research_x_is_locked_at_payment_then_trashed():
    """AMB-17, R 4.5.8: Genetikai kutatás (research, UL X): draw X when paid."""
    state = basic("laci surface: Genetikai kutatás (down u3)")
    do(state, "pay", card="Genetikai kutatás")
    assert len(state.players[P1].centre) == 3
    assert len(state.players[P1].colony) == 17
    assert card(state, "Genetikai kutatás").zone == "trash"


# --- M7, M8, M9 ---------------------------------------------------------------------------------


def test_m7_draw_for_one_credit_and_not_from_an_empty_colony():
    state = basic(credits=2)
    do(state, "draw")
    assert len(state.players[P1].centre) == 1 and state.players[P1].credits == 1
    state = position(
        "kgk players=laci,dani turn=4 active=laci\nlaci credits=5\ndani colony: Pilótahal"
    )
    assert reason(state, "draw") == "COLONY_EMPTY"  # AMB-55


def test_t10_search_top_five_for_two_then_shuffle():
    state = position(
        """
        kgk players=laci,dani turn=4 active=laci
        laci credits=2
        laci colony: Rozsdafog*3, Cobra Flash, Halálszárny, Marduk Kurios*4
        dani colony: Pilótahal*9
        """
    )
    do(state, "search")
    assert state.players[P1].credits == 0
    options = [a.get("value") for a in legal_actions(state)]
    assert len(options) == 5
    do(state, "choose", value="Halálszárny")
    assert card(state, "Halálszárny").zone == "centre"
    assert len(state.players[P1].colony) == 8
    assert state.players[P1].centre == [card(state, "Halálszárny").id]


def test_amb46_search_with_fewer_than_five_cards_sees_all():
    state = position(
        "kgk players=laci,dani turn=4 active=laci\nlaci credits=2\nlaci colony: Rozsdafog*2"
    )
    do(state, "search")
    assert len(legal_actions(state)) == 2


def test_t9_wasteland_draw_only_with_five_or_fewer_colony_cards():
    text = """
        kgk players=laci,dani turn=4 active=laci
        laci credits=4
        laci colony: Rozsdafog*{n}
        laci wasteland: Cobra Flash, Halálszárny
        dani colony: Pilótahal*9
    """
    state = position(text.format(n=6))
    assert reason(state, "wasteland_draw") == "COLONY_TOO_LARGE"
    state = position(text.format(n=5))
    do(state, "wasteland_draw")  # the bottom card of the wasteland
    assert card(state, "Cobra Flash").zone == "centre"
    assert state.players[P1].credits == 2


# --- R 11.2 start phase -----------------------------------------------------------------------


def test_r11_2_income_then_start_of_turn_abilities():
    state = position(
        """
        kgk players=laci,dani turn=6 active=laci
        laci credits=0
        laci colony: Rozsdafog*5
        dani credits=0
        dani colony: Pilótahal*5
        dani hangar: Karavánhajó
        """
    )
    do(state, "end_turn")
    assert state.active == P2 and state.turn == 7
    assert state.players[P2].credits == 5 + 1  # R 11.2.1 income, then Karavánhajó


# --- R 11.5 end phase ----------------------------------------------------------------------


def test_t1_hand_limit_discards_face_down_to_the_wasteland():
    state = basic("laci centre: Rozsdafog*7")
    do(state, "end_turn")
    assert decision(state) == (P1, "discard")
    choices = [a.get("value") for a in legal_actions(state)]
    do(state, "choose", value=choices[0])
    do(state, "choose", value=choices[1])
    assert len(state.players[P1].centre) == 5 and len(state.players[P1].wasteland) == 2
    assert all(not state.cards[c].face_up for c in state.players[P1].wasteland)
    assert state.active == P2


def test_t2_hangar_limit_counts_mamut_as_six():
    """R 11.5.2, AMB-09, EX-6 assertion 8: 6 + 4 + 2 + 1 = 13 > 12."""
    state = basic("laci hangar: Mamut I., CRX, Cobra Flash, Halálszárny [Páncéllemez]")
    assert V.hangar_total(state, P1) == 13
    do(state, "end_turn")
    assert decision(state) == (P1, "discard_ship")
    do(state, "choose", value="Halálszárny")
    assert card(state, "Halálszárny").zone == "trash"
    assert card(state, "Páncéllemez").zone == "trash"  # R 14.2 / AMB-37
    assert state.active == P2


def test_t3_credit_cap_only_in_ones_own_end_phase():
    state = basic("dani credits=23", credits=23)
    do(state, "end_turn")
    assert state.players[P1].credits == 20
    assert state.players[P2].credits == 23 + 5  # kept until Dani's own end phase
    do(state, "end_turn")
    assert state.players[P2].credits == 20


def test_r11_5_4_armour_reset_and_r6_7_recovery():
    """T-5 second half; R 6.7: only the active player's cards turn back 90 degrees."""
    state = basic(
        "laci hangar: Cobra Flash (damaged dmg2), Marduk Kurios (used)\n"
        "laci surface: Mélyvár (damaged dmg3)\n"
        "dani hangar: Holdimádó (damaged dmg1)"
    )
    do(state, "end_turn")
    cobra, marduk, base, holdi = (
        card(state, n) for n in ("Cobra Flash", "Marduk Kurios", "Mélyvár", "Holdimádó")
    )
    assert (cobra.orientation, marduk.orientation, base.orientation) == ("used", "active", "used")
    assert holdi.orientation == "damaged"  # Dani's card waits for Dani's end phase
    assert cobra.damage == base.damage == holdi.damage == 0  # AMB-19: every card in play


def test_amb19_own_armour_reset_flag():
    state = basic(
        "dani hangar: Holdimádó (damaged dmg1)", ruleset=Ruleset(armour_reset_scope="own")
    )
    do(state, "end_turn")
    assert card(state, "Holdimádó").damage == 1


# --- R 15 winning ------------------------------------------------------------------------------


def test_r15_1_empty_opposing_colony_at_the_end_of_your_end_phase_wins():
    state = position("kgk players=laci,dani turn=9 active=laci\nlaci colony: Rozsdafog")
    assert state.winner is None  # R 15.2: an empty colony does not lose at once
    do(state, "end_turn")
    assert state.winner == P1 and state.result == "colony"
    assert legal_actions(state) == []


def test_r15_3_both_colonies_empty_the_active_player_wins():
    state = position("kgk players=laci,dani turn=9 active=dani")
    do(state, "end_turn")
    assert state.winner == P2


# --- main_actions is exactly the candidates check_main accepts --------------------------------


def test_main_actions_match_check_main():
    state = basic(
        "laci centre: Cobra Flash, Tüzér, Jó üzlet, Extra találat, Felsőbb parancs\n"
        "laci surface: Aknagyűrű (down u2), Mélyvár (u1), Chazma töltet (down u3)\n"
        "laci canteen: Zsoldos (down)\n"
        "laci hangar: Marduk Kurios, Halálszárny [Torpedó (down)]\n"
        "dani surface: Kaptárerőd\ndani canteen: Túsz (down)",
        credits=6,
    )
    fast = main_actions(state, P1)
    slow = [a for a in main_candidates(state, P1) if check_main(state, P1, a) is None]
    assert sorted(a.id for a in fast) == sorted(a.id for a in slow)
    assert len(fast) == len(set(fast))


def test_r5_4_3_a_ship_at_zero_armour_is_destroyed_at_once():
    """Szigonyvető (+2 FP, -1 ARM) paid on a 1-armour ship (AMB-34)."""
    state = basic("laci hangar: Kardhal [Szigonyvető (down)]")  # 6-2-1-0
    do(state, "pay", card="Szigonyvető")
    assert card(state, "Kardhal").zone == "trash"
    assert card(state, "Szigonyvető").zone == "trash"
