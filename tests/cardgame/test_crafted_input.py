"""Crafted input is a 400 with a message, never a 500 (issue 11, finding 5).

JSON nested 1,000 deep used to raise RecursionError inside DRF's parser; a NUL byte in a
path, a query or a body field reached PostgreSQL, which refuses it (a 500 on 8 endpoints).
Both now stop at the edge: cardgame.limits.BoundedJSONParser and cardgame.middleware.RefuseNulBytes.
"""

import json

import pytest

pytestmark = pytest.mark.django_db

DEEP = "[" * 1000 + "]" * 1000


def post_raw(client, url, body: str):
    return client.generic(
        "POST", url, body.encode(), content_type="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )


@pytest.mark.parametrize("url", ["/api/decks/validate/", "/api/decks/import/"])
def test_deep_json_is_a_400_anonymously(client, url):
    response = post_raw(client, url, DEEP)
    assert response.status_code == 400
    assert "deeper" in response.json()["detail"]


@pytest.mark.parametrize("url", ["/api/decks/", "/api/matches/"])
def test_deep_json_is_a_400_logged_in(client, alice, url):
    client.force_login(alice)
    body = json.dumps({"name": "x", "cards": [{"code": "KG1-001", "count": 1}]})
    body = body[:-1] + ', "deep": ' + DEEP + "}"
    response = post_raw(client, url, body)
    assert response.status_code == 400
    assert "deeper" in response.json()["detail"]


def test_a_body_past_the_size_limit_is_a_400(client):
    body = json.dumps({"cards": [{"code": "KG1-001", "count": 1}] * 50_000})
    response = post_raw(client, "/api/decks/validate/", body)
    assert response.status_code == 400 and response.json()["detail"]


def test_ordinary_nesting_still_parses(client, catalogue):
    body = {"cards": [{"code": "KG1-001", "count": 3}], "ruleset": "original"}
    response = post_raw(client, "/api/decks/validate/", json.dumps(body))
    assert response.status_code == 200


@pytest.mark.parametrize(
    "url",
    [
        "/api/cards/KG1-001%00/",
        "/api/cards/?q=urc%00apa",
        "/api/decks/?q=%00",
        "/en/?q=a%00b",
        "/en/cards/KG1-001%00/",
    ],
)
def test_nul_in_a_path_or_query_is_a_400(client, catalogue, url):
    response = client.get(url)
    assert response.status_code == 400
    assert b"NUL" in response.content


def test_nul_in_a_json_body_field_is_a_400_and_nothing_is_saved(client, catalogue, alice):
    from decks.models import Deck

    client.force_login(alice)
    body = json.dumps({"name": "La\u0000ci", "cards": [{"code": "KG1-001", "count": 3}]})
    response = post_raw(client, "/api/decks/", body)
    assert response.status_code == 400 and "NUL" in response.json()["detail"]
    assert not Deck.objects.exists()


def test_an_escaped_backslash_before_u0000_is_not_a_nul(client, catalogue, alice):
    client.force_login(alice)
    body = json.dumps({"name": "La\\u0000ci", "cards": [{"code": "KG1-001", "count": 3}]})
    assert post_raw(client, "/api/decks/", body).status_code == 201


def test_nul_in_a_form_field_is_a_400_in_the_pages_language(client, alice):
    client.force_login(alice)
    response = client.post("/hu/decks/collection/", {"lines": "3 KG1-001\x00"})
    assert response.status_code == 400
    assert "NUL" in response.content.decode() and "távolítsd" in response.content.decode()
