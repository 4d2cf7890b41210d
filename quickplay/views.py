"""Quick play's thin views: join, leave, the bot after the wait, and the status the lobby's
section polls when its socket is closed (the same dict the socket sends).

The lobby's script posts with `Accept: application/json` and gets JSON ({detail, code} on a
refusal); a form posted without the script gets the lobby back (a redirect) or a page with
the sentence.
"""

from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from cardgame.params import BadNumber, optional_whole_number, record_id
from decks.models import Deck
from matches.errors import MatchError

from . import selectors, services
from .errors import QueueError

YES, NO = ("1", "on", "true", "yes"), ("", "0", "off", "false", "no")


def _wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _answer(request, status_code=200, error=None):
    """The person's status as JSON, or back to the lobby; a refusal as {detail, code} or as
    a page with its sentence."""
    if error is not None:
        if _wants_json(request):
            return JsonResponse(error.payload(), status=error.status)
        context = {"error": error.detail, "lobby": reverse("matches:lobby")}
        return render(request, "quickplay/refused.html", context, status=error.status)
    if _wants_json(request):
        return JsonResponse(selectors.status(request.user), status=status_code)
    return redirect(reverse("matches:lobby") + "#quickplay")


def _flag(request, name) -> bool:
    """A checkbox's yes or no; anything else is a 400 saying which choice to make."""
    value = request.POST.get(name, "").strip().lower()
    if value in YES:
        return True
    if value in NO:
        return False
    raise QueueError(f"BAD_{name.upper()}")


def _deck(request):
    try:
        deck_id = optional_whole_number(request.POST.get("deck"), "deck", low=1)
    except BadNumber as exc:
        raise MatchError("BAD_DECK", exc.message) from None
    if deck_id is None:
        return None
    deck = Deck.objects.filter(pk=deck_id).first()
    if deck is None:
        raise MatchError("NO_SUCH_DECK")
    return deck


@login_required
@require_POST
def join(request):
    try:
        entry = services.join(
            request.user,
            ruleset=request.POST.get("ruleset", ""),
            time_control=request.POST.get("time_control", ""),
            rated=_flag(request, "rated"),
            deck=_deck(request),
            bot_after_wait=_flag(request, "bot_after_wait"),
        )
    except (QueueError, MatchError) as exc:
        return _answer(request, error=exc)
    if not entry.waiting and not _wants_json(request):
        return redirect("matches:game", pk=entry.match_id)
    return _answer(request, 201)


@login_required
@require_POST
def leave(request):
    if not services.leave(request.user):
        return _answer(request, error=QueueError("NOT_QUEUED", status=409))
    return _answer(request)


@login_required
@require_POST
def bot(request):
    try:
        entry = services.take_bot(request.user)
    except (QueueError, MatchError) as exc:
        return _answer(request, error=exc)
    if not _wants_json(request):
        return redirect("matches:game", pk=entry.match_id)
    return _answer(request)


@login_required
@require_http_methods(["GET", "HEAD"])
def status(request):
    """The section's poll when its socket is closed: also the heartbeat."""
    entry_id = request.GET.get("entry")
    try:  # a bad entry is ignored: the status of the person's own queue is answered
        watched = record_id(entry_id, "entry") if entry_id else None
    except BadNumber:
        watched = None
    entry = services.heartbeat(request.user, watched)
    return JsonResponse(selectors.status(request.user, watched, known=entry))
