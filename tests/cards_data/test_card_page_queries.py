"""The card page's cost and its related cards (issue 40): a fixed number of queries, and
related_cards' subquery on keyword holders gives what the join with DISTINCT gave."""

import pytest
from django.db import connection
from django.db.models import Q

from cards_data.models import Card
from cards_data.selectors import related_cards

pytestmark = pytest.mark.django_db

# the card, its keywords prefetched, its related cards: a fourth is a regression
CARD_PAGE_QUERIES = 3


@pytest.mark.parametrize(
    "code",
    [
        "KG1-001",  # a ship with a keyword: related by race and subtype and by the keyword
        "KG1-043",  # a crew with rulings
        "KG1-057",  # an event
    ],
)
@pytest.mark.parametrize("lang", ["hu", "en"])
def test_the_card_page_asks_a_fixed_number_of_queries(
    client, catalogue, django_assert_max_num_queries, code, lang
):
    with django_assert_max_num_queries(CARD_PAGE_QUERIES):
        response = client.get(f"/{lang}/cards/{code}/")
    assert response.status_code == 200


def expected_related(card: Card, limit: int = 6) -> list[str]:
    """Same race and subtype, or a keyword in common; each card once, never the card."""
    keywords = set(card.keywords.values_list("id", flat=True))
    rows = [
        other
        for other in Card.objects.prefetch_related("keywords")
        if other.pk != card.pk
        and (
            (other.race == card.race and other.subtype == card.subtype)
            or keywords & {keyword.id for keyword in other.keywords.all()}
        )
    ]
    nulls_last = connection.vendor == "postgresql"  # SQLite sorts NULL (a cost of X) first
    rows.sort(
        key=lambda c: (c.subtype, (c.credit_cost is None) == nulls_last, c.credit_cost or 0, c.code)
    )
    return [c.code for c in rows[:limit]]


def test_related_cards_are_the_race_and_subtype_and_the_keyword_sharers(catalogue):
    with_keywords = Card.objects.filter(keywords__isnull=False).distinct().order_by("code")
    assert with_keywords.count() > 10
    for card in [*with_keywords, *Card.objects.filter(keywords__isnull=True)[:20]]:
        card = Card.objects.with_related().get(pk=card.pk)
        assert [c.code for c in related_cards(card)] == expected_related(card), card.code
        assert [c.code for c in related_cards(card, limit=100)] == expected_related(card, 100)


def test_a_keyword_shared_by_many_cards_lists_each_card_once(catalogue):
    """Two shared keywords used to join a card twice (hence the old DISTINCT)."""
    card = Card.objects.with_related().get(code="KG1-001")
    sharer = Card.objects.exclude(Q(pk=card.pk) | Q(race=card.race)).filter(type="ship").first()
    keywords = list(card.keywords.all())
    assert keywords, "KG1-001 has a keyword (formation)"
    sharer.keywords.add(*keywords)
    extra = Card.objects.exclude(pk__in=[card.pk, sharer.pk]).filter(keywords__isnull=False).first()
    card.keywords.add(*extra.keywords.all())
    sharer.keywords.add(*extra.keywords.all())
    card = Card.objects.with_related().get(pk=card.pk)
    codes = [c.code for c in related_cards(card, limit=1000)]
    assert sharer.code in codes
    assert len(codes) == len(set(codes))
    assert codes == expected_related(card, 1000)
