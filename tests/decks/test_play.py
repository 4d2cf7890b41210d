"""decks.problems and decks.play: one home for what the site says about a deck's R 9
problems, and one home for turning a deck into a game under a ruleset."""

import re
from pathlib import Path

import pytest
from django.utils import translation

from decks import play, services
from decks.problems import MESSAGES, describe, problem_message
from tests.decks.test_pages import LACI, colony

ENGINE_DECK = Path(__file__).resolve().parents[2] / "engine" / "deck.py"

SAMPLES = [
    {"code": "DECK_SIZE", "count": 44, "required": 45},
    {"code": "COPY_LIMIT", "name": "Cobra Flash", "count": 4, "max": 3},
    {"code": "OPPOSING_RACES", "pair": ["triciplite", "space_shark"]},
    {
        "code": "TOO_MANY_RACES",
        "races": ["human", "xeno", "zarg", "cerebrite", "insectoid"],
        "max": 4,
    },
    {"code": "SIMPLIFIED_COMBAT_CARD", "name": "Villám", "card": "KG1-1"},
    {"code": "UNKNOWN_CARD", "card": "KG1-999", "count": 2},
    {"code": "UNKNOWN_RULESET", "ruleset": "chess"},
    {"code": "RULESET_NOT_PLAYABLE", "ruleset": "chess"},
]


def engine_problem_codes() -> set[str]:
    """Every code engine.deck can emit, read from its source so a new one is caught."""
    return set(re.findall(r'DeckProblem\(\s*"([A-Z_]+)"', ENGINE_DECK.read_text()))


def test_r9_7_every_engine_problem_code_has_a_sentence():
    assert engine_problem_codes() <= set(MESSAGES)
    assert {s["code"] for s in SAMPLES} == set(MESSAGES)


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_r9_7_sentences_carry_no_code_and_no_placeholder(lang):
    with translation.override(lang):
        for sample in SAMPLES:
            text = problem_message(sample)
            assert "%(" not in text and sample["code"] not in text, text
            assert not re.search(r"\b[A-Z]{3,}_[A-Z_]+\b", text), text


def test_r9_3_race_names_follow_the_language():
    with translation.override("hu"):
        assert "Triciplita és Űrcápa" in problem_message(SAMPLES[2])
        # one register and one word for "return fire" (matches' game terms say viszonttűz)
        assert "viszonttűzre" in problem_message(SAMPLES[4])
    with translation.override("en"):
        assert "Triciplite and Space Shark" in problem_message(SAMPLES[2])


def test_describe_keeps_code_and_data_and_adds_the_sentence():
    (described,) = describe([SAMPLES[0]])
    assert described["code"] == "DECK_SIZE" and described["count"] == 44
    assert described["message"]


def test_lobby_and_api_agree_on_the_rulesets(client, alice):
    """One list: each of the lobby's ruleset menus (a new game's, quick play's) offers
    exactly the rulesets decks.play can play, and the deck API accepts exactly the rulesets
    decks.play knows."""
    from decks.serializers import DeckInputSerializer

    client.force_login(alice)
    page = client.get("/en/play/").content.decode()
    menus = re.findall(r'<select id="(?:qp-)?ruleset" name="ruleset">(.*?)</select>', page, re.S)
    assert len(menus) == 2
    for menu in menus:
        offered = re.findall(r'<option value="([a-z0-9]+)"', menu)
        assert offered == list(play.PLAYABLE_RULESETS)
    accepted = DeckInputSerializer().fields["ruleset"].choices
    assert set(accepted) == set(play.RULESETS)
    # the engine plays simplified combat (R 17.2), so the lobby offers it too
    assert "simplified" in play.PLAYABLE_RULESETS


def test_colony_is_every_copy_of_a_legal_deck(catalogue, alice):
    deck = services.save_deck(alice, name="Laci", cards=colony(LACI))
    codes = play.colony(deck, "original")
    assert len(codes) == 45
    assert codes == play.colony(deck.latest_version, "original")  # live == frozen
    assert codes == play.colony(deck.latest_version.cards, "original")


def test_colony_refuses_with_every_problem_in_one_error(catalogue, alice):
    """R 9.7: one error type, every problem, each with its sentence."""
    deck = services.save_deck(alice, name="Short", cards=colony(["human", "xeno"], total=40))
    with pytest.raises(play.DeckNotPlayable) as error:
        play.colony(deck, "original")
    codes = sorted(p["code"] for p in error.value.problems)
    assert codes == ["DECK_SIZE", "OPPOSING_RACES"]
    assert all(p["message"] for p in error.value.problems)
    with pytest.raises(play.DeckNotPlayable) as error:
        play.colony(deck, "chess")
    assert error.value.code == "UNKNOWN_RULESET"


def test_builder_js_keeps_no_translations_or_rules():
    """The builder shows the server's sentences (decks/views_builder.py builder_config)."""
    scripts = Path(__file__).resolve().parents[2] / "static" / "js"
    modules = [scripts / "builder.js", *sorted((scripts / "builder").glob("*.js"))]
    source = "\n".join(module.read_text() for module in modules)
    assert "STRINGS" not in source
    assert not re.search(r"[áéíóöőúüű]", source), "Hungarian text in builder.js"
    assert "R 9." not in source.replace("// R 9.", "")
