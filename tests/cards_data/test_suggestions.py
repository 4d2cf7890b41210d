"""Search helps a person who typed a bare name: "did you mean r:zarg"; a random card;
the help page's examples are links (static/js/query-examples.js)."""

import pytest

from cards_data.suggest import suggestions


@pytest.mark.parametrize(
    "query, expected",
    [
        ("zarg", ["r:zarg"]),
        ("Űrcápa", ["r:space_shark"]),
        ("urcapa", ["r:space_shark"]),
        ("ship", ["t:ship"]),
        ("Acél Sasok", ["clan:steel_eagles"]),
        ("r:zarg", []),
        ("", []),
    ],
)
def test_a_bare_race_type_or_clan_name_suggests_its_field_query(query, expected):
    assert suggestions(query, 0) == expected


def test_no_suggestion_when_the_search_found_plenty():
    assert suggestions("zarg", 30) == []


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_the_list_offers_the_suggestion_as_a_link(client, catalogue, lang):
    page = client.get(f"/{lang}/", {"q": "urcapa"}).content.decode()
    if 'id="suggestions"' in page:  # "urcapa" as text may find a card or two
        assert 'href="?q=r%3Aspace_shark"' in page


def test_a_query_that_finds_nothing_suggests(client, catalogue):
    response = client.get("/en/", {"q": "Granite Snakes"})
    assert response.context["page"].paginator.count <= 3
    assert response.context["suggestions"] == ["clan:granite_snakes"]
    assert 'href="?q=clan%3Agranite_snakes"' in response.content.decode()


def test_a_random_card(client, catalogue):
    response = client.get("/hu/cards/random/")
    assert response.status_code == 302 and response["Location"].startswith("/hu/cards/KG1-")
    assert client.get(response["Location"]).status_code == 200
