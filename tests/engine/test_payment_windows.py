"""Payments are interrupts (R 11.3.2, R 12.1b, AMB-14) and the combat steps' response
windows (R 11.4.2 equip, R 11.4.3 payment, R 11.4.5 bombardment; R 12.2)."""

from engine_kit import card, decision, do, pass_windows, position

from engine import values as V
from engine.game import legal_actions

LACI, DANI = 0, 1

MAIN = """
kgk players=laci,dani turn=4 active=laci
laci credits=5
laci colony: Rozsdafog*10
laci surface: Kristálybunker (down u3)
laci hangar: Marduk Kurios
dani credits=2
dani colony: Pilótahal*10
dani centre: {dani_centre}
dani hangar: Holdimádó
"""


def test_r11_3_2_a_payment_waits_on_the_chain_for_the_opponents_answer():
    """R 11.3.2 / R 12.2.1: the credits go at once, the card is paid only when the chain
    resolves; the opponent holding cards is asked first (R 12.3)."""
    state = position(MAIN.format(dani_centre="Felsőbb parancs"))
    events = do(state, "pay", card="Kristálybunker")
    bunker = card(state, "Kristálybunker")
    assert state.players[LACI].credits == 4  # paid at the moment it is added (R 12.2.1)
    assert bunker.face_up and not bunker.paid  # revealed, not yet in effect
    assert [e["kind"] for e in state.chain] == ["payment"]
    assert decision(state) == (DANI, "respond")
    assert "play:card=" in " ".join(a.id for a in legal_actions(state))
    assert [e.kind for e in events if e.kind in ("pay", "paid")] == ["pay"]
    events = do(state, "pass")
    assert bunker.paid and state.chain == []
    assert "paid" in [e.kind for e in events]
    pass_windows(state)  # AMB-13: a new window after the chain resolved
    assert decision(state) == (LACI, "main")


def test_amb14_neutralising_a_payment_leaves_the_card_unpaid_and_face_down():
    """AMB-14 (b) / R 12.5: Felsőbb parancs neutralises Laci's payment: the credit is lost,
    Kristálybunker stays in play, unpaid and face down; it may be paid again later."""
    state = position(MAIN.format(dani_centre="Felsőbb parancs"))
    do(state, "pay", card="Kristálybunker")
    do(state, "play", card="Felsőbb parancs")  # its only target: the payment
    pass_windows(state)
    bunker = card(state, "Kristálybunker")
    assert bunker.zone == "surface" and not bunker.paid and not bunker.face_up
    assert state.players[LACI].credits == 4  # the credit is lost
    assert state.players[DANI].credits == 0
    assert card(state, "Felsőbb parancs").zone == "trash"
    assert decision(state) == (LACI, "main")
    do(state, "pay", card="Kristálybunker")  # normal timing again
    pass_windows(state)
    assert bunker.paid and state.players[LACI].credits == 3


def test_r12_5_a_cost_filtered_neutraliser_reads_the_paid_cards_cost():
    """R 12.1b / R 12.5: Lefizetés neutralises an interrupt costing at most 2; a payment
    counts with the paid card's credit cost (Kristálybunker: 1)."""
    state = position(MAIN.format(dani_centre="Lefizetés"))
    do(state, "pay", card="Kristálybunker")
    assert "play:card=" in " ".join(a.id for a in legal_actions(state))
    do(state, "play", card="Lefizetés")
    pass_windows(state)
    assert not card(state, "Kristálybunker").paid


def test_r11_3_2_no_decision_when_nobody_can_answer_on_public_information():
    """R 12.2 / R 16.2: with both centres empty and no usable ability the window passes by
    itself (public information only), and the payment takes effect at once."""
    state = position(MAIN.format(dani_centre="").replace("dani centre: \n", ""))
    do(state, "pay", card="Kristálybunker")
    assert card(state, "Kristálybunker").paid
    assert decision(state) == (LACI, "main")


COMBAT = """
kgk players=laci,dani turn=4 active=laci
laci credits=9
laci colony: Rozsdafog*10
laci canteen: Tüzér (down)
laci hangar: Marduk Kurios
dani credits=4
dani colony: Pilótahal*10
dani centre: {dani_centre}
dani hangar: Holdimádó
dani surface: Kristálybunker (u3)
"""


def to_equip_window(state, target="colony", card_name=None, defend=True):
    do(state, "attack", target=target, card=card_name)
    pass_windows(state)  # the declaration window (R 11.4.1.2)
    do(state, "choose", value="Marduk Kurios")
    do(state, "board", card="Tüzér", ship="Marduk Kurios")  # Marduk is full: equip goes on
    if defend:
        do(state, "choose", value="Holdimádó")
    else:
        do(state, "done")


def test_r11_4_2_the_equip_step_ends_with_a_combat_window():
    """R 11.4.2 / R 12.2: after both sides designated, combat interrupts may answer: Dani's
    Csapdába csalás turns the attacking Marduk Kurios used before the payment step, so it
    can neither fire nor bombard (R 11.4.4.1, R 11.4.5.1)."""
    state = position(COMBAT.format(dani_centre="Csapdába csalás"))
    to_equip_window(state)
    assert decision(state) == (DANI, "respond")  # Laci holds nothing: he passed by itself
    assert state.combat["step"] == "equip_window"
    do(state, "play", card="Csapdába csalás")
    pass_windows(state)
    assert card(state, "Marduk Kurios").orientation == "used"
    assert decision(state) == (LACI, "payments")


def test_r11_4_3_a_combat_payment_opens_a_window_for_the_opponent():
    """R 11.4.3.1 / R 11.3.2: the attacker's payment of Tüzér in the payment step is an
    interrupt; Dani answers it with Felsőbb parancs (AMB-14 b: Tüzér stays unpaid)."""
    state = position(COMBAT.format(dani_centre="Felsőbb parancs"))
    to_equip_window(state)
    pass_windows(state)  # the equip window
    assert decision(state) == (LACI, "payments")
    do(state, "pay", card="Tüzér")
    assert decision(state) == (DANI, "respond")
    assert state.players[LACI].credits == 4
    do(state, "play", card="Felsőbb parancs")
    pass_windows(state)
    tuzer = card(state, "Tüzér")
    assert not tuzer.paid and not tuzer.face_up
    assert V.stat(state, card(state, "Marduk Kurios"), "bombardment") == 0  # no Tüzér bonus


def test_r11_4_5_the_bombardment_step_has_a_window_before_the_bombs_fall():
    """R 11.4.5 / R 12.2: after the bombers are designated, Dani answers with Óvóhely
    (+3 armour to a paid base): Marduk Kurios with Tüzér's +3 bombards for 3 against armour
    3 + 3, so Kristálybunker survives, damaged (R 11.4.5.6)."""
    state = position(COMBAT.format(dani_centre="Óvóhely"))
    to_equip_window(state, target="base", card_name="Kristálybunker", defend=False)
    pass_windows(state)
    do(state, "pay", card="Tüzér")
    pass_windows(state)
    assert decision(state) == (LACI, "mode")  # Tüzér at the end of the payment step
    do(state, "choose", value=1)  # +3 bombardment
    do(state, "choose", value="Marduk Kurios")
    assert decision(state) == (DANI, "respond")
    assert state.combat["step"] == "bombard"
    do(state, "play", card="Óvóhely")
    pass_windows(state)
    bunker = card(state, "Kristálybunker")
    assert bunker.zone == "surface" and bunker.orientation == "damaged"
    assert bunker.damage == 3


def test_amb14_a_neutralised_trap_payment_leaves_the_base_to_be_destroyed():
    """R 11.4.5.5 / AMB-14 (b): the defender pays the trap, the attacker neutralises the
    payment; the base is still unpaid with a total of 2 or more, so it is destroyed."""
    state = position(
        """
        kgk players=laci,dani turn=4 active=laci
        laci credits=2
        laci colony: Rozsdafog*10
        laci centre: Felsőbb parancs
        laci hangar: Mamut I.
        dani credits=9
        dani colony: Pilótahal*10
        dani surface: Chazma töltet (down)
        """
    )
    do(state, "attack", target="base", card="Chazma töltet")
    pass_windows(state)
    do(state, "choose", value="Mamut I.")
    pass_windows(state)
    do(state, "choose", value="Mamut I.")
    if decision(state) == (LACI, "bombers"):
        do(state, "done")
    pass_windows(state)
    assert decision(state) == (DANI, "trap")
    do(state, "pay", card="Chazma töltet")
    assert decision(state) == (LACI, "respond")
    do(state, "play", card="Felsőbb parancs")
    pass_windows(state)
    trap = card(state, "Chazma töltet")
    assert trap.zone == "wasteland" and not trap.face_up
    assert card(state, "Mamut I.").zone == "hangar"  # the trap never acted


def test_amb14_flag_neutralising_a_payment_can_remove_the_card():
    """AMB-14, flag `neutralize_payment_removes_card=True`: the neutralised card leaves play
    for its owner's trash (R 12.5), the credits are lost."""
    from engine.ruleset import Ruleset

    state = position(
        MAIN.format(dani_centre="Felsőbb parancs"),
        ruleset=Ruleset(neutralize_payment_removes_card=True),
    )
    do(state, "pay", card="Kristálybunker")
    do(state, "play", card="Felsőbb parancs")
    pass_windows(state)
    bunker = card(state, "Kristálybunker")
    assert bunker.zone == "trash" and bunker.face_up and not bunker.paid
    assert state.players[LACI].credits == 4
