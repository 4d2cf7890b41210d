"""The ratings app's receivers: a finished game reaches the ratings through
`matches.signals.match_finished` (sent after the commit that finished it)."""

import logging

from .tasks import rate_match

log = logging.getLogger(__name__)


def queue_rate_match(sender, match, **kwargs):
    """Queue a rated game's ratings (a worker updates them once, services.rate_match).
    Ratings never stop a game from ending: a failure is logged."""
    if not match.rated:
        return
    try:
        rate_match.delay(match.pk)
    except Exception:
        log.exception("ratings of match %s not queued", match.pk)
