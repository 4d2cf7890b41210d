"""The tournaments REST API (tournaments/api.py): who may do what (player, staff,
anonymous), bad input (400 with a message), hidden drafts (404), wrong state (409).

R 18.2-18.7: Swiss rounds paired by staff and published, results reported by a player
and confirmed by the opponent, disputes and time-outs decided by a judge, never a draw.
"""

import datetime
import json

import pytest
from tournament_kit import colony, create_users

from decks.services import save_deck
from tournaments.models import AuditEntry, Round, TableSet, Tournament

pytestmark = pytest.mark.django_db


def post(client, url, body=None):
    return client.post(url, json.dumps(body or {}), content_type="application/json")


@pytest.fixture(autouse=True)
def english(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


@pytest.fixture
def users(django_user_model, catalogue):
    return create_users(django_user_model, ["org", "judge", "alice", "bob", "carol", "dave", "eve"])


def as_user(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def event(client, users):
    as_user(client, users["org"])
    response = post(
        client,
        "/api/tournaments/",
        {"name": "Szeged Cup", "date": "2026-12-12", "place": "Szeged", "judges": ["judge"]},
    )
    assert response.status_code == 201, response.json()
    client.logout()
    return Tournament.objects.get(pk=response.json()["id"])


def enter(client, event, user):
    deck = save_deck(user, name=f"{user.username}'s colony", cards=colony())
    as_user(client, user)
    assert (
        post(client, f"/api/tournaments/{event.pk}/register/", {"deck": deck.pk}).status_code == 201
    )
    assert post(client, f"/api/tournaments/{event.pk}/check-in/").status_code == 200
    client.logout()


@pytest.fixture
def running(client, event, users):
    """Four players, started, round 1 paired and published (the organiser logged in)."""
    for name in ["alice", "bob", "carol", "dave"]:
        enter(client, event, users[name])
    as_user(client, users["org"])
    assert post(client, f"/api/tournaments/{event.pk}/start/").status_code == 200
    assert post(client, f"/api/tournaments/{event.pk}/rounds/").status_code == 201
    assert post(client, f"/api/tournaments/{event.pk}/rounds/1/publish/").status_code == 200
    client.logout()
    return event


def first_match(event):
    return TableSet.objects.filter(tournament=event, round__number=1).order_by("table").first()


# ------------------------------------------------------------------------ create


def test_create_needs_an_account_and_valid_input(client, users):
    body = {"name": "X", "date": "2026-12-12"}
    assert post(client, "/api/tournaments/", body).status_code in (401, 403)
    as_user(client, users["alice"])
    bad = post(client, "/api/tournaments/", {"name": "X", "date": "soon"})
    assert bad.status_code == 400 and "date" in bad.json()["detail"]
    bad = post(client, "/api/tournaments/", {**body, "match_format": "bo5"})
    assert bad.status_code == 400 and "match_format" in bad.json()["detail"]
    bad = post(client, "/api/tournaments/", {**body, "judges": ["nobody"]})
    assert bad.status_code == 400 and "nobody" in bad.json()["detail"]
    ok = post(client, "/api/tournaments/", {**body, "match_format": "bo3", "online": True})
    assert ok.status_code == 201
    data = ok.json()
    assert data["organiser"] == "alice" and data["match_format"] == "bo3"
    assert data["game_minutes"] == 60  # R 18.4: one hour a game


def test_anyone_reads_tournaments(client, event):
    assert client.get("/api/tournaments/").json()[0]["name"] == "Szeged Cup"
    body = client.get(f"/api/tournaments/{event.pk}/").json()
    assert body["judges"] == ["judge"] and body["is_staff"] is False
    assert client.get("/api/tournaments/9999/").status_code == 404


# ------------------------------------------------------------------ registration


def test_register_with_an_illegal_deck_is_400_with_problems(client, event, users):
    alice = users["alice"]
    deck = save_deck(alice, name="Mixed", cards=colony(["xeno", "human"]), ruleset="free")
    as_user(client, alice)
    response = post(client, f"/api/tournaments/{event.pk}/register/", {"deck": deck.pk})
    assert response.status_code == 400
    assert "not legal under the original rules" in response.json()["detail"]
    assert "OPPOSING_RACES" in {p["code"] for p in response.json()["problems"]}
    other = save_deck(users["bob"], name="Bob's", cards=colony())
    response = post(client, f"/api/tournaments/{event.pk}/register/", {"deck": other.pk})
    assert response.status_code == 400 and "no deck" in response.json()["detail"]
    response = post(client, f"/api/tournaments/{event.pk}/register/", {"deck": "x"})
    assert response.status_code == 400


def test_register_anonymous_is_refused(client, event):
    assert post(client, f"/api/tournaments/{event.pk}/register/", {"deck": 1}).status_code in (
        401,
        403,
    )


def test_registration_closes_at_the_start(client, running, users):
    deck = save_deck(users["eve"], name="Late", cards=colony())
    as_user(client, users["eve"])
    response = post(client, f"/api/tournaments/{running.pk}/register/", {"deck": deck.pk})
    assert response.status_code == 409 and "closed" in response.json()["detail"]
    # a late entry is for staff only
    late = {"player": "eve", "deck": deck.pk}
    assert post(client, f"/api/tournaments/{running.pk}/late-entry/", late).status_code == 403
    as_user(client, users["judge"])
    response = post(client, f"/api/tournaments/{running.pk}/late-entry/", late)
    assert response.status_code == 201 and response.json()["late_entry_round"] == 2


# ------------------------------------------------------------------------ rounds


def test_only_staff_pair_and_publish(client, event, users):
    for name in ["alice", "bob", "carol"]:
        enter(client, event, users[name])
    as_user(client, users["alice"])
    assert post(client, f"/api/tournaments/{event.pk}/start/").status_code == 403
    as_user(client, users["org"])
    assert post(client, f"/api/tournaments/{event.pk}/start/").status_code == 200
    as_user(client, users["alice"])
    assert post(client, f"/api/tournaments/{event.pk}/rounds/").status_code == 403
    as_user(client, users["judge"])
    first = post(client, f"/api/tournaments/{event.pk}/rounds/")
    again = post(client, f"/api/tournaments/{event.pk}/rounds/")
    assert first.status_code == 201 and again.status_code == 200
    assert Round.objects.filter(tournament=event).count() == 1
    assert first.json()["status"] == "draft" and len(first.json()["matches"]) == 2
    # players do not see the draft
    as_user(client, users["alice"])
    assert client.get(f"/api/tournaments/{event.pk}/rounds/").json() == []
    assert client.get(f"/api/tournaments/{event.pk}/rounds/1/").status_code == 404
    match = first_match(event)
    assert client.get(f"/api/tournament-matches/{match.pk}/").status_code == 404
    assert post(client, f"/api/tournaments/{event.pk}/rounds/1/publish/").status_code == 403
    as_user(client, users["org"])
    published = post(client, f"/api/tournaments/{event.pk}/rounds/1/publish/").json()
    assert published["status"] == "published" and published["deadline"]
    as_user(client, users["alice"])
    assert client.get(f"/api/tournaments/{event.pk}/rounds/1/").status_code == 200


# ----------------------------------------------------------------------- results


def test_report_confirm_and_standings(client, running, users):
    match = first_match(running)
    a, b = match.player_a.player, match.player_b.player
    as_user(client, a)
    response = post(
        client, f"/api/tournament-matches/{match.pk}/report/", {"games_a": 1, "games_b": 0}
    )
    assert response.status_code == 200 and response.json()["status"] == "reported"
    assert post(client, f"/api/tournament-matches/{match.pk}/confirm/").status_code == 409
    as_user(client, b)
    response = post(client, f"/api/tournament-matches/{match.pk}/confirm/")
    assert response.status_code == 200 and response.json()["status"] == "confirmed"
    client.logout()
    rows = client.get(f"/api/tournaments/{running.pk}/standings/").json()
    assert rows[0]["player"] == a.username and rows[0]["points"] == 3
    assert "OMW%" in rows[0]["explain"]


def test_another_players_match_is_403(client, running, users):
    match = first_match(running)
    seated = {match.player_a.player.username, match.player_b.player.username}
    outsider = next(u for n, u in users.items() if n in {"alice", "bob", "carol", "dave"} - seated)
    as_user(client, outsider)
    body = {"games_a": 1, "games_b": 0}
    assert post(client, f"/api/tournament-matches/{match.pk}/report/", body).status_code == 403
    assert post(client, f"/api/tournament-matches/{match.pk}/confirm/").status_code == 403
    client.logout()
    assert post(client, f"/api/tournament-matches/{match.pk}/report/", body).status_code in (
        401,
        403,
    )


def test_bad_results_are_400(client, running):
    """R 18.4: no draw result exists."""
    match = first_match(running)
    as_user(client, match.player_a.player)
    url = f"/api/tournament-matches/{match.pk}/report/"
    draw = post(client, url, {"games_a": 1, "games_b": 1})
    assert draw.status_code == 400 and "no draws" in draw.json()["detail"]
    assert post(client, url, {"games_a": "one", "games_b": 0}).status_code == 400
    assert post(client, url, {"games_a": 2, "games_b": 0}).status_code == 400  # best of one
    assert client.post(url, "[1, 0]", content_type="application/json").status_code == 400
    assert post(client, f"/api/tournament-matches/{match.pk}/explode/").status_code == 404


def test_dispute_and_time_out_go_to_a_judge_with_audit(client, running, users):
    match = first_match(running)
    a, b = match.player_a.player, match.player_b.player
    as_user(client, a)
    post(client, f"/api/tournament-matches/{match.pk}/report/", {"games_a": 1, "games_b": 0})
    as_user(client, b)
    assert (
        post(client, f"/api/tournament-matches/{match.pk}/dispute/").json()["status"] == "disputed"
    )
    judge_body = {"games_a": 0, "games_b": 1, "reason": "ruling"}
    assert post(client, f"/api/tournament-matches/{match.pk}/judge/", judge_body).status_code == 403
    assert client.get(f"/api/tournaments/{running.pk}/audit/").status_code == 403
    as_user(client, users["judge"])
    bad = post(
        client, f"/api/tournament-matches/{match.pk}/judge/", {**judge_body, "reason": "draw"}
    )
    assert bad.status_code == 400
    response = post(client, f"/api/tournament-matches/{match.pk}/judge/", judge_body)
    assert response.status_code == 200 and response.json()["judge_reason"] == "ruling"
    log = client.get(f"/api/tournaments/{running.pk}/audit/").json()
    assert log[-1]["action"] == "judge_result" and log[-1]["actor"] == "judge"

    other = TableSet.objects.filter(tournament=running, round__number=1, table=2).get()
    as_user(client, other.player_b.player)
    timed = post(client, f"/api/tournament-matches/{other.pk}/report/", {"timed_out": True})
    assert timed.json()["status"] == "needs_judge"
    as_user(client, users["org"])
    response = post(
        client,
        f"/api/tournament-matches/{other.pk}/judge/",
        {"games_a": 1, "games_b": 0, "reason": "time"},
    )
    assert response.json()["status"] == "confirmed"
    assert AuditEntry.objects.filter(tournament=running, action="judge_result").count() == 2


def test_drop_and_staff_reactivate(client, running, users):
    as_user(client, users["alice"])
    response = post(client, f"/api/tournaments/{running.pk}/drop/")
    assert response.status_code == 200 and response.json()["dropped"] is True
    reg_id = response.json()["id"]
    assert post(client, f"/api/tournament-registrations/{reg_id}/reactivate/").status_code == 403
    as_user(client, users["judge"])
    response = post(client, f"/api/tournament-registrations/{reg_id}/reactivate/")
    assert response.status_code == 200 and response.json()["dropped"] is False
    as_user(client, users["eve"])
    assert post(client, f"/api/tournaments/{running.pk}/drop/").status_code == 409


def test_pair_next_round_before_results_is_409(client, running, users):
    as_user(client, users["org"])
    response = post(client, f"/api/tournaments/{running.pk}/rounds/")
    assert response.status_code == 409 and "unfinished" in response.json()["detail"]
    assert datetime.date.today()  # keep the import honest


def test_playoff_prizes_and_audit_are_staff_only(client, running, users):
    as_user(client, users["alice"])
    assert post(client, f"/api/tournaments/{running.pk}/playoff/").status_code == 403
    body = {"cards": {"1": "X", "2": "Y", "3": "Z"}}
    assert post(client, f"/api/tournaments/{running.pk}/prizes/", body).status_code == 403
    as_user(client, users["org"])
    # R 18.3: the playoff waits for the Swiss rounds
    response = post(client, f"/api/tournaments/{running.pk}/playoff/")
    assert response.status_code == 409 and "Swiss" in response.json()["detail"]
    assert post(client, f"/api/tournaments/{running.pk}/prizes/", {"cards": []}).status_code == 400
    assert client.get(f"/api/tournaments/{running.pk}/bracket/").json() == []


def test_the_openapi_schema_lists_the_tournament_endpoints(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/tournaments/{id}/rounds/" in schema.content
    assert b"/api/tournament-matches/{id}/{action}/" in schema.content
