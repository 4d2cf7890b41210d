"""Issue 34: the card page's words are for players (abilities, rulings, signed bonuses)."""

import pytest

pytestmark = pytest.mark.django_db

DESIGN_NOTE_CARDS = ("KG1-009", "KG1-020", "KG1-026", "KG1-031", "KG1-043")


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_card_page_shows_no_python_repr_of_the_abilities(client, catalogue, lang):
    card = catalogue.get(code="KG1-043")  # Tüzér: a choose_one ability
    assert card.abilities
    html = client.get(f"/{lang}/cards/{card.code}/").content.decode()
    for repr_mark in ("[{", "{'", "'trigger'", "&#x27;trigger&#x27;", "choose_one"):
        assert repr_mark not in html
    # the abilities as sentences: the rules text generated from them (cardtext.py)
    assert ("+3 tűzerőt" if lang == "hu" else "+3 firepower") in html


@pytest.mark.parametrize("code", DESIGN_NOTE_CARDS)
@pytest.mark.parametrize("lang", ["hu", "en"])
def test_card_page_shows_no_design_notes(client, catalogue, code, lang):
    """docs/rulings.md's design notes ("Card data choices (R 21.1)", "Race **Ember**
    (Dani's)") stay off the card pages; only the section written for players is shown."""
    html = client.get(f"/{lang}/cards/{code}/").content.decode()
    for note in ("Card data choices", "Dani's", "Laci's", "**", "`", "AMB-", "Rarity "):
        assert note not in html, note


@pytest.mark.parametrize(
    "lang, words, other",
    [("hu", "a kör végéig", "until the end"), ("en", "until the end of the turn", "a kör végéig")],
)
def test_player_rulings_are_in_the_pages_language_and_rendered(
    client, catalogue, lang, words, other
):
    html = client.get(f"/{lang}/cards/KG1-026/").content.decode()
    ruling = html.split('class="ruling"', 1)[1].split("</blockquote>", 1)[0]
    assert words in ruling
    assert other not in ruling
    assert "<strong>" in ruling  # the Markdown emphasis, rendered


def test_rulings_for_reads_only_the_player_section(catalogue):
    from cards_data.selectors import rulings_for

    cobra = catalogue.get(name="Cobra Flash")  # named by the design notes only
    assert rulings_for(cobra, "en") == []
    tuzer = catalogue.get(code="KG1-043")
    assert rulings_for(tuzer, "hu") and rulings_for(tuzer, "en")
    assert rulings_for(tuzer, "hu") != rulings_for(tuzer, "en")


@pytest.mark.parametrize(
    "lang, minus, plus", [("hu", "SEB</b> -1", "TŰZ</b> +2"), ("en", "SPD</b> -1", "FP</b> +2")]
)
def test_negative_bonus_is_written_with_its_sign(client, catalogue, lang, minus, plus):
    """Lázadó hadnagy: speed -1, firepower +2 (R 5.1.3 bonuses add to the values); never "+-1"."""
    card = catalogue.get(name="Lázadó hadnagy")
    html = client.get(f"/{lang}/cards/{card.code}/").content.decode()
    assert "+-" not in html
    assert minus in html and plus in html
