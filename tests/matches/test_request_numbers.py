"""Issue 35: every id, count and version a request carries is read by one parser
(cardgame.params) and bounded by its column; a bad one is a 400 with a sentence, never a 500.

"²" passed `str.isdigit()` and failed `int()`; a 4,301-digit number failed Python's integer
string limit; 2**31 passed both and failed PostgreSQL's `integer` column (expected_version),
2**63 SQLite's. These run in both passes (the PostgreSQL pass runs every unmarked test).
"""

import pytest

from matches.models import ActionRequest, Match

from .kit import post

pytestmark = pytest.mark.django_db

HUGE = "1" * 4301  # past Python's 4,300-digit int() limit
BAD = ["²", "-1", "1e3", HUGE, 2**31, 2**63, "", "abc"]
BAD_IDS = ["superscript", "negative", "exponent", "4301-digits", "2**31", "2**63", "empty", "word"]


@pytest.fixture
def bot_match(alice_client, decks, django_capture_on_commit_callbacks):
    body = {"deck": decks[0].pk, "bot": "heuristic"}
    response = post(alice_client, "/api/matches/", body, django_capture_on_commit_callbacks)
    assert response.status_code == 201, response.json()
    return response.json()


def assert_clear_400(response, code=None):
    assert response.status_code == 400, (response.status_code, response.content[:300])
    body = response.json()
    assert body["detail"] and len(body["detail"]) < 300
    if code:
        assert body["code"] == code


@pytest.mark.parametrize("after", [str(v) for v in BAD], ids=BAD_IDS)
def test_events_after_a_bad_number_is_a_400_anonymously(bot_match, after):
    from django.test import Client

    response = Client().get(f"/api/matches/{bot_match['id']}/events/", {"after": after})
    assert_clear_400(response, "BAD_AFTER")


def test_events_after_a_good_number_still_answers(bot_match, alice_client):
    response = alice_client.get(f"/api/matches/{bot_match['id']}/events/", {"after": " 0 "})
    assert response.status_code == 200 and response.json()["events"]


@pytest.mark.parametrize("deck", BAD, ids=BAD_IDS)
def test_a_new_match_with_a_bad_deck_id_is_a_400(alice_client, decks, deck):
    assert_clear_400(
        post(alice_client, "/api/matches/", {"deck": deck, "bot": "random"}), "BAD_DECK"
    )
    assert not Match.objects.exists()


@pytest.mark.parametrize("deck", BAD, ids=BAD_IDS)
def test_accepting_with_a_bad_deck_id_is_a_400(alice_client, bob_client, decks, deck):
    match_id = post(alice_client, "/api/matches/", {"deck": decks[0].pk}).json()["id"]
    response = post(bob_client, f"/api/matches/{match_id}/accept/", {"deck": deck})
    assert_clear_400(response, "BAD_DECK")
    assert Match.objects.get(pk=match_id).status == "open"


@pytest.mark.parametrize("deck", BAD, ids=BAD_IDS)
def test_joining_a_table_with_a_bad_deck_id_is_a_400(alice_client, bob_client, decks, deck):
    """R 17.1: a table's seat is taken with a deck; a bad id takes none."""
    table = post(alice_client, "/api/matches/", {"deck": decks[0].pk, "seats": 3})
    assert table.status_code == 201, table.json()
    response = post(bob_client, f"/api/matches/{table.json()['id']}/join/", {"deck": deck})
    assert_clear_400(response, "BAD_DECK")


@pytest.mark.parametrize("version", BAD, ids=BAD_IDS)
def test_a_move_with_a_bad_expected_version_is_a_400(alice_client, bot_match, version):
    body = {"client_action_id": "v1", "expected_version": version, "action": "pass"}
    response = post(alice_client, f"/api/matches/{bot_match['id']}/actions/", body)
    assert_clear_400(response, "BAD_VERSION")
    assert not ActionRequest.objects.filter(client_action_id="v1").exists()


@pytest.mark.postgres
@pytest.mark.parametrize("version", [2**31, 2**31 - 1 + 2**20, 2**63 - 1])
def test_a_version_past_postgresqls_integer_is_a_400_there(
    postgres_db, alice_client, bot_match, version
):
    """On PostgreSQL 2**31 was "integer out of range" in the move's INSERT: a 500."""
    body = {"client_action_id": "v2", "expected_version": version, "action": "pass"}
    response = post(alice_client, f"/api/matches/{bot_match['id']}/actions/", body)
    assert_clear_400(response, "BAD_VERSION")


# --- the lobby form --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "deck", [v for v in BAD if v != ""], ids=[i for i in BAD_IDS if i != "empty"]
)
def test_the_lobby_form_with_a_bad_deck_is_a_400(alice_client, decks, deck):
    response = alice_client.post("/en/play/", {"action": "bot", "bot": "random", "deck": deck})
    assert response.status_code == 400, response.status_code
    page = response.content.decode()
    assert 'id="lobby-error"' in page and "deck" in page
    assert not Match.objects.exists()


@pytest.mark.parametrize("seats", BAD, ids=BAD_IDS)
def test_the_lobby_form_with_bad_seats_is_a_400(alice_client, decks, seats):
    """R 17.1: a table seats three to six."""
    data = {"action": "table", "seats": seats, "deck": decks[0].pk}
    response = alice_client.post("/en/play/", data)
    assert response.status_code == 400, response.status_code
    assert 'id="lobby-error"' in response.content.decode()
    assert not Match.objects.exists()
