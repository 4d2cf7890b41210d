"""The matches HTTP API (docs/matches-api.md): thin views over services and selectors.

Every error is JSON with `detail` (a sentence a person can act on) and `code`:
400 malformed, 403 not yours, 404 unknown, 409 not now (stale version, not open), 422 not
allowed (illegal action, illegal deck).
"""

import functools
import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import OperationalError, connection
from drf_spectacular.utils import OpenApiResponse, extend_schema
from kombu.exceptions import OperationalError as BrokerUnavailable
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.decorators import api_view, authentication_classes
from rest_framework.exceptions import APIException
from rest_framework.response import Response

from cardgame.params import BadNumber, record_id, whole_number
from decks.models import Deck

from . import selectors, services
from .errors import BadRequest, Forbidden, MatchError, NotFound
from .messages import MESSAGES, sentence
from .models import Match, Seat

BOT_NAMES = [name for name, _label in Seat.BOTS if name]  # random, heuristic, search-*

log = logging.getLogger(__name__)


class DatabaseBusy(APIException):
    status_code = 503
    default_detail = MESSAGES["UNAVAILABLE"]
    default_code = "UNAVAILABLE"


def _busy() -> dict:
    return {"detail": sentence("UNAVAILABLE"), "code": "UNAVAILABLE"}


class SessionAuth(SessionAuthentication):
    """Session auth whose database outage is a 503 to retry, not a 500 (the session lookup
    runs before the view, outside `json_errors`)."""

    def authenticate(self, request):
        try:
            return super().authenticate(request)
        except OperationalError as exc:
            log.warning("503, the session could not be read: %r", exc)
            raise DatabaseBusy(_busy()) from exc


def json_errors(view):
    """Typed service errors and DRF's own (parse, auth) as {detail, code}, never a 500."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except MatchError as exc:
            return Response(exc.payload(), status=exc.status)
        except APIException as exc:
            detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
            return Response({"detail": detail, "code": exc.default_code}, status=exc.status_code)
        except OperationalError as exc:  # the database is down or full: retry, nothing lost
            log.warning("503 on %s: %r", request.path, exc)
            return Response(_busy(), status=503, headers={"Retry-After": "2"})

    return wrapper


def match_api(methods):
    """@api_view with the matches' session auth and error shape."""

    def decorate(view):
        return api_view(methods)(authentication_classes([SessionAuth])(json_errors(view)))

    return decorate


def _body(request) -> dict:
    data = request.data
    if not isinstance(data, dict):
        raise BadRequest("BAD_BODY")
    return data


def _int_field(data, name, *, required=True):
    """A record's id from the body (cardgame.params: the column's range), or BadRequest."""
    value = data.get(name)
    if value is None and not required:
        return None
    try:
        return record_id(value, name)
    except BadNumber as exc:
        raise BadRequest(f"BAD_{name.upper()}", exc.message) from None


def _my_deck(request, data) -> Deck:
    deck_id = _int_field(data, "deck")
    deck = Deck.objects.filter(pk=deck_id, owner_id=request.user.pk).first()
    if deck is None:
        raise NotFound("NO_SUCH_DECK")
    return deck


def _opponent(data):
    value = data.get("opponent")
    if value in (None, ""):
        return None
    users = get_user_model().objects
    if isinstance(value, int) and not isinstance(value, bool):
        found = users.filter(pk=value).first()
    elif isinstance(value, str):
        found = users.filter(username=value).first()
    else:
        raise BadRequest("BAD_OPPONENT")
    if found is None:
        raise NotFound("NO_SUCH_USER", words={"name": value})
    return found


def _require_login(request):
    if not request.user.is_authenticated:
        raise Forbidden("NOT_LOGGED_IN")


@extend_schema(methods=["POST"], responses={201: OpenApiResponse(description="The new match.")})
@match_api(["GET", "POST"])
def match_list(request):
    if request.method == "GET":
        items = [selectors.list_item(m, request.user) for m in selectors.my_matches(request.user)]
        return Response({"results": items})
    _require_login(request)
    data = _body(request)
    bot = data.get("bot") or None
    if bot is not None:
        services.check_bot(bot)
    ruleset = data.get("ruleset") or "original"
    services.engine_ruleset(ruleset if isinstance(ruleset, str) else repr(ruleset))
    time_control = data.get("time_control")  # clocks.TIME_CONTROLS; absent: the default
    if time_control == "":
        time_control = None
    if time_control is not None:
        time_control = services.check_time_control(time_control)  # 400 with the names
    seats = data.get("seats", 2)
    if seats == 2:
        match = services.challenge(
            request.user, _my_deck(request, data), opponent=_opponent(data), bot=bot,
            ruleset=ruleset, time_control=time_control,
        )  # fmt: skip
    else:  # an open table for three to six (R 17.1): players join, the host starts it
        if bot is not None or _opponent(data) is not None:
            raise BadRequest("BAD_TABLE")
        match = services.open_table(
            request.user, _my_deck(request, data), seats=seats, ruleset=ruleset,
            time_control=time_control,
        )  # fmt: skip
    viewer = selectors.viewer_seat(match, request.user)
    return Response(selectors.match_payload(match, viewer), status=status.HTTP_201_CREATED)


@match_api(["GET"])
def match_detail(request, pk):
    match = selectors.get_match(pk)
    return Response(selectors.match_payload(match, selectors.viewer_seat(match, request.user)))


def _lobby_action(name):
    @match_api(["POST"])
    def view(request, pk):
        _require_login(request)
        match = selectors.get_match(pk)
        if name in ("accept", "join_table"):
            deck = _my_deck(request, _body(request))
            match = getattr(services, name)(match, request.user, deck)
        elif name == "start_table":  # the host may choose the bot for the free seats
            bot = _body(request).get("bot")
            match = services.start_table(match, request.user, bot=bot)
        else:
            match = getattr(services, name)(match, request.user)
        return Response(selectors.match_payload(match, selectors.viewer_seat(match, request.user)))

    view.__name__ = f"match_{name}"
    return view


match_accept = _lobby_action("accept")
match_decline = _lobby_action("decline")
match_cancel = _lobby_action("cancel")
match_concede = _lobby_action("concede")
match_join = _lobby_action("join_table")
match_leave = _lobby_action("leave_table")
match_start = _lobby_action("start_table")


@extend_schema(responses={202: OpenApiResponse(description="The action, queued or applied.")})
@match_api(["POST"])
def match_actions(request, pk):
    _require_login(request)
    status_code, body = make_move(pk, request.user, _body(request))
    headers = {"Retry-After": "2"} if status_code == 503 else None
    return Response(body, status=status_code, headers=headers)


def make_move(pk, user, data: dict) -> tuple[int, dict]:
    """A player's move, from the POST or from the match socket (matches/consumers.py): the
    HTTP status and body the page handles the same way whichever way it came. A service
    error is its status and {detail, code}; a database or broker failure after the move may
    have been stored is answered by `_after_a_busy_database`."""
    client_action_id = data.get("client_action_id")
    move = {
        "client_action_id": client_action_id,
        "expected_version": data.get("expected_version"),
        "action": data.get("action"),
    }
    match = None
    try:
        req = services.store_move(pk, user, **move)  # one statement when the move is good
        if req is None:  # the long way: why not, or the same move stored before
            match = selectors.get_match(pk, with_state=False, seat_of=user)
            req = services.submit_action(match, user, **move, reload=False)
        if settings.CELERY_TASK_ALWAYS_EAGER:  # drained in this request: say how it went
            req.refresh_from_db(fields=["status", "code", "message", "applied_version"])
    except MatchError as exc:
        return exc.status, exc.payload()
    except (OperationalError, BrokerUnavailable) as exc:
        log.warning("an action met a failure: %r", exc)
        if connection.connection is None:  # no connection was had: nothing was stored
            return 503, _busy()
        return _after_a_busy_database(match or Match(pk=pk), user, client_action_id)
    return status.HTTP_202_ACCEPTED, {"request": selectors.request_payload(req)}


def _after_a_busy_database(match, user, client_action_id) -> tuple[int, dict]:
    """The database (or broker) failed during an action: if the action was stored, it is
    202 with its status (applied, pending: the sweep drains it, rejected), never a 503 that
    hides a move made; else 503 saying it was not recorded, or that we cannot tell yet."""
    try:
        stored = selectors.client_request(match, user, client_action_id)
    except OperationalError as exc:
        log.warning("could not tell whether the action was stored: %r", exc)
        outcome = "unknown"
    else:
        if stored is not None:
            return status.HTTP_202_ACCEPTED, {"request": selectors.request_payload(stored)}
        outcome = "not_stored"
    detail = sentence("UNAVAILABLE_" + outcome.upper())
    return 503, {"detail": detail, "code": "UNAVAILABLE", "outcome": outcome, "request": None}


@match_api(["GET"])
def match_action_status(request, pk, request_id):
    match = selectors.get_match(pk)
    seat = selectors.viewer_seat(match, request.user)
    if seat is None:
        raise Forbidden("NOT_A_PLAYER")
    return Response({"request": selectors.request_status(match, request_id, seat)})


@match_api(["GET"])
def match_events(request, pk):
    match = selectors.get_match(pk)
    try:  # the last seq the client has: a PositiveIntegerField
        after = whole_number(request.query_params.get("after", "0"), "after")
    except BadNumber as exc:
        raise BadRequest("BAD_AFTER", exc.message) from None
    viewer = selectors.viewer_seat(match, request.user)
    events = selectors.events_after(match, viewer, after)
    # status too: a game the clock (or a concession) ends moves neither version nor seq
    answer = {"version": match.version, "seq": match.seq, "status": match.status}
    return Response({**answer, "events": events})


@match_api(["GET"])
def match_replay(request, pk):
    match = selectors.get_match(pk)
    seat = request.query_params.get("seat", "0")
    if seat not in [str(s) for s in range(match.seat_count)]:
        raise BadRequest("BAD_SEAT", words={"last": match.seat_count - 1})
    explain = selectors.sees_explanations(match, request.user)
    return Response(selectors.replay(match, int(seat), explanations=explain))
