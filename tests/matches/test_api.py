"""The matches HTTP API in the embedded default (SQLite, eager Celery, one process).

Every error is a 4xx with `detail` and `code` (docs/matches-api.md), never a 500.
"""

import random

import pytest

from matches.models import ActionRequest, Match, MatchEvent

from .kit import make_deck, play_until_over, post

pytestmark = pytest.mark.django_db


@pytest.fixture
def bot_match(alice_client, decks, django_capture_on_commit_callbacks):
    response = post(
        alice_client,
        "/api/matches/",
        {"deck": decks[0].pk, "bot": "heuristic"},
        django_capture_on_commit_callbacks,
    )
    assert response.status_code == 201, response.json()
    return response.json()


def wait_for_my_decision(client, match_id):
    state = client.get(f"/api/matches/{match_id}/").json()
    assert state["status"] == "active"
    assert state["legal_actions"], "the bot has moved and it is the player's decision"
    return state


def test_a_game_against_a_bot_runs_to_the_end_in_one_process(
    alice_client, bot_match, django_capture_on_commit_callbacks
):
    """R 15: the game ends with a winner; every applied action is one version and the
    events are numbered 1..seq without a gap."""
    match_id = bot_match["id"]
    final, steps = play_until_over(
        alice_client, match_id, random.Random(5), django_capture_on_commit_callbacks
    )
    assert final["status"] == "finished"
    assert final["result"]["reason"] == "colony"
    assert final["result"]["winner_seat"] in (0, 1)
    match = Match.objects.get(pk=match_id)
    applied = ActionRequest.objects.filter(match=match, status="applied")
    assert applied.count() == match.version
    mine = applied.filter(seat=0)
    assert mine.filter(origin=ActionRequest.CLIENT).count() == steps
    # the rest of seat 0's decisions had one sensible answer and were taken for it (issue 34)
    taken = mine.exclude(origin=ActionRequest.CLIENT).values_list("client_action_id", flat=True)
    assert all(cid.startswith("auto:") for cid in taken)
    assert applied.filter(seat=1).exists()  # the bot played through the same path
    seqs = list(MatchEvent.objects.filter(match=match).values_list("seq", flat=True))
    assert seqs == list(range(1, match.seq + 1))
    assert final["legal_actions"] == [] and final["pending"] is None


def test_the_state_has_the_contract_shape(alice_client, bot_match):
    state = wait_for_my_decision(alice_client, bot_match["id"])
    assert set(state) >= {"id", "status", "version", "seq", "you", "players", "clocks"}
    assert set(state) >= {"pending", "legal_actions", "view", "result"}
    assert state["you"] == 0
    assert [p["bot"] for p in state["players"]] == [None, "heuristic"]
    # against a bot the person's clock never runs (issue 34): no bank, no deadline
    assert state["clocks"]["bank"] == [None, None] and state["clocks"]["decision_deadline"] is None
    assert (state["clocks"]["time_control"], state["clocks"]["timed"]) == ("untimed", False)
    action = state["legal_actions"][0]
    assert set(action) == {"id", "kind", "label_en", "label_hu", "params"}
    assert state["pending"]["player"] == 0
    assert "actions" not in state["view"]


def _action(state, **overrides):
    body = {
        "client_action_id": f"a{state['version']}",
        "expected_version": state["version"],
        "action": state["legal_actions"][0]["id"],
    }
    return {**body, **overrides}


def test_a_stale_version_is_409_with_the_current_version(alice_client, bot_match):
    state = wait_for_my_decision(alice_client, bot_match["id"])
    Match.objects.filter(pk=state["id"]).update(version=state["version"] + 3)
    url = f"/api/matches/{state['id']}/actions/"
    # The detail speaks the reader's language (matches/messages.py): English asked for here.
    response = alice_client.post(
        url, _action(state), content_type="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "STALE_VERSION" and body["current_version"] == state["version"] + 3
    assert "reload" in body["detail"]
    hungarian = post(alice_client, url, _action(state)).json()["detail"]
    assert "töltsd újra" in hungarian and "reload" not in hungarian


def test_an_illegal_action_is_422(alice_client, bot_match):
    state = wait_for_my_decision(alice_client, bot_match["id"])
    response = post(
        alice_client, f"/api/matches/{state['id']}/actions/", _action(state, action="draw")
    )
    if "draw" in [a["id"] for a in state["legal_actions"]]:
        pytest.skip("draw happens to be legal here")
    assert response.status_code == 422
    assert response.json()["code"] == "ILLEGAL_ACTION"
    assert not ActionRequest.objects.filter(match_id=state["id"], action="draw").exists()


def test_someone_else_is_403_and_so_is_the_wrong_seat(alice_client, bob_client, bot_match):
    state = wait_for_my_decision(alice_client, bot_match["id"])
    response = post(bob_client, f"/api/matches/{state['id']}/actions/", _action(state))
    assert response.status_code == 403 and response.json()["code"] == "NOT_A_PLAYER"
    Match.objects.filter(pk=state["id"]).update(deciding_seat=1)
    response = post(alice_client, f"/api/matches/{state['id']}/actions/", _action(state))
    assert response.status_code == 403 and response.json()["code"] == "NOT_YOUR_DECISION"


def test_a_move_reads_the_match_and_the_players_seat_in_one_query(alice_client, bot_match):
    """The POST of a move reads its match with the player's seat (one query, not a seat
    query of its own: issue 16's cheaper POST); the seat decides as before. On PostgreSQL
    that read is inside the move's INSERT itself (`services.store_move`): one statement."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    state = wait_for_my_decision(alice_client, bot_match["id"])
    with CaptureQueriesContext(connection) as queries:
        response = post(alice_client, f"/api/matches/{state['id']}/actions/", _action(state))
    assert response.status_code == 202, response.json()
    sqls = [q["sql"] for q in queries.captured_queries]
    touching = [sql for sql in sqls if '"matches_match"' in sql or '"matches_seat"' in sql]
    if connection.vendor == "postgresql":
        assert len(touching) == 1, touching
        assert touching[0].startswith('INSERT INTO "matches_actionrequest"')
        assert 'FROM "matches_match"' in touching[0] and '"matches_seat"' in touching[0]
        return
    reads = [sql for sql in sqls if sql.startswith("SELECT")]
    match_reads = [sql for sql in reads if 'FROM "matches_match"' in sql]
    assert len(match_reads) == 1 and '"matches_seat"' in match_reads[0]
    assert not [sql for sql in reads if '"matches_seat"' in sql and sql not in match_reads]


@pytest.mark.django_db(transaction=True)  # autocommit, as a real request
def test_a_move_is_stored_by_one_insert_outside_a_transaction_block(alice_client, bot_match):
    """Issue 16: a player's move is one INSERT in autocommit (no BEGIN/COMMIT round trips
    of an atomic block around it), then queued for the drain; the same request sent again
    is found, not stored twice."""
    from unittest import mock

    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from matches import queue
    from matches.models import ActionRequest

    state = wait_for_my_decision(alice_client, bot_match["id"])
    entered = []
    real_enter = transaction.Atomic.__enter__

    def counting_enter(self):
        entered.append(self)
        return real_enter(self)

    body = _action(state)
    with (
        mock.patch.object(queue, "send") as queued,
        mock.patch.object(transaction.Atomic, "__enter__", counting_enter),
    ):
        with CaptureQueriesContext(connection) as queries:
            first = post(alice_client, f"/api/matches/{state['id']}/actions/", body)
        sqls = [q["sql"] for q in queries.captured_queries]  # before the next request resets them
        # not drained yet (the queue is patched): the retry's INSERT meets the unique key,
        # outside any transaction block, and finds the stored request
        again = post(alice_client, f"/api/matches/{state['id']}/actions/", body)
    assert first.status_code == again.status_code == 202
    assert first.json()["request"]["id"] == again.json()["request"]["id"]
    inserts = [sql for sql in sqls if sql.startswith("INSERT")]
    assert len(inserts) == 1 and '"matches_actionrequest"' in inserts[0]
    assert not [sql for sql in sqls if "SAVEPOINT" in sql]
    assert entered == []
    queued.assert_called_once_with("drain_match", state["id"])
    assert ActionRequest.objects.filter(client_action_id=body["client_action_id"]).count() == 1


@pytest.mark.parametrize(
    "body, code",
    [
        ([1, 2], "BAD_BODY"),
        ({"expected_version": 0, "action": "pass"}, "BAD_CLIENT_ACTION_ID"),
        ({"client_action_id": "x" * 65, "expected_version": 0, "action": "pass"}, "BAD_CLIENT_ACTION_ID"),
        ({"client_action_id": "x", "expected_version": True, "action": "pass"}, "BAD_VERSION"),
        ({"client_action_id": "x", "expected_version": "3", "action": "pass"}, "BAD_VERSION"),
        ({"client_action_id": "x", "expected_version": -1, "action": "pass"}, "BAD_VERSION"),
        ({"client_action_id": "x", "expected_version": 0, "action": 7}, "BAD_ACTION"),
        ({"client_action_id": "x", "expected_version": 0, "action": "fly:to=moon"}, "MALFORMED_ACTION"),
        ({"client_action_id": "x", "expected_version": 0, "action": "play:card=abc"}, "MALFORMED_ACTION"),
    ],
)  # fmt: skip
def test_malformed_requests_are_400_with_a_code(alice_client, bot_match, body, code):
    response = post(alice_client, f"/api/matches/{bot_match['id']}/actions/", body)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == code and response.json()["detail"]


def test_a_body_that_is_not_json_is_400(alice_client, bot_match):
    response = alice_client.post(
        f"/api/matches/{bot_match['id']}/actions/", "{nope", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error" and response.json()["detail"]


def test_an_anonymous_post_is_403_with_a_code(bot_match):
    from django.test import Client

    response = post(Client(), f"/api/matches/{bot_match['id']}/actions/", {})
    assert response.status_code == 403 and response.json()["code"] == "NOT_LOGGED_IN"


def test_an_unknown_match_is_404_everywhere(alice_client):
    for url in ("/api/matches/999/", "/api/matches/999/events/", "/api/matches/999/replay/"):
        response = alice_client.get(url)
        assert response.status_code == 404 and response.json()["code"] == "NO_SUCH_MATCH"


def test_the_same_client_action_id_is_applied_once(
    alice_client, bot_match, django_capture_on_commit_callbacks
):
    state = wait_for_my_decision(alice_client, bot_match["id"])
    body = _action(state, client_action_id="once")
    url = f"/api/matches/{state['id']}/actions/"
    first = post(alice_client, url, body, django_capture_on_commit_callbacks)
    again = post(alice_client, url, body, django_capture_on_commit_callbacks)
    assert first.status_code == again.status_code == 202
    assert first.json()["request"]["id"] == again.json()["request"]["id"]
    assert ActionRequest.objects.filter(match_id=state["id"], client_action_id="once").count() == 1
    other = post(alice_client, url, {**body, "action": "wasteland_draw"})
    assert other.status_code == 409 and other.json()["code"] == "CLIENT_ACTION_ID_REUSED"


@pytest.mark.parametrize("first", ["player", "clock"])
def test_requests_pending_together_apply_in_the_order_they_came(
    players, decks, first, django_capture_on_commit_callbacks
):
    """Two requests for one version wait for the same drain (the player's move and the
    clock's default move): the first stored is applied, the other is rejected as stale, and
    the player can read why. (An action for a version not reached yet is refused at once:
    tests/matches/test_server_moves.py.)"""
    from datetime import timedelta

    from django.test import Client
    from django.utils import timezone

    from matches import services

    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=11)
    match.refresh_from_db()
    v, user = match.version, players[match.deciding_seat]
    now = timezone.now()
    Match.objects.filter(pk=match.pk).update(
        decision_started=now - timedelta(seconds=match.decision_limit + 1),
        decision_deadline=now - timedelta(seconds=1),
    )
    with django_capture_on_commit_callbacks(execute=False):  # nothing drains yet
        for source in (first, {"player": "clock", "clock": "player"}[first]):
            if source == "clock":
                services.submit_default_move(match.pk)
            else:
                services.submit_action(
                    match, user, client_action_id="mine", expected_version=v,
                    action=match.legal_ids[-1],
                )  # fmt: skip
    assert services.drain(match.pk) == 1
    requests = list(ActionRequest.objects.filter(match=match).order_by("id"))
    assert [r.status for r in requests] == ["applied", "rejected"]
    assert requests[1].code == "STALE_VERSION"
    c = Client()
    c.force_login(user)
    mine = next(r for r in requests if r.origin == "client")
    status = c.get(f"/api/matches/{match.pk}/actions/{mine.pk}/").json()["request"]
    assert status["status"] == ("applied" if first == "player" else "rejected")


def test_events_after_n_are_the_viewers_projection(alice_client, bob_client, bot_match):
    state = wait_for_my_decision(alice_client, bot_match["id"])
    mine = alice_client.get(f"/api/matches/{state['id']}/events/?after=0").json()
    assert mine["seq"] == state["seq"] and [e["seq"] for e in mine["events"]] == list(
        range(1, state["seq"] + 1)
    )
    later = alice_client.get(f"/api/matches/{state['id']}/events/?after=3").json()
    assert [e["seq"] for e in later["events"]] == list(range(4, state["seq"] + 1))
    spectator = bob_client.get(f"/api/matches/{state['id']}/events/?after=0").json()
    assert not any("secret" in e for e in spectator["events"])
    assert bob_client.get(f"/api/matches/{state['id']}/events/?after=x").status_code == 400


def test_a_spectator_gets_the_public_view_and_no_actions(bob_client, bot_match):
    state = bob_client.get(f"/api/matches/{bot_match['id']}/").json()
    assert state["you"] is None and state["legal_actions"] == []
    assert state["view"]["viewer"] is None


def test_concede_ends_the_game_for_the_other_seat(alice_client, bot_match):
    """R 15: conceding loses the game."""
    response = post(alice_client, f"/api/matches/{bot_match['id']}/concede/")
    assert response.status_code == 200
    assert response.json()["result"] == {
        "winner_seat": 1,
        "reason": "concede",
        "detail": "seat 0 conceded",
    }
    again = post(alice_client, f"/api/matches/{bot_match['id']}/concede/")
    assert again.status_code == 409 and again.json()["code"] == "GAME_NOT_ACTIVE"


def test_replay_is_refused_until_the_game_is_over_then_shown_from_either_seat(
    alice_client, bob_client, bot_match, django_capture_on_commit_callbacks
):
    match_id = bot_match["id"]
    response = alice_client.get(f"/api/matches/{match_id}/replay/?seat=1")
    assert response.status_code == 409 and response.json()["code"] == "NOT_FINISHED"
    play_until_over(alice_client, match_id, random.Random(9), django_capture_on_commit_callbacks)
    match = Match.objects.get(pk=match_id)
    for seat in (0, 1):
        replay = bob_client.get(f"/api/matches/{match_id}/replay/?seat={seat}").json()
        assert len(replay["steps"]) == match.version
        assert replay["steps"][-1]["seq"] == match.seq
        assert replay["steps"][-1]["view"]["winner"] == match.winner_seat
        assert replay["initial_view"]["viewer"] == seat
        assert all(s["action"] is None for s in replay["steps"] if s["by"] != seat)
    assert bob_client.get(f"/api/matches/{match_id}/replay/?seat=2").status_code == 400


# --- the lobby ----------------------------------------------------------------------------


def test_challenge_accept_and_play(alice_client, bob_client, decks, players):
    response = post(alice_client, "/api/matches/", {"deck": decks[0].pk, "opponent": "bob"})
    assert response.status_code == 201 and response.json()["status"] == "invited"
    match_id = response.json()["id"]
    listed = bob_client.get("/api/matches/").json()["results"]
    assert [m["id"] for m in listed] == [match_id] and listed[0]["you"] == 1
    wrong = post(alice_client, f"/api/matches/{match_id}/accept/", {"deck": decks[0].pk})
    assert wrong.status_code == 403 and wrong.json()["code"] == "NOT_INVITED"
    accepted = post(bob_client, f"/api/matches/{match_id}/accept/", {"deck": decks[1].pk})
    assert accepted.status_code == 200 and accepted.json()["status"] == "active"
    seat1 = Match.objects.get(pk=match_id).seats.get(seat=1)
    assert len(seat1.colony) == 45 and seat1.deck_id == decks[1].pk  # frozen (R 9.1)
    again = post(bob_client, f"/api/matches/{match_id}/accept/", {"deck": decks[1].pk})
    assert again.status_code == 409 and again.json()["code"] == "NOT_OPEN"


def test_an_open_challenge_is_listed_and_accepted_by_anybody_else(alice_client, bob_client, decks):
    match_id = post(alice_client, "/api/matches/", {"deck": decks[0].pk}).json()["id"]
    assert Match.objects.get(pk=match_id).status == "open"
    assert match_id in [m["id"] for m in bob_client.get("/api/matches/").json()["results"]]
    own = post(alice_client, f"/api/matches/{match_id}/accept/", {"deck": decks[0].pk})
    assert own.status_code == 422 and own.json()["code"] == "SELF_CHALLENGE"
    taken = post(bob_client, f"/api/matches/{match_id}/accept/", {"deck": decks[1].pk})
    assert taken.status_code == 200 and taken.json()["you"] == 1


def test_decline_and_cancel(alice_client, bob_client, decks):
    first = post(alice_client, "/api/matches/", {"deck": decks[0].pk, "opponent": "bob"}).json()
    assert post(bob_client, f"/api/matches/{first['id']}/decline/").json()["status"] == "aborted"
    second = post(alice_client, "/api/matches/", {"deck": decks[0].pk}).json()
    assert post(alice_client, f"/api/matches/{second['id']}/cancel/").json()["status"] == "aborted"
    late = post(bob_client, f"/api/matches/{second['id']}/accept/", {"deck": decks[1].pk})
    assert late.status_code == 409


def test_an_illegal_deck_is_422_with_every_problem(alice_client, players):
    """R 9.1 / R 9.7: a 44-card deck cannot be played; every problem is listed."""
    from .kit import legal_colony

    short = make_deck(players[0], codes=legal_colony(3)[:44], name="Short")
    response = post(alice_client, "/api/matches/", {"deck": short.pk, "bot": "random"})
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "DECK_NOT_LEGAL" and "DECK_SIZE" not in body["detail"]
    assert "44 lap van; pontosan 45 kell." in body["detail"]  # decks.problems, in Hungarian
    (problem,) = body["problems"]
    assert problem["code"] == "DECK_SIZE" and (problem["count"], problem["required"]) == (44, 45)
    assert problem["message"] == body["detail"]
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({"deck": "x"}, 400, "BAD_DECK"),
        ({}, 400, "BAD_DECK"),
        ({"deck": 99999}, 404, "NO_SUCH_DECK"),
        ({"deck": "OWN", "bot": "chess"}, 400, "UNKNOWN_BOT"),
        ({"deck": "OWN", "ruleset": "nope"}, 400, "UNKNOWN_RULESET"),
        ({"deck": "OWN", "opponent": "nobody"}, 404, "NO_SUCH_USER"),
        ({"deck": "OWN", "opponent": "alice"}, 422, "SELF_CHALLENGE"),
        ({"deck": "OWN", "opponent": "bob", "bot": "random"}, 400, "BAD_CHALLENGE"),
        ({"deck": "BOBS"}, 404, "NO_SUCH_DECK"),
    ],
)
def test_bad_challenges_are_clear_4xx(alice_client, decks, body, status, code):
    body = {**body}
    if body.get("deck") == "OWN":
        body["deck"] = decks[0].pk
    elif body.get("deck") == "BOBS":
        body["deck"] = decks[1].pk
    response = post(alice_client, "/api/matches/", body)
    assert response.status_code == status, response.json()
    assert response.json()["code"] == code and response.json()["detail"]


def test_a_database_outage_is_a_503_to_retry_not_a_500(alice_client, bot_match, monkeypatch):
    """Measured in bench/matches_bench.py: a full PostgreSQL ('too many clients') made the
    session lookup fail before the view; that is a 503 with a message, never a 500."""
    from django.contrib.sessions.backends.db import SessionStore
    from django.db import OperationalError

    def refuse(self):
        raise OperationalError("sorry, too many clients already")

    monkeypatch.setattr(SessionStore, "load", refuse)
    url = f"/api/matches/{bot_match['id']}/actions/"
    # The sentence speaks the reader's language (matches/messages.py): English asked for here.
    response = alice_client.post(
        url, {}, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 503
    assert response.json() == {
        "detail": "The game server cannot reach its database right now; try again in a few seconds.",
        "code": "UNAVAILABLE",
    }
    hungarian = post(alice_client, url, {}).json()
    assert hungarian["code"] == "UNAVAILABLE" and "adatbázis" in hungarian["detail"]


def test_a_player_reads_only_their_own_requests_never_the_opponents(
    alice_client, bob_client, players, decks, django_capture_on_commit_callbacks
):
    """R 16: the status of another seat's request (a person's or the bot's) is 404, like a
    request that does not exist, so its action id and message never reach the opponent."""
    response = post(
        alice_client,
        "/api/matches/",
        {"deck": decks[0].pk, "opponent": players[1].username},
        django_capture_on_commit_callbacks,
    )
    assert response.status_code == 201, response.json()
    match_id = response.json()["id"]
    post(bob_client, f"/api/matches/{match_id}/accept/", {"deck": decks[1].pk},
         django_capture_on_commit_callbacks)  # fmt: skip
    match = Match.objects.get(pk=match_id)
    decider = alice_client if players[match.deciding_seat] == players[0] else bob_client
    other = bob_client if decider is alice_client else alice_client
    state = decider.get(f"/api/matches/{match_id}/").json()
    response = post(
        decider, f"/api/matches/{match_id}/actions/", _action(state),
        django_capture_on_commit_callbacks,
    )  # fmt: skip
    assert response.status_code == 202, response.json()
    request_id = response.json()["request"]["id"]
    url = f"/api/matches/{match_id}/actions/{request_id}/"
    assert decider.get(url).status_code == 200
    theirs = other.get(url)
    assert theirs.status_code == 404
    assert state["legal_actions"][0]["id"] not in theirs.content.decode()


def test_a_game_against_the_thinking_bot_through_the_api(
    alice_client, decks, django_capture_on_commit_callbacks
):
    """Issue 18: the API names the search bot like the other bots, and it plays its seat
    (engine.search through make_bot): after each of 20 random moves of the player the bot
    has answered until it is the player's decision again (or the game is over)."""
    response = post(
        alice_client,
        "/api/matches/",
        {"deck": decks[0].pk, "bot": "search-easy"},
        django_capture_on_commit_callbacks,
    )
    assert response.status_code == 201, response.json()
    match = Match.objects.get(pk=response.json()["id"])
    assert match.seats.get(seat=1).bot == "search-easy"
    rng = random.Random(7)
    for _ in range(20):
        state = alice_client.get(f"/api/matches/{match.pk}/").json()
        if state["status"] != "active":
            break
        assert state["legal_actions"], "the bot moved until it is the player's decision"
        action = state["legal_actions"][rng.randrange(len(state["legal_actions"]))]["id"]
        body = {
            "client_action_id": f"c{state['version']}",
            "expected_version": state["version"],
            "action": action,
        }
        response = post(
            alice_client,
            f"/api/matches/{match.pk}/actions/",
            body,
            django_capture_on_commit_callbacks,
        )
        assert response.status_code == 202, response.json()
    assert match.requests.filter(origin=ActionRequest.BOT, status=ActionRequest.APPLIED).count() > 5
