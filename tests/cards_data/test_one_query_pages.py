"""A page of the search API and its cards' keywords in one query, and the card list page's
kept FilterSets (issue 40), answer exactly as the slow paths did."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cards_data import answers, filters
from cards_data.filters import PageShapes
from cards_data.models import Card, Keyword
from cards_data.serializers import CardSerializer, with_keyword_slugs

pytestmark = pytest.mark.django_db


def test_the_annotated_keywords_are_the_prefetched_ones_in_their_order(
    catalogue, django_assert_num_queries
):
    """The prefetch's order (Keyword's Meta.ordering, by slug) whatever order the links were
    made in; a card with none has []. R 13 names the ship abilities."""
    card = catalogue.get(code="KG1-006")
    card.keywords.clear()
    for slug in ("stealth", "burst_fire", "repair", "cloak"):  # not in slug order
        card.keywords.add(Keyword.objects.get(slug=slug))
    prefetched = {c.code: [k.slug for k in c.keywords.all()] for c in Card.objects.with_related()}
    with django_assert_num_queries(1):  # every card and its keywords
        annotated = {
            c.code: CardSerializer.get_keyword_slugs(c)
            for c in with_keyword_slugs(Card.objects.all())
        }
    assert annotated == prefetched
    assert annotated["KG1-006"] == ["burst_fire", "cloak", "repair", "stealth"]
    assert [] in annotated.values() and any(len(slugs) > 1 for slugs in annotated.values())


def test_a_card_reads_the_same_by_either_path(catalogue):
    serializer = CardSerializer()
    slow = {c.code: serializer.to_representation(c) for c in Card.objects.with_related()}
    fast = {c.code: serializer.to_representation(c) for c in with_keyword_slugs(Card.objects)}
    assert fast == slow


@pytest.mark.parametrize("params", [{"q": "t:ship"}, {"keyword": "formation"}, {}])
def test_a_search_page_is_the_stamp_the_count_and_the_page(
    client, catalogue, params, django_assert_num_queries
):
    client.get("/api/cards/", params)  # the shape's queryset is built and kept
    answers.forget()  # the answer is built again (a kept one is the stamp alone: test_answers)
    with django_assert_num_queries(3) as queries:  # no keyword prefetch
        body = client.get("/api/cards/", params).json()
    assert body["results"]
    sql = [query["sql"] for query in queries.captured_queries]
    assert "cards_data_cataloguestamp" in sql[0] and "COUNT(" in sql[1]
    assert not any(s.startswith('SELECT ("cards_data_card_keywords"') for s in sql)


def test_a_card_is_the_stamp_and_one_query(client, catalogue, django_assert_num_queries):
    with django_assert_num_queries(2):
        assert client.get("/api/cards/KG1-006/").json()["keywords"]


# ----------------------------------------------------------------- the card list page


def page(client, lang, params):
    """The page's HTML without its CSRF token (a new one for every answer)."""
    response = client.get(f"/{lang}/", params)
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())
    return response.status_code, html


PAGE_SHAPES = [
    ({}, 200),
    ({"q": "t:ship r:zarg", "sort": "-cost"}, 200),
    ({"race": ["zarg", "xeno"], "type": "ship", "speed_min": "2", "page": "2"}, 200),
    ({"keyword": "formation", "view": "list"}, 200),
    ({"q": "t:ship ((", "race": "zarg"}, 400),  # the parser's message
    ({"race": "nobody"}, 400),  # not a choice
    ({"credit_cost_min": "x"}, 400),  # not a number
]


@pytest.mark.parametrize("params, status", PAGE_SHAPES, ids=[str(s) for s, _ in PAGE_SHAPES])
def test_a_kept_page_shape_is_the_fresh_page_in_both_languages(client, catalogue, params, status):
    fresh = {}
    for lang in ("hu", "en"):
        PageShapes._kept.clear()
        fresh[lang] = page(client, lang, params)
    PageShapes._kept.clear()
    for first, then in (("hu", "en"), ("en", "hu")):  # kept in one language, read in both
        PageShapes._kept.clear()
        assert page(client, first, params) == fresh[first]
        assert page(client, then, params) == fresh[then]
        assert page(client, first, params) == fresh[first]
    assert fresh["hu"] != fresh["en"]
    assert fresh["hu"][0] == fresh["en"][0] == status


def test_a_valid_shape_is_built_once_and_an_invalid_one_every_time(client, catalogue, monkeypatch):
    built = []
    real = filters.CardFilter

    class Counting(real):
        def __init__(self, *args, **kwargs):
            built.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(filters, "CardFilter", Counting)
    PageShapes._kept.clear()
    for lang in ("hu", "en", "hu"):
        client.get(f"/{lang}/", {"q": "t:ship", "page": "2"})
    assert len(built) == 1
    for lang in ("hu", "en"):
        assert client.get(f"/{lang}/", {"q": "(("}).status_code == 400
    assert len(built) == 3


def test_the_kept_pages_are_bounded(client, catalogue, monkeypatch):
    monkeypatch.setattr(PageShapes, "MAX_SHAPES", 3)
    PageShapes._kept.clear()
    for cost in range(5):
        client.get("/en/", {"credit_cost_max": str(cost)})
    assert 1 <= len(PageShapes._kept) <= 3


def test_the_card_list_page_reads_no_keywords(client, catalogue):
    """Its card faces show no keywords: no prefetch of them (a keyword filter still asks)."""
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/en/", {"q": "t:ship"}).status_code == 200
    assert not any("cards_data_card_keywords" in q["sql"] for q in queries.captured_queries)


def test_a_catalogue_change_is_on_the_kept_page(client, catalogue):
    """A kept shape keeps its query, never its rows."""
    before = page(client, "en", {"q": "t:ship"})[1]
    card = catalogue.filter(type="ship").first()
    card.name_en = "Renamed Right Now"
    card.save()
    after = page(client, "en", {"q": "t:ship"})[1]
    assert "Renamed Right Now" in after and "Renamed Right Now" not in before
