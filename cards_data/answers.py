"""The card search's answers, kept per catalogue stamp (issue 40).

A search's answer depends on the request (its full address, the language, the format the
client accepts) and on the catalogue, which changes only when a set is loaded or a card is
edited (cards_data/stamp.py, whose token every such change replaces). So a web process
keeps each answer it has built under (stamp token, address, language, format) and gives
it again while the token is the same: the page of cards, their keywords and the count are
then neither queried nor built again, only the stamp is read (one primary-key query) and
the JSON written. A change of the catalogue gives a new token, so the next request builds
anew in every process; the old entries are never asked for again and go when the memo is
full. Only 200 answers are kept; errors (a bad query, a page past the end) speak the
request's language and are built every time.
"""

import threading

from .stamp import request_stamp

MAX_ANSWERS = 4096  # past it the memo starts again empty: bounded memory, no LRU book-keeping

_answers: dict[tuple, object] = {}
_lock = threading.Lock()


def key_of(request) -> tuple:
    """What a card list's answer depends on, besides the code."""
    renderer = getattr(request, "accepted_media_type", "")
    return (
        request_stamp(request).token,
        request.build_absolute_uri(),  # scheme, host, path and query: the pager's links
        getattr(request, "LANGUAGE_CODE", ""),
        renderer,
    )


def kept(key: tuple):
    """The answer's data kept under `key`, or None."""
    return _answers.get(key)


def keep(key: tuple, data) -> None:
    with _lock:
        if len(_answers) >= MAX_ANSWERS:
            _answers.clear()
        _answers[key] = data


def forget() -> None:
    """Drop every kept answer (the tests: their rolled-back catalogues share tokens)."""
    with _lock:
        _answers.clear()
