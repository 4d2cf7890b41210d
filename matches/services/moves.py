"""What the web stores: a player's action request, checked against the row's version,
deciding seat and legal actions (the rules run in the worker: matches/services/draining.py).
A client's action id makes a retry the same request.
"""

import contextlib
import re
from typing import NamedTuple

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from cardgame.params import BadNumber, whole_number
from engine.actions import MalformedAction, parse_action

from .. import queue
from ..errors import BadRequest, Conflict, Forbidden, MatchError, Unprocessable
from ..models import ActionRequest, Match
from ..selectors import viewer_seat
from . import sql

MAX_CLIENT_ID = 64
# A client's action id: a UUID, a counter, ... but never the colon of the server's own ids
# (`bot:<version>`, `timeout:<version>`), which live apart anyway (ActionRequest.origin).
CLIENT_ID_PATTERN = re.compile(rf"[A-Za-z0-9._~-]{{1,{MAX_CLIENT_ID}}}")
MAX_ACTION = 200


def check_request_shape(client_action_id, expected_version, action):
    if not isinstance(client_action_id, str) or not CLIENT_ID_PATTERN.fullmatch(client_action_id):
        raise BadRequest("BAD_CLIENT_ACTION_ID", words={"max": MAX_CLIENT_ID})
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise BadRequest("BAD_VERSION")
    try:  # the column's range (PositiveIntegerField): 2**31 was a 500 on PostgreSQL
        whole_number(expected_version, "expected_version")
    except BadNumber:
        raise BadRequest("BAD_VERSION") from None
    if not isinstance(action, str) or not 0 < len(action) <= MAX_ACTION:
        raise BadRequest("BAD_ACTION")
    try:
        parse_action(action)
    except MalformedAction as exc:
        raise BadRequest("MALFORMED_ACTION", reason=exc.code) from exc


def submit_action(match: Match, user, *, client_action_id, expected_version, action, reload=True):
    """Store a player's action for the drain; the same client_action_id is stored once.

    reload=False: the caller loaded `match` in this request (its status, version and
    decision are current enough; the drain checks them again under the row lock).
    """
    check_request_shape(client_action_id, expected_version, action)
    seat = viewer_seat(match, user)
    if seat is None:
        raise Forbidden("NOT_A_PLAYER")
    if reload:
        match.refresh_from_db(fields=["status", "version", "deciding_seat", "legal_ids"])
    try:
        _check_now(match, seat, expected_version, action)
    except MatchError:
        # A retry of a stored request (perhaps applied since, so now "stale") gets that
        # request back, not the error the game's new position would give a new one.
        existing = _existing_request(match, client_action_id, seat, action)
        if existing is not None:
            return existing
        raise
    return store_request(match, seat, client_action_id, expected_version, action)


class SocketMove(NamedTuple):
    """A move a socket sent (matches/consumers.py) that its web process did not store: the
    drain stores it (`drain_move`), and answers the socket's channel `reply_to`."""

    user_id: int
    client_action_id: str
    expected_version: int
    action: str
    reply_to: str


def store_move(match_id: int, user, *, client_action_id, expected_version, action):
    """A player's move stored by ONE statement on PostgreSQL, when `_check_now` would let it
    through: the INSERT reads the match row and the user's seat itself (the same tests as a
    WHERE clause), so a move costs the web one round trip and almost no ORM work, where
    reading the match first and inserting after were two round trips and the ORM's work on
    the hot path of every move (bench/RESULTS.md, issue 16). Returns the stored request (the
    drain is queued), or None when nothing was stored: the caller then goes the long way
    (`submit_action`), which says why, or finds the same request stored before. The drain
    checks everything again under the row lock either way.
    """
    check_request_shape(client_action_id, expected_version, action)
    if connection.vendor != "postgresql" or not getattr(user, "is_authenticated", False):
        return None
    created = timezone.now()
    inside = connection.in_atomic_block  # a caller's transaction (a test): as store_request
    with (
        transaction.atomic() if inside else contextlib.nullcontext(),
        connection.cursor() as cursor,
    ):
        cursor.execute(
            sql.store_move_sql(),
            sql.store_move_params(match_id, user.pk, client_action_id, expected_version, action,
                               created),
        )  # fmt: skip
        row = cursor.fetchone()
    if row is None:
        return None
    request = ActionRequest(id=row[0], match_id=int(match_id), seat=row[1],
                            origin=ActionRequest.CLIENT, client_action_id=client_action_id,
                            expected_version=expected_version, action=action,
                            created=created)  # fmt: skip
    request._state.adding = False
    request._state.db = connection.alias
    transaction.on_commit(lambda: queue.send("drain_match", request.match_id))
    return request


def _check_now(match, seat, expected_version, action):
    if match.status != Match.ACTIVE:
        raise Conflict("GAME_NOT_ACTIVE")
    if expected_version < match.version:
        raise Conflict("STALE_VERSION", current_version=match.version)
    if expected_version > match.version:
        # Refused, not stored: a request waiting for a position that does not exist yet would
        # let a player queue moves (and ids) ahead of the bots and the clocks (issue 11).
        raise Conflict(
            "VERSION_NOT_REACHED",
            words={"expected": expected_version},
            current_version=match.version,
        )
    if expected_version == match.version:
        if match.deciding_seat != seat:
            raise Forbidden("NOT_YOUR_DECISION")
        if action not in match.legal_ids:
            raise Unprocessable("ILLEGAL_ACTION")


def _existing_request(match, client_action_id, seat, action, origin=ActionRequest.CLIENT):
    found = ActionRequest.objects.filter(
        match=match, origin=origin, client_action_id=client_action_id
    ).first()
    if found is not None and (found.seat != seat or found.action != action):
        raise Conflict("CLIENT_ACTION_ID_REUSED")
    return found


def store_request(
    match,
    seat,
    client_action_id,
    expected_version,
    action,
    origin=ActionRequest.CLIENT,
    explanation=None,
) -> ActionRequest:
    fields = {"match": match, "seat": seat, "origin": origin, "client_action_id":
              client_action_id, "expected_version": expected_version, "action": action,
              "explanation": explanation}  # fmt: skip
    try:
        # A player's move comes in autocommit: its INSERT is a transaction of its own, where
        # an atomic block added a BEGIN and a COMMIT round trip to every move. Inside a
        # caller's transaction (the clock's default move) a savepoint keeps a duplicate from
        # breaking it.
        inside = transaction.get_connection().in_atomic_block
        with transaction.atomic() if inside else contextlib.nullcontext():
            request = ActionRequest.objects.create(**fields)
    except IntegrityError:  # the same request, submitted at the same moment
        return _existing_request(match, client_action_id, seat, action, origin)
    transaction.on_commit(lambda: queue.send("drain_match", match.pk))
    return request
