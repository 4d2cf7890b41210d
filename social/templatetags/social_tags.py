"""The player page's social part (templates/accounts/player.html): online state, Follow or
Unfollow, Block or Unblock, and Challenge (the lobby with the opponent filled in). An
inclusion tag, so accounts/views.py needs no import of this app."""

from urllib.parse import urlencode

from django import template
from django.urls import reverse

from .. import selectors

register = template.Library()


@register.inclusion_tag("social/_player_buttons.html", takes_context=True)
def social_buttons(context, person):
    """What the viewer may do about `person` (nothing on your own page, or logged out)."""
    request = context["request"]
    viewer = request.user
    mine = viewer.is_authenticated and viewer.pk == person.pk
    out = {
        "person": person,
        "online": person.pk in selectors.online_ids([person.pk]),
        "mine": mine,
        "logged_in": viewer.is_authenticated,
        "next": request.get_full_path(),
        "login_url": f"{reverse('login')}?{urlencode({'next': request.get_full_path()})}",
    }
    if viewer.is_authenticated and not mine:
        blocks, blocked_by = selectors.block_directions(viewer.pk, person.pk)
        out.update(
            follows=selectors.follows(viewer.pk, person.pk),
            blocks=blocks,
            blocked=blocks or blocked_by,  # either way: no challenge button
        )
    return out


@register.inclusion_tag("social/_online.html")
def online_dot(online):
    """The dot and the word: online or not (colour is never the only sign)."""
    return {"online": online}
