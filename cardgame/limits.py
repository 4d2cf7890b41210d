"""Limits at the API's edge: one JSON reader with a size and a depth bound, and the rates of
the expensive endpoints. (Kept apart from cardgame.api: DRF's views import these classes
from the settings, so this module must not import rest_framework.views.)"""

import hashlib
import json

from django.core.cache import caches
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.throttling import SimpleRateThrottle

from .clientip import client_ip

# --------------------------------------------------------------------------- request bodies

MAX_JSON_DEPTH = 20  # our deepest body (a deck document) nests 4 levels; room, not abuse
MAX_JSON_BYTES = 1_000_000  # a 45-card deck is ~2 kB; a whole collection well under 100 kB


class BoundedJSONParser(JSONParser):
    """The API's one JSON reader: too large, too deep or broken JSON is a 400, never a 500.

    DRF's own parser lets a RecursionError through (JSON nested ~1,000 deep) and reads any
    size; a body nested past MAX_JSON_DEPTH would only reach code that recurses over it.
    """

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read(MAX_JSON_BYTES + 1) if stream is not None else b""
        if len(raw) > MAX_JSON_BYTES:
            raise ParseError(
                _("The request body is larger than %(limit)d bytes.") % {"limit": MAX_JSON_BYTES}
            )
        try:
            data = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
        except RecursionError:
            data = _TOO_DEEP
        except (UnicodeDecodeError, ValueError) as error:
            message = _("The request body is not valid JSON: %(error)s") % {"error": error}
            raise ParseError(message) from error
        if data is _TOO_DEEP or json_depth(data) > MAX_JSON_DEPTH:
            raise ParseError(
                _("The JSON body is nested deeper than %(limit)d levels.")
                % {"limit": MAX_JSON_DEPTH}
            )
        return data


_TOO_DEEP = object()


def _refuse_constant(name):
    raise ValueError(f"{name} is not a JSON number")  # as DRF's strict parser: no NaN


def json_depth(value) -> int:
    """How deeply lists and objects nest in `value` (a scalar is 0), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, depth = stack.pop()
        children = (
            node.values() if isinstance(node, dict) else node if isinstance(node, list) else None
        )
        if children is None:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest


# --------------------------------------------------------------------------- rates


class _PerUserThrottle(SimpleRateThrottle):
    """A rate per account (per address when anonymous), in the "throttle" cache.

    Its own cache so tests can empty it between tests without touching anything else;
    the rates come from settings (environment), REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"].
    """

    cache = caches["throttle"]

    def get_ident(self, request):
        """The client's address as the lock-outs read it (cardgame.clientip: through the
        trusted proxies, NUM_PROXIES), never an X-Forwarded-For a client wrote (issue 35)."""
        return client_ip(request) or ""

    def get_cache_key(self, request, view):
        user = getattr(request, "user", None)
        ident = user.pk if user is not None and user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class _PerAddressThrottle(_PerUserThrottle):
    """A rate per client address, logged in or not (the site's account forms)."""

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class SearchThrottle(_PerUserThrottle):
    scope = "search"


class ImportThrottle(_PerUserThrottle):
    scope = "import"


class LabRunThrottle(_PerUserThrottle):
    scope = "lab_run"


# The account forms (accounts.views): Django views, each asks `allow_request(request, None)`.


class PasswordResetThrottle(_PerAddressThrottle):
    """Password-reset e-mails asked for from one address."""

    scope = "password_reset"


class PasswordResetEmailThrottle(_PerUserThrottle):
    """Password-reset e-mails to one e-mail address, from wherever they are asked for (the
    address is hashed: the cache holds no e-mail address)."""

    scope = "password_reset_email"

    def __init__(self, email: str):
        super().__init__()
        self.email_key = hashlib.sha256(email.strip().lower().encode()).hexdigest()[:32]

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.email_key}


class SignUpThrottle(_PerAddressThrottle):
    """Accounts made from one address."""

    scope = "signup"
