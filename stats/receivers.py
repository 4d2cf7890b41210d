"""The stats app's receivers: a finished game reaches the statistics through
`matches.signals.match_finished` (sent after the commit that finished it); a finished
event through its Tournament row saved with the status `finished` (tournaments/playoff.py
sets it when the last set is confirmed or the organiser ends the Swiss rounds)."""

import logging

from django.db import transaction

from tournaments.models import Tournament

from .recording import record_decklist
from .tasks import event_finished, record_game

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


def queue_event_report(sender, instance, raw=False, update_fields=None, **kwargs):
    """`post_save` of a Tournament whose status was saved as finished: after the commit,
    queue its archetypes' refresh and its report (tasks.event_finished)."""
    if raw or instance.status != Tournament.FINISHED:
        return
    if update_fields is not None and "status" not in update_fields:
        return
    pk = instance.pk
    transaction.on_commit(lambda: _queue_event_finished(pk))


def _queue_event_finished(pk: int) -> None:
    try:
        event_finished.delay(pk)
    except Exception:
        log.exception("report of tournament %s not queued", pk)
