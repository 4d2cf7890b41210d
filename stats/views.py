"""The statistics pages: short views over selectors.py (which read stored figures)."""

from functools import cache, partial

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cards_data.models import Card
from decks.selectors import visible_decks
from tournaments.models import Tournament

from . import selectors
from .figures import MIN_SAMPLE


def metagame(request):
    period = selectors.period_from(request.GET, timezone.localdate())
    online = selectors.online_rows(period)  # one read: the matrix and the trend sum it
    known = cache(selectors.archetypes_by_id)  # one read (if any) for the two sections below
    races, matrix = selectors.matchup_matrix(period, online)
    return render(
        request,
        "stats/metagame.html",
        {
            "period": period,
            "online": races,
            "trend": selectors.trend_chart(period, online),
            "events": selectors.tournament_shares(period),
            # read only when the page's cache of them misses (metagame.html's {% cache %}):
            # the template calls a callable when it first needs its value
            "archetypes": partial(selectors.archetype_shares, period, known),
            "archetype_matchups": partial(selectors.archetype_matrix, period, known),
            "generation": selectors.archetype_generation(),
            "matrix": matrix,
            "min_sample": MIN_SAMPLE,
            # a card page's address less its code: reversed once, not once a typical card
            "card_base": reverse("stats:card", args=["-"])[:-2],
        },
    )


def card(request, code):
    card = get_object_or_404(Card, code=code)
    bots = request.GET.get("bots") == "1"
    figures = selectors.card_figures(card, bots)
    context = {
        "card": card,
        "figures": figures,
        "lab": selectors.lab_figure(card, request.user),
        "bots": bots,
        "min_sample": MIN_SAMPLE,
    }
    return render(request, "stats/card.html", context)


def deck(request, pk):
    # the page shows no card and no version: none of the deck's prefetched lists is read
    deck = get_object_or_404(visible_decks(request.user).prefetch_related(None), pk=pk)
    bots = request.GET.get("bots") == "1"
    records = selectors.deck_records(deck, bots)
    sections = [
        ("deck-versions", _("By version"), (_("Version"), _("Where")), records["versions"]),
        (
            "deck-opponents",
            _("By opponent race"),
            (_("Version"), _("Opponent")),
            records["opponents"],
        ),
    ]
    context = {
        "deck": deck,
        "archetype": selectors.deck_archetype(deck),
        "sections": sections,
        "bots": bots,
        "min_sample": MIN_SAMPLE,
    }
    return render(request, "stats/deck.html", context)


def player(request, username):
    person = get_object_or_404(get_user_model(), username=username)
    bots = request.GET.get("bots") == "1"
    records = selectors.player_records(person, request.user, bots)
    sections = [
        ("player-races", _("By race"), (_("Race"),), records["races"]),
        ("player-matchups", _("By matchup"), (_("Race"), _("Opponent")), records["matchups"]),
    ]
    context = {
        "person": person,
        "decks": records["decks"],
        "sections": sections,
        "bots": bots,
        "min_sample": MIN_SAMPLE,
    }
    return render(request, "stats/player.html", context)


def event(request, pk):
    """A finished event's report (printable: the page's print style)."""
    finished = get_object_or_404(Tournament, pk=pk, status=Tournament.FINISHED)
    report = selectors.event_report(finished)
    context = {
        "event": finished,
        "report": report,
        "description": selectors.report_description(report),
        "share_url": request.build_absolute_uri(request.path),
    }
    return render(request, "stats/event.html", context)
