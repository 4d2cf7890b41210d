"""THE entry to notifications: `notify(user, kind, ...)`, and the writes of a person's
settings (issue 37).

`notify` stores one Notification row (the bell's list) and, after the commit, pushes it to
the person's open pages and queues the Celery task that delivers the other channels
(e-mail, webhook): on a worker in production, so a slow SMTP or webhook server never slows
a request or a game's worker; in the embedded default (eager Celery, one process) right
after the commit, in the process that made the notification. The task is queued by its
registered name (`DELIVER_TASK`, cardgame/task_queue.py, shared with matches):
notifications/tasks.py imports the modules that call this one, so importing it here would
make a loop. In the embedded default a delivery that meets a busy database is dropped,
logged, rather than failing the request that committed the notification: its channels stay
in `pending`, and the bell has it already.
"""

import logging

from django.core import signing
from django.db import IntegrityError, transaction
from django.utils import timezone

from cardgame.task_queue import run_task
from social.selectors import blocked_between

from . import push
from .kinds import CHANNELS, EMAIL, KINDS, SITE
from .models import Notification, NotificationSettings

log = logging.getLogger(__name__)

DELIVER_TASK = "notifications.tasks.deliver"
UNSUBSCRIBE_SALT = "notifications.unsubscribe"


def settings_for(user) -> NotificationSettings:
    """The person's settings row, created with the defaults on first use."""
    prefs, _created = NotificationSettings.objects.get_or_create(user=user)
    return prefs


def notify(user, kind: str, *, actor=None, url: str = "", key: str = "", **context):
    """Tell `user` about `kind` on the channels they chose for it; the stored Notification,
    or None when nothing was sent: no channel chosen, `actor` and `user` block each other
    (either way: social.selectors.blocked_between), or `key` was used for this person
    already (once per event and person). `context` holds plain JSON values for the sentence
    (notifications/messages.py); `url` is the page the notification leads to."""
    if kind not in KINDS:
        raise ValueError(f"unknown notification kind {kind!r}")
    if user is None or not user.is_active:
        return None
    if actor is not None and blocked_between(user.pk, actor.pk):
        return None
    prefs = settings_for(user)
    channels = prefs.delivered_by(kind, user.email)
    if not channels:
        return None
    try:
        with transaction.atomic():
            notification = Notification.objects.create(
                user=user,
                kind=kind,
                actor=actor,
                context=context,
                url=url,
                key=key,
                on_site=SITE in channels,
                pending=[channel for channel in channels if channel != SITE],
            )
    except IntegrityError:
        if key and Notification.objects.filter(user=user, key=key).exists():
            return None  # this person was told already
        raise
    transaction.on_commit(lambda: _after_commit(notification, prefs.language))
    return notification


def _after_commit(notification: Notification, language: str) -> None:
    if notification.on_site:
        push.push_new(notification, language)
    if notification.pending:
        run_task(DELIVER_TASK, notification.pk)


def bell(user, limit: int = 8) -> list[Notification]:
    """The newest notifications under the person's bell."""
    return list(Notification.objects.filter(user=user, on_site=True)[:limit])


def mark_read(user, notification_id: int | None = None) -> int:
    """Mark one of the person's notifications read (or all of them, without an id); how
    many changed. Their open pages get the new unread count."""
    rows = Notification.objects.filter(user=user, on_site=True, read_at=None)
    if notification_id is not None:
        rows = rows.filter(pk=notification_id)
    changed = rows.update(read_at=timezone.now())
    if changed:
        transaction.on_commit(lambda: push.push_unread(user.pk))
    return changed


def save_settings(user, *, channels: dict, webhook_url: str, language: str) -> NotificationSettings:
    """The settings page's save: the matrix ({kind: [channel, ...]}; unknown names are
    dropped), the webhook URL (checked by the form, notifications/forms.py) and the page's
    language. Ticking e-mail for any kind undoes an earlier unsubscribe."""
    prefs = settings_for(user)
    prefs.channels = {
        kind: [channel for channel in CHANNELS if channel in channels.get(kind, ())]
        for kind in KINDS
    }
    prefs.webhook_url = webhook_url
    prefs.language = language
    if any(EMAIL in chosen for chosen in prefs.channels.values()):
        prefs.email_unsubscribed = False
    prefs.save()
    return prefs


def remember_language(user, language: str) -> None:
    """The person's language, as their last login's request had it."""
    prefs = settings_for(user)
    if prefs.language != language:
        prefs.language = language
        prefs.save(update_fields=["language", "updated"])


def unsubscribe_token(user) -> str:
    """The signed token of a person's unsubscribe link (no expiry: an old e-mail's link
    must still work)."""
    return signing.dumps(user.pk, salt=UNSUBSCRIBE_SALT)


def user_id_of_token(token: str) -> int | None:
    """The person an unsubscribe token was made for; None when it is not one of ours."""
    try:
        value = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return value if isinstance(value, int) else None


def unsubscribe(user_id: int) -> bool:
    """No more e-mail for this person, of any kind; True if anything changed."""
    prefs, _created = NotificationSettings.objects.get_or_create(user_id=user_id)
    if prefs.email_unsubscribed:
        return False
    prefs.email_unsubscribed = True
    prefs.save(update_fields=["email_unsubscribed", "updated"])
    return True
