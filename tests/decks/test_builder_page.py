"""The deck builder page (decks/views_builder.py): who may open it, and what it embeds."""

import json
import re

import pytest
from django.contrib.auth import get_user_model

from decks.services import save_deck

pytestmark = pytest.mark.django_db


def embedded_deck(response):
    """The deck the page embeds for builder.js (json_script id="builder-deck")."""
    match = re.search(
        r'<script id="builder-deck" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert match, "the page embeds no builder-deck JSON"
    return json.loads(match.group(1))


@pytest.fixture
def alice(client):
    user = get_user_model().objects.create_user("alice", password="pw-alice-123")
    client.force_login(user)
    return user


@pytest.fixture
def zarg_deck(alice, catalogue):
    ships = list(catalogue.filter(race="zarg", type="ship").order_by("code")[:2])
    cards = [(ships[0].code, 3), (ships[1].code, 2)]
    return save_deck(alice, name="Zarg raid", cards=cards, description="Fast", ruleset="max4")


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        ("hu", ['<html lang="hu">', "/hu/cards/CODE/", "/hu/decks/0/edit/"]),
        ("en", ['<html lang="en">', "New deck", "Add cards", "Import", "Export", "Save"]),
    ],
)
def test_new_deck_page_renders(client, alice, lang, texts):
    response = client.get(f"/{lang}/decks/new/")
    assert response.status_code == 200
    html = response.content.decode()
    for text in texts:
        assert text in html
    for element in ("builder-search", "search-results", "race-chips", "deck-count", "legal-badge"):
        assert f'id="{element}"' in html
    assert "js/builder.js" in html and "css/builder.css" in html
    assert 'name="csrfmiddlewaretoken"' in html
    for ruleset in ("original", "max4", "free", "simplified"):
        assert f'<option value="{ruleset}"' in html
    assert embedded_deck(response) is None


def test_hungarian_page_uses_the_hungarian_catalogue(client, alice):
    # msgids the catalogue already has; the builder's own new ones fall back to English
    # until the lead translates them, which must not break the page.
    response = client.get("/hu/decks/new/")
    assert response.status_code == 200
    assert response["Content-Language"] == "hu"
    html = response.content.decode()
    assert "Keresési súgó" in html and "Név" in html
    assert "Search help" not in html


@pytest.mark.parametrize("path", ["/hu/decks/new/", "/en/decks/new/", "/hu/decks/1/edit/"])
def test_anonymous_users_are_sent_to_log_in(client, path):
    response = client.get(path)
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
    assert f"next={path}" in response["Location"].replace("%2F", "/")


def test_another_users_deck_is_not_found(client, zarg_deck):
    bob = get_user_model().objects.create_user("bob", password="pw-bob-123")
    client.force_login(bob)
    assert client.get(f"/hu/decks/{zarg_deck.pk}/edit/").status_code == 404
    zarg_deck.is_public = True  # public decks are read-only for others, not editable
    zarg_deck.save()
    assert client.get(f"/en/decks/{zarg_deck.pk}/edit/").status_code == 404


def test_missing_deck_is_not_found(client, alice):
    assert client.get("/hu/decks/999999/edit/").status_code == 404


def test_edit_page_embeds_the_decks_cards(client, zarg_deck, catalogue):
    response = client.get(f"/en/decks/{zarg_deck.pk}/edit/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'value="Zarg raid"' in html
    assert '<option value="max4" selected>' in html
    data = embedded_deck(response)
    assert data["id"] == zarg_deck.pk
    assert data["name"] == "Zarg raid"
    assert data["description"] == "Fast"
    assert data["ruleset"] == "max4"
    assert data["version"] == 1
    expected = {e.card.code: e.count for e in zarg_deck.entries.select_related("card")}
    assert {c["code"]: c["count"] for c in data["cards"]} == expected
    card = data["cards"][0]
    db_card = catalogue.get(code=card["code"])
    # shaped like GET /api/cards/ results, so the builder treats both alike
    assert card["name"] == db_card.name and card["name_en"] == db_card.name_en
    assert card["race"] == "zarg" and card["type"] == "ship"
    assert card["credit_cost"] == db_card.credit_cost


def test_edit_page_shows_the_saved_decks_charts(client, zarg_deck, catalogue):
    html = client.get(f"/en/decks/{zarg_deck.pk}/edit/").content.decode()
    assert 'class="deck-stats"' in html and '<svg class="curve"' in html
    total = sum(e.count for e in zarg_deck.entries.all())
    assert f"<dd>{total} (" in html


def test_new_deck_page_has_no_saved_charts(client, alice, catalogue):
    client.force_login(alice)
    assert 'class="deck-stats"' not in client.get("/en/decks/new/").content.decode()


def test_embedded_json_cannot_break_out_of_the_script(client, alice, catalogue):
    card = catalogue.order_by("code").first()
    deck = save_deck(alice, name="</script><b>x</b>", cards=[(card.code, 1)])
    response = client.get(f"/hu/decks/{deck.pk}/edit/")
    assert response.status_code == 200
    assert "</script><b>x</b>" not in response.content.decode()
    assert embedded_deck(response)["name"] == "</script><b>x</b>"
