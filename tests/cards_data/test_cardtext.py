"""The rules-text generator's registry: every effect primitive and every condition of the
engine's vocabulary (engine/effects.py) has its sentence in both languages, so a new
primitive cannot reach a card without text."""

import pytest

from cards_data.cardtext import card_text, render_text
from cards_data.cardtext_effects import PHRASERS, effect_phrase
from engine.effects import CONDITIONS, EFFECTS

SHIP = {"code": "T-001", "type": "ship", "subtype": "fighter"}
ENEMY_SHIP = {"kind": "ship", "owner": "opponent"}

# One valid ability per condition kind of the vocabulary.
CONDITION_SAMPLES = {
    "controls": {"kind": "controls", "target": {"kind": "base", "owner": "you"}, "at_least": 2},
    "in_combat": {"kind": "in_combat", "role": "attacker"},
    "colony_at_most": {"kind": "colony_at_most", "player": "opponent", "amount": 5},
}


def test_every_effect_primitive_has_a_phraser():
    assert set(PHRASERS) == set(EFFECTS)


def test_an_effect_without_a_phraser_is_refused():
    with pytest.raises(ValueError, match="no text for effect 'teleport'"):
        effect_phrase({"effect": "teleport"}, SHIP)


def test_a_phraser_gives_both_languages_at_once():
    phrase = effect_phrase({"effect": "destroy", "target": ENEMY_SHIP}, SHIP)
    assert (phrase.hu, phrase.en) == (
        "Semmisíts meg egy ellenséges hajót.",
        "Destroy an enemy ship.",
    )
    assert (phrase["hu"], phrase["en"]) == (phrase.hu, phrase.en)


@pytest.mark.parametrize("kind", sorted(CONDITIONS))
def test_every_condition_reads_in_both_languages(kind):
    assert set(CONDITION_SAMPLES) == set(CONDITIONS)
    ability = {
        "trigger": "static",
        "condition": CONDITION_SAMPLES[kind],
        "effects": [
            {
                "effect": "modify_stat",
                "target": {"kind": "self"},
                "stat": "speed",
                "amount": 1,
                "duration": "while_in_play",
            }
        ],
    }
    card = dict(SHIP, abilities=[ability])
    text = card_text(card)
    assert text.hu.startswith("Amíg") and text.en.startswith("As long as")
    assert (text.hu, text.en) == (render_text(card, "hu"), render_text(card, "en"))
