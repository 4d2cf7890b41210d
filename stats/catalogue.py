"""The catalogue as the statistics read it: a colony's or a list's race."""

from collections import Counter
from collections.abc import Iterable

from cards_data.models import Card

from .figures import primary_race

# code -> race, kept by each process: a worker records game after game with the same few
# hundred codes. A reload of the set that adds cards is read by the next call that asks for
# them; one that changes a printed card's race is read after the workers restart, as
# deploying a set does.
_RACES: dict[str, str] = {}


def card_races(codes: Iterable[str]) -> dict[str, str]:
    """code -> race ("" for a raceless card) of the given codes."""
    wanted = set(codes)
    missing = wanted.difference(_RACES)
    if missing:
        _RACES.update(Card.objects.filter(code__in=missing).values_list("code", "race"))
    return {code: _RACES[code] for code in wanted if code in _RACES}


def list_race(cards: list, races: dict[str, str]) -> str:
    """The primary race of a list of [code, count] (figures.primary_race)."""
    copies: Counter = Counter()
    for code, count in cards:
        copies[races.get(code, "")] += count
    return primary_race(copies)
