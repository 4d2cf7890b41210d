"""The tournaments REST API's serializers: what each endpoint of api.py reads from a
request and writes in its answer."""

from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from . import pairing_warnings
from .models import ForbiddenPair, Penalty, Registration, Round, TableSet, Tournament
from .rules import date_out_of_range
from .selectors import round_deadline


class TournamentInput(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    date = serializers.DateField()
    place = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    online = serializers.BooleanField(required=False, default=False)
    swiss_rounds = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=20, default=None
    )
    match_format = serializers.ChoiceField(["bo1", "bo3"], required=False, default="bo1")
    game_minutes = serializers.IntegerField(required=False, min_value=10, max_value=180, default=60)
    decklist_deadline = serializers.DateTimeField(required=False, allow_null=True, default=None)
    play_third_place = serializers.BooleanField(required=False, default=True)
    play_all_three = serializers.BooleanField(
        required=False, default=False, help_text="R 18.3.4: play a playoff set's third game at 2-0"
    )
    late_entry_losses = serializers.BooleanField(
        required=False, default=True, help_text="missed rounds of late entrants as 0-2 losses"
    )
    judges = serializers.ListField(child=serializers.CharField(), required=False, default=list)

    def validate_date(self, value):
        problem = date_out_of_range(value)
        if problem:
            raise ValidationError(problem)
        return value

    def validate_decklist_deadline(self, value):
        problem = date_out_of_range(value)
        if problem:
            raise ValidationError(problem)
        return value


class TournamentSerializer(serializers.ModelSerializer):
    organiser = serializers.CharField(source="organiser.username")
    judges = serializers.SlugRelatedField(many=True, read_only=True, slug_field="username")
    players = serializers.SerializerMethodField()
    planned_rounds = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "date",
            "place",
            "online",
            "organiser",
            "judges",
            "swiss_rounds",
            "planned_rounds",
            *Tournament.PLAY_SETTINGS,
            "status",
            "started_at",
            "players",
        ]

    def get_players(self, obj) -> int:
        return obj.registrations.filter(dropped=False).count()

    def get_planned_rounds(self, obj) -> int:
        return obj.planned_rounds()


class RegistrationSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="player.username")

    class Meta:
        model = Registration
        fields = [
            "id",
            "player",
            "deck_name",
            "deck_version",
            "checked_in",
            "dropped",
            "dropped_after_round",
            "disqualified",
            "late_entry_round",
            "playoff_seed",
        ]


class MatchSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number", allow_null=True, default=None)
    player_a = serializers.CharField(source="player_a.player.username")
    player_b = serializers.CharField(
        source="player_b.player.username", default=None, allow_null=True, help_text="null: a bye"
    )
    reported_by = serializers.CharField(
        source="reported_by.player.username",
        default=None,
        allow_null=True,
        help_text="null: nobody has reported",
    )
    first_player = serializers.CharField(
        source="first_player.player.username",
        default=None,
        allow_null=True,
        help_text="null: not chosen (a Swiss match, or before the higher seed's choice)",
    )
    online_games = serializers.SerializerMethodField()

    class Meta:
        model = TableSet
        fields = [
            "id",
            "tournament",
            "stage",
            "round",
            "table",
            "player_a",
            "player_b",
            "games_a",
            "games_b",
            "status",
            "reported_by",
            "judge_reason",
            "first_player",
            "online_games",
        ]

    def get_online_games(self, obj) -> list[dict]:
        """The set's games on the site (online events): number, game id, status, winner."""
        return [
            {
                "number": og.number,
                "game": og.game_id,
                "status": og.game.status,
                "winner": og.winner.name if og.winner_id else None,
                "judge_reason": og.judge_reason,
            }
            for og in obj.online_games.select_related("game", "winner__player")
        ]


class RoundSerializer(serializers.ModelSerializer):
    matches = MatchSerializer(many=True, read_only=True)
    deadline = serializers.SerializerMethodField()
    warnings = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = ["number", "status", "seed", "published_at", "deadline", "warnings", "matches"]

    def get_deadline(self, obj) -> str | None:
        deadline = round_deadline(obj)
        return deadline.isoformat() if deadline else None

    def get_warnings(self, obj) -> list[dict]:
        """Each warning's code and data (players by registration id) and its sentence."""
        return pairing_warnings.round_warnings(obj)


class ResultInput(serializers.Serializer):
    games_a = serializers.IntegerField(min_value=0, max_value=3, required=False, default=0)
    games_b = serializers.IntegerField(min_value=0, max_value=3, required=False, default=0)
    timed_out = serializers.BooleanField(required=False, default=False)


class JudgeInput(serializers.Serializer):
    games_a = serializers.IntegerField(min_value=0, max_value=3)
    games_b = serializers.IntegerField(min_value=0, max_value=3)
    reason = serializers.ChoiceField(["time", "ruling", "correction"])


class JudgeGameInput(serializers.Serializer):
    game = serializers.IntegerField(min_value=1, max_value=3, help_text="game number in the set")
    winner = serializers.CharField(max_length=150, help_text="user name of one of the players")
    reason = serializers.ChoiceField(["time", "ruling"], help_text="R 18.4")


class RegisterInput(serializers.Serializer):
    deck = serializers.IntegerField(help_text="the id of one of your decks")


class LateEntryInput(serializers.Serializer):
    player = serializers.CharField()
    deck = serializers.IntegerField()


class ForbiddenPairInput(serializers.Serializer):
    player_a = serializers.CharField(max_length=150, help_text="user name of a registered player")
    player_b = serializers.CharField(max_length=150, help_text="user name of a registered player")
    reason = serializers.CharField(max_length=ForbiddenPair.REASON_MAX)


class ForbiddenPairSerializer(serializers.ModelSerializer):
    player_a = serializers.CharField(source="player_a.player.username")
    player_b = serializers.CharField(source="player_b.player.username")
    created_by = serializers.CharField(source="created_by.username")

    class Meta:
        model = ForbiddenPair
        fields = ["id", "player_a", "player_b", "reason", "created_by", "created"]


class PenaltyInput(serializers.Serializer):
    player = serializers.CharField(max_length=150, help_text="user name of a registered player")
    penalty = serializers.ChoiceField([code for code, _label in Penalty.KINDS])
    infraction = serializers.ChoiceField([code for code, _label in Penalty.INFRACTIONS])
    note = serializers.CharField(
        max_length=Penalty.NOTE_MAX, required=False, allow_blank=True, default=""
    )


class PenaltySerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="registration.player.username")
    penalty = serializers.CharField(source="kind", help_text="warning, game_loss, ...")
    penalty_label = serializers.CharField(source="get_kind_display")
    infraction_label = serializers.CharField(source="get_infraction_display")
    given_by = serializers.CharField(source="given_by.username")
    match = serializers.IntegerField(
        source="match_id", allow_null=True, help_text="the match whose result it changed"
    )

    class Meta:
        model = Penalty
        fields = [
            "id",
            "player",
            "penalty",
            "penalty_label",
            "infraction",
            "infraction_label",
            "note",
            "match",
            "applied",
            "given_by",
            "created",
        ]


class PrizesInput(serializers.Serializer):
    cards = serializers.DictField(child=serializers.CharField(), help_text='{"1": code, ...}')
    identical = serializers.BooleanField(
        required=False,
        default=False,
        help_text="true: award the same card to two or more places on purpose (else 400)",
    )
