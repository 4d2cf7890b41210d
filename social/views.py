"""The friends page and the follow/block buttons (issue 37). Thin: the writes are
social.services, the reads social.selectors.

Each button is a POST form with CSRF that names the other person by user name and comes
back to the page it was pressed on (`next`, only a path of this site). Doing it twice is
harmless; an unknown person or yourself is a 4xx page with a sentence.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from . import presence, selectors, services

ACTIONS = {
    "follow": services.follow,
    "unfollow": services.unfollow,
    "block": services.block,
    "unblock": services.unblock,
}


def _people(ids) -> dict:
    """{id: user} of the active users among `ids`, in one query."""
    users = get_user_model().objects.filter(pk__in=set(ids), is_active=True)
    return {u.pk: u for u in users}


@login_required
@require_http_methods(["GET", "HEAD"])
def friends(request):
    """Whom you follow (online first), who follows you, whom you block."""
    me = request.user
    presence.record_seen(me)
    following = selectors.following_ids(me.pk)
    followers = selectors.followers_of(me.pk)
    blocking = selectors.blocking_ids(me.pk)
    people = _people([*following, *followers, *blocking])
    online = selectors.online_ids(following | set(followers))
    followed = sorted(
        (people[i] for i in following if i in people),
        key=lambda u: (u.pk not in online, u.username.casefold()),
    )
    context = {
        "following": [{"user": u, "online": u.pk in online} for u in followed],
        "followers": [
            {"user": people[i], "online": i in online, "followed": i in following}
            for i in followers
            if i in people
        ],
        "blocking": [people[i] for i in blocking if i in people],
        "friend_ids": [u.pk for u in followed],
    }
    return render(request, "social/friends.html", context)


@require_POST
def act(request, action):
    """follow / unfollow / block / unblock the person named by the form's `user`."""
    if not request.user.is_authenticated:
        return _refused(request, _("Log in to follow or block a player."), 403)
    name = request.POST.get("user", "").strip()
    if not name:
        return _refused(request, _("Say whom: the form names no player."), 400)
    target = get_user_model().objects.filter(username=name, is_active=True).first()
    if target is None:
        return _refused(request, _("There is no player named “%(name)s”.") % {"name": name}, 404)
    try:
        ACTIONS[action](request.user, target)
    except services.Refused as exc:
        return _refused(request, exc.message, exc.status)
    return redirect(_back(request, target))


def _back(request, target) -> str:
    """Where the button was pressed (a path of this site), else the person's page."""
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return back
    return reverse("player", args=[target.get_username()])


def _refused(request, message, status):
    return render(request, "social/refused.html", {"message": message}, status=status)
