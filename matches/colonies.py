"""A deck or a frozen colony as the engine takes it: the match's ruleset, the colony's card
definitions (R 9). The one path from a deck to a game is decks/play.py; this module only
turns its error into the matches app's HTTP-shaped one (matches/errors.py).
"""

from cards_data import definitions
from decks import play
from engine.ruleset import Ruleset

from .errors import BadRequest, MatchError, Unprocessable

COLONY_SIZE = 45  # R 9.1


def engine_ruleset(ruleset: str, options: dict | None = None) -> Ruleset:
    """The engine's game ruleset for a match ruleset name (+ extra flags, e.g. turn_limit)."""
    try:
        return play.game_ruleset(ruleset, **(options or {}))
    except play.DeckNotPlayable as exc:
        raise _play_error(exc) from exc


def _play_error(exc) -> MatchError:
    """decks.play's one error as this app's HTTP-shaped error (unknown name: 400)."""
    error = BadRequest if exc.code == "UNKNOWN_RULESET" else Unprocessable
    return error(exc.code, str(exc), problems=exc.problems)


def colony_defs(codes: list[str]) -> list[dict]:
    """The card definitions of a frozen colony, one per copy, in the colony's order."""
    try:
        return definitions.colony(codes)
    except definitions.UnknownCards as exc:
        raise Unprocessable("UNKNOWN_CARD", words={"codes": str(exc)}) from exc


def deck_colony(deck, ruleset: str) -> list[str]:
    """A deck's 45 card codes, if it is legal for the ruleset (R 9); every problem otherwise."""
    try:
        return play.colony(deck, ruleset)
    except play.DeckNotPlayable as exc:
        raise _play_error(exc) from exc


def check_colony(colony, seat: int) -> list[str]:
    if not isinstance(colony, list | tuple) or len(colony) != COLONY_SIZE:
        raise BadRequest("BAD_COLONY", words={"seat": seat, "size": COLONY_SIZE})
    if not all(isinstance(code, str) and code for code in colony):
        raise BadRequest("BAD_COLONY", words={"seat": seat, "size": COLONY_SIZE})
    return list(colony)
