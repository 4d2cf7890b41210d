"""Tournament pages that only read: the list, an event, its standings, pairings and
slips (and their CSV), decklists, the venue's screen and the bracket. What a form posts
(registering, the staff dashboard, results, judging) is views_actions.py."""

import csv
from decimal import Decimal

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import formats
from django.utils.translation import gettext as _

from cards_data.models import Card
from decks.models import Deck

from . import selectors
from .models import Tournament
from .problems import NotAllowed
from .ranking import decided_placings
from .rules import is_staff


def tournament_list(request):
    events = Tournament.objects.select_related("organiser")[:200]
    return render(request, "tournaments/list.html", {"events": events})


def detail(request, pk):
    t = get_object_or_404(Tournament.objects.select_related("organiser"), pk=pk)
    reg = selectors.my_registration(t, request.user)
    match = selectors.my_current_match(t, request.user)
    decks = Deck.objects.filter(owner=request.user) if request.user.is_authenticated else []
    # the newest deck legal under the original rules first, else the newest (issue 34)
    legal = [d for d in decks if d.is_legal and d.ruleset == "original"]  # R 9.6
    preselected = (legal or list(decks) or [None])[0]
    rounds = selectors.visible_rounds(t, request.user)
    return render(
        request,
        "tournaments/detail.html",
        {
            "t": t,
            "reg": reg,
            "match": match,
            "my_seat": _seat_letter(match, reg),
            "decks": decks,
            "preselected_deck": preselected.pk if preselected else None,
            "rounds": rounds,
            "is_staff": is_staff(request.user, t),
            "registrations": t.registrations.select_related("player"),
            "deadline": selectors.match_deadline(match)
            if match and match.round and selectors.running_clock(t) and match.status != "confirmed"
            else None,
            "stage": selectors.stage_label(t),
            "games": list(match.online_games.select_related("game")) if match else [],
            "my_penalties": selectors.penalty_rows(t, reg) if reg else [],
            "late_entry_open": selectors.late_entry_open(t),
        },
    )


def _seat_letter(match, reg):
    if not match or not reg:
        return ""
    return "a" if match.player_a_id == reg.pk else "b"


def standings(request, pk):
    """The standings with the cut line and what decided a tie at it (issue 35)."""
    t = get_object_or_404(Tournament, pk=pk)
    page = selectors.standings_page(t)
    floor = formats.number_format(Decimal("0.33"), 2)
    return render(request, "tournaments/standings.html", {"t": t, "floor": floor, **page})


def pairings(request, pk, number):
    """Printable pairings: by table, by name, and match slips (drafts: staff only)."""
    t = get_object_or_404(Tournament, pk=pk)
    rnd = get_object_or_404(selectors.visible_rounds(t, request.user), number=number)
    matches = list(rnd.matches.select_related("player_a__player", "player_b__player"))
    by_name = []
    for m in matches:
        by_name.append((m.player_a.name, m.table, m.player_b.name if m.player_b else None))
        if m.player_b:
            by_name.append((m.player_b.name, m.table, m.player_a.name))
    by_name.sort(key=lambda row: row[0].lower())
    return render(
        request,
        "tournaments/pairings.html",
        {"t": t, "rnd": rnd, "matches": matches, "by_name": by_name},
    )


def _csv(filename: str, header: list, rows) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow(header)
    writer.writerows(rows)
    return response


def standings_csv(request, pk):
    """The standings as CSV (rank, player, points, W-L, tiebreakers, dropped)."""
    t = get_object_or_404(Tournament, pk=pk)
    labels = selectors.tiebreaker_names()
    header = [_("Rank"), _("Player"), _("Points"), _("Wins"), _("Losses")]
    header += [labels["omw"], labels["gwp"], labels["ogw"], _("Dropped")]
    rows = (
        [r["rank"], r["player"], r["points"], r["wins"], r["losses"], r["omw"], r["gwp"]]
        + [r["ogw"], _("yes") if r["dropped"] else ""]
        for r in selectors.standings_rows(t)
    )
    return _csv(f"standings-{t.pk}.csv", header, rows)


def pairings_csv(request, pk, number):
    """A round's pairings as CSV (drafts: staff only, as on the page)."""
    t = get_object_or_404(Tournament, pk=pk)
    rnd = get_object_or_404(selectors.visible_rounds(t, request.user), number=number)
    matches = rnd.matches.select_related("player_a__player", "player_b__player")
    header = [_("Table"), _("Player"), _("Opponent"), _("Result")]
    rows = (
        [
            "" if m.is_bye else m.table,
            m.player_a.name,
            m.player_b.name if m.player_b else _("bye"),
            f"{m.games_a}-{m.games_b}" if m.games_a is not None and m.player_b else "",
        ]
        for m in matches
    )
    return _csv(f"pairings-{t.pk}-round-{rnd.number}.csv", header, rows)


def decklist(request, pk, reg_id):
    """A registered decklist (R 9.6, frozen): staff see it during the event, everybody
    once the event is finished (decklists are published after it); its player always."""
    t = get_object_or_404(Tournament, pk=pk)
    reg = get_object_or_404(t.registrations.select_related("player"), pk=reg_id)
    if not selectors.decklist_visible(t, reg, request.user):
        raise NotAllowed("DECKLIST_HIDDEN")
    counts = dict((code, count) for code, count in reg.cards)
    cards = Card.objects.filter(code__in=counts).order_by("code")
    entries = [(counts[c.code], c) for c in cards]
    return render(
        request,
        "tournaments/decklist.html",
        {"t": t, "reg": reg, "entries": entries, "total": sum(counts.values())},
    )


def screen(request, pk):
    """The big screen at the venue: the current stage, the round clock and the pairings
    by name (published rounds and the playoff only)."""
    t = get_object_or_404(Tournament, pk=pk)
    rnd = t.rounds.filter(status="published").order_by("-number").first()
    by_name = []
    if t.status == Tournament.RUNNING and rnd is not None:
        for m in rnd.matches.select_related("player_a__player", "player_b__player"):
            by_name.append((m.player_a.name, m.table, m.player_b.name if m.player_b else None))
            if m.player_b:
                by_name.append((m.player_b.name, m.table, m.player_a.name))
    by_name.sort(key=lambda row: row[0].lower())
    playoff = []
    if t.status in (Tournament.PLAYOFF, Tournament.FINISHED):
        playoff = list(
            t.matches.filter(round__isnull=True).select_related(
                "player_a__player", "player_b__player"
            )
        )
    return render(
        request,
        "tournaments/screen.html",
        {
            "t": t,
            "stage": selectors.stage_label(t),
            "deadline": selectors.running_clock(t),
            "by_name": by_name,
            "playoff": playoff,
            "placings": decided_placings(t) if t.status == Tournament.FINISHED else [],
        },
    )


def bracket(request, pk):
    t = get_object_or_404(Tournament, pk=pk)
    playoff = {m.stage: m for m in t.matches.filter(round__isnull=True).order_by("table")}
    semis = list(t.matches.filter(stage="semi").order_by("table"))
    return render(
        request,
        "tournaments/bracket.html",
        {
            "t": t,
            "semis": semis,
            "final": playoff.get("final"),
            "third": playoff.get("third"),
            "placings": decided_placings(t),
            "cut": selectors.standings_cut(
                t,
                dict(t.registrations.values_list("pk", "player__username")),
                selectors.tiebreaker_names(),
            ),
            "prizes": t.prizes.select_related("card", "awarded_to__player"),
        },
    )
