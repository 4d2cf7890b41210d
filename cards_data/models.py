"""The catalogue as the database holds it: a read model of the files in cards_data/sets.

The files are the single source of card truth (DESIGN.md); `manage.py load_cards`
upserts them here for browsing, search and the API. Field names are RULES §23's.
"""

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from cardgame.language import current_language, is_english
from engine import catalog


def _choices(table):
    return [(key, names["en"]) for key, names in table.items()]


def _subtype_choices():
    return [(sub, names["en"]) for subs in catalog.SUBTYPES.values() for sub, names in subs.items()]


class Edition(models.Model):
    code = models.SlugField(unique=True)
    name_hu = models.CharField(max_length=100)
    name_en = models.CharField(max_length=100)
    prefix = models.CharField(max_length=10)

    class Meta:
        ordering = ["code"]

    def __str__(self):
        return self.name_en

    @property
    def name(self):
        return self.name_en if is_english() else self.name_hu


class Keyword(models.Model):
    """A ship ability of R 13 (burst_fire, formation, ...)."""

    slug = models.SlugField(unique=True)
    name_hu = models.CharField(max_length=60)
    name_en = models.CharField(max_length=60)

    class Meta:
        ordering = ["slug"]

    def __str__(self):
        return self.slug

    @property
    def name(self):
        return self.name_en if is_english() else self.name_hu


class CardQuerySet(models.QuerySet):
    def with_related(self):
        return self.select_related("edition").prefetch_related("keywords")


def bonus_pairs(speed, firepower, armour, bombardment) -> list[tuple[str, int]]:
    """The printed stat bonuses that are there, as (stat, value) in the stats' order."""
    pairs = [
        ("speed", speed),
        ("firepower", firepower),
        ("armour", armour),
        ("bombardment", bombardment),
    ]
    return [(stat, value) for stat, value in pairs if value]


class Card(models.Model):
    code = models.CharField(_("code"), max_length=16, unique=True)
    name = models.CharField(_("Hungarian name"), max_length=120, db_index=True)
    name_en = models.CharField(_("English name"), max_length=120)
    race = models.CharField(
        max_length=20, choices=_choices(catalog.RACES), blank=True, db_index=True
    )
    type = models.CharField(max_length=20, choices=_choices(catalog.TYPES), db_index=True)
    subtype = models.CharField(max_length=20, choices=_subtype_choices(), db_index=True)
    rarity = models.CharField(max_length=20, choices=_choices(catalog.RARITIES), db_index=True)
    clan = models.CharField(
        max_length=30, choices=_choices(catalog.CLANS), blank=True, db_index=True
    )
    edition = models.ForeignKey(Edition, on_delete=models.PROTECT, related_name="cards")

    # A number, or null with cost_kind naming a variable cost (Felülbírálás, R 21.3).
    credit_cost = models.PositiveSmallIntegerField(null=True, blank=True, db_index=True)
    cost_kind = models.CharField(max_length=40, blank=True)

    speed = models.PositiveSmallIntegerField(null=True, blank=True)
    firepower = models.PositiveSmallIntegerField(null=True, blank=True)
    armour = models.PositiveSmallIntegerField(null=True, blank=True)
    bombardment = models.PositiveSmallIntegerField(null=True, blank=True)
    size = models.PositiveSmallIntegerField(null=True, blank=True, help_text="R 4.2.3")
    hangar_size = models.PositiveSmallIntegerField(null=True, blank=True, help_text="AMB-09")

    upgrade_limit = models.CharField(
        max_length=4, blank=True, db_index=True, help_text="a number, X or ?"
    )
    upgrade_limit_value = models.PositiveSmallIntegerField(null=True, blank=True)

    bonus_speed = models.SmallIntegerField(null=True, blank=True)
    bonus_firepower = models.SmallIntegerField(null=True, blank=True)
    bonus_armour = models.SmallIntegerField(null=True, blank=True)
    bonus_bombardment = models.SmallIntegerField(null=True, blank=True)

    keywords = models.ManyToManyField(Keyword, blank=True, related_name="cards")
    # The set file's entry as the engine reads it (cards_data/definitions.py): the columns
    # above and below serve search and display; every game is played with this.
    definition = models.JSONField(default=dict, blank=True, editable=False)
    abilities = models.JSONField(default=list, blank=True)
    text_hu = models.TextField(blank=True)
    text_en = models.TextField(blank=True)
    flavor_hu = models.TextField(blank=True)
    flavor_en = models.TextField(blank=True)

    # Accent- and case-folded copies for search (fold() in cards_data.search.normalize).
    search_name = models.TextField(blank=True, editable=False)
    search_text = models.TextField(blank=True, editable=False)

    source_file = models.CharField(max_length=200, blank=True)

    objects = CardQuerySet.as_manager()

    class Meta:
        ordering = ["code"]

    def __str__(self):
        return f"{self.code} {self.name}"

    def get_absolute_url(self):
        return reverse("cards:detail", args=[self.code])

    @property
    def display_name(self):
        return self.name_en if is_english() else self.name

    @property
    def other_name(self):
        return self.name if is_english() else self.name_en

    @property
    def text(self):
        return self.text_en if is_english() else self.text_hu

    @property
    def flavor(self):
        return self.flavor_en if is_english() else self.flavor_hu

    def _label(self, table, key):
        names = table.get(key)
        return names[current_language()] if names else ""

    @property
    def race_label(self):
        return self._label(catalog.RACES, self.race)

    @property
    def opposing_race(self):
        """The race that cannot share a colony with this card's (R 9.3); None for none."""
        return catalog.OPPOSING_RACE.get(self.race)

    @property
    def opposing_race_label(self):
        return self._label(catalog.RACES, self.opposing_race)

    @property
    def type_label(self):
        return self._label(catalog.TYPES, self.type)

    @property
    def subtype_label(self):
        return self._label(catalog.SUBTYPES.get(self.type, {}), self.subtype)

    @property
    def rarity_label(self):
        return self._label(catalog.RARITIES, self.rarity)

    @property
    def clan_label(self):
        return self._label(catalog.CLANS, self.clan)

    @property
    def cost_display(self):
        return "X" if self.credit_cost is None else str(self.credit_cost)

    @property
    def is_ship(self):
        return self.type == "ship"

    @property
    def stat_line(self):
        """SPD-FP-ARM-BMB as printed (R 2.5)."""
        if not self.is_ship:
            return ""
        return f"{self.speed}-{self.firepower}-{self.armour}-{self.bombardment}"

    @property
    def bonuses(self):
        return bonus_pairs(
            self.bonus_speed, self.bonus_firepower, self.bonus_armour, self.bonus_bombardment
        )


class CatalogueStamp(models.Model):
    """When the catalogue (cards, editions, keywords) last changed: one row (pk 1).

    cards_data.stamp bumps it (the set loader, and the signals of a save or delete, as the
    admin's) and the catalogue's API reads build their ETag and Last-Modified from it
    (issue 40), so a client's copy stays valid until the next change and no longer."""

    changed = models.DateTimeField()
    token = models.CharField(max_length=32)  # random: a new one for every change

    def __str__(self):
        return f"catalogue changed {self.changed:%Y-%m-%d %H:%M:%S} ({self.token})"
