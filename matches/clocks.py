"""Server-side clocks: a time bank per player and a limit per decision (docs/matches-api.md).

Time spent on a decision comes off the decider's bank. A decision must be answered by
`decision_started + min(decision_limit, bank)`; past that the periodic `check_clocks` task
makes the default move (pass, the engine's decline, ...) and, if the bank is empty, ends a
casual game on time. A tournament game never ends on time: it goes to `needs_judge`
(R 18.4), as it does when its hour (`game_time_limit`) is over.
"""

from datetime import timedelta

from django.conf import settings

CASUAL_BANK = 600.0  # seconds per player for a whole casual game
CASUAL_DECISION_LIMIT = 60  # seconds per decision before the default move
TOURNAMENT_DECISION_LIMIT = 120
# The default move, in order of preference: the engine's "nothing" answers.
DEFAULT_KINDS = ("pass", "decline", "done", "hold_fire", "keep", "end_turn")


def default_action(legal_ids: list[str]) -> str | None:
    """The move made for a player whose decision timed out (first legal one if no 'nothing')."""
    for kind in DEFAULT_KINDS:
        if kind in legal_ids:
            return kind
    return legal_ids[0] if legal_ids else None


def initial_bank(game_time_limit: int | None) -> float:
    """MATCHES_CASUAL_BANK (a setting) shortens casual games, e.g. for a quick test."""
    if game_time_limit:
        return float(game_time_limit)
    return float(getattr(settings, "MATCHES_CASUAL_BANK", CASUAL_BANK))


def decision_limit(casual: bool) -> int:
    """MATCHES_CASUAL_DECISION_LIMIT (a setting) overrides the casual limit, as above."""
    if not casual:
        return TOURNAMENT_DECISION_LIMIT
    return int(getattr(settings, "MATCHES_CASUAL_DECISION_LIMIT", CASUAL_DECISION_LIMIT))


def charge(match, seats, seat_no, now) -> None:
    """Take the time spent on the decision that just ended off its decider's bank."""
    if match.decision_started is None or seat_no is None:
        return
    spent = (now - match.decision_started).total_seconds()
    seat = seats[seat_no]
    seat.time_bank = max(0.0, seat.time_bank - max(0.0, spent))


def arm(match, seats, now) -> None:
    """Start the clock of the decision now pending (or stop it when nobody decides)."""
    if match.deciding_seat is None or match.status != match.ACTIVE:
        match.decision_started = match.decision_deadline = None
        return
    seat = seats[match.deciding_seat]
    # A bot standing in for a player who left a table (services._stand_in) is not charged
    # to their empty bank: it gets the decision limit, as a safety net only.
    bank = match.decision_limit if getattr(seat, "stand_in", "") else seat.time_bank
    match.decision_started = now
    match.decision_deadline = now + timedelta(seconds=min(match.decision_limit, bank))


def bank_empty(match, seats, now) -> bool:
    seat = seats[match.deciding_seat]
    if getattr(seat, "stand_in", ""):
        return False
    return seat.time_bank - (now - match.decision_started).total_seconds() <= 0.001
