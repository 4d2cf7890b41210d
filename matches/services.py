"""Writes of the matches app: creating games, taking actions, the drain that applies them.

The web tier only stores an `ActionRequest` and queues `drain_match` after commit (or, for a
socket's move, queues `drain_move`, which stores it in the drain's first round trip); the
drain (in a worker) locks the match row, applies every pending request in order through
the engine and writes the version, events and the next decision in ONE transaction (the
engine state itself only every few versions: matches/positions.py).
Unique client action ids and the lock make Celery's at-least-once delivery exactly-once.
"""

import contextlib
import functools
import logging
import re
import secrets
import threading
import time
from datetime import UTC, datetime
from typing import NamedTuple

from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import Case, F, Q, TextField, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from cardgame.hungarian import articles
from cardgame.params import BadNumber, whole_number
from cards_data import definitions
from decks import play
from engine.actions import IllegalAction, MalformedAction, parse_action
from engine.assist import PUBLIC_DECISIONS, forced_action
from engine.bots import BOTS, make_bot
from engine.flow import Event
from engine.game import apply, legal_actions, new_game, pending
from engine.ruleset import Ruleset
from engine.serialize import dump

from . import clocks, positions, state_cache
from .assist import AUTO_PREFIX, assisting, taken_note
from .errors import BadRequest, Conflict, Forbidden, MatchError, Unprocessable
from .fetch import Raw, begins_here, execute_prepared, fetch_together
from .models import ActionRequest, Match, MatchEvent, Seat
from .selectors import viewer_seat

log = logging.getLogger(__name__)

COLONY_SIZE = 45  # R 9.1
MAX_CLIENT_ID = 64
# A client's action id: a UUID, a counter, ... but never the colon of the server's own ids
# (`bot:<version>`, `timeout:<version>`), which live apart anyway (ActionRequest.origin).
CLIENT_ID_PATTERN = re.compile(rf"[A-Za-z0-9._~-]{{1,{MAX_CLIENT_ID}}}")
MAX_ACTION = 200


# --- rulesets and colonies -----------------------------------------------------------------


def engine_ruleset(ruleset: str, options: dict | None = None) -> Ruleset:
    """The engine's game ruleset for a match ruleset name (+ extra flags, e.g. turn_limit)."""
    try:
        return play.game_ruleset(ruleset, **(options or {}))
    except play.DeckNotPlayable as exc:
        raise _play_error(exc) from exc


def _play_error(exc) -> MatchError:
    """decks.play's one error as this app's HTTP-shaped error (unknown name: 400)."""
    error = BadRequest if exc.code == "UNKNOWN_RULESET" else Unprocessable
    return error(exc.code, str(exc), problems=exc.problems)


def colony_defs(codes: list[str]) -> list[dict]:
    """The card definitions of a frozen colony, one per copy, in the colony's order."""
    try:
        return definitions.colony(codes)
    except definitions.UnknownCards as exc:
        raise Unprocessable("UNKNOWN_CARD", f"Unknown card codes: {exc}.") from exc


def deck_colony(deck, ruleset: str) -> list[str]:
    """A deck's 45 card codes, if it is legal for the ruleset (R 9); every problem otherwise."""
    try:
        return play.colony(deck, ruleset)
    except play.DeckNotPlayable as exc:
        raise _play_error(exc) from exc


def _check_colony(colony, seat: int) -> list[str]:
    if not isinstance(colony, list | tuple) or len(colony) != COLONY_SIZE:
        raise BadRequest("BAD_COLONY", f"Seat {seat}: a colony is a list of {COLONY_SIZE} codes.")
    if not all(isinstance(code, str) and code for code in colony):
        raise BadRequest("BAD_COLONY", f"Seat {seat}: every card code must be a string.")
    return list(colony)


# --- creating and starting matches -------------------------------------------------------


def create_match(
    *,
    players,
    colonies,
    ruleset="original",
    bots=(None, None),
    decks=(None, None),
    starting_player=None,
    seed=None,
    game_time_limit=None,
    casual=True,
    engine_options=None,
    time_control=None,
) -> Match:
    """An `active` match between two to six users or bots, the engine game set up (R 10;
    three or more: a multiplayer table, R 17.1, casual only). `time_control`: a name of
    clocks.TIME_CONTROLS; by default untimed when at most one seat is a person (a game
    against bots), `standard` between people, `tournament` (R 18.4) when not casual."""
    players, bots, decks = list(players), list(bots), list(decks)
    count = len(players)
    if not Match.MIN_SEATS <= count <= Match.MAX_SEATS or not (
        len(colonies) == len(bots) == len(decks) == count
    ):
        raise BadRequest("BAD_PLAYERS", "A match has two to six seats, each with a colony.")
    if count > 2 and not casual:
        raise BadRequest("BAD_PLAYERS", "A tournament game has exactly two seats.")
    for seat in range(count):
        if (players[seat] is None) == (not bots[seat]):
            raise BadRequest("BAD_PLAYERS", f"Seat {seat} needs either a user or a bot.")
        if bots[seat] and bots[seat] not in BOTS:
            raise BadRequest(
                "UNKNOWN_BOT", f"Unknown bot {bots[seat]!r}: use one of {sorted(BOTS)}."
            )
    engine_ruleset(ruleset, engine_options)  # refuse an unplayable ruleset before writing
    if not casual:
        time_control = clocks.TOURNAMENT  # R 18.4: the game's hour, never a named control
    elif time_control is None:
        people = sum(p is not None for p in players)
        time_control = clocks.BOT_DEFAULT if people <= 1 else clocks.PEOPLE_DEFAULT
    else:
        time_control = check_time_control(time_control)
    with transaction.atomic():
        match = Match.objects.create(
            status=Match.ACTIVE,
            ruleset=ruleset,
            engine_options=engine_options or {},
            seed=secrets.randbits(62) if seed is None else seed,
            starting_player=starting_player,
            casual=casual,
            seat_count=count,
            game_time_limit=game_time_limit,
            time_control=time_control,
            decision_limit=clocks.decision_limit(casual, time_control),
            created_by=next((p for p in players if p is not None), None),
        )
        seats = [
            Seat.objects.create(
                match=match,
                seat=i,
                user=players[i],
                bot=bots[i] or "",
                deck=decks[i],
                colony=_check_colony(colonies[i], i),
                time_bank=clocks.initial_bank(game_time_limit, time_control),
            )
            for i in range(count)
        ]
        _start_game(match, seats)
    return match


def _start_game(match: Match, seats: list[Seat]) -> None:
    """Set up the engine game (R 10, R 17.1) for a locked/new match whose seats all have
    colonies."""
    ruleset = engine_ruleset(match.ruleset, match.engine_options)
    names = tuple(s.display_name for s in seats)
    events = []
    try:
        state = new_game(
            [colony_defs(s.colony) for s in seats],
            match.seed,
            ruleset,
            names=names,
            starting_player=match.starting_player,
            events=events,
        )
    except ValueError as exc:  # the engine's own R 9 check of every colony
        raise Unprocessable("COLONY_NOT_LEGAL", str(exc)) from exc
    now = timezone.now()
    match.status = Match.ACTIVE
    match.started = now
    if match.game_time_limit:
        match.game_deadline = now + timezone.timedelta(seconds=match.game_time_limit)
    for seat in seats:
        seat.time_bank = clocks.initial_bank(match.game_time_limit, match.time_control)
    clocks.add_increment(match, seats, events)  # a turn that starts at once (none: mulligans)
    for seat in seats:
        seat.save(update_fields=["time_bank"])
    new_events = _append_events(match, events)
    _store_position(match, seats, state, now, snapshot=True)  # version 0: the first snapshot
    match.save()
    _after_commit(match, state, new_events, seats=seats)


def check_time_control(name) -> str:
    """A time control's name (clocks.TIME_CONTROLS), or BadRequest saying which exist."""
    if isinstance(name, str) and name in clocks.TIME_CONTROLS:
        return name
    known = ", ".join(clocks.TIME_CONTROLS)
    raise BadRequest(
        "UNKNOWN_TIME_CONTROL",
        _("Unknown time control %(name)s: choose one of %(known)s.")
        % {"name": repr(name) if isinstance(name, str) else _("(not a name)"), "known": known},
    )


def challenge(
    user, deck, *, opponent=None, bot=None, ruleset="original", time_control=None
) -> Match:
    """Invite `opponent`, post an open challenge (neither), or play `bot` at once. The time
    control (clocks.TIME_CONTROLS) defaults to untimed against a bot, standard otherwise."""
    _require_user(user)
    if time_control is not None:
        time_control = check_time_control(time_control)
    if opponent is not None and bot:
        raise BadRequest("BAD_CHALLENGE", "Challenge either a user or a bot, not both.")
    if opponent is not None and opponent.pk == user.pk:
        raise Unprocessable("SELF_CHALLENGE", "You cannot challenge yourself.")
    colony = _own_deck_colony(user, deck, ruleset)
    if bot:
        return create_match(
            players=(user, None),
            colonies=(colony, _bot_colony(colony)),
            ruleset=ruleset,
            bots=(None, bot),
            decks=(deck, None),
            time_control=time_control,
        )
    engine_ruleset(ruleset)
    time_control = time_control or clocks.PEOPLE_DEFAULT
    with transaction.atomic():
        match = Match.objects.create(
            status=Match.INVITED if opponent is not None else Match.OPEN,
            ruleset=ruleset,
            seed=secrets.randbits(62),
            created_by=user,
            time_control=time_control,
            decision_limit=clocks.decision_limit(True, time_control),
        )
        Seat.objects.create(match=match, seat=0, user=user, deck=deck, colony=colony)
        Seat.objects.create(match=match, seat=1, user=opponent)
    return match


def _bot_colony(colony: list[str]) -> list[str]:
    """A bot plays a mirror of the challenger's colony (always legal for the same ruleset)."""
    return list(colony)


def accept(match: Match, user, deck) -> Match:
    _require_user(user)
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        seats = list(match.seats.select_related("user").order_by("seat"))
        if match.status == Match.INVITED:
            if seats[1].user_id != user.pk:
                raise Forbidden("NOT_INVITED", "This challenge was sent to somebody else.")
        elif match.status == Match.OPEN:
            if seats[0].user_id == user.pk:
                raise Unprocessable("SELF_CHALLENGE", "You cannot accept your own challenge.")
        else:
            raise Conflict("NOT_OPEN", f"This match is {match.status}; it cannot be accepted.")
        if match.multiplayer:
            raise Conflict("A_TABLE", "This is a table for several players: join it instead.")
        seats[1].colony = _own_deck_colony(user, deck, match.ruleset)
        seats[1].user, seats[1].deck = user, deck
        seats[1].save()
        _start_game(match, seats)
    return match


# --- multiplayer tables (R 17.1): open, join, leave, start ----------------------------------


TABLE_BOT = "heuristic"  # fills the empty seats when the host starts; stands in for leavers


def open_table(user, deck, *, seats: int, ruleset="original", time_control=None) -> Match:
    """An open table for `seats` (3-6) colonies: the host takes seat 0 with a legal deck,
    the others join (`join_table`), the host starts it (`start_table`), bots fill the rest.
    Its time control (default standard) is the people's; the host alone with bots when it
    starts plays untimed, as against a bot."""
    _require_user(user)
    time_control = check_time_control(time_control or clocks.PEOPLE_DEFAULT)
    if isinstance(seats, bool) or not isinstance(seats, int) or not 3 <= seats <= Match.MAX_SEATS:
        raise BadRequest("BAD_SEATS", "A table seats three to six players (R 17.1).")
    colony = _own_deck_colony(user, deck, ruleset)
    with transaction.atomic():
        match = Match.objects.create(
            status=Match.OPEN,
            ruleset=ruleset,
            seed=secrets.randbits(62),
            created_by=user,
            seat_count=seats,
            time_control=time_control,
            decision_limit=clocks.decision_limit(True, time_control),
        )
        Seat.objects.create(match=match, seat=0, user=user, deck=deck, colony=colony)
        Seat.objects.bulk_create([Seat(match=match, seat=i) for i in range(1, seats)])
    return match


def _open_table(match: Match) -> tuple[Match, list[Seat]]:
    """The table locked, with its seats; Conflict unless it is an open multiplayer table."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    if not match.multiplayer:
        raise Conflict("NOT_A_TABLE", "This is a game for two: accept it instead.")
    if match.status != Match.OPEN:
        raise Conflict("NOT_OPEN", f"This table is {match.status}; it cannot be joined now.")
    return match, list(match.seats.select_related("user").order_by("seat"))


def join_table(match: Match, user, deck) -> Match:
    """Take the first empty seat of an open table with one of your legal decks (R 9)."""
    _require_user(user)
    with transaction.atomic():
        match, seats = _open_table(match)
        if any(s.user_id == user.pk for s in seats):
            raise Conflict("ALREADY_SEATED", "You already have a seat at this table.")
        free = next((s for s in seats if s.user_id is None and not s.bot), None)
        if free is None:
            raise Conflict("TABLE_FULL", "Every seat at this table is taken.")
        free.colony = _own_deck_colony(user, deck, match.ruleset)
        free.user, free.deck = user, deck
        free.save(update_fields=["user", "deck", "colony"])
    return match


def leave_table(match: Match, user) -> Match:
    """A guest leaves a table before it starts (the host cancels it instead)."""
    _require_user(user)
    with transaction.atomic():
        match, seats = _open_table(match)
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise Forbidden("NOT_A_PLAYER", "You have no seat at this table.")
        if mine.seat == 0:
            raise Unprocessable("HOST_LEAVES", "The host cancels the table instead of leaving it.")
        mine.user, mine.deck, mine.colony = None, None, []
        mine.save(update_fields=["user", "deck", "colony"])
    return match


def start_table(match: Match, user, bot: str | None = None) -> Match:
    """The host starts the table: each empty seat gets a bot (`bot`, the heuristic one by
    default; the host chooses it when starting) playing a mirror of the host's colony (as a
    bot opponent does), and the game is set up (R 10, R 17.1.1)."""
    _require_user(user)
    bot = bot or TABLE_BOT
    if bot not in BOTS:
        raise BadRequest("UNKNOWN_BOT", f"Unknown bot {bot!r}: use one of {sorted(BOTS)}.")
    with transaction.atomic():
        match, seats = _open_table(match)
        if seats[0].user_id != user.pk:
            raise Forbidden("NOT_THE_HOST", "Only the host can start the table.")
        for seat in seats:
            if seat.user_id is None and not seat.bot:
                seat.bot, seat.colony = bot, _bot_colony(seats[0].colony)
                seat.save(update_fields=["bot", "colony"])
        if sum(s.user_id is not None for s in seats) == 1:  # the host alone with bots
            match.time_control = clocks.BOT_DEFAULT
            match.decision_limit = clocks.decision_limit(True, match.time_control)
        _start_game(match, seats)
    return match


def decline(match: Match, user) -> Match:
    """The invited player says no; the challenger may withdraw (cancel) the same way."""
    _require_user(user)
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.status not in (Match.INVITED, Match.OPEN):
            raise Conflict("NOT_OPEN", f"This match is {match.status}; nothing to decline.")
        seat_users = set(match.seats.values_list("user_id", flat=True))
        if user.pk not in seat_users:
            raise Forbidden("NOT_A_PLAYER", "Only the players can decline or cancel.")
        if match.multiplayer and match.created_by_id != user.pk:
            raise Forbidden("NOT_THE_HOST", "Only the host cancels a table; leave it instead.")
        match.status = Match.ABORTED
        match.finished = timezone.now()
        match.save(update_fields=["status", "finished", "updated"])
    return match


cancel = decline


def _own_deck_colony(user, deck, ruleset: str) -> list[str]:
    if deck is None:
        raise BadRequest("NO_DECK", "Choose one of your decks.")
    if deck.owner_id != user.pk:
        raise Forbidden("NOT_YOUR_DECK", "You can only play with one of your own decks.")
    return deck_colony(deck, ruleset)


def _require_user(user):
    if user is None or not user.is_authenticated:
        raise Forbidden("NOT_LOGGED_IN", "Log in to play.")


# --- actions -------------------------------------------------------------------------------


def _check_request_shape(client_action_id, expected_version, action):
    if not isinstance(client_action_id, str) or not CLIENT_ID_PATTERN.fullmatch(client_action_id):
        raise BadRequest(
            "BAD_CLIENT_ACTION_ID",
            _(
                "client_action_id must be 1 to %(max)s letters, digits, dots, dashes, "
                "underscores or tildes (a UUID will do)."
            )
            % {"max": MAX_CLIENT_ID},
        )
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise BadRequest("BAD_VERSION", "expected_version must be a whole number.")
    try:  # the column's range (PositiveIntegerField): 2**31 was a 500 on PostgreSQL
        whole_number(expected_version, "expected_version")
    except BadNumber as exc:
        raise BadRequest("BAD_VERSION", exc.message) from None
    if not isinstance(action, str) or not 0 < len(action) <= MAX_ACTION:
        raise BadRequest("BAD_ACTION", "action must be an action id string, e.g. 'pass'.")
    try:
        parse_action(action)
    except MalformedAction as exc:
        raise BadRequest(
            "MALFORMED_ACTION",
            f"The action {action!r} cannot be read ({exc.code}).",
            reason=exc.code,
        ) from exc


def submit_action(match: Match, user, *, client_action_id, expected_version, action, reload=True):
    """Store a player's action for the drain; the same client_action_id is stored once.

    reload=False: the caller loaded `match` in this request (its status, version and
    decision are current enough; the drain checks them again under the row lock).
    """
    _check_request_shape(client_action_id, expected_version, action)
    seat = viewer_seat(match, user)
    if seat is None:
        raise Forbidden("NOT_A_PLAYER", "You are not playing in this match.")
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
    return _store_request(match, seat, client_action_id, expected_version, action)


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
    _check_request_shape(client_action_id, expected_version, action)
    if connection.vendor != "postgresql" or not getattr(user, "is_authenticated", False):
        return None
    created = timezone.now()
    inside = connection.in_atomic_block  # a caller's transaction (a test): as _store_request
    with (
        transaction.atomic() if inside else contextlib.nullcontext(),
        connection.cursor() as cursor,
    ):
        cursor.execute(
            _store_move_sql(),
            _store_move_params(match_id, user.pk, client_action_id, expected_version, action,
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
    transaction.on_commit(lambda: _queue("drain_match", request.match_id))
    return request


def _store_move_params(
    match_id, user_id, client_action_id, expected_version, action, created=None
) -> list:
    return [client_action_id, expected_version, action, created or timezone.now(),  # the row
            user_id, int(match_id), expected_version, action]  # the seat, the tests  # fmt: skip


# `_store_move_sql`'s parameters' types, for its PREPARE (matches/fetch.py): those of its
# SELECT list are not inferred from the columns they go to
_STORE_MOVE_TYPES = ("text", "integer", "text", "timestamptz", "integer", "integer", "integer",
                     "text")  # fmt: skip


@functools.cache
def _store_move_sql() -> str:
    """`store_move`'s statement. Its WHERE clause is `_check_now` (a test holds the two to the
    same answers); the seat is the user's first one, as `viewer_seat` takes it. A retried
    client_action_id inserts nothing (ON CONFLICT): the long way answers it."""
    quote = connection.ops.quote_name
    request, match, seat = (quote(m._meta.db_table) for m in (ActionRequest, Match, Seat))
    return (
        f"INSERT INTO {request} (match_id, seat, origin, client_action_id, expected_version, "  # nosec B608
        "action, status, code, message, created, applied_version, explanation) "
        f"SELECT m.id, s.seat, '{ActionRequest.CLIENT}', %s, %s, %s, '{ActionRequest.PENDING}', "
        "'', '', %s, NULL, NULL "
        f"FROM {match} m JOIN LATERAL (SELECT min(seat) AS seat FROM {seat} "
        "WHERE match_id = m.id AND user_id = %s) s ON TRUE "
        f"WHERE m.id = %s AND m.status = '{Match.ACTIVE}' AND m.version = %s "
        "AND m.deciding_seat = s.seat AND m.legal_ids @> jsonb_build_array(%s::text) "
        "ON CONFLICT DO NOTHING RETURNING id, seat"
    )


def _check_now(match, seat, expected_version, action):
    if match.status != Match.ACTIVE:
        raise Conflict("GAME_NOT_ACTIVE", f"This match is {match.status}: no more actions.")
    if expected_version < match.version:
        raise Conflict(
            "STALE_VERSION",
            f"The game moved on (version {match.version}); reload and choose again.",
            current_version=match.version,
        )
    if expected_version > match.version:
        # Refused, not stored: a request waiting for a position that does not exist yet would
        # let a player queue moves (and ids) ahead of the bots and the clocks (issue 11).
        raise Conflict(
            "VERSION_NOT_REACHED",
            articles(
                _(
                    "The game is at version %(current)s, not %(expected)s yet; "
                    "choose from the position you see now."
                )
                % {"current": match.version, "expected": expected_version}
            ),
            current_version=match.version,
        )
    if expected_version == match.version:
        if match.deciding_seat != seat:
            raise Forbidden("NOT_YOUR_DECISION", "It is not your decision now; wait for your turn.")
        if action not in match.legal_ids:
            raise Unprocessable(
                "ILLEGAL_ACTION", f"{action!r} is not one of your legal actions now."
            )


def _existing_request(match, client_action_id, seat, action, origin=ActionRequest.CLIENT):
    found = ActionRequest.objects.filter(
        match=match, origin=origin, client_action_id=client_action_id
    ).first()
    if found is not None and (found.seat != seat or found.action != action):
        raise Conflict(
            "CLIENT_ACTION_ID_REUSED",
            "This client_action_id was already used for another action; use a fresh one.",
        )
    return found


def _store_request(
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
    transaction.on_commit(lambda: _queue("drain_match", match.pk))
    return request


def concede(match: Match, user) -> Match:
    seat = viewer_seat(match, user)
    if seat is None:
        raise Forbidden("NOT_A_PLAYER", "You are not playing in this match.")
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.status != Match.ACTIVE:
            raise Conflict(
                "GAME_NOT_ACTIVE", f"This match is {match.status}; it cannot be conceded."
            )
        if match.multiplayer:
            _stand_in(match, seat)
            return match
        _finish(match, Match.FINISHED, 1 - seat, "concede", f"seat {seat} conceded")
        state = _final_snapshot(match)
        match.save()
        _after_commit(match, state, [], finished=True)
    return match


def _stand_in(match: Match, seat_no: int) -> None:
    """A player leaves a multiplayer table (concedes or runs out of time): a bot plays their
    colony on, so the table never waits for them and they are eliminated as any colony is
    (AMB-44; docs/rulings.md "Multiplayer decisions"). Called with the match row locked."""
    seats = list(match.seats.select_related("user").order_by("seat"))
    seat = seats[seat_no]
    if not seat.playing_bot:
        seat.stand_in = TABLE_BOT
        seat.save(update_fields=["stand_in"])
    clocks.arm(match, seats, timezone.now())  # a bot's decision: the clock starts afresh
    match.save(update_fields=["decision_started", "decision_deadline", "updated"])
    _after_commit(match, None, [], seats=seats)


def judge_decide(match: Match, winner_seat: int, reason: str) -> Match:
    """A judge's decision (R 18.4): the only way a timed-out tournament game ends."""
    if isinstance(winner_seat, bool) or winner_seat not in range(match.seat_count):
        raise BadRequest("BAD_WINNER", "winner_seat must be a seat (a game is never a draw).")
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.status not in (Match.ACTIVE, Match.NEEDS_JUDGE):
            raise Conflict("GAME_NOT_OPEN_FOR_JUDGE", f"This match is already {match.status}.")
        _finish(match, Match.FINISHED, winner_seat, "judge", str(reason)[:200])
        state = _final_snapshot(match)
        match.save()
        _after_commit(match, state, [], finished=True)
    return match


def _final_snapshot(match):
    """A game that ends off the log (a concession, the clock, a judge) keeps its last
    position as the snapshot, so a finished game is read without a replay; the position,
    for the push. The engine state itself does not change: it is the one of `version`."""
    state = positions.current_state(match)
    if state is not None and match.snapshot_version != match.version:
        match.snapshot, match.snapshot_version = dump(state), match.version
    return state


def _finish(match, status, winner_seat, result, reason=""):
    match.status = status
    match.winner_seat = winner_seat
    match.result = result
    match.result_reason = reason
    match.finished = timezone.now()
    match.decision_started = match.decision_deadline = None
    match.legal_ids = []
    ActionRequest.objects.filter(match=match, status=ActionRequest.PENDING).update(
        status=ActionRequest.REJECTED, code="GAME_OVER", message="the game ended first"
    )


# --- the drain (runs in a worker) ------------------------------------------------------------


def moves_by_worker() -> bool:
    """Whether a socket's move goes to a worker unstored (`send_move`): with a broker and
    PostgreSQL (the worker's INSERT rides in its locked read). Otherwise (the embedded
    default: eager Celery, SQLite) the web stores it (`api.make_move`)."""
    from .tasks import drain_move

    return connection.vendor == "postgresql" and not drain_move.app.conf.task_always_eager


async def send_move(match_id: int, user, move: dict, reply_to: str, holder: str = "") -> None:
    """Queue a socket's move, unstored, for a worker (`drain_move`), from the socket's event
    loop: to `holder`, the queue of the worker that holds the game's position
    (`tasks.send_to_holder`, matches/holders.py), or else to the shared queue
    (`tasks.send_from_loop`). Raises what the broker raises (the caller then stores the
    move itself)."""
    from asgiref.sync import sync_to_async

    from . import tasks

    args = (int(match_id), user.pk, move.get("client_action_id"),
            move.get("expected_version"), move.get("action"), reply_to)  # fmt: skip
    if holder and await tasks.send_to_holder(holder, *args):
        return
    if not await tasks.send_from_loop(tasks.drain_move, *args):
        await sync_to_async(tasks.enqueue, thread_sensitive=False)(tasks.drain_move, *args)


def drain_move(match_id: int, move: SocketMove) -> int:
    """A socket's move, stored by the worker in the drain's first round trip, then drained
    with whatever else is pending. Its socket is answered after the commit, with the push:
    202 and the request (applied, or rejected by a move that came first). A move that would
    not be stored (its shape, a stale version, not the player's decision, a client_action_id
    used before) is answered "not stored": its web process then goes the POST's way
    (`api.make_move`), which says why, or finds the request stored before."""
    try:
        _check_request_shape(move.client_action_id, move.expected_version, move.action)
    except MatchError:
        from .push import send_answer

        send_answer(move.reply_to, move.client_action_id, "")
        return 0
    return drain(match_id, move)


def drain(match_id: int, move: SocketMove | None = None) -> int:
    """Apply every pending request of a match in order; return how many were applied.

    Two round trips to PostgreSQL (tests/matches/test_drain_queries.py): the BEGIN, the
    match row locked with its seats and the pending requests (three statements in one
    query text, `fetch_together`), then every write in one `WriteBatch` (requests, events,
    position, time banks) that ends with the COMMIT. The
    position comes from this process's state cache when it committed that version itself
    (matches/state_cache.py), or from an older position it committed and the actions
    logged since; otherwise the snapshot and the actions logged since come with the same
    two statements and are replayed (matches/positions.py). A socket's `move` on the
    position this process committed last, with its rows, is one round trip
    (`_drain_held_move`; tests/matches/test_held_move.py).
    """
    if move is not None:
        applied = _drain_held_move(match_id, move)
        if applied is not None:
            return applied
    with transaction.atomic():
        seats, requests, log, made_by, mine = _locked_seats_and_pending(
            match_id, state_cache.peek(match_id), move
        )
        answer = _Answer(move, mine)
        if not seats or not requests:  # none, or a duplicate delivery: the work is done
            answer.after_commit()
            return 0
        match = seats[0].match
        batch = WriteBatch()
        if match.status != Match.ACTIVE:
            for request in requests:
                _reject(request, "GAME_NOT_ACTIVE", f"the match is {match.status}")
            batch.requests(requests)
            batch.run()
            answer.after_commit()
            return 0
        if mine is None:  # a move this drain stored itself is committed durably
            batch.relax_commit()
        banks = [seat.time_bank for seat in seats]
        held = state_cache.take_entry(match_id)
        if held is not None and held.is_position(match.version, match.updated):
            state = held.state
        else:
            state = _rebuilt(match, log, held, made_by)
        now = timezone.now()
        events = []
        applied = 0
        for request in requests:
            new = _apply_request(match, seats, state, request, now)
            if new is not None:
                events += new
                applied += 1
        batch.requests(requests)
        if applied:
            taken, auto = take_forced(match, seats, state, now)
            events += taken
            batch.insert(ActionRequest, auto)
            _rows, after = _commit_position(match, seats, banks, state, events, now, batch)
            last = next((r.pk for r in requests if r.applied_version == match.version), None)
            after(request_id=last, answer=answer.made())
        else:  # nothing changed: the position (if it came from the cache) is still good
            batch.run(commit=True)
            transaction.on_commit(
                lambda: state_cache.put(match.pk, match.version, match.updated, state)
            )
            answer.after_commit()
    return applied


def _commit_position(match, seats, banks, state, events, now, batch):
    """The drain's end: the position written with the rest of `batch`, which commits, and
    the push's messages made while PostgreSQL runs it. Returns the rows `batch.run`
    returns, and a function of (request_id, answer) that arranges what follows the commit
    (`_after_commit`: the push, the state and rows held for this process's next drain)."""
    stored = _save_position(match, seats, banks, state, events, now, batch)
    texts = []
    rows = batch.run(
        commit=True, meanwhile=lambda: texts.append(_push_texts(match, state, stored, seats))
    )

    def after(request_id, answer):
        _after_commit(match, state, stored, finished=match.is_over, seats=seats,
                      request_id=request_id, answer=answer, texts=texts[0] if texts else None,
                      hold_rows=True)  # fmt: skip

    return rows, after


def _drain_held_move(match_id: int, move: SocketMove) -> int | None:
    """A socket's move drained in ONE round trip to PostgreSQL when this process holds the
    position the move was made on (its last drain of the match committed it, with the
    rows: `state_cache.hold_rows`) and the move is that position's decision: the move is
    applied to the held position first, then one text locks the row, fails unless the
    row is still that position with no request pending (`kgk_expect`, migration 0007),
    stores the move as applied and writes the position, and commits. The usual drain
    (two round trips) reads the row first and computes after. Returns what `drain`
    returns (1), or None when the move must go the usual way: nothing held for it, or
    the row had moved on (its text then failed and stored nothing; the held position,
    changed by the move, is dropped)."""
    if connection.vendor != "postgresql" or not _holds_position_for(match_id, move):
        return None
    taken = state_cache.take_with_rows(match_id, move.expected_version)
    if taken is None:  # taken by another thread meanwhile
        return None
    state, (match, seats) = taken
    version, updated, now = match.version, match.updated, timezone.now()
    request = ActionRequest(match_id=match.pk, seat=_user_seat(seats, move.user_id),
                            origin=ActionRequest.CLIENT, client_action_id=move.client_action_id,
                            expected_version=move.expected_version, action=move.action)  # fmt: skip
    banks = [seat.time_bank for seat in seats]
    try:
        with transaction.atomic():
            events = _apply_request(match, seats, state, request, now)
            if events is None:  # the engine refused what the row listed: the usual way
                raise _PositionMoved
            batch = WriteBatch()
            for statement in _expect_position(match_id, version, updated):
                batch.add(*statement)
            batch.insert(ActionRequest, [request], returning=True)
            taken, auto = take_forced(match, seats, state, now)
            events += taken
            batch.insert(ActionRequest, auto)
            [[(request.pk,)]], after = _commit_position(
                match, seats, banks, state, events, now, batch
            )
            request._state.adding = False
            # the position's version was made by the last request (a forced one: no id here)
            after(request_id=None if auto else request.pk, answer=_Answer(move, request).made())
    except (_PositionMoved, IntegrityError):  # a client_action_id used before, too
        return None
    except DatabaseError as exc:
        if getattr(exc.__cause__, "sqlstate", None) != _MOVED:
            raise
        return None
    return 1


class _PositionMoved(Exception):
    """The held position cannot take the move (`_drain_held_move`)."""


_MOVED = "KGK01"  # kgk_expect's SQLSTATE (migration 0007)


def _holds_position_for(match_id: int, move: SocketMove) -> bool:
    """Whether this process holds, with its rows, the position `move` was made on, and the
    move is that position's decision by the mover's seat (`_check_now`'s tests, on the
    held rows; the text checks the rows are still those)."""
    rows = state_cache.peek_rows(match_id, move.expected_version)
    if rows is None:
        return False
    match, seats = rows
    return (
        match.status == Match.ACTIVE
        and match.deciding_seat is not None
        and match.deciding_seat == _user_seat(seats, move.user_id)
        and move.action in match.legal_ids
    )


def _user_seat(seats, user_id) -> int | None:
    """The user's first seat, as `viewer_seat` and `store_move` take it."""
    return next((seat.seat for seat in seats if seat.user_id == user_id), None)


def _expect_position(match_id: int, version: int, updated) -> list[tuple[str, list]]:
    """The row lock, then `kgk_expect` of the row being (version, updated), still active,
    with no request pending: two statements, the second with a snapshot taken after the
    lock (it sees what a drain that held the lock before committed)."""
    lock, expect = _expect_sql()
    return [(lock, [match_id]), (expect, [match_id, version, updated, match_id])]


@functools.cache
def _expect_sql() -> tuple[str, str]:
    quote = connection.ops.quote_name
    match, request = quote(Match._meta.db_table), quote(ActionRequest._meta.db_table)
    return (
        f"SELECT 1 FROM {match} WHERE id = %s FOR UPDATE",  # nosec B608
        f"SELECT kgk_expect(EXISTS (SELECT 1 FROM {match} WHERE id = %s AND version = %s "  # nosec B608
        f"AND updated = %s AND status = '{Match.ACTIVE}') AND NOT EXISTS (SELECT 1 FROM "
        f"{request} WHERE match_id = %s AND status = '{ActionRequest.PENDING}'))",
    )


class _Answer:
    """What a drain tells the socket whose move it stored (`SocketMove`), after its commit:
    202 and the request as the POST gives it, or "" (not stored: go the POST's way)."""

    def __init__(self, move: SocketMove | None, mine: ActionRequest | None):
        self.move, self.mine = move, mine

    def made(self) -> tuple[str, str, str] | None:
        """(reply_to, client_action_id, text) for the push (text "": not stored)."""
        if self.move is None:
            return None
        from .push import answer_text
        from .selectors import request_payload

        move, text = self.move, ""
        if self.mine is not None:
            text = answer_text(move.client_action_id, 202, {"request": request_payload(self.mine)})
        return move.reply_to, move.client_action_id, text

    def after_commit(self) -> None:
        """Sent alone after the commit (no push goes out: nothing was applied)."""
        made = self.made()
        if made is not None:
            from .push import send_answer

            transaction.on_commit(lambda: send_answer(*made))


def _rebuilt(match, log, held: state_cache.Held | None, made_by: dict):
    """The locked row's position when this process does not hold it. When it holds an
    older one (`held`: another worker moved the game on since this one did) and the log
    shows the same request making that version (`made_by`: applied version -> request id),
    that position with the actions since: the locked read left the snapshot out for it
    (`_seats_query`), and a drain at two workers replays one action instead of parsing
    ~21 kB and replaying up to SNAPSHOT_EVERY - 1. Otherwise the snapshot and the `log`
    read with the lock, replayed."""
    if held is not None and held.request_id is not None:
        if made_by.get(held.version) == held.request_id:
            return positions.forward(held.state, held.version, log, match.version)
    if not match.snapshot:  # left out for a held entry that turned out unusable, or evicted
        match.snapshot = Match.objects.values_list("snapshot", flat=True).get(pk=match.pk)
        return positions.current_state(match)  # the log may have been left out too
    return positions.from_snapshot(match.snapshot, match.snapshot_version, log, match.version)


def _locked_seats_and_pending(
    match_id: int, cached, move: SocketMove | None = None
) -> tuple[list[Seat], list, list, dict, ActionRequest | None]:
    """The match's seats (with their users) and the match row itself, locked FOR UPDATE,
    then its pending requests, in ONE round trip on PostgreSQL; every seat shares one
    `Match` object (seats[0].match). Third, the log: (applied_version, seat, action) of
    the requests applied since the snapshot, which rebuild the position; fourth, their ids
    by applied version.

    The requests are read by a statement of their own AFTER the lock's (in the same
    query text: each statement takes its own snapshot, so they include what a concurrent
    drain committed while this one waited for the lock). `cached`, the (version, updated)
    of the state this process holds, leaves the snapshot and the log out when the row
    still is that position, and the snapshot alone when the row is a later position of
    the same snapshot (the held one and the log since rebuild it); the snapshot is read on
    the first seat's row only either way.

    A socket's `move` is stored between the lock and the requests' read (`store_move`'s
    INSERT, the same tests: after the lock, so they see the row as it is), in the same
    text; fifth, the request it stored, or None (nothing stored, or not on PostgreSQL)."""
    stored = []
    if connection.vendor != "postgresql":
        seats = list(_seats_query(match_id, cached))
        requests = list(_pending_query(match_id, cached))
    else:
        values = {_STAND_IN_MATCH: match_id}
        if cached is not None:
            values.update({_STAND_IN_VERSION: cached[0], _STAND_IN_UPDATED: cached[1]})
        stand_in = None if cached is None else (_STAND_IN_VERSION, _STAND_IN_UPDATED)
        shape = "uncached" if cached is None else "cached"
        lock = _TEMPLATES.get(f"seats:{shape}", _seats_query, _STAND_IN_MATCH, stand_in)
        pending = _TEMPLATES.get(f"pending:{shape}", _pending_query, _STAND_IN_MATCH, stand_in)
        if move is None:
            seats, requests = fetch_together(lock.bind(values), pending.bind(values))
        else:
            seats, stored, requests = fetch_together(
                lock.bind(values), Raw(_store_move_sql(), _store_move_params(match_id, *move[:4]), _STORE_MOVE_TYPES),
                pending.bind(values),
            )  # fmt: skip
    if seats:
        seats[0].match.snapshot = seats[0].snapshot_text
    for seat in seats[1:]:
        seat.match = seats[0].match
    done = [r for r in requests if r.status != r.PENDING]
    log = [(r.applied_version, r.seat, r.action) for r in done]
    made_by = {r.applied_version: r.pk for r in done}
    pending = [r for r in requests if r.status == r.PENDING]
    mine = next((r for r in pending if stored and r.pk == stored[0][0]), None)
    if mine is not None:  # left out of the read (`_pending_query`); its answer says it
        mine.client_action_id = move.client_action_id
    return seats, pending, log, made_by, mine


def _seats_query(match_id, cached):
    same = Q(seat__gt=0)  # the snapshot on the first seat's row only
    if cached is not None:  # the held position, or a later one of the same snapshot
        same |= Q(match__version=cached[0], match__updated=cached[1])
        same |= Q(match__snapshot_version__lt=cached[0], match__version__gt=cached[0])
    return (
        Seat.objects.select_related("match", "user")
        .select_for_update(of=("match",))
        # nothing the drain or its push reads: the colony (45 codes of JSON, used when the
        # game starts) and the user's account fields besides the name
        .defer("match__snapshot", "colony", *(f"user__{name}" for name in _USER_UNREAD))
        .annotate(
            snapshot_text=Case(
                When(same, then=Value("")), default=F("match__snapshot"), output_field=TextField()
            )
        )
        .filter(match_id=match_id)
        .order_by("seat")
    )


_USER_UNREAD = ("password", "last_login", "first_name", "last_name", "email", "date_joined")


def _pending_query(match_id, cached):
    """The pending requests, and the applied ones after the snapshot unless the row is the
    cached position (the lock's statement holds the row: the snapshot cannot move)."""
    log = Q(status=ActionRequest.APPLIED, applied_version__gt=F("match__snapshot_version"))
    if cached is not None:
        log &= ~Q(match__version=cached[0], match__updated=cached[1])
    wanted = Q(status=ActionRequest.PENDING) | log
    rows = ActionRequest.objects.filter(wanted, match_id=match_id).order_by("id")
    # What the drain reads and writes, no more: a log row built with its creation time and
    # explanation cost more than replaying its action (bench/RESULTS.md, issue 16).
    return rows.only("seat", "expected_version", "action", "applied_version", *REQUEST_FIELDS)


# Stand-ins compiled into the drain's two SELECTs once per thread on PostgreSQL (Django's
# compiler took ~15 % of a drain's CPU compiling the same text every time); each drain
# binds its own values in their place (PostgreSQL takes ints and datetimes as they are).
_STAND_IN_MATCH = -7_000_001
_STAND_IN_VERSION = 2_147_000_002  # within the column's range, or Django drops the test
_STAND_IN_UPDATED = datetime(1901, 2, 3, 4, 5, 6, 789012, tzinfo=UTC)


class _Compiled:
    """A queryset's SQL, parameters and compiler (which turns its rows into objects)."""

    def __init__(self, queryset):
        self.queryset = queryset
        self.compiler = queryset.query.get_compiler(using=queryset.db)
        self.sql, self.params = self.compiler.as_sql()
        stand_ins = {_STAND_IN_MATCH, _STAND_IN_VERSION, _STAND_IN_UPDATED}
        self.slots = [i for i, p in enumerate(self.params) if _is_one_of(p, stand_ins)]

    def bind(self, values: dict):
        """(queryset, compiler, sql, params) with each stand-in parameter replaced."""
        params = list(self.params)
        for i in self.slots:
            params[i] = values[params[i]]
        return self.queryset, self.compiler, self.sql, params


def _is_one_of(value, stand_ins) -> bool:
    return isinstance(value, int | datetime) and value in stand_ins


class _Templates(threading.local):
    def __init__(self):
        self.compiled = {}

    def get(self, key, build, *args) -> _Compiled:
        if key not in self.compiled:
            self.compiled[key] = _Compiled(build(*args))
        return self.compiled[key]


_TEMPLATES = _Templates()


class WriteBatch:
    """Statements compiled by the ORM and sent together: ONE round trip on PostgreSQL
    (psycopg's client-side binding, Django's default, takes several statements in one
    execute), one after another elsewhere (SQLite, the embedded default)."""

    def __init__(self):
        self.statements = []
        self.returning = []  # indexes of the statements whose rows `run` returns

    def relax_commit(self):
        """Don't wait for the WAL flush of this commit (PostgreSQL only).

        Safe here because nothing is lost if the server crashes right after: the requests
        were committed durably by the web tier, and a lost drain leaves them `pending`, so
        the sweep drains them again with the same result (the engine and the bots' seeds
        are deterministic). It saves the fsync wait on the hot path of every move. (SET
        LOCAL holds until the commit, so it may go out with the writes it relaxes.)
        """
        if connection.vendor == "postgresql":
            self.statements.append(("SET LOCAL synchronous_commit TO OFF", ()))

    def update(self, model, pk, values: dict):
        """UPDATE model SET values WHERE pk: the statement's text made once per model and
        fields (Django's UpdateQuery compiled it on every drain, ~15 % of the drain's CPU),
        each value prepared for the database by its field as the ORM's update does."""
        text, fields = _update_statement(model, tuple(values))
        params = [
            f.get_db_prep_save(v, connection) for f, v in zip(fields, values.values(), strict=True)
        ]
        params.append(model._meta.pk.get_db_prep_value(pk, connection))
        self.statements.append((text, tuple(params)))

    def insert(self, model, objs, returning=False):
        """INSERT of `objs` in one statement, its text made once per model and row count;
        each value taken (pre_save) and prepared by its field as bulk_create does.
        `returning`: `run` returns the new rows' primary keys."""
        if not objs:
            return
        text, fields = _insert_statement(model, len(objs))
        if returning:
            self.returning.append(len(self.statements))
            text += f" RETURNING {connection.ops.quote_name(model._meta.pk.column)}"
        params = [
            field.get_db_prep_save(field.pre_save(obj, True), connection)
            for obj in objs
            for field in fields
        ]
        self.statements.append((text, tuple(params)))

    def add(self, sql: str, params=()):
        """A statement of the caller's own (its rows are not read)."""
        self.statements.append((sql, tuple(params)))

    def requests(self, requests):
        for request in requests:
            self.update(ActionRequest, request.pk, {f: getattr(request, f) for f in REQUEST_FIELDS})

    def run(self, *, commit=False, meanwhile=None) -> list[list]:
        """Send every statement; the rows of those added with `returning`, in order. `commit`:
        the batch is the last thing its transaction sends,
        and on PostgreSQL its last statement is the COMMIT, which saves the commit's own
        round trip; the atomic block's commit then finds nothing to do (psycopg sends no
        COMMIT for a connection that is not in a transaction). Only in the outermost block:
        inside a caller's transaction (a test's) the block is a savepoint, and it commits
        the usual way. As the first statement of its block, the text also carries the
        BEGIN (`fetch.begins_here`). `meanwhile`: work done while PostgreSQL runs the batch
        (elsewhere, after it); it must not use the database or raise (`fetch.execute_while`)."""
        if not self.statements:
            if meanwhile is not None:
                meanwhile()
            return []
        if commit and connection.vendor == "postgresql" and len(connection.atomic_blocks) == 1:
            self.statements.append(("COMMIT", ()))
        rows = []
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":  # prepared once per connection, as the reads
                statements = [(sql, params, ()) for sql, params in self.statements]
                skipped = execute_prepared(
                    cursor, statements, begin=begins_here(), meanwhile=meanwhile
                )
                rows = _rows_of(cursor, skipped, self.returning)
            else:
                for n, (statement, params) in enumerate(self.statements):
                    cursor.execute(statement, params)
                    if n in self.returning:
                        rows.append(cursor.fetchall())
                if meanwhile is not None:
                    meanwhile()
        self.statements, self.returning = [], []
        return rows


def _rows_of(cursor, skipped: int, wanted: list) -> list[list]:
    """The rows of the statements numbered `wanted` (ascending) of a text just run, whose
    first `skipped` results are empty (`execute_prepared`)."""
    rows, at = [], -skipped
    for n in wanted:
        while at < n:
            cursor.nextset()
            at += 1
        rows.append(cursor.fetchall())
    return rows


_UPDATE_STATEMENTS: dict = {}  # (vendor, model, field names) -> (text, fields)
_INSERT_STATEMENTS: dict = {}  # (vendor, model, row count) -> (text, fields)


def _update_statement(model, names: tuple) -> tuple[str, list]:
    """("UPDATE table SET a = %s, b = %s WHERE id = %s", [field a, field b]) for plain
    values of plain fields: what the drain writes (tests/matches/test_write_batch.py
    compares it with the ORM's own update)."""
    key = (connection.vendor, model, names)
    found = _UPDATE_STATEMENTS.get(key)
    if found is None:
        meta, quote = model._meta, connection.ops.quote_name
        fields = [meta.get_field(name) for name in names]
        for field in fields:
            if hasattr(field, "get_placeholder") or field.remote_field or field.primary_key:
                raise ValueError(f"{field} needs the ORM's own update")
        sets = ", ".join(f"{quote(field.column)} = %s" for field in fields)
        table = quote(meta.db_table)
        # names from the model's metadata, quoted; every value is a bound parameter
        text = f"UPDATE {table} SET {sets} WHERE {table}.{quote(meta.pk.column)} = %s"  # nosec B608
        found = _UPDATE_STATEMENTS[key] = (text, fields)
    return found


def _insert_statement(model, rows: int) -> tuple[str, list]:
    """("INSERT INTO table (a, b) VALUES (%s, %s), (%s, %s)", [field a, field b]): every
    concrete field but the primary key, `rows` rows (compared with the ORM's in
    tests/matches/test_write_batch.py)."""
    key = (connection.vendor, model, rows)
    found = _INSERT_STATEMENTS.get(key)
    if found is None:
        meta, quote = model._meta, connection.ops.quote_name
        fields = [f for f in meta.concrete_fields if not f.primary_key]
        for field in fields:
            if hasattr(field, "get_placeholder"):
                raise ValueError(f"{field} needs the ORM's own insert")
        columns = ", ".join(quote(field.column) for field in fields)
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
        values = ", ".join([row] * rows)
        # names from the model's metadata, quoted; every value is a bound parameter
        text = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES {values}"  # nosec B608
        found = _INSERT_STATEMENTS[key] = (text, fields)
    return found


POSITION_FIELDS = [
    "version", "seq", "deciding_seat", "decision", "legal_ids", "status", "ranking",
    "winner_seat", "result", "result_reason", "finished", "decision_started",
    "decision_deadline", "updated",
]  # fmt: skip


SNAPSHOT_FIELDS = ["snapshot", "snapshot_version"]  # only when a snapshot is due
REQUEST_FIELDS = ["status", "code", "message", "applied_version"]


def _apply_request(match, seats, state, request, now):
    """Apply one request through the engine; the engine's events, or None when rejected."""
    if match.status != Match.ACTIVE:
        _reject(request, "GAME_OVER", "the game ended first")
        return None
    if request.expected_version != match.version:
        _reject(request, "STALE_VERSION", f"expected version {request.expected_version}, "
                f"the game was at {match.version}")  # fmt: skip
        return None
    try:
        events = apply(state, request.action, player=request.seat)
    except (IllegalAction, MalformedAction) as exc:
        _reject(request, exc.code, f"{request.action} was not allowed ({exc.code})")
        return None
    clocks.charge(match, seats, request.seat, now)
    clocks.add_increment(match, seats, events)  # a player's turn started: their increment
    match.decision_started = now  # the next decision (if the same player's) starts now
    match.version += 1
    request.status = ActionRequest.APPLIED
    request.applied_version = match.version
    _note_game_over(match, state)
    return [(match.version, e) for e in events]


def _reject(request, code, message):
    request.status = ActionRequest.REJECTED
    request.code = code
    request.message = message[:300]


def _note_game_over(match, state):
    if state.table is not None and state.table["ranking"] is not None:
        match.ranking = list(state.table["ranking"])  # R 17.1.6
    if state.winner is not None:
        _finish(match, Match.FINISHED, state.winner, state.result or "colony")
    elif state.result is not None:  # e.g. "turn_limit": stopped without a winner
        _finish(match, Match.FINISHED, None, state.result)


def _append_events(match, events, batch=None) -> list[MatchEvent]:
    """Number and store the events; `events` holds Event or (version, Event) items.
    With a `batch`, the insert goes out with the batch's other writes."""
    rows = []
    for item in events:
        version, event = item if isinstance(item, tuple) else (match.version, item)
        match.seq += 1
        rows.append(MatchEvent(match=match, seq=match.seq, version=version, data=event.to_dict()))
    if batch is None:
        MatchEvent.objects.bulk_create(rows)
    else:
        batch.insert(MatchEvent, rows)
    return rows


def _save_position(match, seats, banks, state, events, now, batch=None) -> list[MatchEvent]:
    """Write what a drain or a bot batch changed: the events, the position and the time
    banks that moved (`banks`: each seat's bank before); return the stored events. All in
    one `WriteBatch` (the caller's, which it runs, or one of its own)."""
    own = batch is None
    batch = WriteBatch() if own else batch
    stored = _append_events(match, events, batch)
    snapshot = _store_position(match, seats, state, now)
    fields = POSITION_FIELDS + (SNAPSHOT_FIELDS if snapshot else [])
    match.updated = timezone.now()
    batch.update(Match, match.pk, {f: getattr(match, f) for f in fields})
    for seat, bank in zip(seats, banks, strict=True):
        if seat.time_bank != bank:
            batch.update(Seat, seat.pk, {"time_bank": seat.time_bank})
    if own:
        batch.run()
    return stored


def _store_position(match, seats, state, now, snapshot=False) -> bool:
    """Who decides what, their legal action ids, the clock of that decision, and the state
    dump as the snapshot when one is due (`snapshot`: always); whether it was."""
    waiting = pending(state)
    if waiting is None or match.is_over:
        match.deciding_seat, match.decision, match.legal_ids = None, "", []
        if not match.is_over:  # the engine stopped without a result: nothing more to do
            _finish(match, Match.FINISHED, state.winner, state.result or "colony")
    else:
        match.deciding_seat = waiting.player
        match.decision = waiting.decision
        match.legal_ids = [a.id for a in legal_actions(state)]
    clocks.arm(match, seats, now)
    if not (snapshot or positions.snapshot_due(match)):
        return False  # the applied requests are the log that leads here from the snapshot
    match.snapshot, match.snapshot_version = dump(state), match.version
    return True


# --- bots ------------------------------------------------------------------------------------


BOT_BATCH_DECISIONS = 200  # commit (and push to spectators) after this many decisions...
BOT_BATCH_SECONDS = 0.5  # ...or this long, whichever comes first


def play_bot_move(match_id: int, version: int) -> ActionRequest | None:
    """Compute the deciding bot's move for `version` and submit it like a player would.

    Bot against bot (no human to watch each move), the worker plays on by itself instead
    (`play_bot_game`): one task round trip per decision would take hours for a real game.
    """
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.ACTIVE or match.version != version:
        return None
    if match.multiplayer or not match.seats.filter(bot="", stand_in="").exists():
        # A table (R 17.1): the bots' decisions between two people's come in batches too
        # (one task round trip per decision queued every person's move behind them);
        # the batches stop at the first decision of a person.
        play_bot_game(match_id, version)
        return None
    seat = match.seats.filter(seat=match.deciding_seat).first()
    if seat is None or not seat.playing_bot:
        return None
    state = positions.current_state(match)
    bot = make_bot(seat.playing_bot, seed=f"{match.seed}:{version}")
    action = bot.choose(state, seat.seat)
    return _store_request(
        match,
        seat.seat,
        f"bot:{version}",
        version,
        action.id,
        origin=ActionRequest.BOT,
        explanation=bot_explanation(bot),
    )


def bot_explanation(bot) -> list | None:
    """A search bot's last decision in the compact stored form (ActionRequest.explanation):
    [[action id, playouts, estimated win rate], ...] best first. None for a bot that does not
    explain itself, and for a forced move (one legal action: nothing was weighed)."""
    explain = getattr(bot, "explain", None)
    options = explain() if explain is not None else None
    if not options or not any(o.get("visits") for o in options):
        return None
    return [[o["action"], o["visits"], o["win_rate"]] for o in options[:3]]


def play_bot_game(match_id: int, version: int) -> int:
    """Play the bots of a match from `version` in batches (to the end of a bot-against-bot
    game, or to a person's decision at a table); return the decisions applied.

    Each batch is one transaction with the match row locked, like the drain: every move is
    stored as an applied `ActionRequest` with the usual `bot:<version>` id, so a worker
    killed mid-batch loses only the uncommitted batch, which the redelivered task or the
    sweep plays again (the bots are seeded by (match seed, version): the same moves).
    """
    applied = 0
    while True:
        done, version, more = _play_bot_batch(match_id, version)
        applied += done
        if not more:
            return applied


def _play_bot_batch(match_id: int, version: int) -> tuple[int, int, bool]:
    """One batch: (decisions applied, the version now, whether to play another batch)."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.status != Match.ACTIVE or match.version != version:
            return 0, version, False  # somebody else moved the game on: theirs to continue
        if match.requests.filter(status=ActionRequest.PENDING).exists():
            return 0, version, False  # e.g. a default move: its drain queues the next bot move
        seats = list(match.seats.select_related("user").order_by("seat"))
        banks = [seat.time_bank for seat in seats]
        state = positions.taken_or_rebuilt(match)
        now = timezone.now()
        events, requests = _play_bot_decisions(match, seats, state, now)
        ActionRequest.objects.bulk_create(requests)
        if not any(r.status == ActionRequest.APPLIED for r in requests):
            return 0, version, False  # the bot's choice was refused: stop, the sweep retries
        batch = WriteBatch()
        batch.relax_commit()
        stored = _save_position(match, seats, banks, state, events, now, batch)
        batch.run()
        more = match.status == Match.ACTIVE and match.deciding_seat is not None
        more = more and bool(seats[match.deciding_seat].playing_bot)  # a person decides: stop
        more = more and requests[-1].status == ActionRequest.APPLIED  # no refused bot move
        # The last batch queues the next bot move as the drain does; between batches the
        # loop goes on itself (a queued task would only find the version moved on).
        _after_commit(match, state, stored, finished=match.is_over, seats=seats, bots=not more)
        applied = sum(r.status == ActionRequest.APPLIED for r in requests)
        return applied, match.version, more


def _play_bot_decisions(match, seats, state, now):
    """The bots' decisions until the batch is full or the game waits for nobody."""
    started = time.monotonic()
    events, requests = [], []
    while len(requests) < BOT_BATCH_DECISIONS and time.monotonic() - started < BOT_BATCH_SECONDS:
        waiting = pending(state)
        if match.status != Match.ACTIVE or waiting is None:
            break
        seat = seats[waiting.player]
        if not seat.playing_bot:  # a person's decision (a table's batches stop here)...
            taken, auto = take_forced(match, seats, state, now, limit=1)
            if not auto:
                break
            events += taken  # ...unless it has one meaningful answer: taken for them
            requests += auto
            continue
        bot = make_bot(seat.playing_bot, seed=f"{match.seed}:{match.version}")
        action = bot.choose(state, seat.seat).id
        request, new = _server_move(
            match, seats, state, now, seat.seat, f"bot:{match.version}", action,
            explanation=bot_explanation(bot),
        )  # fmt: skip
        requests.append(request)
        if new is None:
            break
        events += new
    return events, requests


def _server_move(match, seats, state, now, seat: int, client_id: str, action: str, **extra):
    """A move the server makes for a seat (a bot's, or a decision taken for a person),
    applied as a request of origin bot at the current version: (request, its events, or
    None when the engine refused it)."""
    request = ActionRequest(match=match, seat=seat, origin=ActionRequest.BOT,
                            client_action_id=client_id, expected_version=match.version,
                            action=action, **extra)  # fmt: skip
    return request, _apply_request(match, seats, state, request, now)


MAX_FORCED = 50  # a bug guard: forced decisions in a row taken by one call


def take_forced(match, seats, state, now, limit=MAX_FORCED):
    """Take a person's decisions that have one meaningful answer (engine.assist.forced_action)
    for them: each stored as an applied request (origin bot, id ``auto:<version>``) with
    the engine's events and a ``taken_for`` event for the log. Stops at the first decision
    of a bot, or one with a choice. Returns (events as (version, Event), new requests).

    Hidden information (docs/matches-api.md): a decision whose legal actions follow from
    public information (engine.assist.PUBLIC_DECISIONS: combat) is taken in every game,
    since everybody can see it is forced. Any other (a response window, the main phase)
    can be forced by the cards in a hand; it is taken only when every other seat is a bot,
    whose choices never read the time a move took: a person opponent would otherwise learn,
    from a window that closed at once, that the hand holds no answer."""
    events, made = [], []
    if not assisting():
        return events, made
    while len(made) < limit and match.status == Match.ACTIVE:
        waiting = pending(state)
        if waiting is None:
            break
        seat = seats[waiting.player]
        if seat.playing_bot:
            break
        if waiting.decision not in PUBLIC_DECISIONS and not all(
            other.playing_bot for other in seats if other.seat != seat.seat
        ):
            break
        action = forced_action(state)
        if action is None:
            break
        client_id = f"{AUTO_PREFIX}{match.version}"
        request, new = _server_move(match, seats, state, now, seat.seat, client_id, action.id)
        if new is None:  # pragma: no cover - forced_action answers from legal_actions
            break
        made.append(request)
        events += [(match.version, taken_note(seat.seat, waiting.decision, bool(new)))] + new
    return events, made


def submit_default_move(match_id: int) -> str:
    """The clock ran out on the current decision: the default move, or the end of the game."""
    now = timezone.now()
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.status != Match.ACTIVE:
            return "gone"
        if match.game_deadline is not None and now >= match.game_deadline:
            _finish(match, Match.NEEDS_JUDGE, None, "", "game time is over (R 18.4)")
            state = _final_snapshot(match)
            match.save()
            _after_commit(match, state, [], finished=True)
            return "needs_judge"
        if match.decision_deadline is None or now < match.decision_deadline:
            return "not_due"
        seats = list(match.seats.order_by("seat"))
        if clocks.bank_empty(match, seats, now):
            return _out_of_time(match, seats, now)
        action = clocks.default_action(match.legal_ids)
        request = _store_request(
            match,
            match.deciding_seat,
            f"timeout:{match.version}",
            match.version,
            action,
            origin=ActionRequest.CLOCK,
        )
        return f"default:{request.action}"


def _out_of_time(match, seats, now) -> str:
    loser = match.deciding_seat
    clocks.charge(match, seats, loser, now)
    Seat.objects.bulk_update(seats, ["time_bank"])
    if match.multiplayer:  # the table goes on without them (docs/rulings.md)
        _stand_in(match, loser)
        return "stand_in"
    if match.casual:
        _finish(match, Match.FINISHED, 1 - loser, "timeout", f"seat {loser} ran out of time")
    else:  # R 18.4: a tournament game never ends on time; a judge decides
        _finish(match, Match.NEEDS_JUDGE, None, "", f"seat {loser} ran out of time (R 18.4)")
    state = _final_snapshot(match)
    match.save()
    _after_commit(match, state, [], finished=True)
    return match.status


# --- after commit: push, bots, signal ------------------------------------------------------------


def _queue(task_name: str, *args) -> None:
    from . import tasks

    tasks.enqueue(getattr(tasks, task_name), *args)


def _push_texts(match, state, events, seats):
    """The push's messages (`push.update_texts`) for the position about to be committed,
    made before its commit comes back; None when nobody is pushed to (no channel layer)
    or making them failed (the push then makes them after the commit, and logs why)."""
    from channels.layers import get_channel_layer

    from .push import update_texts

    if get_channel_layer() is None:
        return None
    try:
        return update_texts(match, state, _raw_events(events), seats)
    except Exception:  # noqa: BLE001 - the commit's result is still to be read
        log.warning("the push of match %s was not made ahead", match.pk, exc_info=True)
        return None


def _raw_events(events) -> list:
    return [(row.seq, Event.from_dict(row.data)) for row in events]


def _after_commit(
    match,
    state,
    events,
    finished=False,
    seats=None,
    bots=True,
    request_id=None,
    answer=None,
    texts=None,
    hold_rows=False,
) -> None:
    """After the commit: each viewer's own projection, the next bot move, match_finished.

    `match`, `seats` and `state` are the committed objects (not changed after the commit),
    so the push needs no query of its own. `answer`: a socket's move's answer, sent with
    the push (`_Answer.made`). `texts`: the push's messages made before (`_push_texts`).
    `hold_rows`: the state cache keeps `match` and `seats` with the state (a drain's, whose
    rows are what `_drain_held_move` writes from).
    """
    raw = _raw_events(events) if texts is None else []
    if seats is None:
        seats = list(match.seats.select_related("user").order_by("seat"))

    def run():
        from .push import push_update

        try:
            push_update(match, state, raw, seats, answer, texts)  # encodes every message first
        except Exception:  # push is at-most-once; clients resync by seq (docs)
            log.exception("push of match %s failed", match.pk)
        if state is not None:  # the committed position, for this process's next drain
            state_cache.put(match.pk, match.version, match.updated, state, request_id)
            if hold_rows:
                state_cache.hold_rows(match.pk, match.version, match.updated, (match, seats))
        if bots and match.status == Match.ACTIVE and match.deciding_seat is not None:
            if seats[match.deciding_seat].playing_bot:
                _queue("bot_move", match.pk, match.version)
        if finished:
            from .signals import match_finished

            match_finished.send(sender=Match, match=match)

    transaction.on_commit(run)
