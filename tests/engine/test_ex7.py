"""RULES.md §20 EX-7 — the derived test vectors T-1 ... T-10, one test each, with the exact
numbers of the vector (where the first-edition set has no card with the vector's stats, the
test says what it uses instead; see T-7).

Several vectors also have shorter tests in test_turn.py / test_combat.py (e.g. T-5:
test_combat.py::test_t5_paid_base_loses_armour_and_turns_damaged); these are the full ones.
"""

import pytest
from engine_kit import CARDS, card, decision, do, ids, pass_windows, position

from engine import notation as N
from engine import values as V
from engine.actions import IllegalAction, MalformedAction
from engine.game import apply, legal_actions, pending
from engine.ruleset import Ruleset
from engine.view import view, view_events

LACI, DANI = 0, 1

BASE = """
kgk players=laci,dani turn=4 active=laci
laci credits={credits}
laci colony: Rozsdafog*20
dani credits={dani_credits}
dani colony: {dani_colony}
"""


def pos(extra="", credits=10, dani_credits=0, dani_colony="Pilótahal*20", **kw):
    text = BASE.format(credits=credits, dani_credits=dani_credits, dani_colony=dani_colony)
    return position(text + extra, **kw)


def rejected(state, kind, **params) -> str:
    """The action is refused with IllegalAction; return its reason code."""
    with pytest.raises(IllegalAction) as err:
        do(state, kind, **params)
    return err.value.code


def events_of(events, kind):
    return [e.data for e in events if e.kind == kind]


def raid(state, target, attackers, bombers, card_name=None):
    """Laci attacks `target` (Dani has no ships: no firing step) with `attackers` and
    bombs with `bombers` (R 11.4.1-11.4.5); return the events."""
    events = do(state, "attack", target=target, card=card_name)
    pass_windows(state)  # the declaration window (R 11.4.1.2)
    for name in attackers:
        events += do(state, "choose", value=name)
    if decision(state) == (LACI, "attackers"):
        events += do(state, "done")
    pass_windows(state)  # equip and payment windows (R 12.2)
    assert decision(state) == (LACI, "bombers")
    for name in bombers:
        events += do(state, "choose", value=name)
    if decision(state) == (LACI, "bombers"):  # e.g. ordnance would still be possible
        events += do(state, "done")
    while decision(state) is not None and decision(state)[1] == "respond":
        events += apply(state, "pass")  # the window before the bombs fall (R 11.4.5)
    return events


# --- T-1 ------------------------------------------------------------------------------------


def test_ex7_t1_hand_limit_seven_cards_owner_discards_two_face_down():
    """EX-7 T-1 (R 11.5.1, AMB-49): 7 cards in the centre at the end phase -> the owner
    chooses 2 -> wasteland, face down; 5 cards stay. With exactly 5 nothing happens."""
    state = pos("laci centre: Cobra Flash, Halálszárny, Rozsdafog*5")
    assert len(state.players[LACI].centre) == 7
    do(state, "end_turn")
    assert decision(state) == (LACI, "discard")
    assert pending(state).info["picks_left"] == 2
    options = {a.get("value") for a in legal_actions(state)}
    assert options == set(state.players[LACI].centre)  # any of the seven, owner's choice
    events = do(state, "choose", value="Cobra Flash")
    assert rejected(state, "done") == "NOT_A_LEGAL_CHOICE"  # two must go, not one
    assert rejected(state, "choose", value="Cobra Flash") == "NOT_A_LEGAL_CHOICE"  # distinct
    events += do(state, "choose", value="Halálszárny")
    player = state.players[LACI]
    assert len(player.centre) == 5 and len(player.wasteland) == 2
    for name in ("Cobra Flash", "Halálszárny"):
        gone = card(state, name)
        assert gone.zone == "wasteland" and not gone.face_up
    assert {state.defs[state.cards[c].code]["name"] for c in player.centre} == {"Rozsdafog"}
    # face down: Dani learns neither card (KG1-214 Cobra Flash, KG1-061 Halálszárny)
    dani_sees = str(view(state, DANI)) + str(view_events(events, DANI))
    assert "KG1-214" not in dani_sees and "KG1-061" not in dani_sees
    assert state.active == DANI  # the end phase went on

    state = pos("laci centre: Cobra Flash, Halálszárny, Rozsdafog*3")  # 5: not more than 5
    do(state, "end_turn")
    pass_windows(state)  # Dani's start phase: Laci holds cards, he may answer (R 11.2.2)
    assert state.active == DANI and decision(state) == (DANI, "main")
    assert len(state.players[LACI].centre) == 5 and state.players[LACI].wasteland == []


# --- T-2 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("discarded", ["Halálszárny", "Cobra Flash"])
def test_ex7_t2_hangar_limit_13_discard_ships_with_attachments(discarded):
    """EX-7 T-2 (R 11.5.2, R 14.2, AMB-09, AMB-37): Mamut I. (6) + CRX (4) + Cobra Flash (2)
    + Halálszárny (1) = 13 > 12 at its controller's end phase -> that player discards ships
    of their choice to the trash until <= 12, each with its attachments (paid -> trash,
    unpaid -> wasteland). Dani's 13 is not checked in Laci's end phase, only in Dani's."""
    state = pos(
        "laci hangar: Mamut I., CRX, Cobra Flash [Célzóradar (down)], Halálszárny [Páncéllemez]\n"
        "dani hangar: Virágzó bolygóhajó*3, Pilótahal",
        dani_colony="Rozsdafog*20",
    )
    sizes = {
        n: V.hangar_size(state, card(state, n))
        for n in ("Mamut I.", "CRX", "Cobra Flash", "Halálszárny")
    }
    assert sizes == {"Mamut I.": 6, "CRX": 4, "Cobra Flash": 2, "Halálszárny": 1}
    assert V.hangar_total(state, LACI) == 13 and V.hangar_total(state, DANI) == 13
    do(state, "end_turn")
    assert decision(state) == (LACI, "discard_ship")
    assert {a.get("value") for a in legal_actions(state)} == set(state.players[LACI].hangar)
    do(state, "choose", value=discarded)
    ship = card(state, discarded)
    assert ship.zone == "trash" and ship.face_up
    assert state.players[LACI].trash[-1] == ship.id
    plating, radar = card(state, "Páncéllemez"), card(state, "Célzóradar")
    if discarded == "Halálszárny":  # 13 - 1 = 12: one ship is enough
        assert V.hangar_total(state, LACI) == 12
        assert plating.zone == "trash"  # paid attachment: trash (R 14.1, 14.2)
        assert radar.zone == "hangar" and radar.attached_to == card(state, "Cobra Flash").id
    else:  # 13 - 2 = 11
        assert V.hangar_total(state, LACI) == 11
        assert radar.zone == "wasteland" and not radar.face_up  # unpaid: wasteland, hidden
        assert plating.zone == "hangar" and plating.attached_to == card(state, "Halálszárny").id
    # no second discard, and Dani's 13 waits for Dani's own end phase
    assert state.active == DANI and decision(state) == (DANI, "main")
    assert V.hangar_total(state, DANI) == 13
    do(state, "end_turn")
    assert decision(state) == (DANI, "discard_ship")
    do(state, "choose", value=N.find(state, "Pilótahal", zone="hangar"))
    assert V.hangar_total(state, DANI) == 12
    assert state.active == LACI


# --- T-3 ------------------------------------------------------------------------------------


def test_ex7_t3_credit_cap_23_to_20_only_in_ones_own_end_phase():
    """EX-7 T-3 (R 11.5.3): 23 credits at the end phase -> 20; 23 credits during the
    opponent's turn are kept until one's own end phase."""
    state = pos(credits=23, dani_credits=23)
    assert state.turn == 4
    events = do(state, "end_turn")
    assert state.players[LACI].credits == 20
    assert {e["why"]: e["change"] for e in events_of(events, "credits")}["credit cap"] == -3
    # Dani's 23 survived Laci's end phase: 23 + 5 income of turn 5 (R 10.6, 11.2.1)
    assert state.active == DANI and state.turn == 5
    assert state.players[DANI].credits == 28
    do(state, "end_turn")
    assert state.players[DANI].credits == 20
    # over 20 during one's own turn is fine: Laci has 20 + 5 until his end phase
    assert state.active == LACI and state.players[LACI].credits == 25
    do(state, "draw")
    assert state.players[LACI].credits == 24
    do(state, "end_turn")
    assert state.players[LACI].credits == 20
    # exactly 20 is not "more than 20"
    state = pos(credits=20)
    events = do(state, "end_turn")
    assert state.players[LACI].credits == 20
    assert all(e["why"] != "credit cap" for e in events_of(events, "credits"))


# --- T-4 ------------------------------------------------------------------------------------

CENTRE = """
laci hangar: {ships}
dani centre: Cobra Flash, Halálszárny, Marduk Kurios
"""


def test_ex7_t4_centre_bombardment_total_1_nothing_total_7_exactly_one_card():
    """EX-7 T-4 (R 11.4.5.3, 11.4.5.8): centre bombardment with total 1 -> nothing; with
    total 7 (Mamut I. 3 + Ostromtörő 4) -> exactly one card, of the defender's choice."""
    state = pos(CENTRE.format(ships="Halálszárny"), dani_colony="Pilótahal*20")
    events = raid(state, "centre", ["Halálszárny"], ["Halálszárny"])
    assert [e["total"] for e in events_of(events, "bombard")] == [1]
    assert decision(state) == (LACI, "main")  # Dani is never asked
    assert len(state.players[DANI].centre) == 3 and state.players[DANI].wasteland == []
    assert events_of(events, "bombard_success") == []
    assert card(state, "Halálszárny", seat=LACI).orientation == "used"  # R 11.4.5.7

    state = pos(CENTRE.format(ships="Mamut I., Ostromtörő"))
    events = raid(state, "centre", ["Mamut I.", "Ostromtörő"], ["Mamut I.", "Ostromtörő"])
    assert [e["total"] for e in events_of(events, "bombard")] == [3 + 4]
    assert decision(state) == (DANI, "discard")
    assert pending(state).info["picks_left"] == 1  # one card, however large the total
    assert {a.get("value") for a in legal_actions(state)} == set(state.players[DANI].centre)
    events = do(state, "choose", value="Halálszárny")  # the defender chooses
    assert card(state, "Halálszárny", seat=DANI).zone == "wasteland"
    assert not card(state, "Halálszárny", seat=DANI).face_up
    assert sorted(state.defs[state.cards[c].code]["name"] for c in state.players[DANI].centre) == [
        "Cobra Flash",
        "Marduk Kurios",
    ]
    assert len(state.players[DANI].wasteland) == 1
    assert events_of(events, "bombard_success") == [{"target": "centre"}]
    assert decision(state) == (LACI, "main")


# --- T-5 ------------------------------------------------------------------------------------


def test_ex7_t5_paid_base_armour_4_bombardment_3_then_reset():
    """EX-7 T-5 (R 11.4.5.6, 11.5.4, 11.5.5; AMB-19): paid base armour 4 (Kristálybunker),
    total bombardment 3 (Mamut I.) -> armour 4 -> 1 and damaged; at the end phase the armour
    is back to 4, still damaged until its owner's end phase. (Short form in test_combat.py.)"""
    state = pos("laci hangar: Mamut I.\ndani surface: Kristálybunker")
    base = card(state, "Kristálybunker")
    assert base.paid and V.armour_left(state, base) == 4
    events = raid(state, "base", ["Mamut I."], ["Mamut I."], card_name="Kristálybunker")
    assert [e["total"] for e in events_of(events, "bombard")] == [3]
    assert base.zone == "surface" and state.players[DANI].trash == []  # 3 < 4: not destroyed
    assert V.armour_left(state, base) == 1 and base.orientation == "damaged"
    assert events_of(events, "bombard_success") == []  # R 11.4.5.8: not destroyed
    do(state, "end_turn")  # Laci's end phase: every base in play regains its armour
    assert V.armour_left(state, base) == 4 and base.orientation == "damaged"
    assert state.active == DANI
    do(state, "end_turn")  # its owner's end phase: damaged -> used (R 11.5.5)
    assert V.armour_left(state, base) == 4 and base.orientation == "used"


# --- T-6 ------------------------------------------------------------------------------------


def test_ex7_t6_colony_bombardment_5_with_3_cards_then_the_attacker_wins():
    """EX-7 T-6 (R 11.4.5.2, 15.1, 15.2): colony bombardment total 5 (CRX) with 3 cards left
    -> 3 discarded; the attacker's end phase ends with the colony empty -> the attacker wins.
    Control: 6 cards -> 5 discarded, 1 left, no winner."""
    state = pos("laci hangar: CRX", dani_colony="Cobra Flash, Halálszárny, Marduk Kurios")
    events = raid(state, "colony", ["CRX"], ["CRX"])
    assert [e["total"] for e in events_of(events, "bombard")] == [5]
    dani = state.players[DANI]
    assert dani.colony == [] and len(dani.wasteland) == 3
    # one at a time from the top: the top card lies at the bottom of the wasteland
    names = [state.defs[state.cards[c].code]["name"] for c in dani.wasteland]
    assert names == ["Cobra Flash", "Halálszárny", "Marduk Kurios"]
    assert state.winner is None  # R 15.2: an empty colony does not lose at once
    do(state, "end_turn")
    assert state.winner == LACI and state.result == "colony"
    assert pending(state) is None and legal_actions(state) == []

    state = pos("laci hangar: CRX", dani_colony="Pilótahal*6")
    raid(state, "colony", ["CRX"], ["CRX"])
    assert len(state.players[DANI].colony) == 1 and len(state.players[DANI].wasteland) == 5
    do(state, "end_turn")
    assert state.winner is None and state.active == DANI


# --- T-7 ------------------------------------------------------------------------------------


def kalapacsfej_with_firepower(fp):
    """The card list with Kalapácsfej (KG1-215, heavy weapons, printed 4-3-3-0) given
    firepower `fp`. The first-edition set has no heavy-weapons ship of base FP 2 (Kalapácsfej
    3, Kaszás 3, Mélységi vadász 3, Fehér Halál 4, Megalodon 6) and the notation has no stat
    overrides, so T-7's exact numbers use this test-only copy (only this test's state sees
    it); the printed card is tested too."""
    return [{**d, "firepower": fp} if d["name"] == "Kalapácsfej" else d for d in CARDS]


T7 = """
kgk players=laci,dani turn=4 active=laci
laci credits=12
laci colony: Rozsdafog*10
laci hangar: Kalapácsfej
dani colony: Pilótahal*10
dani hangar: Kaptárhajó [Páncéllemez]
"""


@pytest.mark.parametrize(
    ("base_fp", "activations"),
    [(2, 2), (3, 3)],  # (2, 2): T-7 exactly (test-only FP 2); (3, 3): the printed card
)
def test_ex7_t7_heavy_weapons_at_most_twice_the_base_firepower(base_fp, activations):
    """EX-7 T-7 (R 13.7, AMB-27): heavy weapons on a ship with base FP 2, no other
    firepower bonus and 12 credits: at most two activations (FP 4 = 2 x 2), costing 4 CR.
    The printed Kalapácsfej (FP 3) gets three (FP 6) for 6 CR."""
    state = N.parse(T7, kalapacsfej_with_firepower(base_fp))
    ship = card(state, "Kalapácsfej")
    assert V.stat(state, ship, "firepower") == base_fp
    do(state, "attack", target="colony")
    do(state, "choose", value="Kalapácsfej")
    do(state, "choose", value="Kaptárhajó")
    assert decision(state) == (LACI, "fire")  # speed 4 > 1
    for i in range(activations):
        assert f"heavy_weapons:ship={ship.id}" in ids(state, "heavy_weapons")
        do(state, "heavy_weapons", ship="Kalapácsfej")
        assert V.stat(state, ship, "firepower") == base_fp + i + 1
    assert V.stat(state, ship, "firepower") == 2 * base_fp
    assert state.players[LACI].credits == 12 - 2 * activations  # T-7: 12 - 4 = 8
    # the cap, not the credits, stops it: one more is not offered and is refused
    assert state.players[LACI].credits >= 2
    assert ids(state, "heavy_weapons") == []
    assert rejected(state, "heavy_weapons", ship="Kalapácsfej") == "NOT_A_LEGAL_CHOICE"
    assert V.stat(state, ship, "firepower") == 2 * base_fp
    assert state.players[LACI].credits == 12 - 2 * activations
    # the shot deals the raised firepower: Kaptárhajó 6 + Páncéllemez 2 = armour 8
    target = card(state, "Kaptárhajó")
    assert V.armour_left(state, target) == 8
    do(state, "fire", ship="Kalapácsfej", target="Kaptárhajó")
    do(state, "hold_fire")
    assert V.armour_left(state, target) == 8 - 2 * base_fp
    do(state, "pass")  # Dani's Kaptárhajó passes; Laci has no eligible ship: firing ends
    assert decision(state) == (LACI, "main")
    assert V.stat(state, ship, "firepower") == base_fp  # until the end of the combat phase


# --- T-8 ------------------------------------------------------------------------------------


def test_ex7_t8_ordnance_at_most_three_colony_cards_for_base_bmb_3():
    """EX-7 T-8 (R 13.9, AMB-28): ordnance on Királynő bárkája (base BMB 3, no other bonus):
    at most 3 colony cards are discarded (BMB 3 -> 6, the cap); a request to discard 5 is
    rejected beyond 3. The engine discards one card per "ordnance" action (AMB-28's
    "declare the number" as repeated +1s), so "discard 5" is five requests: the 4th and
    5th are refused with IllegalAction; an action with a count is malformed."""
    state = pos(
        "laci hangar: Királynő bárkája, Halálszárny", dani_colony="Pilótahal*10"
    )  # Halálszárny attacks but does not bomb: the bombers decision stays open
    barge = card(state, "Királynő bárkája")
    assert V.stat(state, barge, "bombardment") == 3
    do(state, "attack", target="colony")
    do(state, "choose", value="Királynő bárkája")
    do(state, "choose", value="Halálszárny")
    assert decision(state) == (LACI, "bombers")
    do(state, "choose", value="Királynő bárkája")
    with pytest.raises(MalformedAction) as err:
        apply(state, {"kind": "ordnance", "ship": barge.id, "count": 5})
    assert err.value.code == "UNKNOWN_PARAM"
    accepted = 0
    for _ in range(5):  # "discard 5"
        try:
            do(state, "ordnance", ship="Királynő bárkája")
            accepted += 1
        except IllegalAction as refused:
            assert refused.code == "NOT_A_LEGAL_CHOICE"
    assert accepted == 3
    assert V.stat(state, barge, "bombardment") == 6 == 2 * 3
    assert len(state.players[LACI].colony) == 20 - 3 and len(state.players[LACI].wasteland) == 3
    assert decision(state) == (LACI, "bombers") and ids(state, "ordnance") == []
    events = do(state, "done")
    assert [e["total"] for e in events_of(events, "bombard")] == [6]
    assert len(state.players[DANI].colony) == 10 - 6
    assert decision(state) == (LACI, "main")
    assert V.stat(state, barge, "bombardment") == 3  # until the end of the combat phase
    assert len(state.players[LACI].colony) == 17  # the discarded cards stay discarded


# --- T-9 ------------------------------------------------------------------------------------

T9 = """
kgk players=laci,dani turn=4 active=laci
laci credits=4
laci colony: Rozsdafog*{n}
laci wasteland: Cobra Flash, Halálszárny
dani colony: Pilótahal*9
"""


def test_ex7_t9_wasteland_draw_rejected_at_6_colony_cards_allowed_at_5():
    """EX-7 T-9 (R 11.3.1 M9): the wasteland draw (2 CR, the bottom card of the wasteland to
    the centre) is rejected while the colony holds 6 cards; allowed at 5."""
    state = position(T9.format(n=6))
    assert ids(state, "wasteland_draw") == []
    assert rejected(state, "wasteland_draw") == "COLONY_TOO_LARGE"
    assert state.players[LACI].credits == 4 and len(state.players[LACI].wasteland) == 2

    state = position(T9.format(n=5))
    assert ids(state, "wasteland_draw") == ["wasteland_draw"]
    do(state, "wasteland_draw")
    player = state.players[LACI]
    cobra = card(state, "Cobra Flash")  # the bottom card (wastelands are listed bottom first)
    assert cobra.zone == "centre" and player.centre == [cobra.id]
    assert card(state, "Halálszárny").zone == "wasteland"
    assert player.credits == 2 and len(player.colony) == 5  # the colony is untouched
    do(state, "wasteland_draw")  # still 5: allowed again
    assert player.credits == 0 and player.wasteland == [] and len(player.centre) == 2


# --- T-10 -----------------------------------------------------------------------------------

T10 = """
kgk players=laci,dani turn=4 active=laci
laci credits={credits}
laci colony: Rozsdafog*3, Cobra Flash, Halálszárny, Marduk Kurios*4
dani colony: Pilótahal*9
"""


@pytest.mark.parametrize("cut", ["auto", "choose"])
def test_ex7_t10_search_two_credits_one_of_the_top_five_then_shuffle_and_cut(cut):
    """EX-7 T-10 (R 11.3.1 M8, R 16.1): the search costs 2 CR, picks one of the top five,
    then the colony is shuffled (fresh ids: nobody can follow a card) and cut by the
    opponent (``cut="choose"``: Dani picks the position)."""
    assert rejected(position(T10.format(credits=1)), "search") == "INSUFFICIENT_CREDITS"
    state = position(T10.format(credits=2), ruleset=Ruleset(cut=cut))
    player = state.players[LACI]
    before = list(player.colony)
    top5, sixth = before[:5], before[5]
    events = do(state, "search")
    assert player.credits == 0
    assert decision(state) == (LACI, "search")
    assert [a.get("value") for a in legal_actions(state)] == top5
    assert rejected(state, "choose", value=sixth) == "NOT_A_LEGAL_CHOICE"  # not in the top 5
    halal = N.find(state, "Halálszárny")  # the fifth card from the top
    assert halal == top5[4]
    events += do(state, "choose", value=halal)
    picked = card(state, "Halálszárny")  # a card entering a hidden place gets a new id
    assert picked.zone == "centre" and player.centre == [picked.id]
    if cut == "choose":
        assert decision(state) == (DANI, "cut")
        shuffled = list(player.colony)
        assert [a.get("at") for a in legal_actions(state)] == list(range(8))
        events += do(state, "cut", at=3)
        assert player.colony == shuffled[3:] + shuffled[:3]
    assert [e.kind for e in events if e.kind in ("shuffle", "cut")] == ["shuffle", "cut"]
    assert events_of(events, "cut")[0]["by"] == DANI
    assert decision(state) == (LACI, "main")
    assert len(player.colony) == 8 and not set(player.colony) & set(before)  # fresh ids
    names = sorted(state.defs[state.cards[c].code]["name"] for c in player.colony)
    assert names == ["Cobra Flash"] + ["Marduk Kurios"] * 4 + ["Rozsdafog"] * 3
