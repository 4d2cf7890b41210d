"""The search API's fast paths (issue 40) answer exactly as the slow ones: a card written out
by CardSerializer as DRF's own field walk writes it, a query shape's kept queryset as a
FilterSet built for the request, and the pager's count exactly up to its threshold."""

from urllib.parse import urlencode

import pytest
from django.http import QueryDict

from cards_data import pagination
from cards_data.filters import CardFilter
from cards_data.models import Card
from cards_data.search import fold
from cards_data.serializers import CardSerializer

pytestmark = pytest.mark.django_db

SHAPES = [
    {},
    {"q": "t:ship r:zarg"},
    {"q": "t:urhajo r:urcapa"},
    {"q": "(kw:burst_fire or kw:formation) cost<8"},
    {"q": "t:ship -kw:cloak size>=3"},
    {"q": "-r:ember"},
    {"q": "enemy ship"},
    {"q": "xyzzyplugh"},
    {"race": ["zarg", "xeno"], "type": "ship"},
    {"keyword": "burst_fire", "speed_min": "3"},
    {"rarity": "rare", "credit_cost_min": "2", "credit_cost_max": "5"},
    {"q": "t:ship", "sort": "-cost"},
]


def test_every_card_reads_as_drfs_own_field_walk_writes_it(catalogue):
    serializer = CardSerializer()
    for card in Card.objects.with_related():
        walked = super(CardSerializer, serializer).to_representation(card)
        written = serializer.to_representation(card)
        assert list(written.items()) == list(walked.items()), card.code


def test_every_card_reads_the_same_from_a_values_row(catalogue):
    """The card list reads values, not instances (issue 40): row_representation writes
    every card as the instance path does, key for key, in order, keywords included."""
    from cards_data.serializers import ROW_FIELDS, with_keyword_slugs

    serializer = CardSerializer()
    by_code = {card.code: card for card in Card.objects.with_related()}
    rows = with_keyword_slugs(Card.objects.all()).values(*ROW_FIELDS)
    assert len(rows) == len(by_code)
    for row in rows:
        from_instance = serializer.to_representation(by_code[row["code"]])
        assert list(serializer.to_representation(row).items()) == list(from_instance.items())


def fresh_page(params, page=1, size=50):
    """The codes and count a FilterSet built just now gives for `params`."""
    data = QueryDict(urlencode(params, doseq=True))  # as the request's query string reads
    codes = list(CardFilter(data, queryset=Card.objects.all()).qs.values_list("code", flat=True))
    return codes[(page - 1) * size : page * size], len(codes)


def api_page(client, params, page=1):
    body = client.get("/api/cards/", {**params, "page": page}).json()
    return [row["code"] for row in body["results"]], body["count"]


@pytest.mark.parametrize("params", SHAPES, ids=[str(shape) for shape in SHAPES])
def test_a_kept_query_shape_answers_as_a_fresh_filterset(client, catalogue, params):
    first = api_page(client, params)  # builds the shape's queryset
    again = api_page(client, params)  # the kept one
    second_page = api_page(client, params, page=2) if first[1] > 50 else None
    assert first == again == fresh_page(params)
    if params.get("q") != "xyzzyplugh":
        assert first[0]  # the comparison is not between two empty pages
    if second_page is not None:
        assert second_page == fresh_page(params, page=2)


def test_a_kept_query_shape_reads_the_catalogue_as_it_is_now(client, catalogue):
    params = {"q": "name:zzzujnev"}
    assert api_page(client, params) == ([], 0)
    card = Card.objects.order_by("code").first()
    card.name = "Zzzújnév"
    card.search_name = fold(f"{card.name} {card.name_en}")
    card.save()
    assert api_page(client, params) == ([card.code], 1)


@pytest.mark.parametrize("params", SHAPES, ids=[str(shape) for shape in SHAPES])
def test_counts_up_to_the_pagers_threshold_are_exact(client, catalogue, monkeypatch, params):
    exact = fresh_page(params)[1]
    monkeypatch.setattr(pagination, "EXACT_UP_TO", max(exact, 1))  # this count is at the edge
    assert api_page(client, params)[1] == exact


@pytest.mark.postgres
def test_past_the_threshold_the_count_is_the_planners_estimate_above_it(
    postgres_db, client, catalogue, monkeypatch
):
    monkeypatch.setattr(pagination, "EXACT_UP_TO", 10)
    broad = Card.objects.order_by()
    body = client.get("/api/cards/").json()
    assert body["count"] == max(pagination.planned_rows(broad), 11)
    assert [row["code"] for row in body["results"]] == fresh_page({})[0]  # the page is exact
