"""Issue 11, item 1: a player cannot freeze a bot or a clock through the action ids.

The server's own moves (`bot:<version>`, `timeout:<version>`) live apart from the ids
clients choose (ActionRequest.origin); a client id is letters, digits and `._~-` only; an
action for a version the game has not reached is refused with 409 and stored nowhere.
"""

from datetime import timedelta

import pytest
from django.utils import timezone

from cardgame.hungarian import az
from engine.serialize import load
from matches import clocks, services
from matches.models import ActionRequest, Match

from .kit import logged_in, plan_actions, post

pytestmark = pytest.mark.django_db


def action_body(cid, version, action):
    return {"client_action_id": cid, "expected_version": version, "action": action}


def human_match(players, decks, seed=5):
    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=seed)
    match.refresh_from_db()
    return match


def bot_match(alice, decks, capture):
    """Alice against the heuristic bot, Alice to decide first (the bot waits its turn)."""
    colonies = [services.deck_colony(d, "original") for d in decks]
    with capture(execute=True):
        match = services.create_match(
            players=(alice, None), colonies=colonies, bots=(None, "heuristic"), seed=7,
            starting_player=0,
        )  # fmt: skip
    match.refresh_from_db()
    assert match.status == Match.ACTIVE and match.deciding_seat == 0
    return match


def play_to_a_change_of_decider(match, players, capture):
    """Play the game on (through the services) to a version whose decider is not the next
    version's: (the seat deciding now, that seat's legal move, the other seat)."""
    plan, _hash = plan_actions(load(match.state), 60, seed=1)
    turn = next(i for i in range(len(plan) - 1) if plan[i][0] != plan[i + 1][0])
    for seat, action in plan[:turn]:
        with capture(execute=True):
            services.submit_action(
                match, players[seat], client_action_id=f"p{match.version}",
                expected_version=match.version, action=action,
            )  # fmt: skip
        match.refresh_from_db()
    seat, action = plan[turn]
    assert match.deciding_seat == seat
    return seat, action, 1 - seat


@pytest.mark.parametrize(
    "cid", ["bot:1", "timeout:3", "a b", "bé", "x" * 65, "", "line\nbreak", "semi;colon"]
)
def test_a_client_action_id_outside_its_charset_is_400_and_stored_nowhere(
    players, decks, cid, django_capture_on_commit_callbacks
):
    match = human_match(players, decks)
    client = logged_in(players[match.deciding_seat])
    body = action_body(cid, match.version, match.legal_ids[0])
    response = post(client, f"/api/matches/{match.pk}/actions/", body)
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "BAD_CLIENT_ACTION_ID"
    assert not ActionRequest.objects.filter(match=match).exists()


def test_the_ids_the_game_page_makes_are_accepted(players, decks):
    """crypto.randomUUID(), and the fallback `${Date.now()}-<hex>` of static/matches/game.js."""
    match = human_match(players, decks)
    client = logged_in(players[match.deciding_seat])
    for cid in ["3f1c9a2e-55b4-4c1e-9d7a-0b6f0e1d2c3b", "1764050000000-9f3a2b"]:
        body = action_body(cid, match.version, match.legal_ids[0])
        response = post(client, f"/api/matches/{match.pk}/actions/", body)
        assert response.status_code == 202, response.json()


def test_an_action_for_a_version_not_reached_is_409_and_stored_nowhere(players, decks):
    match = human_match(players, decks)
    client = logged_in(players[match.deciding_seat])
    for ahead in (1, 2, 40):
        body = action_body(f"ahead{ahead}", match.version + ahead, match.legal_ids[0])
        response = post(client, f"/api/matches/{match.pk}/actions/", body)
        assert response.status_code == 409, response.json()
        answer = response.json()
        assert answer["code"] == "VERSION_NOT_REACHED"
        assert answer["current_version"] == match.version
    assert not ActionRequest.objects.filter(match=match).exists()


def test_the_not_reached_message_is_a_translated_sentence(players, decks):
    match = human_match(players, decks)
    client = logged_in(players[match.deciding_seat])
    url = f"/api/matches/{match.pk}/actions/"
    body = action_body("ahead", match.version + 3, match.legal_ids[0])
    english = client.post(url, body, "application/json", HTTP_ACCEPT_LANGUAGE="en").json()
    hungarian = client.post(url, body, "application/json", HTTP_ACCEPT_LANGUAGE="hu").json()
    assert english["detail"].startswith(f"The game is at version {match.version}, not ")
    article = az(match.version)  # "a(z)" settled by the number that follows (issue 34)
    assert hungarian["detail"].startswith(f"A játszma {article} {match.version}. változatnál tart")


def test_posting_the_bots_ids_first_does_not_stop_the_bot(
    players, decks, django_capture_on_commit_callbacks
):
    """The report: `bot:1…bot:40` posted ahead left the bot unable to move (issue 11)."""
    alice = players[0]
    match = bot_match(alice, decks, django_capture_on_commit_callbacks)
    client = logged_in(alice)
    url = f"/api/matches/{match.pk}/actions/"
    claims = [
        post(client, url, action_body(f"bot:{version}", version, "pass")).status_code
        for version in range(1, 41)
    ]
    body = action_body("mine", match.version, match.legal_ids[0])
    response = post(client, url, body, django_capture_on_commit_callbacks)
    assert response.status_code == 202
    match.refresh_from_db()
    bot_moves = ActionRequest.objects.filter(match=match, seat=1, status="applied")
    assert bot_moves.exists(), "the bot moved after Alice"
    assert match.deciding_seat == 0 or match.is_over
    assert set(claims) <= {400, 409}
    assert list(ActionRequest.objects.filter(match=match, seat=0).exclude(
        client_action_id__startswith="auto:").values_list(  # taken for her (issue 34)
        "client_action_id", flat=True)) == ["mine"]  # fmt: skip


def test_a_client_request_named_like_a_bot_move_does_not_block_the_bot(
    players, decks, django_capture_on_commit_callbacks
):
    """Even a client request already stored as `bot:<v>` (e.g. by an older server) is not
    the bot's move: the two live in different namespaces."""
    alice = players[0]
    match = bot_match(alice, decks, django_capture_on_commit_callbacks)
    after_alice = match.version + 1
    ActionRequest.objects.create(
        match=match, seat=0, client_action_id=f"bot:{after_alice}",
        expected_version=after_alice, action="pass", status="rejected", code="STALE_VERSION",
    )  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_action(
            match, alice, client_action_id="mine", expected_version=match.version,
            action=match.legal_ids[0],
        )  # fmt: skip
    bot_move = ActionRequest.objects.get(match=match, seat=1, expected_version=after_alice)
    assert bot_move.status == "applied" and bot_move.client_action_id == f"bot:{after_alice}"


def test_claiming_the_clocks_id_does_not_spare_the_opponents_bank(
    players, decks, django_capture_on_commit_callbacks
):
    """The report: a player who claimed `timeout:<k>` kept the opponent's bank from being
    charged when the opponent's decision k timed out (issue 11)."""
    match = human_match(players, decks)
    capture = django_capture_on_commit_callbacks
    mover, move, idler = play_to_a_change_of_decider(match, players, capture)
    client = logged_in(players[mover])
    url = f"/api/matches/{match.pk}/actions/"
    claim = post(
        client, url, action_body(f"timeout:{match.version + 1}", match.version + 1, "pass")
    )
    assert post(client, url, action_body("move", match.version, move), capture).status_code == 202
    match.refresh_from_db()
    assert match.deciding_seat == idler
    now = timezone.now()
    Match.objects.filter(pk=match.pk).update(
        decision_started=now - timedelta(seconds=match.decision_limit + 1),
        decision_deadline=now - timedelta(seconds=1),
    )
    with capture(execute=True):
        assert services.submit_default_move(match.pk).startswith("default:")
    default = ActionRequest.objects.get(match=match, origin="clock")
    assert default.seat == idler and default.status == "applied"
    bank = match.seats.get(seat=idler).time_bank
    assert bank <= clocks.CASUAL_BANK - match.decision_limit
    assert claim.status_code in (400, 409)
