"""THE home of the notifications' sentences: a kind and its context (plain values stored on
the Notification row) in, a sentence in the active language out. Callers choose the
language: the bell the page's, e-mail and webhook the person's (`translation.override`)."""

from datetime import datetime

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from cardgame import bots
from cardgame.hungarian import articles

from .kinds import (
    CHALLENGE,
    DECKLIST_DEADLINE,
    FRIEND_TABLE,
    RESULT_TO_CONFIRM,
    ROUND_PUBLISHED,
    YOUR_TURN,
)


def when(iso: str | None) -> str:
    """A stored ISO time as the active language writes a date and time, in the site's zone."""
    if not iso:
        return ""
    moment = datetime.fromisoformat(iso)
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return formats.date_format(moment, "DATETIME_FORMAT")


def opponents(context: dict) -> str:
    """The other players of a game: people by name, bots by their name in this language."""
    names = list(context.get("people", [])) + [bots.label(code) for code in context.get("bots", [])]
    return ", ".join(names)


def title(kind: str) -> str:
    """A short headline: the e-mail's subject and the bell's bold line (with a context:
    the matches catalogue says "Your turn" its own way, on the game table)."""
    return {
        YOUR_TURN: pgettext("notification title", "Your turn"),
        CHALLENGE: pgettext("notification title", "A new challenge"),
        FRIEND_TABLE: pgettext("notification title", "A friend's open game"),
        ROUND_PUBLISHED: pgettext("notification title", "Round published"),
        RESULT_TO_CONFIRM: pgettext("notification title", "A result to confirm"),
        DECKLIST_DEADLINE: pgettext("notification title", "Decklist deadline"),
    }[kind]


def sentence(kind: str, context: dict) -> str:
    """The notification's sentence, from its stored context ("a(z)" settled in Hungarian)."""
    return articles(_sentence(kind, context))


def _sentence(kind: str, c: dict) -> str:
    if kind == YOUR_TURN:
        words = {"opponent": opponents(c)}
        if c.get("deadline"):
            return _(
                "Your game against %(opponent)s waits for your move. You have until %(deadline)s to decide."
            ) % {
                **words,
                "deadline": when(c["deadline"]),
            }
        return _("Your game against %(opponent)s waits for your move.") % words
    if kind == CHALLENGE:
        return _("%(name)s challenged you to a game.") % {"name": c["challenger"]}
    if kind == FRIEND_TABLE:
        if c.get("seats", 2) > 2:
            return _("%(name)s, whom you follow, opened a table for %(seats)s players.") % {
                "name": c["owner"],
                "seats": c["seats"],
            }
        return _("%(name)s, whom you follow, posted an open challenge.") % {"name": c["owner"]}
    if kind == ROUND_PUBLISHED:
        words = {"round": c["round"], "tournament": c["tournament"]}
        if not c.get("opponent"):
            return _("Round %(round)s of %(tournament)s: you have a bye.") % words
        return _("Round %(round)s of %(tournament)s: table %(table)s, against %(opponent)s.") % {
            **words,
            "table": c["table"],
            "opponent": c["opponent"],
        }
    if kind == RESULT_TO_CONFIRM:
        return _(
            "%(name)s reported your result in %(tournament)s: %(name)s %(theirs)s, you "
            "%(yours)s. Confirm it or dispute it."
        ) % {
            "name": c["reporter"],
            "tournament": c["tournament"],
            "theirs": c["theirs"],
            "yours": c["yours"],
        }
    if kind == DECKLIST_DEADLINE:
        return _(
            "Until %(deadline)s you can still change the deck you registered for %(tournament)s "
            '("%(deck)s"); then the decklist is final.'
        ) % {"tournament": c["tournament"], "deadline": when(c["deadline"]), "deck": c["deck"]}
    raise ValueError(f"unknown notification kind {kind!r}")
