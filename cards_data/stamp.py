"""When the catalogue last changed, and the HTTP validators of its reads (issue 40).

The catalogue changes only when a set is loaded (cards_data.loader, whose bulk INSERTs send
no signals, bumps the stamp itself) or when someone edits a card, an edition or a keyword
(the admin: the signals below). Every bump writes a new random token in the same
transaction as the change, so a reader that sees the new rows sees the new token too.

A read takes the stamp with one primary-key query, before it reads any card: read after
the cards, a load committed in between would label the old cards with the new token, and
a client would keep them until the next load. There is no per-process memo: another
process's load would stay unseen for as long as the memo lived, and the query costs a
fraction of a millisecond next to a search's.
"""

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models.signals import m2m_changed, post_delete, post_save
from django.utils import timezone
from django.utils.translation import get_language

from .models import Card, CatalogueStamp, Edition, Keyword

# Last-Modified has whole seconds: a change within the same second as an answer would not
# be newer than that answer's Last-Modified, and If-Modified-Since would keep the old copy.
# So the header is left out (the ETag alone validates) until the change has settled this
# long, more than a second, with room for the clocks of two servers.
SETTLE = timedelta(seconds=2)


@dataclass(frozen=True)
class Stamp:
    token: str
    changed: datetime | None


NEVER = Stamp(token="none", changed=None)  # no row (a flushed test database)


def current() -> Stamp:
    row = CatalogueStamp.objects.filter(pk=1).values_list("token", "changed").first()
    return Stamp(*row) if row else NEVER


def bump() -> None:
    """Record a change of the catalogue: call it inside the change's transaction."""
    values = {"changed": timezone.now(), "token": secrets.token_hex(16)}
    if not CatalogueStamp.objects.filter(pk=1).update(**values):
        CatalogueStamp.objects.update_or_create(pk=1, defaults=values)


def request_stamp(request) -> Stamp:
    """The stamp, read once per request (the ETag and Last-Modified both ask for it)."""
    stamp = getattr(request, "_catalogue_stamp", None)
    if stamp is None:
        stamp = request._catalogue_stamp = current()
    return stamp


def etag(request) -> str:
    """A strong ETag of this request's answer as the catalogue is now: the stamp's token,
    the path, the whole query string and the language (the cards' `url` and every error
    message depend on it)."""
    key = "\n".join(
        (
            request_stamp(request).token,
            request.path,
            request.META.get("QUERY_STRING", ""),
            get_language() or "",
        )
    )
    return '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


def last_modified(request) -> datetime | None:
    changed = request_stamp(request).changed
    if changed is None or timezone.now() - changed < SETTLE:
        return None
    return changed


def _changed(sender, **kwargs):
    bump()


def _links_changed(sender, action, **kwargs):
    if action in ("post_add", "post_remove", "post_clear"):
        bump()


for model in (Card, Edition, Keyword):
    post_save.connect(_changed, sender=model, dispatch_uid=f"catalogue_stamp_save_{model.__name__}")
    post_delete.connect(
        _changed, sender=model, dispatch_uid=f"catalogue_stamp_delete_{model.__name__}"
    )
m2m_changed.connect(
    _links_changed, sender=Card.keywords.through, dispatch_uid="catalogue_stamp_m2m"
)
