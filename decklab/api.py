"""Deck lab endpoints: start a run, read its progress and results (thin: services work)."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.decorators import api_view, permission_classes, throttle_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from cardgame.limits import LabRunThrottle
from cardgame.params import BadNumber, record_id, whole_number
from decks.selectors import visible_decks

from . import services
from .selectors import run_results, visible_runs


class BadInput(ValueError):
    pass


def parse_bot(value) -> str:
    """The bot that plays the run's games (absent: the heuristic bot), or BadInput."""
    if value is None or value == "":
        return services.DEFAULT_BOT
    if not isinstance(value, str) or value not in services.BOTS:
        raise BadInput(
            _("Unknown bot: choose one of %(bots)s.") % {"bots": ", ".join(services.BOTS)}
        )
    return value


def parse_games(value, bot: str = services.DEFAULT_BOT) -> int:
    """The number of games from JSON or a form: a whole number in range, or BadInput."""
    if isinstance(value, bool) or value is None or value == "":
        raise BadInput(_("Give the number of games as a whole number."))
    if isinstance(value, float) and value.is_integer():  # JSON's 200.0 or 2e2
        value = int(value)
    high = services.max_games(bot)
    try:  # the site's one reader of a request's numbers ("²" and 4,301 digits were 500s)
        value = whole_number(value, "games", low=services.MIN_GAMES, high=high)
    except BadNumber as exc:
        if not exc.out_of_range:
            raise BadInput(_("The number of games must be a whole number, e.g. 200.")) from None
        if bot == services.DEFAULT_BOT:
            message = _("The number of games must be between %(low)d and %(high)d.")
        else:  # the thinking bot's games take long: its runs are shorter
            message = _(
                "With the thinking bot the number of games must be between %(low)d and %(high)d."
            )
        raise BadInput(message % {"low": services.MIN_GAMES, "high": high}) from None
    return value


def parse_deck_id(value) -> int:
    try:
        return record_id(value, "deck")
    except BadNumber as exc:
        if exc.out_of_range:
            raise BadInput(exc.message) from None
        raise BadInput(_("Give the deck as its numeric id.")) from None


def refused(error: services.LabRefused) -> Response:
    return Response(
        {"detail": error.message, "code": error.code, "problems": list(error.problems)},
        status=error.status,
    )


@api_view(["POST"])
@permission_classes([IsAuthenticated])
@throttle_classes([LabRunThrottle])
def start_run(request):
    """Start a run: {"deck": id, "games": N, "bot": "heuristic" (default) or "search-easy",
    "search-normal", "search-hard"}; 201 with the run, 400/404/409/422 otherwise."""
    data = request.data if isinstance(request.data, dict) else None
    if data is None:
        return Response({"detail": _('Send a JSON object: {"deck": id, "games": N}.')}, 400)
    try:
        deck_id = parse_deck_id(data.get("deck"))
        bot = parse_bot(data.get("bot"))
        games = parse_games(data.get("games"), bot)
    except BadInput as error:
        return Response({"detail": str(error), "code": "bad_input"}, status=400)
    deck = get_object_or_404(visible_decks(request.user), pk=deck_id)
    try:
        run = services.start_run(request.user, deck, games, bot)
    except services.LabRefused as error:
        return refused(error)
    run.refresh_from_db()
    return Response(run_results(run), status=status.HTTP_201_CREATED)


@api_view(["GET"])
def run_detail(request, pk):
    """A run's progress and results (win rates with 95 % Wilson intervals)."""
    run = get_object_or_404(visible_runs(request.user), pk=pk)
    return Response(run_results(run))
