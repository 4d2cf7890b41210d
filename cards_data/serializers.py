from django.db.models import CharField, F, Func
from django.urls import reverse
from rest_framework import serializers

from .models import Card, Edition, Keyword, bonus_pairs


class KeywordSlugs(Func):
    """A card's keyword slugs as one comma-separated string, in slug order (None for none):
    a correlated subquery, so a page of cards and their keywords come in one query where a
    prefetch took a second one (issue 40). The order is the prefetch's, Keyword's
    Meta.ordering, sorted by the database as the prefetch's ORDER BY sorts it."""

    output_field = CharField()

    def __init__(self):
        super().__init__(F("pk"))

    def as_sql(self, compiler, connection, **extra):
        # PostgreSQL: an ordered aggregate. SQLite (3.40 has no ORDER BY inside an
        # aggregate): GROUP_CONCAT over an ordered subquery, which SQLite never flattens
        # into an aggregate query (its rule 16), so the rows arrive in their order.
        name = connection.ops.quote_name
        link = Card.keywords.through._meta
        join = (
            f"FROM {name(link.db_table)} kgk_link INNER JOIN {name(Keyword._meta.db_table)} "
            f"kgk_kw ON kgk_kw.{name(Keyword._meta.pk.column)} = "
            f"kgk_link.{name(link.get_field('keyword').column)} "
            f"WHERE kgk_link.{name(link.get_field('card').column)} = %(expressions)s"
        )
        if connection.vendor == "postgresql":
            template = f"(SELECT STRING_AGG(kgk_kw.slug, ',' ORDER BY kgk_kw.slug) {join})"
        else:
            # names from the models' metadata, quoted; the card is the outer query's column
            template = (
                "(SELECT GROUP_CONCAT(slug, ',') FROM "  # nosec B608
                f"(SELECT kgk_kw.slug AS slug {join} ORDER BY kgk_kw.slug))"
            )
        return super().as_sql(compiler, connection, template=template, **extra)


def with_keyword_slugs(queryset):
    """`queryset` with each card's edition joined and its keywords' slugs annotated: one
    query for a page, which CardSerializer reads instead of a prefetch."""
    return queryset.select_related("edition").annotate(keyword_slugs=KeywordSlugs())


class CardSerializer(serializers.ModelSerializer):
    """A card as the API shows it; names and values are RULES §23's identifiers."""

    edition = serializers.SlugRelatedField(slug_field="code", read_only=True)
    keywords = serializers.SlugRelatedField(slug_field="slug", many=True, read_only=True)
    race = serializers.SerializerMethodField()
    clan = serializers.SerializerMethodField()
    credit_cost = serializers.SerializerMethodField()
    upgrade_limit = serializers.SerializerMethodField()
    bonus = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    class Meta:
        model = Card
        fields = [
            "code", "name", "name_en", "race", "type", "subtype", "rarity", "clan", "edition",
            "credit_cost", "speed", "firepower", "armour", "bombardment", "size", "hangar_size",
            "upgrade_limit", "bonus", "keywords", "abilities", "text_hu", "text_en",
            "flavor_hu", "flavor_en", "url",
        ]  # fmt: skip

    def to_representation(self, card) -> dict:
        """DRF's walk over the fields above, written out: the same keys in the same order
        with the same values (tests/cards_data/test_api.py compares them card by card).
        The walk (a lookup, a None check and a field's to_representation per value) was
        most of the serialising time of a search's page (issue 40). A row of `ROW_FIELDS`
        (a values() query: no model instance) is written out by `row_representation`."""
        if isinstance(card, dict):
            return row_representation(card)
        edition = card.edition
        return {
            "code": card.code,
            "name": card.name,
            "name_en": card.name_en,
            "race": self.get_race(card),
            "type": card.type,
            "subtype": card.subtype,
            "rarity": card.rarity,
            "clan": self.get_clan(card),
            "edition": edition.code if edition is not None else None,
            "credit_cost": self.get_credit_cost(card),
            "speed": card.speed,
            "firepower": card.firepower,
            "armour": card.armour,
            "bombardment": card.bombardment,
            "size": card.size,
            "hangar_size": card.hangar_size,
            "upgrade_limit": self.get_upgrade_limit(card),
            "bonus": self.get_bonus(card),
            "keywords": self.get_keyword_slugs(card),
            "abilities": card.abilities,
            "text_hu": card.text_hu,
            "text_en": card.text_en,
            "flavor_hu": card.flavor_hu,
            "flavor_en": card.flavor_en,
            "url": self.get_url(card),
        }

    @staticmethod
    def get_keyword_slugs(card) -> list[str]:
        """The annotation of with_keyword_slugs when the card has it, else the prefetch."""
        try:
            slugs = card.keyword_slugs
        except AttributeError:
            return [keyword.slug for keyword in card.keywords.all()]
        return slugs.split(",") if slugs else []

    def get_race(self, card) -> str | None:
        return card.race or None

    def get_clan(self, card) -> str | None:
        return card.clan or None

    def get_credit_cost(self, card) -> int | dict:
        """An integer, or {"kind": ...} for a variable cost (R 21.3)."""
        return card.credit_cost if card.credit_cost is not None else {"kind": card.cost_kind}

    def get_upgrade_limit(self, card) -> int | str | None:
        if not card.upgrade_limit:
            return None
        return (
            card.upgrade_limit_value if card.upgrade_limit_value is not None else card.upgrade_limit
        )

    def get_bonus(self, card) -> dict | None:
        return dict(card.bonuses) or None

    def get_url(self, card) -> str:
        return card.get_absolute_url()


# What the card list reads of each card when it asks for values() instead of instances:
# building a model instance per card (its __init__, pre_init/post_init, the edition's) was a
# sixth of a search's CPU, and nothing on the list needs the instance (issue 40).
ROW_FIELDS = (
    "code", "name", "name_en", "race", "type", "subtype", "rarity", "clan", "edition__code",
    "credit_cost", "cost_kind", "speed", "firepower", "armour", "bombardment", "size",
    "hangar_size", "upgrade_limit", "upgrade_limit_value", "bonus_speed", "bonus_firepower",
    "bonus_armour", "bonus_bombardment", "keyword_slugs", "abilities", "text_hu", "text_en",
    "flavor_hu", "flavor_en",
)  # fmt: skip


def row_representation(row: dict) -> dict:
    """A card as CardSerializer writes it, from a values() row of ROW_FIELDS (the same keys,
    order and values: tests/cards_data/test_api_fast_paths.py compares every card)."""
    cost = row["credit_cost"]
    limit = row["upgrade_limit"]
    slugs = row["keyword_slugs"]
    bonus = bonus_pairs(
        row["bonus_speed"], row["bonus_firepower"], row["bonus_armour"], row["bonus_bombardment"]
    )
    return {
        "code": row["code"],
        "name": row["name"],
        "name_en": row["name_en"],
        "race": row["race"] or None,
        "type": row["type"],
        "subtype": row["subtype"],
        "rarity": row["rarity"],
        "clan": row["clan"] or None,
        "edition": row["edition__code"],
        "credit_cost": cost if cost is not None else {"kind": row["cost_kind"]},
        "speed": row["speed"],
        "firepower": row["firepower"],
        "armour": row["armour"],
        "bombardment": row["bombardment"],
        "size": row["size"],
        "hangar_size": row["hangar_size"],
        "upgrade_limit": (
            (row["upgrade_limit_value"] if row["upgrade_limit_value"] is not None else limit)
            if limit
            else None
        ),
        "bonus": dict(bonus) or None,
        "keywords": slugs.split(",") if slugs else [],
        "abilities": row["abilities"],
        "text_hu": row["text_hu"],
        "text_en": row["text_en"],
        "flavor_hu": row["flavor_hu"],
        "flavor_en": row["flavor_en"],
        "url": reverse("cards:detail", args=[row["code"]]),
    }


class EditionSerializer(serializers.ModelSerializer):
    cards = serializers.IntegerField(source="card_count", read_only=True)

    class Meta:
        model = Edition
        fields = ["code", "name_hu", "name_en", "prefix", "cards"]
