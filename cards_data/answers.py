"""The card search's answers, kept per catalogue stamp (issue 40).

A search's answer depends on the request (its full address, the language, the format the
client accepts) and on the catalogue, which changes only when a set is loaded or a card is
edited (cards_data/stamp.py, whose token every such change replaces). So a web process
keeps each answer it has built under (stamp token, address, language, format) and gives
it again while the token is the same: the page of cards, their keywords and the count are
then neither queried nor built again, only the stamp is read (one primary-key query) and
the kept JSON bytes sent. A change of the catalogue gives a new token, so the next request builds
anew in every process; the old entries are never asked for again and go when the memo is
full. Only 200 answers are kept; errors (a bad query, a page past the end) speak the
request's language and are built every time.
"""

import threading

from django.conf import settings
from rest_framework.response import Response

from .stamp import request_stamp

# Past it the memo starts again empty: bounded memory, no LRU book-keeping. A page of 50
# cards is ~60 KB of JSON, so this is a few hundred pages a process.
MAX_BYTES = 24 * 1024 * 1024

_answers: dict[tuple, bytes] = {}
_size = 0
_lock = threading.Lock()


class KeptAnswer(Response):
    """An answer whose JSON is written already; DRF sets its headers as for any answer."""

    def __init__(self, body: bytes):
        super().__init__(data=None)
        self.body = body

    @property
    def rendered_content(self) -> bytes:
        renderer = self.accepted_renderer  # the Content-Type as DRF's Response writes it
        charset = renderer.charset
        media = renderer.media_type
        self["Content-Type"] = f"{media}; charset={charset}" if charset else media
        return self.body


def key_of(request) -> tuple:
    """What a card list's answer depends on, besides the code."""
    renderer = getattr(request, "accepted_media_type", "")
    return (
        request_stamp(request).token,
        request.build_absolute_uri(),  # scheme, host, path and query: the pager's links
        getattr(request, "LANGUAGE_CODE", ""),
        renderer,
    )


def kept(key: tuple) -> bytes | None:
    """The answer's JSON kept under `key`, or None (always, with KEEP_SEARCH_ANSWERS off)."""
    return _answers.get(key) if settings.KEEP_SEARCH_ANSWERS else None


def keep(key: tuple, body: bytes) -> None:
    global _size
    if not settings.KEEP_SEARCH_ANSWERS:
        return
    with _lock:
        if _size + len(body) > MAX_BYTES:
            _answers.clear()
            _size = 0
        _size += len(body) - len(_answers.get(key, b""))
        _answers[key] = body


def forget() -> None:
    """Drop every kept answer (the tests: their rolled-back catalogues share tokens)."""
    global _size
    with _lock:
        _answers.clear()
        _size = 0
