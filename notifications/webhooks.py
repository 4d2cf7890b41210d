"""A person's webhook: which URLs are accepted, and posting a message to one.

Delivery goes through apprise, which we do not maintain: a Discord webhook URL
(https://discord.com/api/webhooks/<id>/<token>) is recognised by apprise's own parsing of
native Discord URLs and posted by its Discord plugin ({"content": "..."}, with Discord's
rate limits and message length handled there). Any other URL goes to apprise's JSON plugin,
told to send the same body Discord gets: its `:message=content` maps the message into a
`content` field and the empty `:version=`, `:title=`, `:attachments=`, `:type=` drop its own
fields, so one receiver (a chat bot, a home server) handles both.

Server-side request forgery: a person chooses the URL and the server posts to it, so in
production only https URLs whose host resolves to public addresses are accepted, checked
when the URL is saved and again before every post (a name can be re-pointed in between),
and a redirect is not followed. (A name re-pointed between our look-up and the HTTP
library's own, within the same second, is not caught: that would need the connection made
to the checked address; a documented limit.)
NOTIFICATIONS_WEBHOOK_ALLOW_PRIVATE (off by default; the tests and a developer's machine
turn it on) also accepts http and loopback or private addresses.
"""

import ipaddress
import socket
from urllib.parse import parse_qsl, urlencode, urlsplit

import apprise
from apprise.plugins.discord import NotifyDiscord
from django.conf import settings
from django.utils.translation import gettext as _

MAX_URL = 500
# What apprise's JSON plugin must send: the message as `content`, its own fields dropped.
JSON_PAYLOAD = {
    ":message": "content",
    ":version": "",
    ":title": "",
    ":attachments": "",
    ":type": "",
}


class WebhookRefused(ValueError):
    """A URL the server will not post to; the message is a sentence for the person."""


def allow_private() -> bool:
    return bool(getattr(settings, "NOTIFICATIONS_WEBHOOK_ALLOW_PRIVATE", False))


def check_url(url: str) -> str:
    """`url` stripped, or WebhookRefused with the reason in the active language."""
    url = (url or "").strip()
    if len(url) > MAX_URL:
        raise WebhookRefused(
            _("The webhook URL is too long (at most %(n)s characters).") % {"n": MAX_URL}
        )
    refused = WebhookRefused(_("Give the webhook's full address, starting with https://."))
    try:
        parts = urlsplit(url)  # ValueError: an unclosed "[" of an IPv6 address
        port = parts.port or 443  # ValueError: a port past 65535, refused only when asked
    except ValueError:
        raise refused from None
    schemes = ("https", "http") if allow_private() else ("https",)
    if parts.scheme not in schemes or not parts.hostname:
        raise refused
    if not allow_private():
        for address in _addresses(parts.hostname, port):
            if not address.is_global:
                raise WebhookRefused(
                    _("This address is not on the public internet; the site posts only there.")
                )
    return url


def _addresses(host: str, port: int) -> list:
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError):
        raise WebhookRefused(_("No server answers to this name; check the address.")) from None
    return [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]


def apprise_url(url: str) -> str:
    """The apprise URL for a person's webhook URL (see the module's docstring)."""
    parts = urlsplit(url)
    if NotifyDiscord.parse_native_url(url) is not None:
        return url  # apprise's Discord plugin reads the native URL itself
    scheme = "jsons" if parts.scheme == "https" else "json"
    # the person's own query parameters go to their server as they are (apprise: -name)
    query = [(f"-{name}", value) for name, value in parse_qsl(parts.query, keep_blank_values=True)]
    query += list(JSON_PAYLOAD.items())
    query.append(("redirect", "no"))  # a public URL must not bounce the post inward
    return f"{scheme}://{parts.netloc}{parts.path or '/'}?{urlencode(query)}"


def post(url: str, text: str) -> bool:
    """Post `text` to the webhook at `url`; True if the server took it. The URL is checked
    again here (WebhookRefused when it no longer passes)."""
    target = apprise.Apprise()
    if not target.add(apprise_url(check_url(url))):
        raise WebhookRefused(_("Give the webhook's full address, starting with https://."))
    return bool(target.notify(body=text))
