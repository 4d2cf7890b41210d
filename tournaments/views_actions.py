"""Tournament pages that act: creating an event, a player's and the staff's actions
(registering, check-in, drops, rounds, penalties, forbidden pairs, prizes), results and
judging, and the staff dashboard they come back to. Thin: every write goes through
tournaments.services; a refusal becomes a message or a 4xx page, never a 500."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cardgame.hungarian import articles
from cardgame.params import BadNumber, record_id
from cards_data.models import Card
from decks.models import Deck

from . import audit, online, penalties, selectors, services
from .forms import ForbiddenPairForm, JudgeForm, PenaltyForm, ResultForm, TournamentForm
from .models import ForbiddenPair, Registration, Tournament


def _messages_of(error) -> list[str]:
    if isinstance(error, ValidationError):
        return error.messages
    return [str(error)]


def _int(value) -> int | None:
    """A form field as a positive integer (cardgame.params: an id's range), or None (bad
    input never becomes a 500)."""
    try:
        return record_id(value, "id")
    except BadNumber:
        return None


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


@login_required
def dashboard(request, pk):
    t = get_object_or_404(Tournament, pk=pk)
    if not services.is_staff(request.user, t):
        raise PermissionDenied
    return _dashboard(request, t)


def _prize_choices(t, ultra, posted=None) -> list:
    """(placed registration, the card chosen for the place): three different cards by
    default (issue 35: the form chose the first card for every place), else as posted."""
    placed = services.placings(t) if t.status == Tournament.FINISHED else []
    codes = [c.code for c in ultra]
    rows = []
    for place, reg in enumerate(placed, 1):
        chosen = (posted or {}).get(place) or (codes[(place - 1) % len(codes)] if codes else "")
        rows.append((reg, chosen))
    return rows


def _late_first(t) -> int:
    last = t.rounds.order_by("-number").first()
    if last is not None and last.status == "draft":
        return last.number
    return services.rounds_paired(t) + 1


def _dashboard(request, t, *, status=200, forbid_form=None, penalty_form=None, prizes_posted=None):
    info = selectors.dashboard(t)
    ultra = list(Card.objects.filter(rarity="ultra_rare").order_by("code"))
    late_open = services.late_entry_open(t)
    return render(
        request,
        "tournaments/dashboard.html",
        {
            "t": t,
            **info,
            "registrations": t.registrations.select_related("player"),
            "judge_form": JudgeForm(),
            "forbid_form": forbid_form or ForbiddenPairForm(tournament=t),
            "penalty_form": penalty_form or PenaltyForm(tournament=t),
            "penalties": selectors.penalty_rows(t),
            "forbidden_pairs": t.forbidden_pairs.select_related(
                "player_a__player", "player_b__player", "created_by"
            ),
            "ultra": ultra,
            "swiss_done": services.swiss_finished(t),
            # who may enter the playoff: active players who have met an opponent
            "active_count": len(services.cut_order(t)) if t.status == "running" else 0,
            "placings": services.placings(t) if t.status == Tournament.FINISHED else [],
            "prize_rows": _prize_choices(t, ultra, prizes_posted),
            "identical_prizes": prizes_posted is not None,
            "late_entry_open": late_open,
            "late_entry_closed": "" if late_open else services.late_entry_closed_text(t),
            "late_first": _late_first(t) if late_open else None,
            "prizes_awarded": t.prizes.filter(awarded_to__isnull=False).exists(),
            "audit": [
                (e, audit.sentence(e)) for e in t.audit.select_related("actor").order_by("-id")[:30]
            ],
        },
        status=status,
    )


def _refused(request, t, error, *, forbid_form=None, penalty_form=None):
    """A refused staff action: the dashboard again with the reason, and a 4xx status."""
    if isinstance(error, ValidationError):
        status = 400
    elif isinstance(error, PermissionDenied):
        status = 403
    elif isinstance(error, Http404):
        status = 404
    else:  # services.Conflict
        status = 409
    for text in _messages_of(error):
        messages.error(request, text)
    return _dashboard(request, t, status=status, forbid_form=forbid_form, penalty_form=penalty_form)


def _staff_act(request, t, action):
    """Penalties, forbidden pairs and re-pairing a draft: on refusal a 4xx page with the
    reason."""
    user = request.user
    if not services.is_staff(user, t):
        message = _("Only the organiser and the judges may do this.")
        return render(request, "tournaments/refused.html", {"t": t, "message": message}, status=403)
    form = penalty_form = None
    try:
        if action == "penalty":
            penalty_form = PenaltyForm(request.POST, tournament=t)
            if not penalty_form.is_valid():
                raise ValidationError(
                    _("Choose a registered player, the penalty and the infraction.")
                )
            data = penalty_form.cleaned_data
            penalty = penalties.give_penalty(
                data["player"], user, data["penalty"], data["infraction"], data["note"]
            )
            messages.success(
                request,
                _("Penalty saved: %(penalty)s for %(name)s.")
                % {
                    "penalty": penalties.kind_label(penalty.kind),
                    "name": penalty.registration.name,
                },
            )
        elif action == "forbid":
            form = ForbiddenPairForm(request.POST, tournament=t)
            if not form.is_valid():
                raise ValidationError(
                    _("Choose two different registered players and give a reason.")
                )
            data = form.cleaned_data
            _pair, created = services.forbid_pair(
                t, user, data["player_a"], data["player_b"], data["reason"]
            )
            text = _("Forbidden pair saved.") if created else _("This pair was already forbidden.")
            messages.success(request, text)
            draft = t.rounds.filter(status="draft").first()
            if draft is not None:
                messages.info(
                    request,
                    articles(
                        _(
                            "Round %(n)s is a draft paired before this change: "
                            "re-pair it to apply it."
                        )
                        % {"n": draft.number}
                    ),
                )
        elif action == "allow":
            pair = ForbiddenPair.objects.filter(
                tournament=t, pk=_int(request.POST.get("pair")) or 0
            ).first()
            if pair is None:
                raise Http404(_("There is no such forbidden pair (already removed?)."))
            services.allow_pair(pair, user)
            messages.success(request, _("Forbidden pair removed."))
        else:  # repair
            number = _int(request.POST.get("round"))
            rnd = t.rounds.filter(number=number).first() if number else None
            if rnd is None:
                raise Http404(_("There is no such round."))
            rnd, changed = services.repair_round(rnd, user)
            if changed:
                messages.success(
                    request, articles(_("Round %(n)s paired again.") % {"n": rnd.number})
                )
            else:
                messages.info(
                    request,
                    articles(
                        _("Nothing has changed since round %(n)s was paired: the draft is kept.")
                        % {"n": rnd.number}
                    ),
                )
    except (ValidationError, PermissionDenied, Http404, services.Conflict) as error:
        return _refused(request, t, error, forbid_form=form, penalty_form=penalty_form)
    return redirect("tournaments:dashboard", t.pk)


@login_required
@require_POST
def act(request, pk, action):
    """Tournament-level form posts: register, check in, drop, start, pair, publish, ..."""
    t = get_object_or_404(Tournament, pk=pk)
    user = request.user
    back = redirect("tournaments:detail", t.pk)
    if action == "register":
        deck = Deck.objects.filter(pk=_int(request.POST.get("deck")) or 0, owner=user).first()
        if deck is None:
            messages.error(request, _("Choose one of your decks."))
        else:
            _run(request, services.register, t, user, deck, ok=_("Registered; decklist saved."))
        return back
    if action == "check-in" and request.POST.get("reg"):  # staff, at the door
        reg = Registration.objects.filter(
            tournament=t, pk=_int(request.POST.get("reg")) or 0
        ).first()
        if reg is None:
            messages.error(request, _("There is no such registration."))
        else:
            _run(
                request,
                services.check_in,
                reg,
                user,
                ok=_("%(name)s is checked in.") % {"name": reg.name},
            )
        return redirect("tournaments:dashboard", t.pk) if services.is_staff(user, t) else back
    if action == "check-in-all":
        ids = [pk for pk in (_int(v) for v in request.POST.getlist("present")) if pk]
        count = _run(request, services.check_in_many, t, user, ids)
        if count is not None:
            messages.success(request, _("Players checked in: %(n)s.") % {"n": count})
        return redirect("tournaments:dashboard", t.pk)
    if action in ("check-in", "drop"):
        reg = selectors.my_registration(t, user)
        if reg is None:
            messages.error(request, _("You are not registered for this tournament."))
        elif action == "check-in":
            _run(request, services.check_in, reg, user, ok=_("Checked in."))
        else:
            _run(request, services.drop, reg, user, ok=_("You have dropped from the event."))
        return back
    if action in ("forbid", "allow", "repair", "penalty"):
        return _staff_act(request, t, action)
    staff_back = redirect("tournaments:dashboard", t.pk) if services.is_staff(user, t) else back
    if action == "start":
        _run(request, services.start, t, user, ok=_("The event has started."))
    elif action == "pair":
        _run(request, services.pair_next_round, t, user, ok=_("Draft pairing ready."))
    elif action == "publish":
        rnd = t.rounds.filter(number=_int(request.POST.get("round")) or 0).first()
        if rnd:
            _run(request, services.publish_round, rnd, user, ok=_("Round published."))
    elif action in ("reactivate", "staff-drop"):
        reg = Registration.objects.filter(
            tournament=t, pk=_int(request.POST.get("reg")) or 0
        ).first()
        if reg:
            fn = services.reactivate if action == "reactivate" else services.drop
            _run(request, fn, reg, user, ok=_("Saved."))
    elif action == "playoff":
        _run(request, services.start_playoff, t, user, ok=_("Playoff started."))
    elif action == "finish":
        _run(request, services.finish_swiss, t, user, ok=_("The event is finished."))
    elif action == "prizes":
        places = range(1, len(services.placings(t)) + 1)
        cards = {place: request.POST.get(f"place{place}", "") for place in places}
        codes = [str(code).upper() for code in cards.values()]
        if len(set(codes)) < len(codes) and not request.POST.get("identical_ok"):
            # a warning before identical prizes (issue 35): the form again, with a box
            if not services.is_staff(user, t):
                raise PermissionDenied
            messages.warning(
                request,
                _("Two or more places get the same card: nothing was awarded yet."),
            )
            return _dashboard(request, t, status=409, prizes_posted=cards)
        _run(request, services.award_prizes, t, user, cards, ok=_("Prizes awarded."))
    elif action == "late-entry":
        return _late_entry(request, t)
    else:
        raise Http404
    return staff_back


def _late_entry(request, t):
    """Staff enter a player late from the dashboard (issue 35: the API only before): a
    user name and, optionally, the name of one of their decks (empty: the most recently
    changed one). Refusals are the dashboard again with the sentence and a 4xx."""
    user = request.user
    if not services.is_staff(user, t):
        message = _("Only the organiser and the judges may do this.")
        return render(request, "tournaments/refused.html", {"t": t, "message": message}, status=403)
    name = (request.POST.get("player") or "").strip()[:150]
    deck_name = (request.POST.get("deck") or "").strip()[:100]
    try:
        if not services.late_entry_open(t):
            raise services.Conflict(selectors.late_entry_closed_code(t))
        player = get_user_model().objects.filter(username=name).first() if name else None
        if player is None:
            raise ValidationError(
                _("There is no user called “%(name)s”: check the spelling of the user name.")
                % {"name": name}
            )
        decks = Deck.objects.filter(owner=player)
        if deck_name:
            decks = decks.filter(name=deck_name)
        deck = decks.order_by("-updated", "-id").first()
        if deck is None or deck.latest_version is None:
            if deck_name:
                message = _("%(name)s has no deck called “%(deck)s”.")
            else:
                message = _("%(name)s has no deck: they need one to enter.")
            raise ValidationError(message % {"name": name, "deck": deck_name})
        reg = services.late_entry(t, user, player, deck)
    except (ValidationError, PermissionDenied, services.Conflict) as error:
        return _refused(request, t, error)
    draft = t.rounds.filter(status="draft").first()
    first = draft.number if draft is not None else reg.late_entry_round
    messages.success(
        request,
        _("%(name)s entered late; their first round: %(n)s.") % {"name": reg.name, "n": first},
    )
    if draft is not None:
        messages.info(
            request,
            articles(
                _("Round %(n)s is a draft paired before this change: re-pair it to apply it.")
                % {"n": draft.number}
            ),
        )
    return redirect("tournaments:dashboard", t.pk)


def _judge_game(request, match):
    """A judge decides a game on the site: winner (registration id) and reason (R 18.4)."""
    og = match.online_games.filter(number=_int(request.POST.get("game")) or 0).first()
    regs = {r.pk: r for r in (match.player_a, match.player_b) if r is not None}
    winner = regs.get(_int(request.POST.get("winner")))
    if og is None or winner is None:
        messages.error(request, _("Choose the game and its winner."))
        return
    _run(
        request,
        online.judge_game,
        og,
        request.user,
        winner,
        request.POST.get("reason"),
        ok=_("Judge decision saved."),
    )


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
    elif action == "judge-game":
        _judge_game(request, match)
        return redirect("tournaments:dashboard", match.tournament_id)
    elif action == "result":
        form = ResultForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Enter the games each player won."))
        else:
            d = form.cleaned_data
            _run(
                request,
                services.enter_result,
                match,
                user,
                d["games_a"] or 0,
                d["games_b"] or 0,
                ok=_("Result saved."),
            )
        if services.is_staff(user, match.tournament):
            return redirect("tournaments:dashboard", match.tournament_id)
    elif action == "extend":
        _run(
            request,
            services.extend_time,
            match,
            user,
            _int(request.POST.get("minutes")) or 0,
            ok=_("Time extension saved."),
        )
        if services.is_staff(user, match.tournament):
            return redirect("tournaments:dashboard", match.tournament_id)
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
