"""The one exception a search query can cause, and its translated messages."""

from django.utils.translation import gettext

from cardgame.hungarian import articles


def _(message: str) -> str:
    """gettext, if Django's settings are there (they are in the site and in the tests)."""
    try:
        return gettext(message)
    except Exception:  # settings not configured: a plain-Python caller gets English
        return message


class QuerySyntaxError(ValueError):
    """A malformed query.

    `message` is for people (translated; positions in it count from 1), `position` is the
    0-based offset of the offending part in the query and `length` its length, so a user
    interface can underline `query[position:position + length]`.
    """

    def __init__(self, message: str, position: int = 0, length: int = 1):
        super().__init__(message)
        self.message = message
        self.position = position
        self.length = max(length, 0)

    def __str__(self):
        return self.message


def syntax_error(message: str, start: int, length: int = 1, **params) -> QuerySyntaxError:
    """A QuerySyntaxError from an already translated message; %(pos)s counts from 1."""
    params.setdefault("pos", start + 1)
    return QuerySyntaxError(articles(message % params), start, length)
