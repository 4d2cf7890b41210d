"""The notifications' receivers: the signals of matches and tournaments (sent after their
commits), and the login that tells a person's language. Connected in
NotificationsConfig.ready(). A notification that fails is logged and never fails the game,
the request or the worker that sent the signal."""

import functools
import logging

from cardgame.language import current_language
from cardgame.task_queue import run_task

from . import services, sources, tasks

log = logging.getLogger(__name__)


def quietly(receiver):
    @functools.wraps(receiver)
    def wrapper(*args, **kwargs):
        try:
            receiver(*args, **kwargs)
        except Exception:
            log.exception("notification receiver %s failed", receiver.__name__)

    return wrapper


@quietly
def on_challenge_sent(sender, match, challenger, challenged, **kwargs):
    sources.challenge_sent(match, challenger, challenged)


@quietly
def on_table_opened(sender, match, owner, **kwargs):
    # a player with many followers is many notifications: a task, not the opening request
    run_task(tasks.announce_table.name, match.pk, owner.pk)


@quietly
def on_turn_waiting(sender, match, user, deadline=None, **kwargs):
    sources.turn_waiting(match, user, deadline)


@quietly
def on_round_published(sender, round, **kwargs):
    # a big event's round is thousands of notifications: a task, not the publishing request
    run_task(tasks.announce_round.name, round.pk)


@quietly
def on_result_to_confirm(sender, match, reporter, **kwargs):
    sources.result_to_confirm(match, reporter)


@quietly
def on_login(sender, request, user, **kwargs):
    services.remember_language(user, current_language())
