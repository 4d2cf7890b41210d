"""The server's own moves: a bot's (one a task, or a bot-against-bot game in batches), and a
person's decision with one meaningful answer, taken for them (engine.assist).
"""

import time

from django.db import transaction
from django.utils import timezone

from engine.assist import PUBLIC_DECISIONS, forced_action
from engine.bots import make_bot
from engine.game import pending

from .. import positions
from ..assist import AUTO_PREFIX, assisting, taken_note
from ..models import ActionRequest, Match
from . import commit, moves, sql

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
    return moves.store_request(
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
        batch = sql.WriteBatch()
        batch.relax_commit()
        stored = commit.save_position(match, seats, banks, state, events, now, batch)
        batch.run()
        more = match.status == Match.ACTIVE and match.deciding_seat is not None
        more = more and bool(seats[match.deciding_seat].playing_bot)  # a person decides: stop
        more = more and requests[-1].status == ActionRequest.APPLIED  # no refused bot move
        # The last batch queues the next bot move as the drain does; between batches the
        # loop goes on itself (a queued task would only find the version moved on).
        commit.after_commit(
            match, state, stored, finished=match.is_over, seats=seats, bots=not more
        )
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
    return request, commit.apply_request(match, seats, state, request, now)


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
