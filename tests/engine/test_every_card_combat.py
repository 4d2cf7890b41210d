"""The cards test_every_card.py cannot generate a check for (its UNCOVERED list: combat
interrupts, traps, combat triggers, chain answers, python functions): each is played or
paid here (or in the named test of another file) in a position made for it, and its effect
is checked. `HAND_TESTS` maps every such card to its test; `test_every_card_is_covered`
proves that together with the generated checks no card of the set is left out.
"""

import sys

from engine_kit import card, decision, do, pass_windows, position
from test_every_card import UNCOVERED

from engine import values as V

LACI, DANI = 0, 1

HEAD = """
kgk players=laci,dani turn=4 active=laci
laci credits={credits}
laci colony: Pilótahal*10
dani credits={dcredits}
dani colony: Kitinvadász*10
"""


def pos(extra, credits=10, dcredits=10):
    return position(HEAD.format(credits=credits, dcredits=dcredits) + extra)


def attack(state, attackers, defenders=(), target="colony", card_name=None, board=()):
    """R 11.4.1-11.4.2: declare, designate, board; stops at the equip step's window."""
    do(state, "attack", target=target, card=card_name)
    pass_windows(state)
    for name in attackers:
        do(state, "choose", value=name)
    if decision(state) == (LACI, "attackers"):
        do(state, "done")
    for crew, ship in board:
        do(state, "board", card=crew, ship=ship)
    if decision(state) == (LACI, "board"):
        do(state, "done")
    for name in defenders:
        do(state, "choose", value=name)
    if decision(state) == (DANI, "defenders"):
        do(state, "done")


def bombard(state, bombers):
    """R 11.4.5: designate the bombers, pass the bombardment window."""
    pass_windows(state)
    for name in bombers:
        do(state, "choose", value=name)
    if decision(state) == (LACI, "bombers"):
        do(state, "done")
    pass_windows(state)


# --- ships and crew with combat triggers ------------------------------------------------------


def test_viragzo_bolygohajo_on_destroyed_returns_three_from_the_wasteland():
    """R 14.1 / R 11.4.4.6.7: Virágzó bolygóhajó (1 armour left) is shot down by Cobra
    Flash; its on_destroyed ability puts 3 wasteland cards back into the colony."""
    state = pos(
        "laci wasteland: Halálszárny*4\nlaci hangar: Virágzó bolygóhajó (dmg5)\n"
        "dani hangar: Cobra Flash"
    )
    attack(state, ["Virágzó bolygóhajó"], ["Cobra Flash"])
    pass_windows(state)
    assert decision(state) == (DANI, "fire")  # speed 5 against 1 (R 11.4.4.2)
    do(state, "fire", ship="Cobra Flash", target="Virágzó bolygóhajó")
    do(state, "hold_fire")
    pass_windows(state)
    assert decision(state) == (LACI, "return_to_colony")
    for _ in range(3):
        do(state, "choose", value=_options(state)[0])
    assert card(state, "Virágzó bolygóhajó").zone == "trash"
    assert len(state.players[LACI].wasteland) == 1
    assert len(state.players[LACI].colony) == 13


def test_invazios_barka_on_bombard_discards_one_more():
    """R 11.4.5.2 / R 11.4.5.8: Inváziós bárka bombards the colony for 4, then its
    on_bombard ability discards one more card."""
    state = pos("laci hangar: Inváziós bárka")
    attack(state, ["Inváziós bárka"])
    bombard(state, ["Inváziós bárka"])
    assert len(state.players[DANI].colony) == 10 - 4 - 1
    assert len(state.players[DANI].wasteland) == 5


def test_gyokerkapitany_on_bombard_gains_two_credits():
    """R 11.4.5.8: a successful bombardment by Gyökérkapitány's ship gives 2 CR."""
    state = pos("laci canteen: Gyökérkapitány\nlaci hangar: Mamut I.", credits=5)
    attack(state, ["Mamut I."], board=[("Gyökérkapitány", "Mamut I.")])
    bombard(state, ["Mamut I."])
    assert len(state.players[DANI].colony) == 7
    assert state.players[LACI].credits == 7


def test_martaloc_on_bombard_removes_two_upgrades():
    """R 11.4.5.8: Martalóc aboard a successful bomber removes 2 upgrade counters from an
    opposing base."""
    state = pos("laci canteen: Martalóc\nlaci hangar: Mamut I.\ndani surface: Kristálybunker (u3)")
    attack(state, ["Mamut I."], board=[("Martalóc", "Mamut I.")])
    bombard(state, ["Mamut I."])
    assert card(state, "Kristálybunker").upgrades == 1


def test_szenatus_and_vadaszterulet_on_attack_declared():
    """R 11.4.1.1: Szenátus gives its owner 1 CR when the opponent attacks; Vadászterület
    gives 1 CR to its owner when they attack."""
    state = pos("laci surface: Vadászterület\nlaci hangar: Mamut I.\ndani surface: Szenátus")
    do(state, "attack", target="colony")
    pass_windows(state)
    assert state.players[LACI].credits == 11
    assert state.players[DANI].credits == 11


def test_szenatus_static_makes_the_opponents_events_cost_one_more():
    """R 5.1.3: Szenátus' static cost modifier: laci's Jó üzlet (0 CR) costs 1."""
    state = pos("laci centre: Jó üzlet\ndani surface: Szenátus")
    assert V.card_cost(state, LACI, card(state, "Jó üzlet")) == 1


def test_becsvagyo_kapitany_end_of_payment_choice():
    """R 11.4.3.3: Becsvágyó kapitány at the end of the payment step: +2 firepower."""
    state = pos("laci canteen: Becsvágyó kapitány\nlaci hangar: Mamut I.\ndani hangar: Holdimádó")
    attack(state, ["Mamut I."], ["Holdimádó"], board=[("Becsvágyó kapitány", "Mamut I.")])
    pass_windows(state)
    assert decision(state) == (LACI, "mode")
    do(state, "choose", value=0)
    pass_windows(state)
    assert V.stat(state, card(state, "Mamut I."), "firepower") == 6


def test_verszimat_gets_two_firepower_when_attacking():
    """R 5.1.3: Vérszimat's static bonus needs it attacking (condition in_combat)."""
    state = pos("laci hangar: Vérszimat\ndani hangar: Holdimádó")
    ship = card(state, "Vérszimat")
    assert V.stat(state, ship, "firepower") == 2
    attack(state, ["Vérszimat"], ["Holdimádó"])
    assert V.stat(state, ship, "firepower") == 4


def test_kristalybunker_gives_defenders_one_armour():
    """R 5.1.3: Kristálybunker: the defender's ships in combat +1 armour."""
    state = pos("laci hangar: Mamut I.\ndani surface: Kristálybunker\ndani hangar: Holdimádó")
    holdimado = card(state, "Holdimádó")
    assert V.stat(state, holdimado, "armour") == 3
    attack(state, ["Mamut I."], ["Holdimádó"])
    assert V.stat(state, holdimado, "armour") == 4


def test_javitorobot_repairs_its_carrier():
    """R 12.8 / R 4.4.4: Javítórobot aboard Mamut I. (2 damage): 1 CR, repair 2."""
    state = pos("laci canteen: Javítórobot\nlaci hangar: Mamut I. (dmg2)")
    attack(state, ["Mamut I."], board=[("Javítórobot", "Mamut I.")])
    assert decision(state) == (LACI, "respond")  # the equip window: an ability is usable
    do(state, "activate", card="Javítórobot", ability=0)
    pass_windows(state)
    assert card(state, "Mamut I.").damage == 0
    assert state.players[LACI].credits == 9


# --- combat interrupts --------------------------------------------------------------------------


def test_gyors_regeneracio_repairs_two():
    """R 4.7.3.2: Gyors regeneráció in the equip window: 2 damage repaired."""
    state = pos("laci centre: Gyors regeneráció\nlaci hangar: Mamut I. (dmg2)")
    attack(state, ["Mamut I."])
    do(state, "play", card="Gyors regeneráció")
    pass_windows(state)
    assert card(state, "Mamut I.").damage == 0
    assert card(state, "Gyors regeneráció").zone == "trash"


def test_tuzfegyelem_gives_formation_ships_one_firepower():
    """R 4.7.3.2 / R 12.2.3: Kötelékmanőver grants formation; in the next window
    Tűzfegyelem gives every formation ship in combat +1 firepower."""
    state = pos(
        "laci centre: Kötelékmanőver, Tűzfegyelem\nlaci hangar: Mamut I.\ndani hangar: Holdimádó"
    )
    attack(state, ["Mamut I."], ["Holdimádó"])
    do(state, "play", card="Kötelékmanőver")
    do(state, "pass")  # the chain resolves; a new window opens, laci first (AMB-13)
    assert "formation" in V.keywords(state, card(state, "Mamut I."))
    assert decision(state) == (LACI, "respond")
    do(state, "play", card="Tűzfegyelem")
    pass_windows(state)
    assert V.stat(state, card(state, "Mamut I."), "firepower") == 5


def test_orvtamadas_destroys_a_cheap_defender():
    """R 4.7.3.2: Orvtámadás destroys an opposing ship in combat costing at most 3."""
    state = pos("laci centre: Orvtámadás\nlaci hangar: Mamut I.\ndani hangar: Halálszárny")
    attack(state, ["Mamut I."], ["Halálszárny"])
    do(state, "play", card="Orvtámadás")
    pass_windows(state)
    assert card(state, "Halálszárny").zone == "trash"


def test_kettos_csapas_turns_a_used_ship_active_again():
    """R 4.7.3.2 / AMB-13: Dani's Csapdába csalás turns Mamut I. used; in the next window
    laci's Kettős csapás turns it active again."""
    state = pos(
        "laci centre: Kettős csapás\nlaci hangar: Mamut I.\n"
        "dani centre: Csapdába csalás\ndani hangar: Holdimádó"
    )
    attack(state, ["Mamut I."], ["Holdimádó"])
    do(state, "pass")  # laci: Kettős csapás has no target yet
    do(state, "play", card="Csapdába csalás")
    do(state, "pass")
    mamut = card(state, "Mamut I.")
    assert mamut.orientation == "used"
    assert decision(state) == (LACI, "respond")
    do(state, "play", card="Kettős csapás")
    pass_windows(state)
    assert mamut.orientation == "active"


def test_bürokratikus_kesleltetes_ends_the_combat_in_the_declaration_window():
    """R 11.4.1.2: a general interrupt right after the declaration; the combat ends."""
    state = pos("laci hangar: Mamut I.\ndani centre: Bürokratikus késleltetés")
    do(state, "attack", target="colony")
    assert decision(state) == (DANI, "respond")
    do(state, "play", card="Bürokratikus késleltetés")
    pass_windows(state)
    assert state.combat is None and decision(state) == (LACI, "main")
    assert len(state.players[DANI].colony) == 10


def test_rendezett_visszavonulas_ends_the_combat():
    """R 4.7.3.3: a reaction interrupt in the equip window ends the combat before any
    bombardment."""
    state = pos("laci hangar: Mamut I.\ndani centre: Rendezett visszavonulás")
    attack(state, ["Mamut I."])
    assert decision(state) == (DANI, "respond")
    do(state, "play", card="Rendezett visszavonulás")
    pass_windows(state)
    assert state.combat is None and decision(state) == (LACI, "main")
    assert len(state.players[DANI].colony) == 10


def test_kaoszhullam_neutralises_an_event():
    """R 12.5: Káoszhullám (mode: neutralise an event) against laci's Jó üzlet: no credits."""
    state = pos("laci centre: Jó üzlet\ndani centre: Káoszhullám")
    do(state, "play", card="Jó üzlet")
    assert decision(state) == (DANI, "respond")
    do(state, "play", card="Káoszhullám")  # the only announceable mode: the event
    pass_windows(state)
    assert state.players[LACI].credits == 10
    assert card(state, "Jó üzlet").zone == "trash"
    assert state.players[DANI].credits == 7


def test_eltérítés_gains_control_of_a_ship():
    """R 19.4 (python gain_control_of_ship): laci's Eltérítés takes Cobra Flash until the end
    of the turn."""
    state = pos("laci centre: Eltérítés\ndani hangar: Cobra Flash")
    do(state, "play", card="Eltérítés")
    pass_windows(state)
    cobra = card(state, "Cobra Flash")
    assert cobra.controller == LACI and cobra.id in state.players[LACI].hangar
    do(state, "end_turn")
    pass_windows(state)
    assert cobra.controller == DANI


# --- traps (R 4.5.9, R 11.4.5.5) ---------------------------------------------------------------


def trap(name, attackers, extra="", upgrades=2):
    state = pos(f"dani surface: {name} (down u{upgrades})\n{extra}")
    attack(state, attackers, target="base", card_name=name)
    bombard(state, attackers)
    assert decision(state) == (DANI, "trap")
    do(state, "pay", card=name)
    pass_windows(state)
    while decision(state) is not None and decision(state)[1] in ("target", "discard"):
        do(state, "choose", value=[a for a in _options(state)][0])
    assert card(state, name).zone == "trash"  # R 4.5.8: it acted and went to the trash
    return state


def _options(state):
    from engine.game import legal_actions

    return [a.get("value") for a in legal_actions(state) if a.kind == "choose"]


def test_pszi_csapda_makes_the_attacker_discard_two():
    """R 4.5.9 / R 11.4.5.5: Pszi-csapda paid when bombarded: the attacker discards 2 cards
    of the centre."""
    state = trap("Pszi-csapda", ["Mamut I."], "laci hangar: Mamut I.\nlaci centre: Cobra Flash*3")
    assert len(state.players[LACI].centre) == 1
    assert len(state.players[LACI].wasteland) == 2


def test_savcsapda_deals_two_to_every_attacking_ship():
    """R 4.5.9 / R 11.4.5.5: Savcsapda: 2 damage to every opposing ship in the combat
    (Kaszás, armour 2, is destroyed, R 14.1)."""
    state = trap("Savcsapda", ["Mamut I.", "Kaszás"], "laci hangar: Mamut I., Kaszás")
    assert card(state, "Mamut I.").damage == 2
    assert card(state, "Kaszás").zone == "trash"  # armour 2


def test_ragacsverem_turns_every_attacking_ship_damaged():
    """R 4.5.9 / R 11.4.5.5: Ragacsverem turns the opposing ships in the combat damaged;
    a ship outside the combat is untouched."""
    state = trap("Ragacsverem", ["Mamut I."], "laci hangar: Mamut I., Kaszás")
    assert card(state, "Mamut I.").orientation == "damaged"
    assert card(state, "Kaszás").orientation == "active"  # not in the combat


def test_kaoszakna_destroys_a_cheap_attacker():
    """R 4.5.9 / R 11.4.5.5: Káoszakna destroys one opposing ship in the combat costing at
    most 4 (the defender's choice of the two)."""
    state = trap("Káoszakna", ["Rozsdafog", "Halálszárny"], "laci hangar: Rozsdafog, Halálszárny")
    gone = [n for n in ("Rozsdafog", "Halálszárny") if card(state, n).zone == "trash"]
    assert len(gone) == 1


# --- the registry ----------------------------------------------------------------------------

HERE = "test_every_card_combat"
HAND_TESTS = {
    "Virágzó bolygóhajó": (
        HERE,
        "test_viragzo_bolygohajo_on_destroyed_returns_three_from_the_wasteland",
    ),
    "Inváziós bárka": (HERE, "test_invazios_barka_on_bombard_discards_one_more"),
    "Gyökérkapitány": (HERE, "test_gyokerkapitany_on_bombard_gains_two_credits"),
    "Martalóc": (HERE, "test_martaloc_on_bombard_removes_two_upgrades"),
    "Szenátus": (HERE, "test_szenatus_and_vadaszterulet_on_attack_declared"),
    "Vadászterület": (HERE, "test_szenatus_and_vadaszterulet_on_attack_declared"),
    "Becsvágyó kapitány": (HERE, "test_becsvagyo_kapitany_end_of_payment_choice"),
    "Vérszimat": (HERE, "test_verszimat_gets_two_firepower_when_attacking"),
    "Kristálybunker": (HERE, "test_kristalybunker_gives_defenders_one_armour"),
    "Javítórobot": (HERE, "test_javitorobot_repairs_its_carrier"),
    "Gyors regeneráció": (HERE, "test_gyors_regeneracio_repairs_two"),
    "Tűzfegyelem": (HERE, "test_tuzfegyelem_gives_formation_ships_one_firepower"),
    "Orvtámadás": (HERE, "test_orvtamadas_destroys_a_cheap_defender"),
    "Kettős csapás": (HERE, "test_kettos_csapas_turns_a_used_ship_active_again"),
    "Bürokratikus késleltetés": (
        HERE,
        "test_bürokratikus_kesleltetes_ends_the_combat_in_the_declaration_window",
    ),
    "Rendezett visszavonulás": (HERE, "test_rendezett_visszavonulas_ends_the_combat"),
    "Káoszhullám": (HERE, "test_kaoszhullam_neutralises_an_event"),
    "Eltérítés": (HERE, "test_eltérítés_gains_control_of_a_ship"),
    "Pszi-csapda": (HERE, "test_pszi_csapda_makes_the_attacker_discard_two"),
    "Savcsapda": (HERE, "test_savcsapda_deals_two_to_every_attacking_ship"),
    "Ragacsverem": (HERE, "test_ragacsverem_turns_every_attacking_ship_damaged"),
    "Káoszakna": (HERE, "test_kaoszakna_destroys_a_cheap_attacker"),
    # checked by tests elsewhere (each asserts the card's effect)
    "Tüzér": ("test_combat", "test_ex3_no_defence_end_of_payment_choice_bombardment_three"),
    "Chazma töltet": ("test_combat", "test_ex4_trap_paid_destroys_marduk_and_tuzer"),
    "Óvóhely": (
        "test_payment_windows",
        "test_r11_4_5_the_bombardment_step_has_a_window_before_the_bombs_fall",
    ),
    "Lefizetés": (
        "test_payment_windows",
        "test_r12_5_a_cost_filtered_neutraliser_reads_the_paid_cards_cost",
    ),
    "Felsőbb parancs": ("test_chain", "test_ex5_without_felulbiralas_holdimado_is_destroyed"),
    "Felülbírálás": ("test_chain", "test_ex5_interrupt_chain_during_a_shot"),
    "Szabotőr": ("test_effects", "test_r14_1_on_destroyed_ability_of_crew_destroyed_with_its_ship"),
    "Hamis jeladó": ("test_effects", "test_r4_5_9_trap_ends_the_combat_and_costs_credits"),
    "Elmekontroll": ("test_effects", "test_r19_4_gain_control_until_end_of_turn"),
    "Történelem ismétlése": ("test_effects", "test_r4_6_copy_an_event_from_the_trash"),
}


def test_every_card_is_covered():
    """R 21 (the card table): every card the generated checks leave out has a hand-written
    test that exists."""
    import importlib

    assert set(UNCOVERED) <= set(HAND_TESTS), sorted(set(UNCOVERED) - set(HAND_TESTS))
    for name, (module, function) in HAND_TESTS.items():
        mod = sys.modules.get(module) or importlib.import_module(module)
        assert callable(getattr(mod, function, None)), (name, module, function)
