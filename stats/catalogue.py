"""The catalogue as the statistics read it: a colony's or a list's race."""

from collections import Counter
from collections.abc import Iterable

from cards_data.models import Card

from .figures import primary_race


def card_races(codes: Iterable[str]) -> dict[str, str]:
    """code -> race ("" for a raceless card) of the given codes."""
    return dict(Card.objects.filter(code__in=set(codes)).values_list("code", "race"))


def list_race(cards: list, races: dict[str, str]) -> str:
    """The primary race of a list of [code, count] (figures.primary_race)."""
    copies: Counter = Counter()
    for code, count in cards:
        copies[races.get(code, "")] += count
    return primary_race(copies)
