import hashlib
import secrets

from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import quote_etag
from django.views.decorators.cache import cache_control

from cardgame.language import current_language
from engine import catalog

from .art import card_svg
from .filters import SORT_LABELS, PageShapes
from .models import Card
from .selectors import facet_counts, related_cards, rulings_for
from .suggest import suggestions

PAGE_SIZE = 30
ART_MAX_AGE = 24 * 3600  # the art changes only when a card's data does


def healthz(request):
    return JsonResponse({"ok": True, "cards": Card.objects.count()})


def card_list(request):
    # The card faces show neither keywords nor the edition: no prefetch, no join.
    card_filter, cards = PageShapes.filter(request.GET, Card.objects.all())
    valid = cards is not None
    cards = cards if valid else Card.objects.none()
    page = Paginator(cards, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "filter": card_filter,
        "page": page,
        "query_string": query.urlencode(),
        "errors": card_filter.errors,
        "sort_labels": SORT_LABELS,
        "facets": {
            "race": facet_counts(cards, "race") if valid else {},
            "type": facet_counts(cards, "type") if valid else {},
            "rarity": facet_counts(cards, "rarity") if valid else {},
        },
        "catalog": catalog,
        "view": request.GET.get("view", "grid"),
        "suggestions": suggestions(request.GET.get("q", ""), page.paginator.count) if valid else [],
    }
    return render(request, "cards_data/card_list.html", context, status=200 if valid else 400)


def card_detail(request, code):
    card = get_object_or_404(Card.objects.with_related(), code=code)
    context = {
        "card": card,
        "rulings": rulings_for(card, current_language()),
        "related": related_cards(card),
    }
    return render(request, "cards_data/card_detail.html", context)


def random_card(request):
    """A card picked at random: the catalogue is small, so one query of ids is cheap."""
    codes = list(Card.objects.values_list("code", flat=True))
    if not codes:
        raise Http404
    return redirect("cards:detail", code=secrets.choice(codes))


@cache_control(public=True, max_age=ART_MAX_AGE)
def card_art(request, code):
    """The card's generated illustration (cards_data/art.py), cached by browsers."""
    card = get_object_or_404(Card, code=code)
    svg = card_svg(
        card.code, card.race or "", card.type, card.subtype, card.clan or "", card.display_name
    )
    response = HttpResponse(svg, content_type="image/svg+xml")
    response["ETag"] = quote_etag(hashlib.sha256(svg.encode()).hexdigest()[:32])
    return response


def search_help(request):
    return render(request, "cards_data/search_help.html", {"catalog": catalog})
