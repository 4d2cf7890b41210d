"""The settings page's form: the matrix kinds x channels and the webhook URL."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import webhooks
from .kinds import CHANNEL_LABELS, CHANNELS, KIND_LABELS, KINDS, WEBHOOK
from .models import NotificationSettings


def field_name(kind: str, channel: str) -> str:
    return f"{kind}__{channel}"


class SettingsForm(forms.Form):
    webhook_url = forms.CharField(
        label=gettext_lazy("Webhook URL"),
        required=False,
        max_length=webhooks.MAX_URL,
        help_text=gettext_lazy(
            "A Discord channel's webhook (https://discord.com/api/webhooks/...) or any "
            'server that takes a JSON body {"content": "..."}.'
        ),
    )

    def __init__(self, *args, prefs: NotificationSettings, **kwargs):
        kwargs.setdefault(
            "initial",
            {
                "webhook_url": prefs.webhook_url,
                **{
                    field_name(kind, channel): channel in prefs.chosen(kind)
                    for kind in KINDS
                    for channel in CHANNELS
                },
            },
        )
        super().__init__(*args, **kwargs)
        for kind in KINDS:
            for channel in CHANNELS:
                self.fields[field_name(kind, channel)] = forms.BooleanField(
                    required=False, label=f"{KIND_LABELS[kind]}: {CHANNEL_LABELS[channel]}"
                )

    def rows(self):
        """The matrix for the template: [(kind label, [bound field per channel])]."""
        return [
            (KIND_LABELS[kind], [self[field_name(kind, channel)] for channel in CHANNELS])
            for kind in KINDS
        ]

    def channels(self) -> dict:
        return {
            kind: [c for c in CHANNELS if self.cleaned_data.get(field_name(kind, c))]
            for kind in KINDS
        }

    def clean_webhook_url(self):
        url = self.cleaned_data["webhook_url"].strip()
        if not url:
            return ""
        try:
            return webhooks.check_url(url)
        except webhooks.WebhookRefused as refused:
            raise forms.ValidationError(str(refused)) from None

    def clean(self):
        data = super().clean()
        wants_webhook = any(data.get(field_name(kind, WEBHOOK)) for kind in KINDS)
        if wants_webhook and not data.get("webhook_url") and "webhook_url" not in self.errors:
            self.add_error(
                "webhook_url",
                _("Give the webhook's URL to send notifications there, or untick its column."),
            )
        return data
