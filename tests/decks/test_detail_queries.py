"""The deck page's cost (issue 40): a fixed number of queries whatever the deck holds, and
what the two queries load is what the page showed when it asked five."""

import pytest

from cards_data.models import Card
from decks import services

pytestmark = pytest.mark.django_db

# the deck (its owner and latest version number with it), its cards: a third is a regression
DECK_PAGE_QUERIES = 2
LACI = ["xeno", "insectoid", "zarg", "space_shark"]  # R 20 EX-1


def deck_of(owner, copies: int, versions: int = 1):
    """A public deck of 45 cards of four races (R 9), `copies` of each name; its earlier
    `versions - 1` versions lack one card or two in turn (a save that changes something
    adds a version)."""
    codes = Card.objects.filter(race__in=LACI).order_by("code").values_list("code", flat=True)
    cards = [(code, copies) for code in codes[: 45 // copies]]
    deck = None
    for number in range(1, versions + 1):
        content = cards if number == versions else cards[: -1 - number % 2]
        deck = services.save_deck(owner, deck=deck, name="Costs", cards=content, is_public=True)
    return deck


@pytest.mark.parametrize("copies", [1, 3])
@pytest.mark.parametrize(
    "params, extra",
    [({}, 0), ({"hand": "c0ffee"}, 0), ({"match": "t:ship cost<=4"}, 1)],
    ids=["plain", "sample hand", "match query"],
)
def test_the_deck_page_asks_a_fixed_number_of_queries(
    client, catalogue, alice, django_assert_max_num_queries, copies, params, extra
):
    deck = deck_of(alice, copies)
    with django_assert_max_num_queries(DECK_PAGE_QUERIES + extra):
        response = client.get(f"/hu/decks/{deck.pk}/", params)
    assert response.status_code == 200
    assert sum(row["count"] for row in response.context["card_odds"]) == response.context["total"]


def test_the_page_names_the_latest_version(client, catalogue, alice):
    deck = deck_of(alice, 3, versions=3)
    response = client.get(f"/en/decks/{deck.pk}/")
    assert response.context["version"] == 3
    assert "version 3" in response.content.decode()


def test_odds_rows_are_formatted_in_the_pages_language(client, catalogue, alice):
    """R 10.4/10.5 percentages written once per count of copies, as floatformat:1 wrote
    them on every row: a decimal comma in Hungarian, a point in English."""
    deck = deck_of(alice, 1)
    for lang, one in (("hu", "11,1"), ("en", "11.1")):
        response = client.get(f"/{lang}/decks/{deck.pk}/")
        rows = response.context["card_odds"]
        assert {row["odds"]["opening_text"] for row in rows} == {one}
        table = response.content.decode().split('id="odds-table"')[1]
        assert table.count(f">{one}%</td>") == len(rows) == 45
