"""Issue 35: the deck lab's run request reads its deck id and number of games with the
site's one parser (cardgame.params): "²" or a 4,301-digit number was a 500."""

import pytest

from decklab.models import LabRun

pytestmark = pytest.mark.django_db

API = "/api/decklab/runs/"
EN = {"accept-language": "en"}
HUGE = "1" * 4301
BAD = ["²", "-1", "1e3", HUGE, 2**31, 2**63, "", "abc"]
BAD_IDS = ["superscript", "negative", "exponent", "4301-digits", "2**31", "2**63", "empty", "word"]


@pytest.mark.parametrize("games", BAD, ids=BAD_IDS)
def test_a_bad_number_of_games_is_a_400(client, lab_deck, alice, games):
    client.force_login(alice)
    body = {"deck": lab_deck.pk, "games": games}
    response = client.post(API, body, content_type="application/json", headers=EN)
    assert response.status_code == 400, response.status_code
    assert "games" in response.json()["detail"].lower()
    assert not LabRun.objects.exists()


@pytest.mark.parametrize("deck", BAD, ids=BAD_IDS)
def test_a_bad_deck_id_is_a_400(client, lab_deck, alice, deck):
    client.force_login(alice)
    body = {"deck": deck, "games": 10}
    response = client.post(API, body, content_type="application/json", headers=EN)
    assert response.status_code == 400, response.status_code
    assert "deck" in response.json()["detail"].lower()
    assert not LabRun.objects.exists()


@pytest.mark.parametrize(
    "games", ["²", HUGE, "1e3"], ids=["superscript", "4301-digits", "exponent"]
)
def test_the_lab_form_with_a_bad_number_rerenders_with_a_400(client, lab_deck, alice, games):
    client.force_login(alice)
    response = client.post(f"/en/lab/decks/{lab_deck.pk}/", {"games": games})
    assert response.status_code == 400, response.status_code
    assert not LabRun.objects.exists()
