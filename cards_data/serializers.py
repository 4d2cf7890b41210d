from django.db.models import CharField, F, Func
from rest_framework import serializers

from .models import Card, Edition, Keyword


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
        most of the serialising time of a search's page (issue 40)."""
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


class EditionSerializer(serializers.ModelSerializer):
    cards = serializers.IntegerField(source="card_count", read_only=True)

    class Meta:
        model = Edition
        fields = ["code", "name_hu", "name_en", "prefix", "cards"]
