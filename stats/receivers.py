"""The stats app's receivers: a finished game reaches the statistics through
`matches.signals.match_finished` (sent after the commit that finished it)."""

import logging

from .recording import record_decklist
from .tasks import record_game

log = logging.getLogger(__name__)


def queue_record_game(sender, match, **kwargs):
    """Queue the game's figures (a worker adds them once, recording.record_game).
    Statistics never stop a game from ending: a failure is logged, and the next
    `rebuild_stats` counts the game."""
    try:
        record_game.delay(match.pk)
    except Exception:
        log.exception("stats of match %s not queued", match.pk)


def keep_decklist_race(sender, instance, raw=False, **kwargs):
    """`post_save` of a tournament Registration: its list's race, for the metagame."""
    if not raw:
        record_decklist(instance)
