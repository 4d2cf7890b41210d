"""Deck lab: a run of simulated games (heuristic bots) of one deck against the gauntlet.

A run is split into chunks of games so several Celery workers share it; each chunk
stores its own tallies, and the run's results are sums over its finished chunks.
"""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from cardgame import bots

from . import simulation


def new_seed() -> str:
    return secrets.token_hex(8)


class LabRun(models.Model):
    # Who plays the games: the heuristic bot, or the thinking (search) bot at a strength;
    # the same bot plays both sides (docs/rulings.md "Deck lab: the bot plays both sides").
    BOT_CHOICES = bots.bot_choices(simulation.BOTS)
    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
    STATUS_CHOICES = [
        (QUEUED, _("Queued")),
        (RUNNING, _("Running")),
        (DONE, _("Finished")),
        (FAILED, _("Failed")),
    ]

    deck = models.ForeignKey("decks.Deck", on_delete=models.CASCADE, related_name="lab_runs")
    deck_version = models.PositiveIntegerField(default=0)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lab_runs"
    )
    ruleset = models.CharField(max_length=20, default="original")
    colony = models.JSONField(help_text="[[code, count], ...] frozen when the run starts")
    games = models.PositiveIntegerField()
    bot = models.CharField(max_length=16, choices=BOT_CHOICES, default="heuristic")
    seed = models.CharField(max_length=32, default=new_seed)
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=QUEUED)
    # The fingerprint of the card definitions the games were played with (the deck's and
    # the gauntlet's; cards_data.definitions.digest): a run is out of date once the
    # catalogue's differ. Runs made before it was kept have none, and are out of date: they
    # were played without the printed stat bonuses and upgrade limits (issue 34).
    definitions = models.CharField(max_length=16, blank=True)
    error = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self):
        return f"lab run {self.pk} of deck {self.deck_id} ({self.games} games)"


class LabChunk(models.Model):
    """Games [first, first + games) against one reference colony, played by one task."""

    PENDING, DONE, FAILED = "pending", "done", "failed"

    run = models.ForeignKey(LabRun, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    opponent = models.CharField(max_length=30, help_text="reference colony key")
    first = models.PositiveIntegerField(help_text="index of the first game against this opponent")
    games = models.PositiveIntegerField()
    status = models.CharField(max_length=10, default=PENDING)
    # On the play = the lab's deck is the starting player (R 10.2); on the draw = it is not.
    play_games = models.PositiveIntegerField(default=0)
    play_wins = models.PositiveIntegerField(default=0)
    draw_games = models.PositiveIntegerField(default=0)
    draw_wins = models.PositiveIntegerField(default=0)
    unfinished = models.PositiveIntegerField(default=0, help_text="stopped by the turn limit")
    turns = models.PositiveIntegerField(default=0, help_text="sum over the chunk's games")
    worker = models.CharField(max_length=120, blank=True, help_text="host:pid that played it")
    bot = models.CharField(
        max_length=40, blank=True, help_text="the bots that played it, as they name themselves"
    )
    seconds = models.FloatField(default=0.0)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["run", "index"]
        constraints = [models.UniqueConstraint(fields=["run", "index"], name="one_chunk_per_index")]

    def __str__(self):
        return f"chunk {self.index} of run {self.run_id}"


class AdviceRun(models.Model):
    """Deck advice (issue 39): candidate changes of a deck raced against it in the lab's
    games (decklab.racing), the best re-measured on fresh seeds. Each round of the race is
    split into chunks (AdviceChunk) that the workers share, as a lab run's; the chunk that
    ends a round judges it and queues the next (decklab.advice_play)."""

    QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
    STATUS_CHOICES = [
        (QUEUED, _("Queued")),
        (RUNNING, _("Running")),
        (DONE, _("Finished")),
        (FAILED, _("Failed")),
        (CANCELLED, _("Cancelled")),
    ]
    CATALOGUE, COLLECTION = "catalogue", "collection"

    deck = models.ForeignKey("decks.Deck", on_delete=models.CASCADE, related_name="advice_runs")
    deck_version = models.PositiveIntegerField(default=0)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="advice_runs"
    )
    ruleset = models.CharField(max_length=20, default="original")
    colony = models.JSONField(help_text="[[code, count], ...] frozen when the run starts")
    source = models.CharField(max_length=12, default=CATALOGUE, help_text="where swaps come from")
    bot = models.CharField(max_length=16, default="heuristic")
    seed = models.CharField(max_length=32, default=new_seed)
    budget = models.PositiveIntegerField(help_text="games the run may play, all included")
    games_played = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=QUEUED)
    cancel_requested = models.BooleanField(default=False)
    # [{"out", "into", "count", "verdict", "games", "change", "low", "high", "splits": [...]}]
    candidates = models.JSONField(default=list)
    # {"changes": [...], "games", "change", "low", "high", "holds"} once the race is over
    remeasured = models.JSONField(null=True, blank=True)
    rounds = models.PositiveIntegerField(default=0)
    # The race between the chunks (decklab.advice_play.RaceState): the tallies and verdicts
    # of the rounds judged, the round in hand, and the re-measurement's plan and tally.
    race = models.JSONField(default=dict)
    # The metagame when the run started (decklab.metagame.snapshot): the archetypes played
    # as its gauntlet and tried first for swaps; {} for the reference colonies.
    metagame = models.JSONField(default=dict, blank=True)
    applied_version = models.PositiveIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    # Every save of the run's progress: an active run that stopped moving lost its worker.
    progressed = models.DateTimeField(auto_now=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self):
        return f"advice run {self.pk} of deck {self.deck_id}"

    @property
    def active(self) -> bool:
        return self.status in (self.QUEUED, self.RUNNING)


class AdviceChunk(models.Model):
    """Game indices [first, first + games) of one round of an advice run, played by the deck
    and the candidates `who` (common random numbers: the same seeds), or of the fresh
    re-measurement (`fresh`: the deck and the recommended deck). One task plays it."""

    PENDING, DONE = "pending", "done"

    run = models.ForeignKey(AdviceRun, on_delete=models.CASCADE, related_name="chunks")
    round = models.PositiveIntegerField(help_text="the race's round; the last + 1 when fresh")
    fresh = models.BooleanField(default=False)
    first = models.PositiveIntegerField()
    games = models.PositiveIntegerField(help_text="game indices (each played by every deck)")
    who = models.JSONField(default=list, help_text="the candidates' indices")
    status = models.CharField(max_length=10, default=PENDING)
    worker = models.CharField(max_length=120, blank=True, help_text="host:pid that played it")
    seconds = models.FloatField(default=0.0)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["run", "round", "first"]
        indexes = [models.Index(fields=["run", "status"], name="advice_chunk_run_status")]

    def __str__(self):
        return f"advice chunk {self.round}/{self.first} of run {self.run_id}"
