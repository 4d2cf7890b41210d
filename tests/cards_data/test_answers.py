"""The card search's kept answers (cards_data/answers.py, issue 40): every kept answer is the
one the search builds anew, until the catalogue changes; errors are never kept."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cards_data import answers
from cards_data.models import Card

from .test_api_fast_paths import SHAPES

pytestmark = pytest.mark.django_db

PAGED = [({}, 2), ({"q": "-r:ember"}, 2), ({"q": "t:ship"}, 2)]


def get(client, params, **headers):
    response = client.get("/api/cards/", params, **headers)
    return response.status_code, response.json()


@pytest.mark.parametrize("params", SHAPES, ids=[str(shape) for shape in SHAPES])
def test_a_kept_answer_is_the_answer_built_anew(client, catalogue, params):
    first = get(client, params)
    kept = get(client, params)
    answers.forget()
    built_again = get(client, params)
    assert first[0] == 200
    assert kept == first == built_again


@pytest.mark.parametrize(("params", "page"), PAGED)
def test_kept_pages_with_their_links(client, catalogue, params, page):
    first = get(client, {**params, "page": page})
    kept = get(client, {**params, "page": page})
    answers.forget()
    assert kept == first == get(client, {**params, "page": page})
    assert first[0] == 200 and first[1]["previous"] is not None  # the pager's links kept too


def test_a_kept_answer_costs_one_query_the_catalogue_stamp(client, catalogue):
    get(client, {"q": "t:ship r:zarg"})
    with CaptureQueriesContext(connection) as queries:
        status, _body = get(client, {"q": "t:ship r:zarg"})
    assert status == 200
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert "cataloguestamp" in queries[0]["sql"].lower()


def test_a_change_of_the_catalogue_is_seen_at_once(client, catalogue):
    """A card saved (as the admin does) bumps the stamp: the next search builds anew."""
    before = get(client, {"q": "name:cobra"})[1]
    card = Card.objects.get(code=before["results"][0]["code"])
    card.name_en = "Cobra Flash Renamed"
    card.save()
    after = get(client, {"q": "name:cobra"})[1]
    assert [row["name_en"] for row in after["results"]].count("Cobra Flash Renamed") == 1
    assert after != before


def test_each_language_keeps_its_own_answer(client, catalogue):
    """The cards' page addresses are in the request's language."""
    hu = get(client, {"q": "t:ship r:zarg"}, HTTP_ACCEPT_LANGUAGE="hu")[1]
    en = get(client, {"q": "t:ship r:zarg"}, HTTP_ACCEPT_LANGUAGE="en")[1]
    assert hu["results"][0]["url"].startswith("/hu/")
    assert en["results"][0]["url"].startswith("/en/")
    assert get(client, {"q": "t:ship r:zarg"}, HTTP_ACCEPT_LANGUAGE="hu")[1] == hu


def test_errors_are_not_kept_and_speak_the_requests_language(client, catalogue):
    bad = {"q": 'name:"unclosed'}
    en = get(client, bad, HTTP_ACCEPT_LANGUAGE="en")
    hu = get(client, bad, HTTP_ACCEPT_LANGUAGE="hu")
    assert en[0] == hu[0] == 400
    assert en[1] != hu[1]
    past_the_end = get(client, {"q": "t:ship", "page": 999})
    assert past_the_end[0] == 404
    assert all(b'"results"' in body for body in answers._answers.values())


def test_a_kept_answer_is_the_same_bytes_and_headers(client, catalogue):
    params = {"q": "t:ship r:zarg"}
    first = client.get("/api/cards/", params)
    kept = client.get("/api/cards/", params)
    answers.forget()
    again = client.get("/api/cards/", params)
    assert first.content == kept.content == again.content
    for name in ("Content-Type", "ETag", "Cache-Control", "Vary", "Allow"):
        assert first.get(name) == kept.get(name) == again.get(name), name
    assert first["Content-Type"] == "application/json"


def test_with_keeping_off_every_answer_is_built(client, catalogue, settings):
    settings.KEEP_SEARCH_ANSWERS = False
    first = get(client, {"q": "t:ship r:zarg"})
    with CaptureQueriesContext(connection) as queries:
        again = get(client, {"q": "t:ship r:zarg"})
    assert again == first
    assert len(queries) == 3  # the stamp, the count and the page
    assert not answers._answers
