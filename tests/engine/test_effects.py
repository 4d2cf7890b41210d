"""Card effects through the effect vocabulary (engine.effects) with real first-edition cards."""

from engine_kit import CARDS, card, decision, do, ids, pass_windows, play, position

from engine import values as V
from engine.effects import EFFECTS, PYTHON_FUNCTIONS, iter_effects
from engine.executors import EXEC, PYTHON
from engine.game import legal_actions

LACI, DANI = 0, 1

HEAD = """
kgk players=laci,dani turn=4 active=laci
laci credits={credits}
laci colony: Rozsdafog*12
dani credits={dcredits}
dani colony: Pilótahal*12
"""


def pos(extra, credits=10, dcredits=5):
    return position(HEAD.format(credits=credits, dcredits=dcredits) + extra)


def test_every_primitive_and_python_function_has_an_executor():
    assert set(EXEC) == set(EFFECTS)
    assert set(PYTHON) == set(PYTHON_FUNCTIONS)
    used = {
        e["effect"]
        for c in CARDS
        for a in c.get("abilities", [])
        for e in iter_effects(a["effects"])
    }
    assert used <= set(EXEC)


def test_r1_3_gain_lose_credits_and_discard_from_colony():
    state = pos("laci centre: Adóbehajtás, Kölcsön")
    play(state, "Adóbehajtás")  # 2 CR: opponent loses 2, you gain 2
    assert (state.players[LACI].credits, state.players[DANI].credits) == (10, 3)
    play(state, "Kölcsön")  # 0 CR: gain 5, discard 2 from your colony
    assert state.players[LACI].credits == 15
    assert len(state.players[LACI].colony) == 10 and len(state.players[LACI].wasteland) == 2


def test_r1_4_losing_credits_stops_at_zero():
    state = pos("laci centre: Kereskedelmi embargó", dcredits=1)
    play(state, "Kereskedelmi embargó")  # opponent loses 4
    assert state.players[DANI].credits == 0


def test_r1_3_amount_counted_per_card():
    state = pos("laci centre: Fejpénz\ndani hangar: Holdimádó, Pilótahal, Halálszárny")
    play(state, "Fejpénz")  # 1 CR: a credit per enemy ship
    assert state.players[LACI].credits == 10 - 1 + 3


def test_r4_2_6_damage_outside_combat_turns_damaged_and_destroys_at_zero():
    """R 4.2.6: Nyers erő deals 3 to an enemy ship of your choice."""
    state = pos("laci centre: Nyers erő, Nyers erő\ndani hangar: Kitinvadász, Halálszárny")
    do(state, "play", card=state.players[LACI].centre[0])
    assert decision(state) == (LACI, "target")
    do(state, "choose", value="Kitinvadász")
    pass_windows(state)
    kitin = card(state, "Kitinvadász")
    assert V.armour_left(state, kitin) == 1 and kitin.orientation == "damaged"
    do(state, "play", card=state.players[LACI].centre[0])
    do(state, "choose", value="Halálszárny")
    pass_windows(state)
    assert card(state, "Halálszárny").zone == "trash"


def test_r13_2_cloak_cannot_be_targeted_but_all_still_hits():
    state = pos("laci centre: Nyers erő, Vak pusztítás\ndani hangar: Diplomatahajó")
    assert ids(state, "play") == [f"play:card={card(state, 'Vak pusztítás').id}"]  # no target
    play(state, "Vak pusztítás")  # 2 damage to every ship
    assert card(state, "Diplomatahajó").zone == "trash"


def test_r4_5_2_effect_upgrades_rotation_and_repair():
    state = pos(
        "laci centre: Megvesztegetés, Építkezés, Technikai fölény\n"
        "laci surface: Mélyvár (down u1)\n"
        "laci hangar: Cobra Flash (damaged dmg2)\n"
        "dani hangar: Holdimádó"
    )
    play(state, "Megvesztegetés")  # an active enemy ship turns used
    assert card(state, "Holdimádó").orientation == "used"
    play(state, "Építkezés")  # 2 upgrades on a base (not counted toward 2 per turn)
    base = card(state, "Mélyvár")
    assert base.upgrades == 3 and base.bought == 0
    play(state, "Technikai fölény")  # repair all your ships, draw 1
    assert card(state, "Cobra Flash").damage == 0
    assert len(state.players[LACI].centre) == 1


def test_r16_4_discard_of_your_choice_reveals_the_centre_only_to_you():
    state = pos("laci centre: Mentális roham\ndani centre: Cobra Flash, Halálszárny")
    events = do(state, "play", card="Mentális roham")
    while decision(state)[1] == "respond":
        events += do(state, "pass")
    assert decision(state) == (LACI, "discard")
    events += do(state, "choose", value="Cobra Flash")
    reveals = [e for e in events if e.kind == "reveal"]
    assert reveals and reveals[0].to == (LACI,)
    assert card(state, "Cobra Flash").zone == "wasteland"
    assert len(state.players[DANI].centre) == 1


def test_r1_3_return_to_colony_and_a_conditional_draw():
    """Regeneráció: 3 cards from your wasteland to the bottom of your colony; then if your
    colony holds 10 or fewer cards, draw 1 (two abilities, the second conditional)."""
    state = position(
        """
        kgk players=laci,dani turn=4 active=laci
        laci credits=5
        laci colony: Rozsdafog*6
        laci centre: Regeneráció
        laci wasteland: Cobra Flash, Halálszárny, Marduk Kurios
        dani colony: Pilótahal*5
        """
    )
    play(state, "Regeneráció")
    assert len(state.players[LACI].wasteland) == 0
    assert len(state.players[LACI].colony) == 6 + 3 - 1
    assert len(state.players[LACI].centre) == 1


def test_r16_4_peek_at_the_colony_top_and_reorder():
    state = position(
        """
        kgk players=laci,dani turn=4 active=laci
        laci colony: Cobra Flash, Halálszárny, Marduk Kurios, Rozsdafog, Kaszás
        laci centre: Tervezés
        dani colony: Pilótahal*5
        """
    )
    events = play(state, "Tervezés")  # 0 CR: look at the top 4, reorder them
    assert decision(state) == (LACI, "order_top")
    reveal = [e for e in events if e.kind == "reveal"][0]
    assert [c["name"] for c in reveal.secret["cards"]] == [
        "Cobra Flash",
        "Halálszárny",
        "Marduk Kurios",
        "Rozsdafog",
    ]
    do(state, "choose", value="Rozsdafog")
    do(state, "choose", value="Marduk Kurios")
    do(state, "choose", value="Halálszárny")
    top = [state.defs[state.cards[c].code]["name"] for c in state.players[LACI].colony]
    assert top == ["Rozsdafog", "Marduk Kurios", "Halálszárny", "Cobra Flash", "Kaszás"]


def test_r4_5_8_research_searches_on_payment_then_goes_to_the_trash():
    """Hadiakadémia (research, UL 2): search the top 5 for a ship; shuffle; then trash."""
    state = position(
        """
        kgk players=laci,dani turn=4 active=laci
        laci credits=5
        laci colony: Tüzér, Cobra Flash, Jó üzlet, Rozsdafog*7
        laci surface: Hadiakadémia (down u2)
        dani colony: Pilótahal*5
        """
    )
    do(state, "pay", card="Hadiakadémia")
    assert decision(state) == (LACI, "search")
    options = {a.get("value") for a in legal_actions(state) if a.kind == "choose"}
    assert card(state, "Tüzér").id not in options  # only ships match the filter
    do(state, "choose", value="Cobra Flash")
    assert card(state, "Cobra Flash").zone == "centre"
    assert card(state, "Hadiakadémia").zone == "trash"
    assert len(state.players[LACI].colony) == 9


def test_r1_4_cost_modifiers_static_and_next():
    state = pos(
        "laci canteen: Üzletkötő\nlaci centre: Befektetés, Hadiipar, Cobra Flash", credits=4
    )
    play(state, "Befektetés")  # 3 - 1 (passenger works in the canteen) = 2
    assert state.players[LACI].credits == 4 - 2 + 6
    play(state, "Hadiipar")  # 1 - 1 = 0: the next ship costs 3 less
    assert state.players[LACI].credits == 8
    play(state, "Cobra Flash")
    assert state.players[LACI].credits == 8 - 3


def test_r5_1_3_static_stat_bonus_with_a_condition():
    """Ikercsillag: +1 firepower while you control 2 other formation ships."""
    state = pos("laci hangar: Ikercsillag, Járőr-7")
    ship = card(state, "Ikercsillag")
    assert V.stat(state, ship, "firepower") == 2
    state = pos("laci hangar: Ikercsillag, Járőr-7, Kísérőnaszád")
    assert V.stat(state, card(state, "Ikercsillag"), "firepower") == 3


def test_r4_3_3_keywords_granted_by_paid_armaments_only():
    state = pos("laci hangar: Marduk Kurios [Kötelékadó]")
    assert "formation" in V.keywords(state, card(state, "Marduk Kurios"))
    state = pos("laci hangar: Marduk Kurios [Kötelékadó (down)]")
    assert "formation" not in V.keywords(state, card(state, "Marduk Kurios"))  # R 6.8.2


def test_r11_2_start_of_turn_ability_adds_an_upgrade():
    state = position(
        """
        kgk players=dani,laci turn=4 active=dani
        dani colony: Pilótahal*5
        laci colony: Rozsdafog*5
        laci canteen: Kaptártudós
        laci surface: Mélyvár (down)
        """
    )
    do(state, "end_turn")
    assert card(state, "Mélyvár").upgrades == 1


def test_r14_1_on_destroyed_ability_of_crew_destroyed_with_its_ship():
    """Szabotőr (crew): when destroyed, 2 damage to an enemy ship."""
    state = pos("laci centre: Nyers erő\ndani hangar: Kitinvadász [Szabotőr]\nlaci hangar: Kaszás")
    play(state, "Nyers erő")  # 3 damage to Kitinvadász (armour 4, crew aboard)
    assert card(state, "Kitinvadász").zone == "hangar"
    state = pos(
        "laci centre: Vérfürdő\ndani hangar: Kitinvadász (damaged) [Szabotőr]\nlaci hangar: Kaszás"
    )
    play(state, "Vérfürdő")  # destroy a damaged enemy ship
    assert card(state, "Szabotőr").zone == "trash"
    assert card(state, "Kaszás").zone == "trash"  # armour 2, 2 damage (R 14.1)


def test_r6_5_activated_ability_rotation_cost_needs_an_active_card():
    """Olvasztókemence (base): 1 CR + turn used: repair 2 on one of your ships (R 6.5)."""
    state = pos("laci surface: Olvasztókemence\nlaci hangar: Kaszás (dmg2)")
    base = card(state, "Olvasztókemence")
    do(state, "activate", card=base.id, ability=0)
    pass_windows(state)
    assert card(state, "Kaszás").damage == 0
    assert base.orientation == "used" and state.players[LACI].credits == 9
    assert ids(state, "activate") == []  # a used card cannot pay a rotation cost


def test_r6_6_sacrifice_cost():
    """Kettős ügynök: sacrifice: the opponent discards a card of your choice."""
    state = pos("laci canteen: Kettős ügynök\ndani centre: Cobra Flash")
    agent = card(state, "Kettős ügynök")
    do(state, "activate", card=agent.id, ability=0)
    assert agent.zone == "trash"  # the cost is paid at once (R 12.2.1)
    pass_windows(state)
    assert card(state, "Cobra Flash").zone == "wasteland"


def test_r19_4_gain_control_until_end_of_turn():
    """Elmekontroll (python function gain_control_of_ship)."""
    state = pos("laci centre: Elmekontroll\ndani hangar: Cobra Flash, CRX")
    play(state, "Elmekontroll")
    cobra = card(state, "Cobra Flash")  # CRX costs 15 > 6: the only choice
    assert cobra.controller == LACI and cobra.id in state.players[LACI].hangar
    do(state, "end_turn")
    assert cobra.controller == DANI and cobra.id in state.players[DANI].hangar


def test_r4_6_copy_an_event_from_the_trash():
    state = pos("laci centre: Történelem ismétlése\nlaci trash: Befektetés")
    play(state, "Történelem ismétlése")  # 4 CR: Befektetés again, +6
    assert state.players[LACI].credits == 10 - 4 + 6
    assert card(state, "Befektetés").zone == "trash"


def test_r4_5_9_trap_ends_the_combat_and_costs_credits():
    """Hamis jeladó (trap): the combat ends; the opponent loses 2 credits."""
    state = position(
        """
        kgk players=laci,dani turn=4 active=laci
        laci credits=5
        laci colony: Rozsdafog*5
        laci hangar: Mamut I.
        dani credits=1
        dani colony: Pilótahal*5
        dani surface: Hamis jeladó (down)
        """
    )
    do(state, "attack", target="base", card="Hamis jeladó")
    do(state, "choose", value="Mamut I.")
    do(state, "choose", value="Mamut I.")
    do(state, "pay", card="Hamis jeladó")
    assert state.combat is None and state.players[LACI].credits == 3
    assert card(state, "Hamis jeladó").zone == "trash"
