"""What the worker applies: the drain of a match's stored requests (`drain`), and a socket's
move stored by the drain itself (`drain_move`), in one round trip when this process holds
the position (`_drain_held_move`).
"""

from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

from .. import positions, push, state_cache
from ..errors import MatchError
from ..models import ActionRequest, Match
from ..selectors import request_payload
from . import bots, commit, moves, sql


def drain_move(match_id: int, move: moves.SocketMove) -> int:
    """A socket's move, stored by the worker in the drain's first round trip, then drained
    with whatever else is pending. Its socket is answered after the commit, with the push:
    202 and the request (applied, or rejected by a move that came first). A move that would
    not be stored (its shape, a stale version, not the player's decision, a client_action_id
    used before) is answered "not stored": its web process then goes the POST's way
    (`api.make_move`), which says why, or finds the request stored before."""
    try:
        moves.check_request_shape(move.client_action_id, move.expected_version, move.action)
    except MatchError:
        push.send_answer(move.reply_to, move.client_action_id, "")
        return 0
    return drain(match_id, move)


def drain(match_id: int, move: moves.SocketMove | None = None) -> int:
    """Apply every pending request of a match in order; return how many were applied.

    Two round trips to PostgreSQL (tests/matches/test_drain_queries.py): the BEGIN, the
    match row locked with its seats and the pending requests (three statements in one
    query text, `fetch_together`), then every write in one `sql.WriteBatch` (requests, events,
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
        seats, requests, log, made_by, mine = sql.locked_seats_and_pending(
            match_id, state_cache.peek(match_id), move
        )
        answer = _Answer(move, mine)
        if not seats or not requests:  # none, or a duplicate delivery: the work is done
            answer.after_commit()
            return 0
        match = seats[0].match
        batch = sql.WriteBatch()
        if match.status != Match.ACTIVE:
            for request in requests:
                commit.reject(request, "GAME_NOT_ACTIVE", f"the match is {match.status}")
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
            new = commit.apply_request(match, seats, state, request, now)
            if new is not None:
                events += new
                applied += 1
        batch.requests(requests)
        if applied:
            taken, auto = bots.take_forced(match, seats, state, now)
            events += taken
            batch.insert(ActionRequest, auto)
            _rows, after = commit.commit_position(match, seats, banks, state, events, now, batch)
            last = next((r.pk for r in requests if r.applied_version == match.version), None)
            after(request_id=last, answer=answer.made())
        else:  # nothing changed: the position (if it came from the cache) is still good
            batch.run(commit=True)
            transaction.on_commit(
                lambda: state_cache.put(match.pk, match.version, match.updated, state)
            )
            answer.after_commit()
    return applied


def _drain_held_move(match_id: int, move: moves.SocketMove) -> int | None:
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
            events = commit.apply_request(match, seats, state, request, now)
            if events is None:  # the engine refused what the row listed: the usual way
                raise _PositionMoved
            batch = sql.WriteBatch()
            for statement in sql.expect_position(match_id, version, updated):
                batch.add(*statement)
            batch.insert(ActionRequest, [request], returning=True)
            taken, auto = bots.take_forced(match, seats, state, now)
            events += taken
            batch.insert(ActionRequest, auto)
            [[(request.pk,)]], after = commit.commit_position(
                match, seats, banks, state, events, now, batch
            )
            request._state.adding = False
            # the position's version was made by the last request (a forced one: no id here)
            after(request_id=None if auto else request.pk, answer=_Answer(move, request).made())
    except (_PositionMoved, IntegrityError):  # a client_action_id used before, too
        return None
    except DatabaseError as exc:
        if getattr(exc.__cause__, "sqlstate", None) != sql.MOVED:
            raise
        return None
    return 1


class _PositionMoved(Exception):
    """The held position cannot take the move (`_drain_held_move`)."""


def _holds_position_for(match_id: int, move: moves.SocketMove) -> bool:
    """Whether this process holds, with its rows, the position `move` was made on, and the
    move is that position's decision by the mover's seat (`moves._check_now`'s tests, on the
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


class _Answer:
    """What a drain tells the socket whose move it stored (`moves.SocketMove`), after its commit:
    202 and the request as the POST gives it, or "" (not stored: go the POST's way)."""

    def __init__(self, move: moves.SocketMove | None, mine: ActionRequest | None):
        self.move, self.mine = move, mine

    def made(self) -> tuple[str, str, str] | None:
        """(reply_to, client_action_id, text) for the push (text "": not stored)."""
        if self.move is None:
            return None
        move, text = self.move, ""
        if self.mine is not None:
            text = push.answer_text(
                move.client_action_id, 202, {"request": request_payload(self.mine)}
            )
        return move.reply_to, move.client_action_id, text

    def after_commit(self) -> None:
        """Sent alone after the commit (no push goes out: nothing was applied)."""
        made = self.made()
        if made is not None:
            transaction.on_commit(lambda: push.send_answer(*made))


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
