"""The matching rule, pure (no Django, no clock): whom a waiting person is matched with, and
which bot they get after the wait (docs/quickplay.md says the same in words).

Everyone has a skill: their rating's display number in the current season
(ratings.selectors.skill_for; a person never rated has ratings.skill.DEFAULT_NUMBER).

1. Never themselves, never someone either of them blocks (social.selectors.blocked_ids),
   only within the same queue (ruleset, time control, rated: the caller's query).
2. A thin queue matches at once: while fewer than `pool` others wait, the closest skill
   among them is the partner, however far (two people waiting always play).
3. With enough people (`pool` or more others waiting) the partner must be within the
   window: |skill a - skill b| <= base + growth x (the longer wait of the two, in seconds).
   The window widens as people wait, so nobody waits for ever for an exact equal.
4. Among those allowed: the closest skill; on a tie, whoever has waited longest.
"""

from collections.abc import Iterable
from dataclasses import dataclass

# The window's defaults (settings QUICKPLAY_POOL, QUICKPLAY_WINDOW_BASE, ..._GROWTH): 100
# display points at once, 10 more a second, so 700 points (scout to destroyer) after a
# minute, when the bot is offered anyway.
POOL = 4
WINDOW_BASE = 100.0
WINDOW_GROWTH = 10.0


@dataclass(frozen=True)
class Waiting:
    """One waiting entry as the rule sees it."""

    entry_id: int
    user_id: int
    skill: float
    waited: float  # seconds since joining


def window(a: Waiting, b: Waiting, base: float = WINDOW_BASE, growth: float = WINDOW_GROWTH):
    """The largest skill gap allowed between a and b now (rule 3)."""
    return base + growth * max(a.waited, b.waited, 0.0)


def choose_partner(
    me: Waiting,
    others: Iterable[Waiting],
    blocked: set[int],
    *,
    pool: int = POOL,
    base: float = WINDOW_BASE,
    growth: float = WINDOW_GROWTH,
) -> Waiting | None:
    """`me`'s partner among `others` (rules 1-4), or None: keep waiting."""
    allowed = [o for o in others if o.user_id != me.user_id and o.user_id not in blocked]
    if len(allowed) >= pool:
        allowed = [o for o in allowed if gap(me, o) <= window(me, o, base, growth)]
    if not allowed:
        return None
    return min(allowed, key=lambda o: (gap(me, o), -o.waited, o.entry_id))


def gap(a: Waiting, b: Waiting) -> float:
    return abs(a.skill - b.skill)


# The bot offered after the wait, by the person's level (ratings/skill.py LEVELS, on the
# display number): the bots' measured strength order is heuristic ~ thinking easy <
# thinking normal <= thinking hard (bench/RESULTS.md, issue 18). A newcomer (1100, a
# scout) gets the fast heuristic bot; a flagship the hardest.
BOT_FOR_LEVEL = {
    "scout": "heuristic",
    "fighter": "search-easy",
    "cruiser": "search-normal",
    "destroyer": "search-hard",
    "flagship": "search-hard",
}
