"""The notifications' Celery tasks: ids in, nothing out (HackSoft). Eager in the embedded
default; on a worker in production."""

import logging

from celery import shared_task
from django.db import transaction

from . import delivery, sources
from .models import Notification

log = logging.getLogger(__name__)


@shared_task(bind=True, ignore_result=True, acks_late=True, max_retries=5)
def deliver(self, notification_id: int) -> None:
    """Deliver a notification's pending channels (e-mail, webhook). Each channel is taken
    off `pending` as soon as it went, so a retry after a failure sends only what failed."""
    notification = Notification.objects.select_related("user").filter(pk=notification_id).first()
    if notification is None:
        return
    failed = []
    for channel in list(notification.pending):
        try:
            sent = delivery.deliver(notification, channel)
        except Exception:  # an SMTP server down, a webhook timing out: retried below
            log.warning("%s of notification %s failed", channel, notification_id, exc_info=True)
            sent = False
        if not sent:
            failed.append(channel)
            continue
        with transaction.atomic():
            row = Notification.objects.select_for_update().get(pk=notification_id)
            row.pending = [c for c in row.pending if c != channel]
            row.save(update_fields=["pending"])
    if failed and not self.request.is_eager:
        raise self.retry(countdown=60 * 2**self.request.retries)


@shared_task(ignore_result=True, acks_late=True)
def announce_table(match_id: int, owner_id: int) -> None:
    """Each follower of a player who opened a table or an open challenge hears of it."""
    sources.table_opened(match_id, owner_id)


@shared_task(ignore_result=True, acks_late=True)
def announce_round(round_id: int) -> None:
    """Each player of a published round hears of their table and opponent."""
    sources.round_published(round_id)


@shared_task(ignore_result=True)
def warn_decklist_deadlines() -> None:
    """The beat's periodic sweep (cardgame/settings.py; notifications/embedded_beat.py in
    the embedded default): warnings for deadlines within the next 24 h, once each."""
    sources.decklist_deadlines()
