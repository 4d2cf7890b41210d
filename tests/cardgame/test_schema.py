"""The served OpenAPI schema describes what the API really answers (issue 11, finding 7).

Real responses of the main operations, made in-process through the WSGI app, are checked
against /api/schema/ by schemathesis (types, required fields, nullability, formats). `make
fuzz` does the same with generated input on a real server.
"""

import json

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from django.test import Client
from schemathesis.specs.openapi.checks import response_schema_conformance

pytestmark = pytest.mark.django_db(transaction=True)

CSRF = "k" * 32


@pytest.fixture
def api(alice, catalogue):
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
    client = Client()
    client.force_login(alice)
    cookies = {"sessionid": client.cookies["sessionid"].value, "csrftoken": CSRF}

    def call(method, path, *, path_parameters=None, query=None, body=None, logged_in=True):
        template = schema[path][method]
        kwargs = {"path_parameters": path_parameters or {}, "query": query or {}}
        if logged_in:
            kwargs.update(cookies=cookies, headers={"X-CSRFToken": CSRF})
        if body is not None:
            kwargs.update(body=body, media_type="application/json")
        case = template.Case(**kwargs)
        response = case.call()
        assert response.status_code < 500, response.text
        response_schema_conformance(None, response, case)
        is_json = "json" in str(response.headers.get("content-type"))
        return response.status_code, json.loads(response.text) if is_json else response.text

    return call


CARDS = [{"code": "KG1-001", "count": 3}, {"code": "KG1-002", "count": 2}]


def test_catalogue_operations(api):
    api("GET", "/api/cards/", query={"q": "t:ship"}, logged_in=False)
    api("GET", "/api/cards/{code}/", path_parameters={"code": "KG1-001"}, logged_in=False)
    api("GET", "/api/races/", logged_in=False)
    api("GET", "/api/types/", logged_in=False)


def test_deck_operations(api):
    status, deck = api("POST", "/api/decks/", body={"name": "L", "cards": CARDS})
    assert status == 201
    ref = {"id": deck["id"]}
    api("PATCH", "/api/decks/{id}/", path_parameters=ref, body={"cards": CARDS[:1]})
    api("GET", "/api/decks/{id}/", path_parameters=ref)
    api("GET", "/api/decks/", query={"mine": "1"})
    api("GET", "/api/decks/{id}/versions/", path_parameters=ref)
    api("GET", "/api/decks/{id}/diff/", path_parameters=ref, query={"from": 1, "to": 2})
    for fmt in ("json", "share", "text"):
        api("GET", "/api/decks/{id}/export/", path_parameters=ref, query={"format": fmt})
    api("POST", "/api/decks/validate/", body={"cards": CARDS}, logged_in=False)
    api("POST", "/api/decks/import/", body={"text": "3 Cobra Flash"}, logged_in=False)


def test_collection_operations(api):
    api("PUT", "/api/collection/", body={"cards": CARDS})
    api("GET", "/api/collection/")
    api("POST", "/api/collection/booster/")


def test_tournament_penalty_operations(api, alice, bob):
    """A judge's penalty (tournaments/penalties.py) and the list, as the schema says."""
    import datetime

    from decks import services as deck_services
    from tests.decks.test_pages import LACI, colony
    from tournaments import services as tournament_services

    event = tournament_services.create_tournament(
        alice, name="Schema Cup", date=datetime.date(2026, 12, 1)
    )
    for user in (alice, bob):
        deck = deck_services.save_deck(user, name="c", cards=colony(LACI))
        tournament_services.check_in(tournament_services.register(event, user, deck), user)
    tournament_services.start(event, alice)
    ref = {"id": event.pk}
    body = {"player": "bob", "penalty": "game_loss", "infraction": "slow_play", "note": "n"}
    status, penalty = api(
        "POST", "/api/tournaments/{id}/penalties/", path_parameters=ref, body=body
    )
    assert status == 201 and penalty["match"] is None and penalty["applied"] is False
    api("POST", "/api/tournaments/{id}/penalties/", path_parameters=ref, body={"player": "bob"})
    status, rows = api("GET", "/api/tournaments/{id}/penalties/", path_parameters=ref)
    assert status == 200 and [row["penalty"] for row in rows] == ["game_loss"]
    api("GET", "/api/tournaments/{id}/", path_parameters=ref)
