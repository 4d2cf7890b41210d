"""Server-side clocks: named time controls, a time bank per player, an increment per turn and
a limit per decision (docs/matches-api.md "Clocks").

`TIME_CONTROLS` below is THE table of the time controls a game can be created with: a bank
for the whole game, an increment added to a player's bank when their turn starts (every
turn, the first one included: the engine's `turn` event names whose turn it is), and a
per-decision limit, a safety net for a player who walked away (past it the clock makes the
default move for them; it never ends a game by itself, only an empty bank does).

- `untimed` (the default against a bot): the person's clock never runs. No bank is charged,
  their decisions have no deadline, so `check_clocks` never finds them due and never makes
  a default move for them; a person who leaves simply leaves the game waiting (they may
  come back, or concede). The bot moves as before; its decisions keep the per-decision
  limit as a safety net (a lost bot move is made by the clock).
- the timed controls (between people): time spent on a decision comes off the decider's
  bank; a decision must be answered by `decision_started + min(decision_limit, bank)`; past
  that `check_clocks` makes the default move (pass, the engine's decline, ...) and, if the
  bank is empty, ends a casual game on time.
- the controls over days (`half_day`, `day`, `three_days`: 12 hours, 1 day, 3 days "a move"),
  for games between people who come back now and then. A move is a turn (R 11.1): when a
  turn starts every player's bank is set to the limit (`per_turn`), the turn player's for
  all the decisions of their turn, the others' for all their answers inside it (defence,
  responses); only the decider's bank runs. The turn player who lets theirs run out loses
  on time (a casual game); an answer inside another's turn that runs out is made for its
  player (the default move) and the game goes on (docs/rulings.md "Games over days").
- `tournament` (not offered in the lobby): the game's hour (`game_time_limit`, R 18.4) is the
  bank, no increment. A tournament game never ends on time: it goes to `needs_judge`
  (R 18.4), as it does when its hour is over.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext


@dataclass(frozen=True)
class TimeControl:
    name: str
    label: str  # a person's name for it (gettext, lazy)
    bank: int | None  # seconds for the whole game; None: untimed
    increment: int  # seconds added to a player's bank when their turn starts
    decision_limit: int  # seconds per decision before the default move (a safety net)
    # A game over days: the bank is set back to `bank` for every player when a turn starts
    # (no increment); `bank` is then the limit "a move" (a turn).
    per_turn: bool = False

    @property
    def timed(self) -> bool:
        return self.bank is not None

    def describe(self) -> str:
        """The time control in words, e.g. "standard (10 min + 15 s a turn)"."""
        if not self.timed or self.per_turn:
            return str(self.label)
        return _("%(name)s (%(bank)s + %(increment)s a turn)") % {
            "name": self.label,
            "bank": duration(self.bank),
            "increment": duration(self.increment),
        }


UNTIMED, RELAXED, STANDARD, QUICK = "untimed", "relaxed", "standard", "quick"
TOURNAMENT = "tournament"
HALF_DAY, DAY, THREE_DAYS = "half_day", "day", "three_days"
HOUR, DAY_SECONDS = 3600, 24 * 3600

# THE table. The arithmetic (docs/matches-api.md "Clocks"): the newcomer's game of issue 34
# had 142 clicks in 23 turns (12 of theirs); at 10 s a click that is 1420 s of thinking.
# relaxed gives 1200 + 12 x 30 = 1560 s: that game fits. standard gives 600 + 12 x 15 =
# 780 s: a game of ~60 clicks (the clicks goal of issue 34) at 10 s, or today's at ~5 s.
# quick (360 s) is for people who know the game (~3 s a click).
TIME_CONTROLS = {
    tc.name: tc
    for tc in (
        TimeControl(UNTIMED, _("untimed"), None, 0, 60),
        TimeControl(RELAXED, _("relaxed"), 20 * 60, 30, 180),
        TimeControl(STANDARD, _("standard"), 10 * 60, 15, 120),
        TimeControl(QUICK, _("quick"), 5 * 60, 5, 60),
        # Games over days: a limit per move (a turn), nothing per decision beyond it.
        TimeControl(HALF_DAY, _("12 hours a move"), 12 * HOUR, 0, 12 * HOUR, per_turn=True),
        TimeControl(DAY, _("1 day a move"), DAY_SECONDS, 0, DAY_SECONDS, per_turn=True),
        TimeControl(
            THREE_DAYS, _("3 days a move"), 3 * DAY_SECONDS, 0, 3 * DAY_SECONDS, per_turn=True
        ),
    )
}
BOT_DEFAULT = UNTIMED  # a game against a bot
PEOPLE_DEFAULT = STANDARD  # a game between people (a challenge, a table)
# what the lobby offers between people
PEOPLE_CHOICES = (RELAXED, STANDARD, QUICK, HALF_DAY, DAY, THREE_DAYS)

CASUAL_BANK = float(TIME_CONTROLS[PEOPLE_DEFAULT].bank)
CASUAL_DECISION_LIMIT = TIME_CONTROLS[PEOPLE_DEFAULT].decision_limit
TOURNAMENT_DECISION_LIMIT = 120
# The default move, in order of preference: the engine's "nothing" answers.
DEFAULT_KINDS = ("pass", "decline", "done", "hold_fire", "keep", "end_turn")


def duration(seconds: int) -> str:
    """20 min, 30 s, 1 min 30 s, in the active language."""
    minutes, rest = divmod(int(seconds), 60)
    parts = []
    if minutes:
        parts.append(ngettext("%(n)d min", "%(n)d min", minutes) % {"n": minutes})
    if rest or not minutes:
        parts.append(ngettext("%(n)d s", "%(n)d s", rest) % {"n": rest})
    return " ".join(parts)


def long_duration(seconds: float) -> str:
    """A time left counted in days, hours or minutes, the two largest units: "2 days 3
    hours", "5 hours 20 min", "12 min"; "under a minute" below one."""
    total = max(0, int(seconds))
    days, rest = divmod(total, DAY_SECONDS)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // 60
    parts = []
    if days:
        parts.append(ngettext("%(n)d day", "%(n)d days", days) % {"n": days})
    if hours and len(parts) < 2:
        parts.append(ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours})
    if minutes and not days:
        parts.append(ngettext("%(n)d min", "%(n)d min", minutes) % {"n": minutes})
    return " ".join(parts) if parts else str(_("under a minute"))


def time_left(deadline, now) -> str:
    """ "2 days 3 hours left" until `deadline`; "no time limit" without one."""
    if deadline is None:
        return str(_("no time limit"))
    return str(_("%(time)s left")) % {"time": long_duration((deadline - now).total_seconds())}


def choices(names=PEOPLE_CHOICES) -> list[tuple[str, str]]:
    """(name, "standard (10 min + 15 s a turn)") for a form's options."""
    return [(name, TIME_CONTROLS[name].describe()) for name in names]


def control(name: str) -> TimeControl | None:
    """The time control of a match's stored name ("" for a game made before them: timed,
    the old casual clock without increment; `tournament`: R 18.4)."""
    return TIME_CONTROLS.get(name)


def is_untimed(match) -> bool:
    return match.time_control == UNTIMED


def over_days(time_control: str) -> bool:
    """A game over days: its limit is per move (a turn), reset when a turn starts."""
    found = control(time_control)
    return found is not None and found.per_turn


def describe(match) -> str:
    """What the lobby and the table say about a match's clock."""
    found = control(match.time_control)
    if found is not None:
        return found.describe()
    if match.time_control == TOURNAMENT or match.game_time_limit:
        return str(_("tournament (%(bank)s a game, then a judge decides)")) % {
            "bank": duration(match.game_time_limit or 3600)
        }
    return str(_("%(bank)s a game") % {"bank": duration(initial_bank(None))})


def default_action(legal_ids: list[str]) -> str | None:
    """The move made for a player whose decision timed out (first legal one if no 'nothing')."""
    for kind in DEFAULT_KINDS:
        if kind in legal_ids:
            return kind
    return legal_ids[0] if legal_ids else None


def initial_bank(game_time_limit: int | None, time_control: str = "") -> float:
    """A seat's bank at the start. MATCHES_CASUAL_BANK (a setting) overrides the bank of every
    timed casual control, e.g. for a quick test; an untimed game's bank stays 0 (unused)."""
    if game_time_limit:
        return float(game_time_limit)
    found = control(time_control)
    if found is not None and not found.timed:
        return 0.0
    override = getattr(settings, "MATCHES_CASUAL_BANK", None)
    if override is not None:
        return float(override)
    return float(found.bank if found is not None else CASUAL_BANK)


def increment(time_control: str) -> int:
    """Seconds added per turn; MATCHES_CASUAL_INCREMENT (a setting) overrides it for tests."""
    found = control(time_control)
    if found is None or not found.timed:
        return 0
    override = getattr(settings, "MATCHES_CASUAL_INCREMENT", None)
    return int(found.increment if override is None else override)


def decision_limit(casual: bool, time_control: str = "") -> int:
    """MATCHES_CASUAL_DECISION_LIMIT (a setting) overrides the casual limit, as above."""
    if not casual:
        return TOURNAMENT_DECISION_LIMIT
    found = control(time_control)
    if found is not None and not found.timed:
        return found.decision_limit  # the bot's safety net only: a person has none
    override = getattr(settings, "MATCHES_CASUAL_DECISION_LIMIT", None)
    if override is not None:
        return int(override)
    return found.decision_limit if found is not None else CASUAL_DECISION_LIMIT


def add_increment(match, seats, events) -> None:
    """A player's turn started (the engine's `turn` event): their bank gets the increment;
    in a game over days every player's bank is set back to the limit of a move instead."""
    if over_days(match.time_control):
        if any(event.kind == "turn" for event in events):
            for seat in seats:
                seat.time_bank = initial_bank(None, match.time_control)
        return
    extra = increment(match.time_control)
    if not extra:
        return
    for event in events:
        if event.kind == "turn":
            seat = seats[event.data["player"]]
            seat.time_bank += extra


def charge(match, seats, seat_no, now) -> None:
    """Take the time spent on the decision that just ended off its decider's bank."""
    if match.decision_started is None or seat_no is None or is_untimed(match):
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
    match.decision_started = now
    if is_untimed(match):
        # A person's decision in an untimed game has no deadline: the game waits for them.
        # A bot's keeps the limit, a safety net for a lost bot move.
        if seat.playing_bot:
            match.decision_deadline = now + timedelta(seconds=match.decision_limit)
        else:
            match.decision_deadline = None
        return
    # A bot standing in for a player who left a table (services._stand_in) is not charged
    # to their empty bank: it gets the decision limit, as a safety net only.
    bank = match.decision_limit if getattr(seat, "stand_in", "") else seat.time_bank
    match.decision_deadline = now + timedelta(seconds=min(match.decision_limit, bank))


def bank_empty(match, seats, now) -> bool:
    if is_untimed(match):
        return False
    seat = seats[match.deciding_seat]
    if getattr(seat, "stand_in", ""):
        return False
    return seat.time_bank - (now - match.decision_started).total_seconds() <= 0.001
