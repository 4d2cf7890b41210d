"""What a finished game's log says about each player's cards (pure: no Django).

The engine logs every card that reaches a centre as a "move" event (engine/ops.py
`relocate`): a card drawn from a colony is face down to the opponent, so its code is in the
event's `secret`, which only the server holds. That is why only FINISHED games are read
here (the caller's duty, stats/recording.py): while a game runs, its hidden cards are
nobody's business but their owner's (R 16).

- drawn: every card that reached its owner's centre from the colony (a draw, the opening
  hand, a mulligan's new hand, a search, M7/M8).
- opening: the cards in the centre when play starts: the opening hand, or the new hand of
  a player who took the mulligan (R 10.4, R 10.5).
"""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

OPENING, MULLIGAN = "opening hand", "mulligan"


@dataclass
class SeenCards:
    drawn: set[str] = field(default_factory=set)
    opening: set[str] = field(default_factory=set)
    mulliganed: bool = False


def seen_cards(events: Iterable[dict]) -> dict[int, SeenCards]:
    """seat -> the codes it drew and the codes of its opening centre, from the engine's
    event dicts ({"kind", "data", "secret", "to"}) in log order."""
    return seen_in_draws(_draws(events))


def seen_in_draws(draws: Iterable[tuple]) -> dict[int, SeenCards]:
    """seen_cards from the draws alone: (owner, code, why) of each card moved from its
    owner's colony to a centre, in log order (the recording reads just these from the
    database: decoding whole events cost a worker's CPU)."""
    seen: dict[int, SeenCards] = {}
    for owner, code, why in draws:
        cards = seen.setdefault(owner, SeenCards())
        cards.drawn.add(code)
        if why == MULLIGAN and not cards.mulliganed:  # the new hand replaces the first
            cards.mulliganed = True
            cards.opening.clear()
        if why in (OPENING, MULLIGAN):
            cards.opening.add(code)
    return seen


def _draws(events: Iterable[dict]) -> Iterator[tuple]:
    for event in events:
        data = event.get("data") or {}
        if event.get("kind") != "move" or data.get("to") != "centre":
            continue
        if data.get("from") != "colony":
            continue
        card = data.get("card") or {}
        code = card.get("code") or (event.get("secret") or {}).get("code")
        if code is None or "owner" not in card:
            continue
        yield card["owner"], code, data.get("why")
