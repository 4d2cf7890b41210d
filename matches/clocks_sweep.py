"""The periodic clock task (beat, every second): timeouts, and a safety net for lost tasks.

A drain, bot move or default move lost with a dead worker is queued again here: those
tasks get no unacked record in the broker (cardgame/broker.py), because what they would
have done stays due in the database and the sweep finds it within seconds. Duplicates are
harmless (idempotence).
"""

from datetime import timedelta

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from . import queue
from .models import ActionRequest, Match, Seat

STUCK_AFTER = timedelta(seconds=5)


def sweep() -> dict:
    now = timezone.now()
    due = Match.objects.filter(status=Match.ACTIVE).filter(
        Q(decision_deadline__lte=now) | Q(game_deadline__lte=now)
    )
    due_ids = list(due.values_list("pk", flat=True)[:500])
    for match_id in due_ids:
        queue.send("default_move", match_id)
    stuck = (
        ActionRequest.objects.filter(status=ActionRequest.PENDING, created__lte=now - STUCK_AFTER)
        .values_list("match_id", flat=True)
        .distinct()[:500]
    )
    stuck_ids = list(stuck)
    for match_id in stuck_ids:
        queue.send("drain_match", match_id)
    bot_decides = Seat.objects.filter(match=OuterRef("pk"), seat=OuterRef("deciding_seat"))
    idle_bots = list(
        Match.objects.filter(status=Match.ACTIVE, updated__lte=now - STUCK_AFTER)
        .filter(Exists(bot_decides.exclude(bot="", stand_in="")))
        .values_list("pk", "version", "deciding_seat")[:500]
    )
    for match_id, version, _seat in idle_bots:
        queue.send("bot_move", match_id, version)
    return {"timeouts": due_ids, "drains": stuck_ids, "bots": [m for m, _v, _s in idle_bots]}
