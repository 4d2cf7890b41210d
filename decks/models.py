"""Saved decks, their immutable versions, and collections.

Legality is never stored as a decision of this app: it is engine.deck.check_deck's
answer for the current cards, cached on the deck for browsing (R 9).
"""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from cards_data.models import Card
from engine.deck import RULESETS

RULESET_CHOICES = [
    ("original", _("Original (tournament)")),
    ("max4", _("Any races, at most four")),
    ("free", _("Free race choice")),
    ("simplified", _("Simplified combat")),
]
assert {key for key, _label in RULESET_CHOICES} == set(RULESETS)


class Deck(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks"
    )
    name = models.CharField(_("name"), max_length=100)
    description = models.TextField(_("description"), blank=True, max_length=5000)
    ruleset = models.CharField(
        _("ruleset"), max_length=20, choices=RULESET_CHOICES, default="original"
    )
    is_public = models.BooleanField(_("public"), default=False)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    # Read model of the latest version, for browsing and search (services.refresh_summary).
    card_count = models.PositiveSmallIntegerField(default=0)
    races = models.CharField(
        max_length=200, blank=True, help_text="comma-separated race identifiers"
    )
    is_legal = models.BooleanField(default=False, db_index=True)
    cards = models.ManyToManyField(Card, through="DeckCard", related_name="decks")

    class Meta:
        ordering = ["-updated"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("decks:detail", args=[self.pk])

    @property
    def race_list(self):
        return [r for r in self.races.split(",") if r]

    @property
    def latest_version(self):
        return self.versions.order_by("-number").first()


class DeckCard(models.Model):
    """The current content of a deck (its latest version), one row per card."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="entries")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="deck_entries")
    count = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["deck", "card"], name="one_row_per_card_in_deck")
        ]
        ordering = ["card__code"]

    def __str__(self):
        return f"{self.count} × {self.card_id} in deck {self.deck_id}"


class DeckVersion(models.Model):
    """An immutable snapshot: every save that changes a deck adds one."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True)
    ruleset = models.CharField(max_length=20, choices=RULESET_CHOICES)
    cards = models.JSONField(help_text="[[code, count], ...] sorted by code")
    comment = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["deck", "number"], name="version_numbers_unique")
        ]
        ordering = ["deck", "-number"]

    def __str__(self):
        return f"{self.deck} v{self.number}"

    def save(self, *args, **kwargs):
        if self.pk:
            raise ValueError("deck versions are immutable")
        super().save(*args, **kwargs)


class CollectionEntry(models.Model):
    """How many copies of a card a user owns."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection"
    )
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="owned_by")
    count = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "card"], name="one_row_per_owned_card")
        ]
        ordering = ["card__code"]

    def __str__(self):
        return f"{self.owner_id} owns {self.count} × card {self.card_id}"
