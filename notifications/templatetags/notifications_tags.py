"""The notifications' template tags: the bell in the top bar (templates/base.html) and the
settings link on the player's own page (templates/accounts/player.html)."""

from django import template
from django.urls import reverse

from .. import services
from ..messages import sentence, title
from ..push import item, unread_count

register = template.Library()

BELL_ITEMS = 6


@register.inclusion_tag("notifications/_bell.html", takes_context=True)
def notification_bell(context):
    """The bell with its unread count and the newest notifications, for a logged-in person
    (nothing for anybody else)."""
    user = context["request"].user
    if not user.is_authenticated:
        return {"show": False}
    items = []
    for notification in services.bell(user, BELL_ITEMS):
        shown = item(notification)
        shown["go"] = reverse("notifications:go", args=[notification.pk])
        items.append(shown)
    return {"show": True, "items": items, "unread": unread_count(user.pk)}


@register.inclusion_tag("notifications/_settings_link.html", takes_context=True)
def notification_settings_link(context, person):
    """On the player's own page: where to choose what they hear about."""
    user = context["request"].user
    return {"show": user.is_authenticated and user.pk == person.pk}


@register.filter
def notification_title(notification) -> str:
    return title(notification.kind)


@register.filter
def notification_text(notification) -> str:
    """The notification's sentence in the page's language."""
    return sentence(notification.kind, notification.context)
