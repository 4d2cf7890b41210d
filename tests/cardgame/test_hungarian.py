"""Issue 34: "a" or "az" by the word that follows, as a Hungarian writes it (cardgame/
hungarian.py), instead of the form letter's "a(z)"."""

import pytest

from cardgame.hungarian import articles, az


@pytest.mark.parametrize(
    "number, article",
    [
        (0, "a"), (1, "az"), (2, "a"), (3, "a"), (4, "a"), (5, "az"), (6, "a"), (9, "a"),
        (10, "a"), (11, "a"), (15, "a"), (20, "a"), (45, "a"), (50, "az"), (51, "az"),
        (55, "az"), (99, "a"), (100, "a"), (101, "a"), (150, "a"), (500, "az"), (555, "az"),
        (1000, "az"), (1999, "az"), (2000, "a"), (5000, "az"), (10_000, "a"), (11_000, "a"),
        (50_000, "az"), (100_000, "a"), (500_000, "az"), (1_000_000, "az"), (5_000_000, "az"),
        (2_000_000, "a"),
    ],
)  # fmt: skip
def test_numbers_by_their_spoken_first_sound(number, article):
    assert az(number) == article
    assert az(str(number)) == article
    assert az(f"{number}.") == article  # the ordinal: első, ötödik, ezredik...


@pytest.mark.parametrize(
    "word, article",
    [
        ("alma", "az"), ("Élet", "az"), ("őrszem", "az"), ("ütközet", "az"), ("úr", "az"),
        ("lap", "a"), ("kolónia", "a"), ("Xeno", "a"), ("„Aranyszabály”", "az"),
        ("'cost'", "a"), ("'<='", "a"), ("'-'", "a"), ("/hu/nincs/", "a"),
        ("S", "az"), ("F", "az"), ("KG1-009", "a"), ("EX-5", "az"), ("0x1F", "a"),
        ("1\u00a0000", "az"), ("", "a"),
    ],
)  # fmt: skip
def test_words_by_their_first_sound(word, article):
    assert az(word) == article


def test_articles_settles_every_placeholder_in_a_sentence():
    assert articles("A(z) 1. játszma visszajátszása") == "Az 1. játszma visszajátszása"
    assert articles("A(z) 2. játszma visszajátszása") == "A 2. játszma visszajátszása"
    assert articles("ebből a(z) 45 lapból") == "ebből a 45 lapból"
    assert articles("ebből a(z) 5 lapból") == "ebből az 5 lapból"
    assert (
        articles("A(z) '<=' nem használható a(z) 'ára' mezővel (a(z) 12. pozíció)")
        == "A '<=' nem használható az 'ára' mezővel (a 12. pozíció)"
    )
    assert articles("No article here, a(n) apple") == "No article here, a(n) apple"


@pytest.mark.django_db
def test_the_hungarian_404_page_settles_its_article(client):
    html = client.get("/hu/nincs-ilyen-oldal/").content.decode()
    assert "A /hu/nincs-ilyen-oldal/ címen nincs semmi." in html
    assert "(z)" not in html


@pytest.mark.django_db
def test_the_hungarian_search_error_settles_its_article(client):
    response = client.get("/hu/", {"q": "cost<=abc"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "A &#x27;&lt;=&#x27; után szám kell" in html or "A '&lt;=' után szám kell" in html
    assert "(z)" not in html


@pytest.mark.parametrize(
    "n, title", [(1, "Az 1. játszma"), (2, "A 2. játszma"), (5, "Az 5. játszma")]
)
def test_the_template_filter_settles_a_blocktranslate(n, title):
    from django.template import engines
    from django.utils import translation

    template = engines["django"].from_string(
        "{% load i18n kgk %}{% blocktranslate asvar t with n=n %}Replay of game #{{ n }}"
        "{% endblocktranslate %}{{ t|articles }}"
    )
    with translation.override("hu"):
        assert template.render({"n": n}) == f"{title} visszajátszása"


def test_a_deck_file_error_settles_its_article():
    from django.utils import translation

    from decks.textformat import message

    with translation.override("hu"):
        vowel = message("count_out_of_range", count=0, name="Aknagyűrű", max=3)
        consonant = message("count_out_of_range", count=0, name="Cobra Flash", max=3)
    assert vowel.startswith('az "Aknagyűrű" darabszáma')
    assert consonant.startswith('a "Cobra Flash" darabszáma')


@pytest.mark.parametrize(
    "name, start", [("deck", "A deck"), ("expected_version", "Az expected_version")]
)
def test_a_bad_number_settles_its_article(name, start):
    from django.utils import translation

    from cardgame.params import BadNumber, whole_number

    with translation.override("hu"), pytest.raises(BadNumber) as raised:
        whole_number("x", name)
    assert raised.value.message.startswith(start) and "(z)" not in raised.value.message
