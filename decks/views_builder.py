"""The deck builder page (owned by the builder work; see decks/urls.py).

The page is static/js/builder.js talking to the API (cards, races, validate, decks,
import, export, collection). This view only renders it, with the deck being edited
(if any) embedded as JSON so that the builder starts with its cards.
"""

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render

from cards_data.models import Card
from cards_data.selectors import card_dicts
from cards_data.serializers import CardSerializer

from .models import RULESET_CHOICES, Deck
from .views_pages import deck_statistics


def deck_payload(deck: Deck | None) -> dict | None:
    """The deck as the builder starts from it: its fields, and its cards shaped like
    `GET /api/cards/` results plus their `count`."""
    if deck is None:
        return None
    counts = dict(deck.entries.values_list("card__code", "count"))
    cards = CardSerializer(Card.objects.with_related().filter(code__in=counts), many=True).data
    latest = deck.latest_version
    return {
        "id": deck.pk,
        "name": deck.name,
        "description": deck.description,
        "ruleset": deck.ruleset,
        "is_public": deck.is_public,
        "version": latest.number if latest else 0,
        "cards": [{**card, "count": counts[card["code"]]} for card in cards],
    }


@login_required
def builder(request, pk=None):
    deck = get_object_or_404(Deck, pk=pk, owner=request.user) if pk is not None else None
    context = {"deck": deck, "deck_data": deck_payload(deck), "rulesets": RULESET_CHOICES}
    if deck is not None:
        context["stats"] = saved_statistics(deck)
    return render(request, "decks/builder.html", context)


def saved_statistics(deck: Deck) -> dict | None:
    """The charts of the saved deck (the same ones as its page), rendered server-side."""
    counts = dict(deck.entries.values_list("card__code", "count"))
    if not counts:
        return None
    cards = card_dicts(counts)
    return deck_statistics([(cards[code], count) for code, count in sorted(counts.items())])
