"""Tournaments (R 18): events, registrations with frozen decklists, Swiss rounds,
matches, playoff, prizes and the judges' audit log.

Pairing and standings are pure functions (swiss.py, standings.py); services.py feeds them.
"""

import math
import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_seed() -> str:
    return secrets.token_hex(8)


class Tournament(models.Model):
    REGISTRATION, RUNNING, PLAYOFF, FINISHED = "registration", "running", "playoff", "finished"
    STATUS_CHOICES = [
        (REGISTRATION, _("Registration")),
        (RUNNING, _("Swiss rounds")),
        (PLAYOFF, _("Playoff")),
        (FINISHED, _("Finished")),
    ]
    FORMAT_CHOICES = [("bo1", _("Best of one")), ("bo3", _("Best of three"))]
    # How the event is played, as its organiser sets it: the form's and the API's fields.
    PLAY_SETTINGS = (
        "match_format",
        "game_minutes",
        "decklist_deadline",
        "play_third_place",
        "play_all_three",
        "late_entry_losses",
    )

    name = models.CharField(_("name"), max_length=120)
    date = models.DateField(_("date"))
    place = models.CharField(_("place"), max_length=200, blank=True)
    online = models.BooleanField(_("online"), default=False)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organised_tournaments"
    )
    judges = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="judged_tournaments"
    )
    swiss_rounds = models.PositiveSmallIntegerField(
        _("Swiss rounds"), null=True, blank=True, help_text="empty: ceil(log2(players)) (R 18.7)"
    )
    match_format = models.CharField(
        _("Swiss match format"), max_length=3, choices=FORMAT_CHOICES, default="bo1"
    )
    game_minutes = models.PositiveSmallIntegerField(_("game time limit (minutes)"), default=60)
    decklist_deadline = models.DateTimeField(_("decklist deadline"), null=True, blank=True)
    play_third_place = models.BooleanField(_("third-place match"), default=True)
    play_all_three = models.BooleanField(
        _("play all three games of a playoff set"),
        default=False,
        help_text="R 18.3.4: the third game of a playoff set is played even at 2-0",
    )
    late_entry_losses = models.BooleanField(
        _("late entrants' missed rounds count as losses in the tiebreakers"),
        default=True,
        help_text="docs/rulings.md: on (MTR), a missed round is a 0-2 loss in MW% and GW%; "
        "off, only the rounds played count",
    )
    cut_tie_draw = models.BooleanField(
        _("break a tie on every tiebreaker at the cut by a draw"),
        default=True,
        help_text="docs/rulings.md: on, players equal on points, OMW%, GW% and OGW% are "
        "ordered by a draw seeded with the event's seed; off, by registration order",
    )
    game_turn_limit = models.PositiveSmallIntegerField(
        default=0,
        help_text="simulations only: online games stop after this turn and a judge decides "
        "(R 18.4); 0 = none",
    )
    status = models.CharField(max_length=20, choices=STATUS_CHOICES, default=REGISTRATION)
    started_at = models.DateTimeField(null=True, blank=True)
    seed = models.CharField(max_length=32, default=new_seed, editable=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]

    def __str__(self):
        return self.name

    def planned_rounds(self, players: int | None = None) -> int:
        """The organiser's number, or ceil(log2(players)) (R 18.7), at least 1."""
        if self.swiss_rounds:
            return self.swiss_rounds
        if players is None:
            players = self.registrations.filter(dropped=False).count()
        return max(1, math.ceil(math.log2(players))) if players > 1 else 1


class Registration(models.Model):
    """A player's entry with the decklist frozen at registration (R 9.6, DESIGN 4)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    deck = models.ForeignKey(
        "decks.Deck", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    deck_name = models.CharField(max_length=100)
    deck_version = models.PositiveIntegerField(null=True, blank=True)
    cards = models.JSONField(help_text="frozen [[code, count], ...], sorted by code")
    checked_in = models.BooleanField(default=False)
    dropped = models.BooleanField(default=False)
    dropped_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    disqualified = models.BooleanField(
        default=False, help_text="disqualified by a judge (a penalty): dropped for good"
    )
    late_entry_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="first round played; earlier rounds are losses"
    )
    playoff_seed = models.PositiveSmallIntegerField(null=True, blank=True)
    bot = models.CharField(
        max_length=12,
        blank=True,
        help_text="simulations only: this engine bot (random/heuristic) plays the online games",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player")
        ]
        ordering = ["tournament", "id"]

    def __str__(self):
        return f"{self.player} in {self.tournament}"

    @property
    def name(self) -> str:
        return self.player.get_username()


class Round(models.Model):
    DRAFT, PUBLISHED = "draft", "published"
    STATUS_CHOICES = [(DRAFT, _("Draft")), (PUBLISHED, _("Published"))]

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=DRAFT)
    seed = models.CharField(max_length=64)
    published_at = models.DateTimeField(null=True, blank=True)
    warnings = models.JSONField(default=list, blank=True)
    notes = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")
        ]
        ordering = ["tournament", "number"]

    def __str__(self):
        return f"{self.tournament} round {self.number}"


class TableSet(models.Model):
    """The set two entrants play at a table (R 18.3.4; a "match" in R 18.7's words): one
    Swiss match (or a bye: player_b empty) or one playoff set. Its games played on the
    site are `matches.Match` rows, through `OnlineGame`; the pages still call it a match."""

    PENDING, REPORTED, CONFIRMED, DISPUTED, NEEDS_JUDGE = (
        "pending",
        "reported",
        "confirmed",
        "disputed",
        "needs_judge",
    )
    STATUS_CHOICES = [
        (PENDING, _("Not reported")),
        (REPORTED, _("Awaiting confirmation")),
        (CONFIRMED, _("Confirmed")),
        (DISPUTED, _("Disputed")),
        (NEEDS_JUDGE, _("Needs a judge (time)")),
    ]
    JUDGE_REASONS = [
        ("time", _("Time")),
        ("ruling", _("Ruling")),
        ("correction", _("Correction")),
        ("drop", _("Conceded by a drop")),
        ("penalty", _("Penalty")),
    ]
    STAGES = [
        ("swiss", _("Swiss")),
        ("semi", _("Semi-final")),
        ("final", _("Final")),
        ("third", _("Third-place match")),
    ]

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    # No index of its own: one_match_per_table's (round, table) serves every look-up by
    # round. Pairing 16,384 players writes 8,192 rows at once (issue 14): each index less
    # is 8,192 insertions less.
    round = models.ForeignKey(
        Round,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="matches",
        db_index=False,
    )
    stage = models.CharField(max_length=10, choices=STAGES, default="swiss")
    table = models.PositiveSmallIntegerField()
    player_a = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey(
        Registration, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    games_a = models.PositiveSmallIntegerField(null=True, blank=True)
    games_b = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=STATUS_CHOICES, default=PENDING)
    reported_by = models.ForeignKey(
        Registration,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,  # indexed where set only (Meta): a new match has none
    )
    judge_reason = models.CharField(max_length=12, choices=JUDGE_REASONS, blank=True)
    extra_minutes = models.PositiveSmallIntegerField(
        default=0, help_text="time extension given by a judge at this table (MTR)"
    )
    first_player = models.ForeignKey(
        Registration,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,  # indexed where set only (Meta): a new match has none
    )
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name, verbose_name_plural = "match", "matches"  # the pages' word (R 18.7)
        ordering = ["tournament", "round__number", "table"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table"],
                name="one_match_per_table",
                condition=models.Q(round__isnull=False),
            )
        ]
        indexes = [
            models.Index(
                fields=[name],
                name=f"match_{name}_set",
                condition=models.Q(**{f"{name}__isnull": False}),
            )
            for name in ("reported_by", "first_player")
        ]

    def __str__(self):
        return f"table {self.table}: {self.player_a_id} v {self.player_b_id}"

    @property
    def is_bye(self) -> bool:
        return self.player_b_id is None

    @property
    def winner(self):
        if self.games_a is None or self.games_b is None:
            return None
        return self.player_a if self.games_a > self.games_b else self.player_b


class OnlineGame(models.Model):
    """One game of a tournament match played on the site (tournaments/online.py).

    Seat 0 of the game is the match's player_a, seat 1 its player_b."""

    match = models.ForeignKey(TableSet, on_delete=models.CASCADE, related_name="online_games")
    number = models.PositiveSmallIntegerField()  # 1, 2, 3 in the set
    game = models.OneToOneField(
        "matches.Match", on_delete=models.PROTECT, related_name="tournament_game"
    )
    winner = models.ForeignKey(
        Registration, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    judge_reason = models.CharField(max_length=12, blank=True)  # time | ruling (R 18.4)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="one_online_game_per_number")
        ]
        ordering = ["match", "number"]

    def __str__(self):
        return f"game {self.number} of {self.match_id}: {self.game_id}"


class ForbiddenPair(models.Model):
    """Two players staff do not want paired against each other (R 18.2, R 18.7: the
    pairing avoids them when it can; swiss.pair_round's F tier). Stored with the lower
    registration id first, once per pair."""

    REASON_MAX = 200

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="forbidden_pairs"
    )
    player_a = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(_("reason"), max_length=REASON_MAX)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player_a", "player_b"], name="one_forbidden_pair"
            ),
            models.CheckConstraint(
                condition=models.Q(player_a__lt=models.F("player_b")),
                name="forbidden_pair_ordered",
            ),
        ]
        ordering = ["tournament", "id"]

    def __str__(self):
        return f"{self.player_a_id} / {self.player_b_id}: {self.reason}"


class Prize(models.Model):
    """An ultra-rare card for one of the top three (R 8.1.2, R 18.6)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prizes")
    place = models.PositiveSmallIntegerField()
    card = models.ForeignKey("cards_data.Card", on_delete=models.PROTECT, related_name="+")
    awarded_to = models.ForeignKey(
        Registration, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    awarded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "place"], name="one_prize_per_place")
        ]
        ordering = ["tournament", "place"]

    def __str__(self):
        return f"place {self.place}: {self.card_id}"


class Penalty(models.Model):
    """A judge's penalty (MTR-style; tournaments/penalties.py): what, for which infraction,
    and the match whose result it changed (a game or match loss), if any."""

    WARNING, GAME_LOSS, MATCH_LOSS, DISQUALIFICATION = (
        "warning",
        "game_loss",
        "match_loss",
        "disqualification",
    )
    KINDS = [
        (WARNING, _("Warning")),
        (GAME_LOSS, _("Game loss")),
        (MATCH_LOSS, _("Match loss")),
        (DISQUALIFICATION, _("Disqualification")),
    ]
    INFRACTIONS = [
        ("tardiness", _("Tardiness")),
        ("slow_play", _("Slow play")),
        ("decklist", _("Deck or decklist problem")),
        ("unsporting", _("Unsporting conduct")),
        ("procedure", _("Procedural error")),
        ("other", _("Other")),
    ]
    NOTE_MAX = 500

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="penalties"
    )
    kind = models.CharField(_("penalty"), max_length=20, choices=KINDS)
    infraction = models.CharField(_("infraction"), max_length=20, choices=INFRACTIONS)
    note = models.CharField(_("note"), max_length=NOTE_MAX, blank=True)
    match = models.ForeignKey(
        TableSet,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="penalties",
        help_text="the match whose result it changed; empty: none yet (the next match)",
    )
    applied = models.BooleanField(
        default=False, help_text="a game or match loss has changed a match's result"
    )
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]

    def __str__(self):
        return f"{self.kind} for {self.registration_id}: {self.infraction}"

    @property
    def changes_result(self) -> bool:
        return self.kind in (self.GAME_LOSS, self.MATCH_LOSS)


class AuditEntry(models.Model):
    """Every staff action (R 18.5: judges override, with an audit log)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=40)
    match = models.ForeignKey(
        TableSet, on_delete=models.SET_NULL, null=True, blank=True, related_name="audit"
    )
    data = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]

    def __str__(self):
        return f"{self.actor} {self.action}"
