"""The deck builder page (owned by the builder work; see decks/urls.py).

The page is static/js/builder.js talking to the API (cards, races, validate, decks,
import, export, collection). This view only renders it, with the deck being edited
(if any) embedded as JSON so that the builder starts with its cards.
"""

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cards_data.definitions import card_dicts
from cards_data.models import Card
from cards_data.serializers import CardSerializer
from engine import catalog
from engine.deck import DECK_SIZE, MAX_RACES

from . import play
from .models import Deck
from .presentation import deck_statistics, type_label


def deck_payload(deck: Deck | None) -> dict | None:
    """The deck as the builder starts from it: its fields, and its cards shaped like
    `GET /api/cards/` results plus their `count`."""
    if deck is None:
        return None
    counts = dict(deck.entries.values_list("card__code", "count"))
    cards = CardSerializer(Card.objects.with_related().filter(code__in=counts), many=True).data
    latest = deck.latest_version
    return {
        "id": deck.pk,
        "name": deck.name,
        "description": deck.description,
        "ruleset": deck.ruleset,
        "is_public": deck.is_public,
        "version": latest.number if latest else 0,
        "cards": [{**card, "count": counts[card["code"]]} for card in cards],
    }


@login_required
def builder(request, pk=None):
    deck = get_object_or_404(Deck, pk=pk, owner=request.user) if pk is not None else None
    context = {
        "deck": deck,
        "deck_data": deck_payload(deck),
        "rulesets": play.ruleset_choices(),
        "builder_config": builder_config(),
    }
    if deck is not None:
        context["stats"] = saved_statistics(deck)
    return render(request, "decks/builder.html", context)


def saved_statistics(deck: Deck) -> dict | None:
    """The charts of the saved deck (the same ones as its page), rendered server-side."""
    counts = dict(deck.entries.values_list("card__code", "count"))
    if not counts:
        return None
    cards = card_dicts(counts)
    return deck_statistics([(cards[code], count) for code, count in sorted(counts.items())])


def _plural(singular: str, plural: str) -> dict:
    """Both forms of a counted message; builder.js picks "one" for 1 and "other" otherwise."""
    return {"one": ngettext(singular, plural, 1), "other": ngettext(singular, plural, 2)}


def builder_strings() -> dict:
    """Every sentence builder.js shows, translated here (named %(x)s parameters)."""
    return {
        "legal": _("Legal"),
        "problems": _plural("%(n)s problem", "%(n)s problems"),
        "checking": _("Checking…"),
        "check_failed": _("Could not check"),
        "results": _("%(shown)s of %(total)s cards"),
        "results_all": _plural("%(total)s card", "%(total)s cards"),
        "no_results": _("No cards match."),
        "type_search": _("Type a search (e.g. r:zarg t:ship) or pick a race."),
        "add_one": _("Add one “%(name)s”"),
        "remove_one": _("Remove one “%(name)s”"),
        "in_deck": _("%(n)s in the colony"),
        "missing": _("missing %(n)s"),
        "missing_total": _plural(
            "%(n)s card is missing from your collection.",
            "%(n)s cards are missing from your collection.",
        ),
        "missing_none": _("You own every card of this colony."),
        "collection_failed": _("Could not load your collection."),
        "opposes": _("%(race)s: its opposing race (%(other)s) is already in the colony."),
        "too_many": _("The colony already has %(max)s races."),
        "in_colony": _("%(n)s %(race)s cards in the colony"),
        "filter_race": _("Search %(race)s"),
        "saving": _("Saving…"),
        "saved": _("Saved as version %(version)s."),
        "saved_same": _("Saved; nothing changed (version %(version)s)."),
        "unsaved": _("Unsaved changes."),
        "save_failed": _("Could not save."),
        "network": _("Network error; try again."),
        "edit_deck": _("Edit deck"),
        "importing": _("Importing…"),
        "imported": _("Imported %(count)s cards (%(kinds)s different)."),
        "import_failed": _("The list could not be read; fix the lines below."),
        "import_partial": _("Import only the %(count)s readable cards"),
        "did_you_mean": _("Did you mean:"),
        "cost": _("Cost"),
        "open_card": _("Open the card"),
        "share_failed": _("Could not get the share code."),
        "copied": _("Copied."),
        "copy_failed": _("Could not copy: select the text and copy it yourself."),
        "leave_warning": _("You have unsaved changes. Leave anyway?"),
        "draft_restored": _("Your unsaved draft was restored."),
        "discard_draft": _("Discard the draft"),
    }


def builder_config() -> dict:
    """What builder.js needs to know and say: the server's sentences and the R 9 facts
    (deck size, type order, each ruleset's race rule), so the script keeps no rules."""
    return {
        "strings": builder_strings(),
        "deck_size": DECK_SIZE,  # R 9.1
        "max_races": MAX_RACES,  # R 9.5.2
        "race_rules": play.RACE_RULES,  # R 9.5
        "type_order": list(catalog.TYPES),  # R 4.1
        "type_headers": {
            **{t: type_label(t, plural=True) for t in catalog.TYPES},
            "other": type_label("other", plural=True),
        },
    }
