"""The matches app's signals: what happened to a game, for the apps above it (tournaments,
statistics, ratings, notifications, quick play), which matches knows nothing of.

Each is sent after the commit that made it true (`transaction.on_commit`), in whichever
process made it: a worker, or the web process in the embedded default.
"""

from django.dispatch import Signal

match_finished = Signal()
"""A match has ended (kwargs: match)."""

challenge_sent = Signal()
"""A person was challenged by name (kwargs: match, challenger, challenged: users)."""

table_opened = Signal()
"""An open challenge or a multiplayer table is waiting for players (kwargs: match, owner)."""

turn_waiting = Signal()
"""A person's decision is awaited in a game whose time control is counted in hours or days
(a game over days; kwargs: match, user, deadline). Sent once per turn of theirs, not per
decision, when the turn starts (matches/services/commit.py `announce_turns`); never for a
bot's turn. `deadline`: the earliest the turn can run out (docs/rulings.md "Games over
days")."""
