"""Tournament pages: players (my pairing, report, standings) and staff (dashboard,
pairings sheets, judging). Thin: every write goes through tournaments.services."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cards_data.models import Card
from decks.models import Deck

from . import selectors, services
from .forms import JudgeForm, ResultForm, TournamentForm
from .models import Registration, Tournament


def _messages_of(error) -> list[str]:
    if isinstance(error, ValidationError):
        return error.messages
    return [str(error)]


def _run(request, fn, *args, ok=None, **kwargs):
    """Run a service; its refusal becomes a message on the page, never a 500."""
    try:
        result = fn(*args, **kwargs)
    except (ValidationError, PermissionDenied, services.Conflict) as error:
        for text in _messages_of(error):
            messages.error(request, text)
        return None
    if ok:
        messages.success(request, ok)
    return result


def tournament_list(request):
    events = Tournament.objects.select_related("organiser")[:200]
    return render(request, "tournaments/list.html", {"events": events})


@login_required
def create(request):
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        fields = {k: v for k, v in form.cleaned_data.items() if k != "judge_names"}
        t = _run(
            request,
            services.create_tournament,
            request.user,
            judges=form.cleaned_data["judge_names"],
            **fields,
        )
        if t:
            return redirect("tournaments:detail", t.pk)
    return render(request, "tournaments/form.html", {"form": form})


def detail(request, pk):
    t = get_object_or_404(Tournament.objects.select_related("organiser"), pk=pk)
    reg = selectors.my_registration(t, request.user)
    match = selectors.my_current_match(t, request.user)
    decks = Deck.objects.filter(owner=request.user) if request.user.is_authenticated else []
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
            "rounds": rounds,
            "is_staff": services.is_staff(request.user, t),
            "registrations": t.registrations.select_related("player"),
            "deadline": services.round_deadline(match.round) if match and match.round else None,
        },
    )


def _seat_letter(match, reg):
    if not match or not reg:
        return ""
    return "a" if match.player_a_id == reg.pk else "b"


def standings(request, pk):
    t = get_object_or_404(Tournament, pk=pk)
    return render(
        request, "tournaments/standings.html", {"t": t, "rows": selectors.standings_rows(t)}
    )


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


@login_required
def dashboard(request, pk):
    t = get_object_or_404(Tournament, pk=pk)
    if not services.is_staff(request.user, t):
        raise PermissionDenied
    info = selectors.dashboard(t)
    ultra = Card.objects.filter(rarity="ultra_rare").order_by("code")
    return render(
        request,
        "tournaments/dashboard.html",
        {
            "t": t,
            **info,
            "registrations": t.registrations.select_related("player"),
            "judge_form": JudgeForm(),
            "ultra": ultra,
            "swiss_done": services.swiss_finished(t),
            "audit": t.audit.select_related("actor").order_by("-id")[:30],
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
            "placings": services.placings(t),
            "prizes": t.prizes.select_related("card", "awarded_to__player"),
        },
    )


@login_required
@require_POST
def act(request, pk, action):
    """Tournament-level form posts: register, check in, drop, start, pair, publish, ..."""
    t = get_object_or_404(Tournament, pk=pk)
    user = request.user
    back = redirect("tournaments:detail", t.pk)
    if action == "register":
        deck = Deck.objects.filter(pk=request.POST.get("deck") or 0, owner=user).first()
        if deck is None:
            messages.error(request, _("Choose one of your decks."))
        else:
            _run(request, services.register, t, user, deck, ok=_("Registered; decklist saved."))
        return back
    if action in ("check-in", "drop"):
        reg = selectors.my_registration(t, user)
        if reg is None:
            messages.error(request, _("You are not registered for this tournament."))
        elif action == "check-in":
            _run(request, services.check_in, reg, user, ok=_("Checked in."))
        else:
            _run(request, services.drop, reg, user, ok=_("You have dropped from the event."))
        return back
    staff_back = redirect("tournaments:dashboard", t.pk) if services.is_staff(user, t) else back
    if action == "start":
        _run(request, services.start, t, user, ok=_("The event has started."))
    elif action == "pair":
        _run(request, services.pair_next_round, t, user, ok=_("Draft pairing ready."))
    elif action == "publish":
        rnd = t.rounds.filter(number=request.POST.get("round") or 0).first()
        if rnd:
            _run(request, services.publish_round, rnd, user, ok=_("Round published."))
    elif action in ("reactivate", "staff-drop"):
        reg = Registration.objects.filter(tournament=t, pk=request.POST.get("reg") or 0).first()
        if reg:
            fn = services.reactivate if action == "reactivate" else services.drop
            _run(request, fn, reg, user, ok=_("Saved."))
    elif action == "playoff":
        _run(request, services.start_playoff, t, user, ok=_("Playoff started."))
    elif action == "prizes":
        cards = {place: request.POST.get(f"place{place}", "") for place in (1, 2, 3)}
        _run(request, services.award_prizes, t, user, cards, ok=_("Prizes awarded."))
    else:
        raise Http404
    return staff_back


@login_required
@require_POST
def match_act(request, pk, action):
    """Match form posts: report, confirm, dispute, choose (play/draw), judge."""
    match = get_object_or_404(selectors.visible_matches(request.user), pk=pk)
    user = request.user
    back = redirect("tournaments:detail", match.tournament_id)
    if action == "report":
        form = ResultForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Enter the games each player won."))
            return back
        data = form.cleaned_data
        _run(
            request,
            services.report,
            match,
            user,
            data["games_a"] or 0,
            data["games_b"] or 0,
            timed_out=data["timed_out"],
            ok=_("Result reported; your opponent must confirm it."),
        )
    elif action == "confirm":
        _run(request, services.confirm, match, user, ok=_("Result confirmed."))
    elif action == "dispute":
        _run(request, services.dispute, match, user, ok=_("A judge will decide."))
    elif action == "choose":
        _run(
            request, services.choose_first, match, user, request.POST.get("choice"), ok=_("Saved.")
        )
    elif action == "judge":
        form = JudgeForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Enter both game counts and a reason."))
        else:
            d = form.cleaned_data
            _run(
                request,
                services.judge_result,
                match,
                user,
                d["games_a"],
                d["games_b"],
                d["reason"],
                ok=_("Judge decision saved."),
            )
        if services.is_staff(user, match.tournament):
            return redirect("tournaments:dashboard", match.tournament_id)
    else:
        raise Http404
    return back
