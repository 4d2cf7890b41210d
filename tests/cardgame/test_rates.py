"""The expensive endpoints have a rate per account (per address when anonymous): card and
deck search, deck import, deck lab runs (issue 11, finding 4). A 429 says when to retry.

The rates come from the environment (settings.REST_FRAMEWORK); here they are made small.
"""

import json

import pytest

from cardgame.limits import ImportThrottle, LabRunThrottle, SearchThrottle

pytestmark = pytest.mark.django_db


@pytest.fixture
def rate(monkeypatch):
    def set_rate(throttle, value):
        monkeypatch.setattr(throttle, "THROTTLE_RATES", {throttle.scope: value})

    return set_rate


@pytest.mark.parametrize("url", ["/api/cards/?q=cobra", "/api/decks/?q=zarg"])
def test_search_has_a_rate_per_address(client, rate, url):
    rate(SearchThrottle, "3/min")
    assert [client.get(url).status_code for _ in range(3)] == [200] * 3
    response = client.get(url)
    assert response.status_code == 429 and response.json()["detail"]
    assert int(response["Retry-After"]) > 0


def test_search_rates_are_per_account(client, rate, alice, bob):
    rate(SearchThrottle, "2/min")
    client.force_login(alice)
    assert [client.get("/api/cards/").status_code for _ in range(3)] == [200, 200, 429]
    client.force_login(bob)
    assert client.get("/api/cards/").status_code == 200


def test_import_has_a_rate(client, rate):
    rate(ImportThrottle, "2/min")
    body = json.dumps({"text": "3 Cobra Flash"})
    codes = [
        client.post("/api/decks/import/", body, content_type="application/json").status_code
        for _ in range(3)
    ]
    assert codes[2] == 429 and 429 not in codes[:2]


def test_lab_runs_have_a_rate(client, rate, alice):
    rate(LabRunThrottle, "1/hour")
    client.force_login(alice)
    first = client.post("/api/decklab/runs/", {"deck": 999999, "games": 10}, "application/json")
    assert first.status_code == 404  # counted: an attempt is a request
    again = client.post("/api/decklab/runs/", {"deck": 999999, "games": 10}, "application/json")
    assert again.status_code == 429
