"""A game ended off the board: a concession, the clock (a default move or the end of the
bank, R 18.4), a judge's decision; a player who leaves a table (R 17.1).
"""

from django.db import transaction
from django.utils import timezone

from engine.serialize import dump

from .. import clocks, positions
from ..errors import BadRequest, Conflict, Forbidden
from ..models import ActionRequest, Match, Seat
from ..selectors import viewer_seat
from . import commit, moves, tables


def concede(match: Match, user) -> Match:
    seat = viewer_seat(match, user)
    if seat is None:
        raise Forbidden("NOT_A_PLAYER")
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.status != Match.ACTIVE:
            raise Conflict("GAME_NOT_ACTIVE")
        if match.multiplayer:
            _stand_in(match, seat)
            return match
        commit.finish(match, Match.FINISHED, 1 - seat, "concede", f"seat {seat} conceded")
        state = _final_snapshot(match)
        match.save()
        commit.after_commit(match, state, [], finished=True)
    return match


def _stand_in(match: Match, seat_no: int) -> None:
    """A player leaves a multiplayer table (concedes or runs out of time): a bot plays their
    colony on, so the table never waits for them and they are eliminated as any colony is
    (AMB-44; docs/rulings.md "Multiplayer decisions"). Called with the match row locked."""
    seats = list(match.seats.select_related("user").order_by("seat"))
    seat = seats[seat_no]
    if not seat.playing_bot:
        seat.stand_in = tables.TABLE_BOT
        seat.save(update_fields=["stand_in"])
    clocks.arm(match, seats, timezone.now())  # a bot's decision: the clock starts afresh
    match.save(update_fields=["decision_started", "decision_deadline", "updated"])
    commit.after_commit(match, None, [], seats=seats)


def judge_decide(match: Match, winner_seat: int, reason: str) -> Match:
    """A judge's decision (R 18.4): the only way a timed-out tournament game ends."""
    if isinstance(winner_seat, bool) or winner_seat not in range(match.seat_count):
        raise BadRequest("BAD_WINNER")
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.status not in (Match.ACTIVE, Match.NEEDS_JUDGE):
            raise Conflict("GAME_NOT_OPEN_FOR_JUDGE")
        commit.finish(match, Match.FINISHED, winner_seat, "judge", str(reason)[:200])
        state = _final_snapshot(match)
        match.save()
        commit.after_commit(match, state, [], finished=True)
    return match


def _final_snapshot(match):
    """A game that ends off the log (a concession, the clock, a judge) keeps its last
    position as the snapshot, so a finished game is read without a replay; the position,
    for the push. The engine state itself does not change: it is the one of `version`."""
    state = positions.current_state(match)
    if state is not None and match.snapshot_version != match.version:
        match.snapshot, match.snapshot_version = dump(state), match.version
    return state


def submit_default_move(match_id: int) -> str:
    """The clock ran out on the current decision: the default move, or the end of the game."""
    now = timezone.now()
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.status != Match.ACTIVE:
            return "gone"
        if match.game_deadline is not None and now >= match.game_deadline:
            commit.finish(match, Match.NEEDS_JUDGE, None, "", "game time is over (R 18.4)")
            state = _final_snapshot(match)
            match.save()
            commit.after_commit(match, state, [], finished=True)
            return "needs_judge"
        if match.decision_deadline is None or now < match.decision_deadline:
            return "not_due"
        seats = list(match.seats.order_by("seat"))
        if clocks.bank_empty(match, seats, now) and not _answer_over_days(match):
            return _out_of_time(match, seats, now)
        action = clocks.default_action(match.legal_ids)
        request = moves.store_request(
            match,
            match.deciding_seat,
            f"timeout:{match.version}",
            match.version,
            action,
            origin=ActionRequest.CLOCK,
        )
        return f"default:{request.action}"


def _answer_over_days(match) -> bool:
    """In a game over days, whether the decision that ran out is an answer inside another
    player's turn (or a setup decision, before the first turn): then its default move is
    made and the game goes on; only the turn player loses on time (docs/rulings.md "Games
    over days")."""
    if not clocks.over_days(match.time_control):
        return False
    state = positions.current_state(match)
    return state is None or state.turn < 1 or state.active != match.deciding_seat


def _out_of_time(match, seats, now) -> str:
    loser = match.deciding_seat
    clocks.charge(match, seats, loser, now)
    Seat.objects.bulk_update(seats, ["time_bank"])
    if match.multiplayer:  # the table goes on without them (docs/rulings.md)
        _stand_in(match, loser)
        return "stand_in"
    if match.casual:
        commit.finish(match, Match.FINISHED, 1 - loser, "timeout", f"seat {loser} ran out of time")
    else:  # R 18.4: a tournament game never ends on time; a judge decides
        commit.finish(match, Match.NEEDS_JUDGE, None, "", f"seat {loser} ran out of time (R 18.4)")
    state = _final_snapshot(match)
    match.save()
    commit.after_commit(match, state, [], finished=True)
    return match.status
