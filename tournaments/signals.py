"""The tournaments app's one signal: a set's result is confirmed (R 18.4, R 18.5).

Whatever records a result (results.py, a game on the site in online.py, a penalty in
penalties.py, a drop's concession in registration.py) announces it here and knows nothing
of what follows. What depends on a result is connected in apps.py: the playoff's next
sets (`playoff.advance_after_result`) and a Swiss draft paired on the old result
(`rounds.repair_after_result`). Receivers run at once, inside the caller's transaction.
"""

from django.dispatch import Signal

result_confirmed = Signal()
"""Sent with `match` (the tournament set just confirmed) and `staff` (who acted; None when
the result came from the games or from the players)."""


def announce_result(match, staff=None):
    """Tell what depends on results that `match` is confirmed."""
    result_confirmed.send(sender=type(match), match=match, staff=staff)


round_published = Signal()
"""A round's pairings were published (kwargs: round). Sent after the commit."""

result_to_confirm = Signal()
"""A player reported a set's result and the opponent must confirm it (kwargs: match: the
tournament set, reporter: the user who reported). Sent after the commit."""
