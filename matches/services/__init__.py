"""Writes of the matches app: creating games, taking actions, the drain that applies them.

The web tier only stores an `ActionRequest` and queues `drain_match` after commit (or, for a
socket's move, queues `drain_move`, which stores it in the drain's first round trip); the
drain (in a worker) locks the match row, applies every pending request in order through
the engine and writes the version, events and the next decision in ONE transaction (the
engine state itself only every few versions: matches/positions.py).
Unique client action ids and the lock make Celery's at-least-once delivery exactly-once.

By responsibility, each module importing only those below it:
- games.py, tables.py: creating and starting games (deck -> colony: matches/colonies.py);
- moves.py: what the web stores (a player's action request, its checks);
- draining.py: what the worker applies (the drain, a socket's move stored by it);
- bots.py: the server's own moves (bots, decisions taken for a person);
- endings.py: a concession, the clock, a judge;
- commit.py: a position applied and committed, and what follows the commit;
- sql.py: the SQL the drain needs (the locked read, one-statement writes).
Other apps import the names below from `matches.services`.
"""

from ..colonies import COLONY_SIZE, colony_defs, deck_colony, engine_ruleset
from ..errors import BadRequest, Conflict, Forbidden, MatchError, NotFound, Unprocessable
from .bots import (
    BOT_BATCH_DECISIONS,
    BOT_BATCH_SECONDS,
    MAX_FORCED,
    bot_explanation,
    play_bot_game,
    play_bot_move,
    take_forced,
)
from .draining import drain, drain_move
from .endings import concede, judge_decide, submit_default_move
from .games import (
    accept,
    cancel,
    challenge,
    check_bot,
    check_time_control,
    create_match,
    decline,
)
from .moves import (
    CLIENT_ID_PATTERN,
    MAX_ACTION,
    MAX_CLIENT_ID,
    SocketMove,
    store_move,
    submit_action,
)
from .sql import POSITION_FIELDS, REQUEST_FIELDS, SNAPSHOT_FIELDS, WriteBatch
from .tables import TABLE_BOT, join_table, leave_table, open_table, start_table

__all__ = [
    "BOT_BATCH_DECISIONS", "BOT_BATCH_SECONDS", "CLIENT_ID_PATTERN", "COLONY_SIZE", "MAX_ACTION",
    "MAX_CLIENT_ID", "MAX_FORCED", "POSITION_FIELDS", "REQUEST_FIELDS", "SNAPSHOT_FIELDS",
    "TABLE_BOT", "BadRequest", "Conflict", "Forbidden", "MatchError", "NotFound", "SocketMove",
    "Unprocessable", "WriteBatch", "accept", "bot_explanation", "cancel", "challenge", "check_bot",
    "check_time_control", "colony_defs", "concede", "create_match", "deck_colony", "decline",
    "drain", "drain_move", "engine_ruleset", "join_table", "judge_decide", "leave_table",
    "open_table", "play_bot_game", "play_bot_move", "start_table", "store_move",
    "submit_action", "submit_default_move", "take_forced",
]  # fmt: skip
