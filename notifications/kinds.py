"""THE table of notification kinds and channels, and each person's defaults (issue 37).

Pure data: the models, the settings form, the service and the pages read it from here."""

from django.utils.translation import gettext_lazy as _

SITE, EMAIL, WEBHOOK = "site", "email", "webhook"
CHANNELS = (SITE, EMAIL, WEBHOOK)
CHANNEL_LABELS = {
    SITE: _("On the site (the bell)"),
    EMAIL: _("E-mail"),
    WEBHOOK: _("Webhook"),
}

YOUR_TURN = "your_turn"
CHALLENGE = "challenge"
FRIEND_TABLE = "friend_table"
ROUND_PUBLISHED = "round_published"
RESULT_TO_CONFIRM = "result_to_confirm"
DECKLIST_DEADLINE = "decklist_deadline"
KINDS = (YOUR_TURN, CHALLENGE, FRIEND_TABLE, ROUND_PUBLISHED, RESULT_TO_CONFIRM, DECKLIST_DEADLINE)
KIND_LABELS = {
    YOUR_TURN: _("Your turn in a game over days"),
    CHALLENGE: _("A challenge to you"),
    FRIEND_TABLE: _("A player you follow opened a table"),
    ROUND_PUBLISHED: _("A tournament round is published"),
    RESULT_TO_CONFIRM: _("A result for you to confirm"),
    DECKLIST_DEADLINE: _("A decklist deadline is near"),
}

# The site's bell gets every kind; e-mail the ones that need an answer; the webhook none
# until the person gives its URL and ticks its column.
DEFAULT_CHANNELS = {
    YOUR_TURN: [SITE, EMAIL],
    CHALLENGE: [SITE, EMAIL],
    FRIEND_TABLE: [SITE],
    ROUND_PUBLISHED: [SITE, EMAIL],
    RESULT_TO_CONFIRM: [SITE, EMAIL],
    DECKLIST_DEADLINE: [SITE, EMAIL],
}


def default_channels() -> dict:
    """A fresh copy of the defaults (a JSONField's default must be a callable)."""
    return {kind: list(channels) for kind, channels in DEFAULT_CHANNELS.items()}
