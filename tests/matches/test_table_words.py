"""The game table's small words (issue 34), as the server sends them:

- a play or pay action carries what it takes now, cost modifiers included (R 19.6), in its
  labels and as a number the page shows;
- every prompt that picks cards says how many;
- a shot names the ship that fires and the ship it fires at;
- the first-game guide says the rule behind a decision, not the decision line again;
- "Pass until my turn" and the chain are explained.
"""

import pytest
from django.utils import translation

from matches import presentation

from .kit import logged_in
from .test_printed_numbers import card_id, set_position

pytestmark = pytest.mark.django_db

ALICE = 0

DISCOUNT = """
kgk players=alice,bob turn=4 active=alice
alice credits=5
alice colony: Járőr-7*20
alice centre: Kísérőnaszád, Futárhajó
alice canteen: Quorx kereskedőherceg
alice hangar: Vasököl [Célzóradar (down)]
bob credits=0
bob colony: Járőr-7*20
bob hangar: Bástya
"""


def test_r19_6_play_and_pay_say_the_cost_they_take_now(players):
    """R 19.6: Quorx kereskedőherceg (paid, in the canteen) makes every card cost 1 less:
    Kísérőnaszád (2) is played for 1, Célzóradar (1) is paid for 0; both labels say so."""
    match, state = set_position(players, DISCOUNT)
    payload = logged_in(players[0]).get(f"/api/matches/{match.pk}/").json()
    by_id = {a["id"]: a for a in payload["legal_actions"]}
    play = by_id[f"play:card={card_id(state, 'Kísérőnaszád')}"]
    pay = by_id[f"pay:card={card_id(state, 'Célzóradar')}"]
    assert play["cost"] == 1 and pay["cost"] == 0
    assert play["label_en"].startswith("Play (1 credit)"), play["label_en"]
    assert play["label_hu"].startswith("Kijátszás (1 credit)"), play["label_hu"]
    assert pay["label_en"].startswith("Pay (0 credits)"), pay["label_en"]
    assert pay["label_hu"].startswith("Kifizetés (0 credit)"), pay["label_hu"]
    assert "cost" not in by_id["end_turn"]


FIRE = """
kgk players=alice,bob turn=4 active=alice
alice credits=0
alice colony: Járőr-7*20
alice hangar: Káoszvadász, Káoszvadász, Futárhajó
bob credits=0
bob colony: Járőr-7*20
bob hangar: Futárhajó
"""


def test_r11_4_4_a_shot_names_the_ship_that_fires_and_its_target(players):
    """R 11.4.4.4: the firing ship's player chooses its target; the label says which ship
    fires at which (not "Fire at this ship — <the shooter>")."""
    match, state = set_position(players, FIRE)
    shooter, target = state.players[0].hangar[2], state.players[1].hangar[0]
    action = {"id": f"fire:ship={shooter},target={target}", "kind": "fire"}
    action.update(ship=shooter, target=target)
    names = {
        shooter: {"name": "Futárhajó", "name_en": "Courier Ship", "zone": "hangar"},
        target: {"name": "Futárhajó", "name_en": "Courier Ship", "zone": "hangar"},
    }
    en = presentation.action_label(action, "fire", names, "en")
    hu = presentation.action_label(action, "fire", names, "hu")
    assert en == "Courier Ship (Hangar) fires at Courier Ship (Hangar)", en
    assert hu.startswith("Futárhajó (Hangár) tüzel erre: Futárhajó"), hu


def strings(lang):
    with translation.override(lang):
        return presentation.client_strings()


def test_r11_5_1_the_discard_prompt_says_how_many_cards():
    """R 11.5.1: the discard prompt names its number, in both languages (the page fills
    pending.info picks_left)."""
    for lang, want in (("en", "Discard 2 cards."), ("hu", "Dobj el 2 lapot.")):
        forms = strings(lang)["decisions"]["discard"]["count"]
        assert forms["other"].replace("%(n)s", "2") == want
    for kind in ("discard", "discard_ship", "search", "attackers", "defenders", "board"):
        assert strings("hu")["decisions"][kind]["count"], kind


def test_the_guide_says_the_rule_behind_a_decision_not_its_line():
    """The first-game guide (issue 34) adds the rule behind the decision: its words are
    none of the decision line's."""
    for lang in ("en", "hu"):
        decisions = strings(lang)["decisions"]
        for kind in ("main", "attackers", "defenders", "fire", "discard", "respond"):
            why = decisions[kind]["why"]
            assert why and why != decisions[kind]["help"], (lang, kind)


def test_pass_until_my_turn_and_the_chain_are_explained_in_both_languages():
    """R 12 (the chain) and the stop "Pass until my turn": a sentence each, in Hungarian
    and in English, not the same sentence."""
    en, hu = strings("en"), strings("hu")
    for table, key in (("stops", "pass_turn_help"), ("ui", "chain_help")):
        assert en[table][key] and hu[table][key] and en[table][key] != hu[table][key], key
    assert "lánc" in hu["ui"]["chain_help"].lower()
