"""A person's notification settings and the notifications themselves (issue 37)."""

from django.conf import settings
from django.db import models

from .kinds import CHANNELS, EMAIL, KINDS, WEBHOOK, default_channels


class NotificationSettings(models.Model):
    """What a person wants to hear about, where, and in which language.

    `channels` maps each kind to the channels chosen for it ({"challenge": ["site",
    "email"], ...}); a kind missing from it gets the defaults (notifications/kinds.py).
    `language` is the person's: saved with these settings and at every login, from the
    request's language, so an e-mail sent by a worker at night reads as their pages do.
    `email_unsubscribed`: the e-mail's one unsubscribe link was followed; no e-mail at all
    until the person ticks e-mail again on the settings page."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings"
    )
    channels = models.JSONField(default=default_channels)
    language = models.CharField(max_length=8, choices=settings.LANGUAGES, default="hu")
    webhook_url = models.URLField(max_length=500, blank=True)
    email_unsubscribed = models.BooleanField(default=False)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"notification settings of {self.user_id}"

    def chosen(self, kind: str) -> list[str]:
        """The channels ticked for `kind` (known channels only, in the table's order)."""
        ticked = self.channels.get(kind, default_channels().get(kind, []))
        return [channel for channel in CHANNELS if channel in ticked]

    def delivered_by(self, kind: str, email_address: str) -> list[str]:
        """The channels a notification of `kind` goes to now: those ticked, less e-mail when
        unsubscribed or without an address, less the webhook without a URL."""
        out = []
        for channel in self.chosen(kind):
            if channel == EMAIL and (self.email_unsubscribed or not email_address):
                continue
            if channel == WEBHOOK and not self.webhook_url:
                continue
            out.append(channel)
        return out


class Notification(models.Model):
    """One thing that happened for one person. `context` holds plain values (names,
    numbers, ids) and the sentence is rendered from it in the reader's language
    (notifications/messages.py), so the bell reads in the page's language and the e-mail
    in the person's. `on_site`: listed under the bell; `pending`: the channels a worker
    still has to deliver (e-mail, webhook). `key`, when given, makes it once per person
    (e.g. one decklist warning per event)."""

    KIND_CHOICES = [(kind, kind) for kind in KINDS]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=24, choices=KIND_CHOICES)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    context = models.JSONField(default=dict)
    url = models.CharField(max_length=300, blank=True)
    key = models.CharField(max_length=80, blank=True)
    on_site = models.BooleanField(default=True)
    pending = models.JSONField(default=list)
    read_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            models.Index(
                fields=["user", "-created"],
                name="notification_bell",
                condition=models.Q(on_site=True),
            ),
            # the bell's count and "mark read" read only a person's unread rows: this index
            # holds just those, however many read ones the person keeps
            models.Index(
                fields=["user"],
                name="notification_unread",
                condition=models.Q(on_site=True, read_at__isnull=True),
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "key"], name="one_notification_per_key", condition=~models.Q(key="")
            )
        ]

    def __str__(self):
        return f"{self.kind} for {self.user_id}"
