"""What the site says about a refused match request: the one home of those sentences.

Every refusal of the matches app (matches/errors.py) has a `code` for machines and, from
here, a sentence for people through gettext, in the active language: the API's `detail`,
the lobby's error line and the table's message are the same words (the table shows the
detail its POST or its socket got back, and a rejected request's message from here).
A code from another home of sentences keeps that home's: a colony's R 9 problems
(decks/problems.py, via decks/play.py) and a number's (cardgame/params.py).
tests/matches/test_error_messages.py holds every code raised to a sentence in both
languages.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from cardgame.hungarian import articles


def _client_action_id(words) -> str:
    return _(
        "client_action_id must be 1 to %(max)s letters, digits, dots, dashes, "
        "underscores or tildes (a UUID will do)."
    ) % {"max": words["max"]}


def _version_not_reached(words) -> str:
    return articles(
        _(
            "The game is at version %(current)s, not %(expected)s yet; "
            "choose from the position you see now."
        )
        % {"current": words["current_version"], "expected": words["expected"]}
    )


def _stale_version(words) -> str:
    return _("The game moved on (version %(current)s); reload and choose again.") % {
        "current": words["current_version"]
    }


MESSAGES = {
    # who may do what
    "NOT_LOGGED_IN": _lazy("Log in to play."),
    "NOT_A_PLAYER": _lazy("Only the players of this game can do that."),
    "NOT_THE_HOST": _lazy("Only the host can start or cancel the table."),
    "NOT_INVITED": _lazy("This challenge was sent to somebody else."),
    "NOT_YOUR_DECK": _lazy("You can only play with one of your own decks."),
    # what to play with, and against whom
    "NO_DECK": _lazy("Choose one of your decks."),
    "NO_SUCH_DECK": _lazy("Choose one of your decks."),
    "NO_SUCH_USER": _lazy("There is no user named “%(name)s”."),
    "BAD_OPPONENT": _lazy("Name your opponent by their user name or user id."),
    "SELF_CHALLENGE": _lazy("You cannot play against yourself."),
    # issue 37: a blocked pair (social/) never meets in a game, either way
    "BLOCKED": _lazy(
        "You cannot play this player: one of you has blocked the other. "
        "Choose another opponent or table."
    ),
    "BAD_CHALLENGE": _lazy("Challenge either a user or a bot, not both."),
    # issue 37: a rated game (ratings/) is only between people who all opted in
    "RATED_WITH_BOT": _lazy("A game against a bot is never rated: untick “Rated game”."),
    "RATED_NOT_OPTED_IN": _lazy(
        "A rated game is only between players who all take part in ratings (see the rating "
        "settings): choose such an opponent, or play an unrated game."
    ),
    "RATED_TABLE_NOT_FULL": _lazy(
        "A rated table starts only when every seat has a player: wait for more players, or "
        "cancel it and open an unrated table."
    ),
    "UNKNOWN_BOT": _lazy(
        "“%(bot)s” is not one of the bots (%(known)s). Choose one of the bots offered."
    ),
    "UNKNOWN_TIME_CONTROL": _lazy(
        "Unknown time control %(name)s (the choices: %(known)s). "
        "Choose one of the time controls in the list."
    ),
    "BAD_PLAYERS": _lazy(
        "A game has two to six seats (a tournament game exactly two), each with either a "
        "user or a bot, and a colony."
    ),
    "BAD_COLONY": _lazy("Seat %(seat)s: a colony is a list of %(size)s card codes."),
    "UNKNOWN_CARD": _lazy("Unknown card codes: %(codes)s."),
    "COLONY_NOT_LEGAL": _lazy("This colony breaks a deck-building rule."),
    # challenges and tables
    "NOT_OPEN": _lazy("This challenge or table is no longer open."),
    "A_TABLE": _lazy("This is a table for several players: join it instead."),
    "NOT_A_TABLE": _lazy("This is a game for two: accept it instead."),
    "BAD_TABLE": _lazy("A table is open to all: bots fill its empty seats."),
    "BAD_SEATS": _lazy("A table seats three to six players."),
    "TABLE_FULL": _lazy("Every seat at this table is taken."),
    "ALREADY_SEATED": _lazy("You already have a seat at this table."),
    "HOST_LEAVES": _lazy("The host cancels the table instead of leaving it."),
    "BAD_LOBBY_ACTION": _lazy("Unknown lobby action."),
    # moves
    "BAD_BODY": _lazy("Send a JSON object."),
    "BAD_CLIENT_ACTION_ID": _client_action_id,
    "CLIENT_ACTION_ID_REUSED": _lazy(
        "This client_action_id was already used for another action; use a fresh one."
    ),
    "BAD_VERSION": _lazy("expected_version must be a whole number."),
    "BAD_ACTION": _lazy("action must be an action id string, e.g. 'pass'."),
    "MALFORMED_ACTION": _lazy("The action could not be read; reload the page."),
    "GAME_NOT_ACTIVE": _lazy("This game is not being played now: it takes no more moves."),
    "GAME_OVER": _lazy("The game ended first."),
    "STALE_VERSION": _stale_version,
    "VERSION_NOT_REACHED": _version_not_reached,
    "NOT_YOUR_DECISION": _lazy("It is not your decision now; wait for your turn."),
    "ILLEGAL_ACTION": _lazy("That action is not legal now; choose one of the buttons."),
    # the table's socket
    "TOO_MANY_MOVES": _lazy("Too many moves at once; wait for the answer to the last."),
    "TOO_LARGE": _lazy("The message is larger than %(limit)d characters; it was not read."),
    "BAD_MESSAGE": _lazy("The message is not a JSON object the game understands; it was not read."),
    # reading a game
    "NO_SUCH_MATCH": _lazy("There is no match %(match)s."),
    "NO_SUCH_REQUEST": _lazy("There is no request %(request)s."),
    "NOT_FINISHED": _lazy("Replays open when the game is over."),
    "BAD_SEAT": _lazy("Choose a seat from 0 to %(last)s."),
    # a judge (R 18.4)
    "BAD_WINNER": _lazy("The winner must be one of the seats (a game is never a draw)."),
    "GAME_NOT_OPEN_FOR_JUDGE": _lazy("This game is already decided."),
    # the server's own trouble (503, code UNAVAILABLE: nothing lost, try again); the two
    # after a move say what became of it (its `outcome`)
    "UNAVAILABLE": _lazy(
        "The game server cannot reach its database right now; try again in a few seconds."
    ),
    "UNAVAILABLE_NOT_STORED": _lazy(
        "The game server is busy and did not record your action; send it again."
    ),
    "UNAVAILABLE_UNKNOWN": _lazy(
        "The game server is busy and cannot tell yet whether your action was recorded; "
        "try again in a few seconds (it is never made twice)."
    ),
}

FALLBACK = "The game cannot do that now."


def sentence(code: str, words: dict | None = None) -> str:
    """A person's sentence for a refusal's code and its words, in the active language."""
    try:
        return _said(MESSAGES[code], words or {})
    except (KeyError, TypeError, ValueError):  # an unknown code, or its words missing
        return _(FALLBACK)


def rejection(code: str, stored: str) -> str:
    """A rejected request's message (ActionRequest.message is the worker's note, in English):
    the sentence for its code when it needs no words, else the note."""
    try:
        return _said(MESSAGES[code], {})
    except (KeyError, TypeError, ValueError):
        return stored


def _said(text, words: dict) -> str:
    """A MESSAGES entry said with its words: a function of them, or a sentence whose
    %(name)s placeholders are their keys."""
    return text(words) if callable(text) else str(text) % words
