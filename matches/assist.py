"""Whether the site takes a person's forced decisions and offers combat suggestions (issue
34; engine/assist.py says what is forced and what to suggest, matches/services/bots.py
`take_forced` applies it, matches/selectors.py `match_payload` hands the suggestion out)."""

import os

from django.conf import settings

from engine.flow import Event

AUTO_PREFIX = "auto:"  # the client_action_id of a decision taken for a person (origin bot)


def assisting() -> bool:
    """On unless settings.KGK_ASSIST or the environment's KGK_ASSIST says off:
    bench/RESULTS.md measures the clicks of a game both ways."""
    value = getattr(settings, "KGK_ASSIST", None)
    if value is None:
        value = os.environ.get("KGK_ASSIST", "1").lower() not in ("0", "false", "off", "no")
    return bool(value)


def taken_note(seat: int, decision: str, marks: bool) -> Event:
    """The log's event before a decision taken for `seat` (its events follow it). `marks`:
    the next line in the log is that decision's own (e.g. "... passes"), which the page
    marks as taken automatically instead of adding a line of its own."""
    return Event("taken_for", {"player": seat, "decision": decision, "marks": marks})
