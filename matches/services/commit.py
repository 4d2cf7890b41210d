"""A position applied and committed: a request through the engine, the events, the row's
decision and snapshot, the time banks, and what follows the commit (each viewer's push,
the next bot's move, `match_finished`).
"""

import logging
from datetime import timedelta

from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from engine.actions import IllegalAction, MalformedAction
from engine.flow import Event
from engine.game import apply, legal_actions, pending
from engine.serialize import dump

from .. import clocks, positions, push, queue, state_cache
from ..models import ActionRequest, Match, MatchEvent, Seat
from ..signals import match_finished, turn_waiting
from . import sql

log = logging.getLogger(__name__)


def apply_request(match, seats, state, request, now):
    """Apply one request through the engine; the engine's events, or None when rejected."""
    if match.status != Match.ACTIVE:
        reject(request, "GAME_OVER", "the game ended first")
        return None
    if request.expected_version != match.version:
        reject(request, "STALE_VERSION", f"expected version {request.expected_version}, "
                f"the game was at {match.version}")  # fmt: skip
        return None
    try:
        events = apply(state, request.action, player=request.seat)
    except (IllegalAction, MalformedAction) as exc:
        reject(request, exc.code, f"{request.action} was not allowed ({exc.code})")
        return None
    clocks.charge(match, seats, request.seat, now)
    clocks.add_increment(match, seats, events)  # a player's turn started: their increment
    match.decision_started = now  # the next decision (if the same player's) starts now
    match.version += 1
    request.status = ActionRequest.APPLIED
    request.applied_version = match.version
    _note_game_over(match, state)
    return [(match.version, e) for e in events]


def reject(request, code, message):
    request.status = ActionRequest.REJECTED
    request.code = code
    request.message = message[:300]


def _note_game_over(match, state):
    if state.table is not None and state.table["ranking"] is not None:
        match.ranking = list(state.table["ranking"])  # R 17.1.6
    if state.winner is not None:
        finish(match, Match.FINISHED, state.winner, state.result or "colony")
    elif state.result is not None:  # e.g. "turn_limit": stopped without a winner
        finish(match, Match.FINISHED, None, state.result)


def append_events(match, events, batch=None) -> list[MatchEvent]:
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


def save_position(match, seats, banks, state, events, now, batch=None) -> list[MatchEvent]:
    """Write what a drain or a bot batch changed: the events, the position and the time
    banks that moved (`banks`: each seat's bank before); return the stored events. All in
    one `sql.WriteBatch` (the caller's, which it runs, or one of its own)."""
    own = batch is None
    batch = sql.WriteBatch() if own else batch
    stored = append_events(match, events, batch)
    snapshot = store_position(match, seats, state, now)
    fields = sql.POSITION_FIELDS + (sql.SNAPSHOT_FIELDS if snapshot else [])
    match.updated = timezone.now()
    batch.update(Match, match.pk, {f: getattr(match, f) for f in fields})
    for seat, bank in zip(seats, banks, strict=True):
        if seat.time_bank != bank:
            batch.update(Seat, seat.pk, {"time_bank": seat.time_bank})
    if own:
        batch.run()
    return stored


def store_position(match, seats, state, now, snapshot=False) -> bool:
    """Who decides what, their legal action ids, the clock of that decision, and the state
    dump as the snapshot when one is due (`snapshot`: always); whether it was."""
    waiting = pending(state)
    if waiting is None or match.is_over:
        match.deciding_seat, match.decision, match.legal_ids = None, "", []
        if not match.is_over:  # the engine stopped without a result: nothing more to do
            finish(match, Match.FINISHED, state.winner, state.result or "colony")
    else:
        match.deciding_seat = waiting.player
        match.decision = waiting.decision
        match.legal_ids = [a.id for a in legal_actions(state)]
    clocks.arm(match, seats, now)
    if not (snapshot or positions.snapshot_due(match)):
        return False  # the applied requests are the log that leads here from the snapshot
    match.snapshot, match.snapshot_version = dump(state), match.version
    return True


def finish(match, status, winner_seat, result, reason=""):
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


def commit_position(match, seats, banks, state, events, now, batch):
    """The drain's end: the position written with the rest of `batch`, which commits, and
    the push's messages made while PostgreSQL runs it. Returns the rows `batch.run`
    returns, and a function of (request_id, answer) that arranges what follows the commit
    (`after_commit`: the push, the state and rows held for this process's next drain)."""
    stored = save_position(match, seats, banks, state, events, now, batch)
    texts = []
    rows = batch.run(
        commit=True, meanwhile=lambda: texts.append(_push_texts(match, state, stored, seats))
    )

    def after(request_id, answer):
        after_commit(match, state, stored, finished=match.is_over, seats=seats,
                      request_id=request_id, answer=answer, texts=texts[0] if texts else None,
                      hold_rows=True)  # fmt: skip

    return rows, after


def _push_texts(match, state, events, seats):
    """The push's messages (`push.update_texts`) for the position about to be committed,
    made before its commit comes back; None when nobody is pushed to (no channel layer)
    or making them failed (the push then makes them after the commit, and logs why)."""
    if get_channel_layer() is None:
        return None
    try:
        return push.update_texts(match, state, _raw_events(events), seats)
    except Exception:  # noqa: BLE001 - the commit's result is still to be read
        log.warning("the push of match %s was not made ahead", match.pk, exc_info=True)
        return None


def _raw_events(events) -> list:
    return [(row.seq, Event.from_dict(row.data)) for row in events]


def after_commit(
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
        try:
            push.push_update(match, state, raw, seats, answer, texts)  # encodes every message first
        except Exception:  # push is at-most-once; clients resync by seq (docs)
            log.exception("push of match %s failed", match.pk)
        if state is not None:  # the committed position, for this process's next drain
            state_cache.put(match.pk, match.version, match.updated, state, request_id)
            if hold_rows:
                state_cache.hold_rows(match.pk, match.version, match.updated, (match, seats))
        if bots and match.status == Match.ACTIVE and match.deciding_seat is not None:
            if seats[match.deciding_seat].playing_bot:
                queue.send("bot_move", match.pk, match.version)
        if finished:
            match_finished.send(sender=Match, match=match)
        announce_turns(match, seats, events)

    transaction.on_commit(run)


def announce_turns(match, seats, events) -> None:
    """`turn_waiting` for each person whose turn started in `events` (the engine's `turn`
    event, once per turn), in a game over days that goes on; never for a bot's turn. The
    one place: every commit that stores events ends in `after_commit`. The deadline is the
    earliest the turn can run out: the decision's, or now plus the bank when another
    player answers first (only the decider's clock runs)."""
    if match.status != Match.ACTIVE or not clocks.over_days(match.time_control):
        return
    for row in events:
        data = row.data if isinstance(row, MatchEvent) else row[1].to_dict()
        if data["kind"] != "turn":
            continue
        seat = seats[data["data"]["player"]]
        if seat.playing_bot or seat.user_id is None:
            continue
        if match.deciding_seat == seat.seat and match.decision_deadline is not None:
            deadline = match.decision_deadline
        else:
            deadline = timezone.now() + timedelta(seconds=seat.time_bank)
        log.info("turn_waiting: match %s, seat %s, turn %s", match.pk, seat.seat,
                 data["data"].get("turn"))  # fmt: skip
        try:
            turn_waiting.send(sender=Match, match=match, user=seat.user, deadline=deadline)
        except Exception:  # a receiver's failure is not the drain's: the game moved on
            log.exception("turn_waiting of match %s failed", match.pk)
