"""Deck advice's JSON API (issue 39): start a run, read its progress and proposals with their
evidence, cancel it, apply its recommendation; bad input is a 4xx with a sentence, the
account's daily budget a 429. Tiny races (a few games): the racing rule is test_racing's."""

import pytest

from decklab import advice, racing
from decklab.models import AdviceRun
from decklab.reference import reference_decks

from .test_advice_pages import _done_run


@pytest.fixture(autouse=True)
def tiny_races(monkeypatch):
    monkeypatch.setattr(racing, "ROUNDS", (4, 4))
    monkeypatch.setattr(advice, "FRESH_GAMES", 4)
    monkeypatch.setattr(advice, "MAX_CANDIDATES", 2)


def post(client, url, body=None):
    return client.post(url, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")


def test_start_plays_the_race_and_the_run_shows_its_evidence(client, lab_deck, alice, on_commit):
    client.force_login(alice)
    with on_commit(execute=True):
        response = post(client, "/api/decklab/advice/", {"deck": lab_deck.pk, "budget": 3000})
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "queued" and response.json()["budget"] == 3000
    run = AdviceRun.objects.get()
    body = client.get(f"/api/decklab/advice/{run.pk}/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert body["status"] == "done", body["error"]
    assert body["games_played"] == run.games_played > 0
    assert len(body["candidates"]) == 2
    for row in body["candidates"]:
        assert row["verdict"] in {"better", "worse", "same", "undecided"}
        assert row["low"] <= row["change"] <= row["high"]
        assert sum(s["games"] for s in row["splits"]) == row["games"] > 0
        assert {s["opponent"] for s in row["splits"]} <= {ref["key"] for ref in reference_decks()}
        assert row["text"].startswith(f"−{row['count']} ")
    assert run.chunks.filter(status="pending").count() == 0


@pytest.mark.parametrize(
    "body, words",
    [
        ([1, 2], "JSON object"),
        ({"deck": "x"}, "numeric id"),
        ({"deck": 1, "budget": 12}, "between 3,000 and 20,000"),
        ({"deck": 1, "budget": "²"}, "between 3,000 and 20,000"),
        ({"deck": 1, "source": "friends"}, '"catalogue" or "collection"'),
    ],
)
def test_bad_input_is_a_400_with_a_sentence(client, alice, body, words):
    client.force_login(alice)
    response = post(client, "/api/decklab/advice/", body)
    assert response.status_code == 400
    assert words in response.json()["detail"]
    assert not AdviceRun.objects.exists()


def test_unknown_deck_anonymous_and_someone_elses_private_run(client, lab_deck, alice, bob):
    assert post(client, "/api/decklab/advice/", {"deck": lab_deck.pk}).status_code == 403
    client.force_login(alice)
    assert post(client, "/api/decklab/advice/", {"deck": 987654}).status_code == 404
    run = _done_run(lab_deck, alice)
    lab_deck.is_public = False
    lab_deck.save()
    client.force_login(bob)
    assert client.get(f"/api/decklab/advice/{run.pk}/").status_code == 404
    assert post(client, f"/api/decklab/advice/{run.pk}/cancel/").status_code == 404
    assert post(client, f"/api/decklab/advice/{run.pk}/apply/").status_code == 404


def test_the_daily_budget_is_a_429_with_a_sentence(client, lab_deck, alice, settings):
    settings.DECKLAB_ADVICE_GAMES_PER_DAY = 5000
    AdviceRun.objects.create(
        deck=lab_deck, owner=alice, colony=[], budget=3000, status="done", games_played=3000
    )
    client.force_login(alice)
    response = post(client, "/api/decklab/advice/", {"deck": lab_deck.pk, "budget": 3000})
    assert response.status_code == 429
    assert response.json()["code"] == "advice_budget"
    assert "2,000 are left today" in response.json()["detail"]


def test_cancel_an_active_run_then_it_is_a_409(client, lab_deck, alice):
    run = AdviceRun.objects.create(deck=lab_deck, owner=alice, colony=[], budget=3000)
    client.force_login(alice)
    response = post(client, f"/api/decklab/advice/{run.pk}/cancel/")
    assert response.status_code == 200 and response.json()["cancel_requested"] is True
    AdviceRun.objects.filter(pk=run.pk).update(status=AdviceRun.CANCELLED)
    response = post(client, f"/api/decklab/advice/{run.pk}/cancel/")
    assert response.status_code == 409 and "not running" in response.json()["detail"]


def test_apply_makes_a_version_once_and_only_a_gain_that_held_up(client, lab_deck, alice):
    client.force_login(alice)
    before = lab_deck.latest_version.number
    held = _done_run(lab_deck, alice)
    response = post(client, f"/api/decklab/advice/{held.pk}/apply/")
    assert response.status_code == 201 and response.json() == {"version": before + 1}
    comment = lab_deck.versions.get(number=before + 1).comment
    assert "+8.0 points (95%: +3.0 to +13.0) in 400 fresh games" in comment
    assert post(client, f"/api/decklab/advice/{held.pk}/apply/").status_code == 409
    not_held = _done_run(lab_deck, alice, holds=False)
    response = post(client, f"/api/decklab/advice/{not_held.pk}/apply/")
    assert response.status_code == 409 and response.json()["code"] == "nothing_to_apply"
