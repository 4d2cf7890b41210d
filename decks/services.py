"""Writes of the decks app (HackSoft style): saving decks as versions, collections.

Legality always comes from engine.deck.check_deck (R 9); this module only feeds it.
"""

from collections.abc import Iterable
from contextlib import contextmanager

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction

from cards_data.definitions import card_dicts
from cards_data.models import Card
from engine.deck import DECK_SIZE

from . import play
from .models import CollectionEntry, Deck, DeckCard, DeckVersion

MAX_DISTINCT_CARDS = 200  # a 45-card deck has at most 45; room for casual piles, not abuse


def clean_entries(pairs: Iterable) -> list[tuple[str, int]]:
    """Merged, sorted (code, count) pairs; a ValidationError names every bad entry."""
    merged: dict[str, int] = {}
    errors = []
    for position, pair in enumerate(pairs, start=1):
        try:
            code, count = pair
        except (TypeError, ValueError):
            errors.append(f"entry {position}: expected a card code and a count")
            continue
        if not isinstance(code, str) or not code.strip():
            errors.append(f"entry {position}: the card code must be a non-empty string")
            continue
        if isinstance(count, bool) or not isinstance(count, int):
            errors.append(f"entry {position} ({code}): the count must be a whole number")
            continue
        if not 1 <= count <= DECK_SIZE:
            errors.append(f"entry {position} ({code}): count {count} is outside 1–{DECK_SIZE}")
            continue
        code = code.strip().upper()
        merged[code] = merged.get(code, 0) + count
    if len(merged) > MAX_DISTINCT_CARDS:
        errors.append(f"too many different cards ({len(merged)}; at most {MAX_DISTINCT_CARDS})")
    if errors:
        raise ValidationError(errors)
    return sorted(merged.items())


def validate_entries(
    entries: list[tuple[str, int]], ruleset: str = "original", known: dict | None = None
) -> list[dict]:
    """Every R 9 problem of these (code, count) pairs, unknown codes included (R 9.7),
    each with its code, data and sentence (decks.play.problems).

    `known` (code -> card dict, as `card_dicts` gives) saves the lookup when the caller
    has the cards already.
    """
    return play.problems(entries, ruleset, known)


def _require_known(entries, known: dict):
    unknown = [code for code, _ in entries if code not in known]
    if unknown:
        raise ValidationError([f"unknown card code {code}" for code in unknown])


@transaction.atomic
def save_deck(
    owner,
    *,
    deck: Deck | None = None,
    name: str,
    cards: Iterable,
    description: str = "",
    ruleset: str = "original",
    is_public: bool = False,
    comment: str = "",
) -> Deck:
    """Create or update a deck; a new immutable version whenever anything changed."""
    entries = clean_entries(cards)
    known = card_dicts(code for code, _ in entries)
    _require_known(entries, known)
    if ruleset not in play.RULESETS:
        names = ", ".join(play.RULESETS)
        raise ValidationError([f"unknown ruleset {ruleset!r}; choose one of {names}"])
    if deck is None:
        deck = Deck(owner=owner)
    elif deck.owner_id != owner.id:
        raise PermissionError("only the owner may change a deck")
    deck.name, deck.description, deck.ruleset, deck.is_public = (
        name,
        description,
        ruleset,
        is_public,
    )
    deck.save()
    latest = deck.latest_version
    snapshot = {
        "name": name,
        "description": description,
        "ruleset": ruleset,
        "cards": play.frozen_entries(entries),
    }
    if latest is None or _snapshot(latest) != snapshot:
        number = (latest.number if latest else 0) + 1
        DeckVersion.objects.create(deck=deck, number=number, comment=comment, **snapshot)
        _store_current_cards(deck, entries)
    refresh_summary(deck, entries, known)
    return deck


def _snapshot(version: DeckVersion) -> dict:
    return {
        "name": version.name,
        "description": version.description,
        "ruleset": version.ruleset,
        "cards": play.frozen_entries(version),
    }


def _store_current_cards(deck: Deck, entries):
    ids = dict(Card.objects.filter(code__in=[c for c, _ in entries]).values_list("code", "id"))
    DeckCard.objects.filter(deck=deck).delete()
    DeckCard.objects.bulk_create(
        DeckCard(deck=deck, card_id=ids[code], count=count) for code, count in entries
    )


def refresh_summary(deck: Deck, entries, known: dict):
    """The deck's browsing read model from its cards (`known`: code -> card dict)."""
    races = sorted({known[code]["race"] for code, _ in entries if known[code]["race"]})
    deck.card_count = sum(count for _, count in entries)
    deck.races = ",".join(races)
    deck.is_legal = not validate_entries(entries, deck.ruleset, known)
    deck.save(update_fields=["card_count", "races", "is_legal"])


def diff_entries(before: Iterable, after: Iterable) -> list[dict]:
    """Per-card count changes from one list of (code, count) pairs to another."""
    old, new = dict(map(tuple, before)), dict(map(tuple, after))
    return [
        {
            "code": code,
            "before": old.get(code, 0),
            "after": new.get(code, 0),
            "change": new.get(code, 0) - old.get(code, 0),
        }
        for code in sorted(old.keys() | new.keys())
        if old.get(code, 0) != new.get(code, 0)
    ]


MAX_COPIES_OWNED = 999  # per card: a generous pile, and a bound on what a form may write


def set_collection(owner, entries: Iterable, *, replace: bool = False) -> None:
    """Record owned counts (count 0 removes a card); unknown codes refuse the whole change."""
    counts = {}
    for position, pair in enumerate(entries, start=1):
        code, count = pair
        if not _is_owned_count(count):
            raise ValidationError(
                [f"entry {position} ({code}): count must be a whole number 0–{MAX_COPIES_OWNED}"]
            )
        counts[str(code).upper()] = count
    with _locked_collection(owner, counts) as (cards, _owned):
        if replace:
            CollectionEntry.objects.filter(owner=owner).delete()
        _write_counts(owner, cards, counts)


def add_to_collection(owner, codes: Iterable[str]) -> dict[str, int]:
    """Add one copy per code (a booster, a prize), counting from the locked rows.

    Returns the new count of every card added. Past MAX_COPIES_OWNED the whole addition is
    refused: a pack is kept or refused whole, never half-added.
    """
    added: dict[str, int] = {}
    for code in codes:
        added[str(code).upper()] = added.get(str(code).upper(), 0) + 1
    with _locked_collection(owner, added) as (cards, owned):
        counts = {code: owned.get(code, 0) + n for code, n in added.items()}
        full = sorted(code for code, count in counts.items() if not _is_owned_count(count))
        if full:
            raise ValidationError(
                [f"{code}: you would own more than {MAX_COPIES_OWNED} copies" for code in full]
            )
        _write_counts(owner, cards, counts)
    return counts


def _is_owned_count(count) -> bool:
    return not isinstance(count, bool) and isinstance(count, int) and 0 <= count <= MAX_COPIES_OWNED


@contextmanager
def _locked_collection(owner, codes: Iterable[str]):
    """One transaction holding the owner's lock: (card ids by code, owned counts by code).

    Every writer of a collection comes through here, so two writes for one user queue on
    the user row (PostgreSQL; SQLite's immediate transactions queue all writers) and the
    counts they add to are read after the lock, never before it.
    """
    codes = list(codes)
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
        cards = dict(Card.objects.filter(code__in=codes).values_list("code", "id"))
        unknown = sorted(set(codes) - set(cards))
        if unknown:
            raise ValidationError([f"unknown card code {code}" for code in unknown])
        owned = dict(
            CollectionEntry.objects.filter(owner=owner, card__code__in=codes).values_list(
                "card__code", "count"
            )
        )
        yield cards, owned


def _write_counts(owner, cards: dict[str, int], counts: dict[str, int]) -> None:
    """Rows written in card-code order (one order for every writer: no lock cycles)."""
    for code in sorted(counts):
        if counts[code] == 0:
            CollectionEntry.objects.filter(owner=owner, card_id=cards[code]).delete()
        else:
            CollectionEntry.objects.update_or_create(
                owner=owner, card_id=cards[code], defaults={"count": counts[code]}
            )
