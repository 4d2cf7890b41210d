"""Reads of quick play: how many wait in each queue, and a person's own state (the lobby's
section, its status poll and its socket send the same dict)."""

from datetime import timedelta

from django.conf import settings
from django.db.models import Count
from django.utils import timezone

from .models import QueueEntry


def ttl() -> float:
    """Seconds without a heartbeat after which an entry expires (setting QUICKPLAY_TTL): a
    crashed browser leaves no ghost for somebody to be matched with."""
    return float(settings.QUICKPLAY_TTL)


def wait_limit() -> float:
    """Seconds before a waiting person is offered a bot (setting QUICKPLAY_WAIT_LIMIT)."""
    return float(settings.QUICKPLAY_WAIT_LIMIT)


def fresh_waiting(now=None):
    """Waiting entries whose page sent a heartbeat within the TTL."""
    now = now or timezone.now()
    return QueueEntry.objects.filter(
        status=QueueEntry.WAITING, seen__gte=now - timedelta(seconds=ttl())
    )


def counts(now=None) -> list[dict]:
    """[{ruleset, time_control, rated, waiting}] of every queue somebody waits in."""
    rows = (
        fresh_waiting(now)
        .values("ruleset", "time_control", "rated")
        .annotate(waiting=Count("id"))
        .order_by("ruleset", "time_control", "rated")
    )
    return [dict(row) for row in rows]


def entry_state(entry: QueueEntry | None, now=None) -> dict | None:
    """A person's entry as the page shows it: waiting (place, seconds, whether the bot may
    be asked for) or ended (the game to go to)."""
    if entry is None:
        return None
    now = now or timezone.now()
    state = {
        "id": entry.pk,
        "status": entry.status,
        "ruleset": entry.ruleset,
        "time_control": entry.time_control,
        "rated": entry.rated,
        "bot_after_wait": entry.bot_after_wait,
        "match": entry.match_id,
    }
    if entry.waiting:
        waited = max(0.0, (now - entry.joined).total_seconds())
        ahead = fresh_waiting(now).filter(
            ruleset=entry.ruleset, time_control=entry.time_control, rated=entry.rated
        )
        state.update(
            waited=int(waited),
            place=ahead.filter(joined__lt=entry.joined).count() + 1,
            bot_ready=waited >= wait_limit(),
        )
    return state


def last_entry(user, entry_id=None) -> QueueEntry | None:
    """The person's entry `entry_id` (the one their page watches), else their newest."""
    if user is None or not user.is_authenticated:
        return None
    entries = QueueEntry.objects.filter(user=user)
    if entry_id is not None:
        return entries.filter(pk=entry_id).first()
    return entries.order_by("-joined", "-id").first()


def status(user, entry_id=None, now=None, known: QueueEntry | None = None) -> dict:
    """What the lobby's section shows: the counts, and the person's entry. `known`: the
    entry the heartbeat just advanced (waiting, or matched by it), shown without reading it
    again when it is the one asked for: `entry_id`, or none, since the waiting entry is the
    newest (a person joins again only after their waiting entry ended)."""
    now = now or timezone.now()
    if known is not None and entry_id in (None, known.pk):
        entry = known
    else:
        entry = last_entry(user, entry_id)
    return {
        "type": "status",
        "counts": counts(now),
        "entry": entry_state(entry, now),
        "wait_limit": int(wait_limit()),
    }
