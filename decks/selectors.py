"""Reads of the decks app: which decks a user may see, deck search, card indexes."""

import shlex

from django.db.models import Q
from django.utils.translation import gettext

from cards_data.models import Card
from cards_data.search.normalize import fold
from engine.catalog import RACES

from .models import Deck
from .problems import race_name
from .textformat import CardIndex


def visible_decks(user):
    """Public decks and the user's own; another user's private deck does not exist (404)."""
    decks = Deck.objects.select_related("owner").prefetch_related("entries__card", "versions")
    if user.is_authenticated:
        return decks.filter(Q(is_public=True) | Q(owner=user))
    return decks.filter(is_public=True)


def race_id(value: str) -> str | None:
    """A race identifier from its identifier, Hungarian or English name (accent-insensitive)."""
    wanted = fold(value).replace(" ", "_")
    for race, names in RACES.items():
        if wanted in (
            race,
            fold(names["hu"]).replace(" ", "_"),
            fold(names["en"]).replace(" ", "_"),
        ):
            return race
    return None


def has_race(race: str) -> Q:
    """Deck.races is a comma-separated list: match whole items only."""
    return (
        Q(races=race)
        | Q(races__startswith=f"{race},")
        | Q(races__endswith=f",{race}")
        | Q(races__contains=f",{race},")
    )


def card_index() -> CardIndex:
    return CardIndex(Card.objects.order_by("code").values("code", "name", "name_en"))


def search_decks(decks, query: str):
    """Deck search: `has:"Cobra Flash"`, `race:zarg`, `author:alice`, `legal:yes`, bare words in the name.

    Returns (queryset, error message or None).
    """
    try:
        terms = shlex.split(query or "")
    except ValueError:
        return decks.none(), gettext("Unbalanced quotes in the deck search: close every quote.")
    index = None
    for term in terms:
        field, _, value = term.partition(":")
        field = fold(field)
        if not value:
            decks = decks.filter(name__icontains=term)
        elif field in ("has", "van", "card", "lap"):
            index = index or card_index()
            card = index.resolve(value)
            if card is None:
                message = gettext("No card is called “%(name)s”.") % {"name": value}
                suggestions = index.suggest(value)
                if suggestions:
                    message += " " + gettext("Did you mean: %(names)s?") % {
                        "names": ", ".join(suggestions)
                    }
                return decks.none(), message
            decks = decks.filter(entries__card__code=card["code"])
        elif field in ("race", "r", "faj"):
            race = race_id(value)
            if race is None:
                names = ", ".join(race_name(r) for r in RACES)
                return decks.none(), gettext("Unknown race “%(race)s”. The races: %(races)s.") % {
                    "race": value,
                    "races": names,
                }
            decks = decks.filter(has_race(race))
        elif field in ("author", "szerzo", "user"):
            decks = decks.filter(owner__username__iexact=value)
        elif field in ("legal", "legalis", "szabalyos"):
            decks = decks.filter(is_legal=fold(value) in ("yes", "igen", "true", "1"))
        else:
            return (
                decks.none(),
                gettext(
                    "Unknown deck search field “%(field)s”. Use has:, race:, author: or legal:."
                )
                % {"field": field},
            )
    return decks.distinct(), None
