"""Delivering a stored notification on the channels other than the bell: e-mail and the
webhook, in the person's language. Runs in the Celery task (notifications/tasks.py), never
in the request or the game's worker that made the notification."""

import logging

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from . import webhooks
from .messages import sentence, title
from .models import Notification, NotificationSettings
from .push import in_language
from .services import unsubscribe_token

log = logging.getLogger(__name__)


def absolute(path: str) -> str:
    """A link on the site for a message read outside it (settings.SITE_URL)."""
    if not path or "://" in path:
        return path
    return f"{settings.SITE_URL}{path}"


def email_message(notification: Notification, prefs: NotificationSettings) -> EmailMessage:
    """The e-mail, in the person's language, with the one unsubscribe link (also as the
    List-Unsubscribe header, one-click: a POST to it unsubscribes, RFC 8058) and the link
    to the settings."""
    user = notification.user
    with translation.override(prefs.language):
        unsubscribe = absolute(reverse("notifications:unsubscribe", args=[unsubscribe_token(user)]))
        subject = f"KGK: {title(notification.kind)}"
        body = render_to_string(
            "notifications/email.txt",
            {
                "name": user.get_username(),
                "text": sentence(notification.kind, notification.context),
                "link": absolute(in_language(notification.url, prefs.language)),
                "settings_link": absolute(reverse("notifications:settings")),
                "unsubscribe_link": unsubscribe,
            },
        )
    return EmailMessage(
        subject,
        body,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Content-Language": prefs.language,
        },
    )


def webhook_text(notification: Notification, prefs: NotificationSettings) -> str:
    with translation.override(prefs.language):
        text = (
            f"**{title(notification.kind)}**: {sentence(notification.kind, notification.context)}"
        )
    link = absolute(in_language(notification.url, prefs.language))
    return f"{text}\n{link}" if link else text


def deliver(notification: Notification, channel: str) -> bool:
    """Send one channel; True when delivered or no longer wanted (the person unsubscribed
    or took the URL away meanwhile: that is done, not failed)."""
    prefs = NotificationSettings.objects.get(user_id=notification.user_id)
    if channel not in prefs.delivered_by(notification.kind, notification.user.email):
        return True
    if channel == "email":
        email_message(notification, prefs).send()
        return True
    if channel == "webhook":
        try:
            return webhooks.post(prefs.webhook_url, webhook_text(notification, prefs))
        except webhooks.WebhookRefused:
            log.warning("webhook of user %s refused at delivery", notification.user_id)
            return True
    raise ValueError(f"not a delivered channel: {channel!r}")
