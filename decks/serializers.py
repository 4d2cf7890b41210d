from rest_framework import serializers

from engine.deck import DECK_SIZE

from .models import Deck, DeckVersion
from .play import RULESETS


class EntrySerializer(serializers.Serializer):
    code = serializers.CharField(max_length=16)
    count = serializers.IntegerField(min_value=1, max_value=DECK_SIZE)


class DeckInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    description = serializers.CharField(
        max_length=5000, required=False, allow_blank=True, default=""
    )
    ruleset = serializers.ChoiceField(choices=list(RULESETS), default="original")
    is_public = serializers.BooleanField(default=False)
    comment = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    cards = EntrySerializer(many=True, allow_empty=True)

    def validate_cards(self, value):
        if len(value) > 200:
            raise serializers.ValidationError("At most 200 different cards.")
        return value


class ValidateInputSerializer(serializers.Serializer):
    """Cards as code/count entries, or a decklist in the text format."""

    ruleset = serializers.ChoiceField(choices=list(RULESETS), default="original")
    cards = EntrySerializer(many=True, required=False)
    text = serializers.CharField(
        required=False, allow_blank=True, max_length=200_000, trim_whitespace=False
    )

    def validate(self, attrs):
        if "cards" not in attrs and "text" not in attrs:
            raise serializers.ValidationError(
                "Send either 'cards' (a list of {code, count}) or 'text' (a decklist)."
            )
        return attrs


class DeckSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", read_only=True)
    cards = serializers.SerializerMethodField()
    races = serializers.ListField(source="race_list", child=serializers.CharField(), read_only=True)
    version = serializers.SerializerMethodField()
    url = serializers.CharField(source="get_absolute_url", read_only=True)

    class Meta:
        model = Deck
        fields = [
            "id", "name", "description", "ruleset", "is_public", "owner", "card_count", "races",
            "is_legal", "cards", "version", "created", "updated", "url",
        ]  # fmt: skip

    def get_cards(self, deck) -> list[dict]:
        return [
            {"code": e.card.code, "count": e.count, "name": e.card.name, "name_en": e.card.name_en}
            for e in deck.entries.all()
        ]

    def get_version(self, deck) -> int:
        return max((v.number for v in deck.versions.all()), default=0)


class DeckVersionSerializer(serializers.ModelSerializer):
    class Meta:
        model = DeckVersion
        fields = ["number", "name", "description", "ruleset", "cards", "comment", "created"]
