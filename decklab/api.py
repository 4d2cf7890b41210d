"""Deck lab endpoints: start a run, read its progress and results; deck advice (issue 39):
start a run, its progress and proposals with their evidence, cancel, apply (thin: the
services and selectors work)."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.decorators import api_view, permission_classes, throttle_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from cardgame.limits import LabRunThrottle
from cardgame.params import BadNumber, record_id, whole_number
from decks.selectors import visible_decks

from . import advising, services
from .advice_selectors import advice_data, evidence_comment, visible_advice
from .models import AdviceRun
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


# Deck advice (issue 39) ---------------------------------------------------------------------


def _interval_fields() -> dict:
    share = "a share of the games: 0.05 is 5 points"
    return {
        "change": serializers.FloatField(help_text=f"win-rate change, {share}"),
        "low": serializers.FloatField(help_text="the 95 % interval's low end"),
        "high": serializers.FloatField(help_text="the 95 % interval's high end"),
    }


ADVICE_START = inline_serializer(
    "AdviceStart",
    {
        "deck": serializers.IntegerField(help_text="the deck's id (yours or a public one)"),
        "budget": serializers.IntegerField(
            required=False,
            min_value=advising.MIN_BUDGET,
            max_value=advising.MAX_BUDGET,
            help_text="games the run may play, all included (default 6,000)",
        ),
        "source": serializers.ChoiceField(
            choices=list(advising.SOURCES),
            required=False,
            help_text="where the new cards come from: the catalogue (default) or your collection",
        ),
    },
)
ADVICE_SPLIT = {
    "opponent": serializers.CharField(help_text="the reference colony's key"),
    "on_play": serializers.BooleanField(),
    "games": serializers.IntegerField(),
    "deck_score": serializers.FloatField(allow_null=True),
    "candidate_score": serializers.FloatField(allow_null=True),
    **_interval_fields(),
}
ADVICE_CHANGE = {
    "out": serializers.CharField(help_text="the card code that leaves the deck"),
    "into": serializers.CharField(help_text="the card code that comes in"),
    "count": serializers.IntegerField(),
    "text": serializers.CharField(help_text="the change in words, names in your language"),
}
ADVICE = inline_serializer(
    "Advice",
    {
        "id": serializers.IntegerField(),
        "deck": serializers.IntegerField(),
        "deck_version": serializers.IntegerField(),
        "status": serializers.ChoiceField(choices=[c for c, _l in AdviceRun.STATUS_CHOICES]),
        "source": serializers.CharField(),
        "budget": serializers.IntegerField(),
        "games_played": serializers.IntegerField(),
        "rounds": serializers.IntegerField(),
        "cancel_requested": serializers.BooleanField(),
        "candidates": inline_serializer(
            "AdviceCandidate",
            {
                **ADVICE_CHANGE,
                "verdict": serializers.ChoiceField(
                    choices=["better", "worse", "same", "active", "undecided"]
                ),
                "verdict_label": serializers.CharField(),
                "games": serializers.IntegerField(),
                **{
                    k: f.__class__(required=False, help_text=f.help_text)
                    for k, f in _interval_fields().items()
                },  # fmt: skip
                "splits": inline_serializer("AdviceSplit", ADVICE_SPLIT, many=True),
            },
            many=True,
        ),
        "remeasured": inline_serializer(
            "AdviceRemeasured",
            {
                "changes": inline_serializer("AdviceChange", ADVICE_CHANGE, many=True),
                "cards": serializers.ListField(
                    child=serializers.ListField(), help_text="[[code, count], ...]"
                ),
                "games": serializers.IntegerField(help_text="fresh games (seeds no race used)"),
                "holds": serializers.BooleanField(help_text="the whole interval is above 0"),
                **_interval_fields(),
            },
            allow_null=True,
        ),
        "applied_version": serializers.IntegerField(allow_null=True),
        "error": serializers.CharField(),
    },
)


def parse_budget(value) -> int:
    """The run's games, all included (absent: the default), or BadInput."""
    try:
        return advising.budget_from(value)
    except ValueError as error:
        raise BadInput(str(error)) from None


def parse_source(value) -> str:
    if value is None or value == "":
        return AdviceRun.CATALOGUE
    if not isinstance(value, str) or value not in advising.SOURCES:
        raise BadInput(_('Give the source as "catalogue" or "collection".'))
    return value


def _bad(error: BadInput) -> Response:
    return Response({"detail": str(error), "code": "bad_input"}, status=400)


@extend_schema(request=ADVICE_START, responses={201: ADVICE})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@throttle_classes([LabRunThrottle])
def start_advice(request):
    """Start deck advice for a deck: candidate changes raced against it in the lab's games
    (one run at a time per account, within the account's daily games)."""
    data = request.data if isinstance(request.data, dict) else None
    if data is None:
        return Response(
            {"detail": _('Send a JSON object: {"deck": id}.'), "code": "bad_input"}, 400
        )
    try:
        deck_id = parse_deck_id(data.get("deck"))
        budget = parse_budget(data.get("budget"))
        source = parse_source(data.get("source"))
    except BadInput as error:
        return _bad(error)
    deck = get_object_or_404(visible_decks(request.user), pk=deck_id)
    try:
        run = advising.start_advice(request.user, deck, source=source, budget=budget)
    except services.LabRefused as error:
        return refused(error)
    run.refresh_from_db()
    return Response(advice_data(run), status=status.HTTP_201_CREATED)


@extend_schema(responses={200: ADVICE})
@api_view(["GET"])
def advice_detail(request, pk):
    """An advice run's progress and its proposals with their evidence: each change's
    win-rate change against the deck on the same games, its 95 % interval, per opponent
    and side; once over, the recommendation re-measured on fresh games."""
    run = get_object_or_404(visible_advice(request.user), pk=pk)
    return Response(advice_data(run))


def _owned_run(request, pk) -> AdviceRun:
    return get_object_or_404(visible_advice(request.user), pk=pk, owner=request.user)


@extend_schema(request=None, responses={200: ADVICE})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def cancel_advice(request, pk):
    """Stop your advice run after the games in hand; 409 when it is not running."""
    run = _owned_run(request, pk)
    if not advising.cancel(run):
        return Response(
            {"detail": _("This advice is not running any more."), "code": "not_running"}, 409
        )
    run.refresh_from_db()
    return Response(advice_data(run))


@extend_schema(
    request=None,
    responses={
        201: OpenApiResponse(
            inline_serializer("AdviceApplied", {"version": serializers.IntegerField()}),
            description="the deck's new version, its comment citing the evidence",
        )
    },
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def apply_advice(request, pk):
    """Save the recommendation that held up on fresh games as a new version of your deck."""
    run = _owned_run(request, pk)
    try:
        version = advising.apply(run, request.user, evidence_comment(run))
    except services.LabRefused as error:
        return refused(error)
    except PermissionError:
        return Response(
            {"detail": _("Only the deck's owner may apply its advice."), "code": "not_owner"},
            403,
        )
    return Response({"version": version}, status=status.HTTP_201_CREATED)
