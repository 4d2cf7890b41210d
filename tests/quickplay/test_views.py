"""Quick play over HTTP: the lobby's section, the JSON answers its script reads, and every
refusal as a 4xx with a sentence in the page's language (never a 500)."""

import re

import pytest
from django.test import Client

from quickplay.models import QueueEntry

from .conftest import join

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def visible(html: str) -> str:
    """The section's words a person reads (no tags, no script data)."""
    section = html[html.index('id="quickplay"') : html.index('id="qp-client"')]
    return re.sub(r"<[^>]+>", " ", section)


def post_join(client, lang="en", **fields):
    body = {"ruleset": "original", "time_control": "standard", "rated": "", **fields}
    return client.post(f"/{lang}/quickplay/join/", body, **JSON)


def test_the_lobby_shows_the_section_with_the_counts_in_both_languages(person):
    ann, ben = person("ann"), person("ben")
    join(ben)
    page = client_of(ann).get("/en/play/").content.decode()
    assert 'id="quickplay"' in page and "Find a game" in page
    assert "Original (tournament), standard (10 min + 15 s a turn), casual: 1 waiting" in page
    hu = visible(client_of(ann).get("/hu/play/").content.decode())
    assert "Játszma keresése" in hu and "Eredeti (verseny), normál" in hu and "1 vár" in hu
    assert not re.search(r"Find|waiting|casual|standard|Quick", hu), hu


def test_join_over_json_waits_then_matches_and_the_status_says_where_to_go(person):
    ann, ben = person("ann"), person("ben")
    a, b = client_of(ann), client_of(ben)
    waiting = post_join(a, deck=ann.deck.pk)
    assert waiting.status_code == 201
    entry = waiting.json()["entry"]
    assert entry["status"] == "waiting" and entry["place"] == 1
    matched = post_join(b, deck=ben.deck.pk).json()["entry"]
    assert matched["status"] == "matched" and matched["match"]
    seen = a.get(f"/en/quickplay/status/?entry={entry['id']}").json()["entry"]
    assert seen["status"] == "matched" and seen["match"] == matched["match"]
    for bad in ("²", "x", "9" * 30):  # ignored, never a 500: the person's own entry answers
        assert a.get(f"/en/quickplay/status/?entry={bad}").json()["entry"] == seen


@pytest.mark.parametrize(
    ("fields", "status", "code", "words"),
    [
        ({"ruleset": "chess"}, 400, "UNKNOWN_QUEUE", ("no such queue", "Nincs ilyen")),
        ({"time_control": "day"}, 400, "UNKNOWN_QUEUE", ("no such queue", "Nincs ilyen")),
        ({"rated": "maybe"}, 400, "BAD_RATED", ("rated", "értékelt")),
        ({"rated": "1"}, 403, "NOT_OPTED_IN", ("take part in ratings", "értékszám")),
        ({"deck": ""}, 400, "NO_DECK", ("Choose one of your decks", "paklijaid")),
        ({"deck": "x"}, 400, "BAD_DECK", ("deck", "deck")),
        ({"deck": "999999"}, 400, "NO_SUCH_DECK", ("Choose one of your decks", "paklijaid")),
    ],
)
def test_bad_input_is_a_4xx_with_a_sentence_in_the_page_language(
    person, fields, status, code, words
):
    ann = person("ann")
    a = client_of(ann)
    for lang, word in zip(("en", "hu"), words, strict=True):
        response = post_join(a, lang, **{"deck": ann.deck.pk, **fields})
        assert response.status_code == status, response.content
        body = response.json()
        assert body["code"] == code and word in body["detail"], body
    assert not QueueEntry.objects.exists()


def test_another_persons_deck_twice_and_leaving_when_not_queued(person):
    ann, ben = person("ann"), person("ben")
    a = client_of(ann)
    refused = post_join(a, deck=ben.deck.pk)
    assert refused.status_code == 403 and refused.json()["code"] == "NOT_YOUR_DECK"
    assert post_join(a, deck=ann.deck.pk).status_code == 201
    twice = post_join(a, "hu", deck=ann.deck.pk)
    assert twice.status_code == 409 and "Már vársz" in twice.json()["detail"]
    assert a.post("/en/quickplay/leave/", **JSON).status_code == 200
    gone = a.post("/hu/quickplay/leave/", **JSON)
    assert gone.status_code == 409 and gone.json()["code"] == "NOT_QUEUED"
    early = a.post("/en/quickplay/bot/", **JSON)
    assert early.status_code == 409 and early.json()["code"] == "NOT_QUEUED"


def test_without_the_script_a_refusal_is_a_page_and_a_match_opens_the_game(person):
    ann, ben = person("ann"), person("ben")
    a, b = client_of(ann), client_of(ben)
    page = a.post("/hu/quickplay/join/", {"ruleset": "chess", "deck": ann.deck.pk})
    assert page.status_code == 400 and "Nincs ilyen várólista" in page.content.decode()
    fields = {"ruleset": "original", "time_control": "quick", "deck": ann.deck.pk}
    assert a.post("/en/quickplay/join/", fields).url == "/en/play/#quickplay"
    opened = b.post("/en/quickplay/join/", {**fields, "deck": ben.deck.pk})
    match = QueueEntry.objects.get(user=ben).match
    assert opened.url == f"/en/play/{match.pk}/"
