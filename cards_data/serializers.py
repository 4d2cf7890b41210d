from rest_framework import serializers

from .models import Card, Edition


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
