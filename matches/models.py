"""One Match row is ONE game of KGK (docs/matches-api.md). Its state is a snapshot (the
engine's dump at `snapshot_version`) and the applied `ActionRequest`s since, the append-only
log that replays to the current position (matches/positions.py).

The web tier never runs the rules: it reads `deciding_seat` and `legal_ids`, which the
worker writes in the same transaction as the version, to validate a request cheaply.
"""

from django.conf import settings
from django.db import models

from .positions import current_dump


class Match(models.Model):
    INVITED, OPEN, ACTIVE = "invited", "open", "active"
    FINISHED, ABORTED, NEEDS_JUDGE = "finished", "aborted", "needs_judge"
    STATUSES = [(s, s) for s in (INVITED, OPEN, ACTIVE, FINISHED, ABORTED, NEEDS_JUDGE)]
    RESULTS = [
        (r, r) for r in ("colony", "concede", "timeout", "judge", "turn_limit", "elimination")
    ]
    MIN_SEATS, MAX_SEATS = 2, 6  # R 17.1: a multiplayer table seats three to six colonies

    status = models.CharField(max_length=12, choices=STATUSES, default=ACTIVE, db_index=True)
    ruleset = models.CharField(max_length=20, default="original")
    # Extra engine.ruleset.Ruleset flags (e.g. turn_limit for short bot games); {} = defaults.
    engine_options = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField()
    starting_player = models.SmallIntegerField(null=True, blank=True)
    # The engine's dump at snapshot_version, rewritten every positions.SNAPSHOT_EVERY
    # versions and when the game ends, not per move (issue 16: ~21 kB a move). The column
    # keeps its old name: before the log it held the dump of every version.
    snapshot = models.TextField(blank=True, db_column="state")
    snapshot_version = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(default=0)
    seq = models.PositiveIntegerField(default=0)
    deciding_seat = models.SmallIntegerField(null=True, blank=True)
    decision = models.CharField(max_length=40, blank=True)
    legal_ids = models.JSONField(default=list, blank=True)
    winner_seat = models.SmallIntegerField(null=True, blank=True)
    result = models.CharField(max_length=12, choices=RESULTS, blank=True)
    result_reason = models.CharField(max_length=200, blank=True)
    casual = models.BooleanField(default=True)
    # A rated game (issue 37, ratings/): only between people who all opted in, never with a
    # bot; the ratings app updates their ratings once when it finishes.
    rated = models.BooleanField(default=False)
    # How many seats the table has (2, or 3-6 for a multiplayer table, R 17.1); an open
    # table has that many Seat rows, the empty ones without a user until it starts.
    seat_count = models.PositiveSmallIntegerField(default=2)
    # A multiplayer game's final ranking, seats best first (R 17.1.6, AMB-44); [] otherwise.
    ranking = models.JSONField(default=list, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    updated = models.DateTimeField(auto_now=True)
    # Clocks (matches/clocks.py): the current decision started at decision_started and must
    # be answered by decision_deadline; the whole game ends at game_deadline (R 18.4).
    decision_limit = models.PositiveIntegerField(default=60)
    # The named time control chosen when the game was created (matches/clocks.py
    # TIME_CONTROLS: untimed, relaxed, standard, quick; `tournament`: R 18.4). "" for a game
    # made before them: the old casual clock (a bank, no increment).
    time_control = models.CharField(max_length=16, blank=True, default="")
    decision_started = models.DateTimeField(null=True, blank=True)
    decision_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    game_time_limit = models.PositiveIntegerField(null=True, blank=True)
    game_deadline = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["status", "decision_deadline"])]

    def __str__(self):
        return f"match {self.pk} ({self.status})"

    @property
    def is_over(self) -> bool:
        return self.status in (self.FINISHED, self.ABORTED, self.NEEDS_JUDGE)

    @property
    def multiplayer(self) -> bool:
        return self.seat_count > 2

    @property
    def state(self) -> str:
        """The engine's dump of the position at `version` ("" before the game starts): the
        snapshot with the actions applied since, replayed. Server-side only (R 16)."""
        return current_dump(self)


class Seat(models.Model):
    BOTS = [
        ("", "human"),
        ("random", "random"),
        ("heuristic", "heuristic"),
        ("search-easy", "search-easy"),  # engine.search (issue 18)
        ("search-normal", "search-normal"),
        ("search-hard", "search-hard"),
    ]

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    seat = models.SmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="match_seats",
    )
    bot = models.CharField(max_length=16, choices=BOTS, blank=True)
    deck = models.ForeignKey(
        "decks.Deck", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    colony = models.JSONField(default=list, blank=True)  # 45 card codes, frozen (R 9)
    time_bank = models.FloatField(default=0)  # seconds left
    # At a multiplayer table a player who leaves (concedes, or runs out of time) leaves a
    # bot playing their colony on, so the table never waits for them (docs/rulings.md).
    stand_in = models.CharField(max_length=16, choices=BOTS, blank=True)

    class Meta:
        ordering = ["seat"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="one_row_per_seat")]

    def __str__(self):
        return f"seat {self.seat} of match {self.match_id}"

    @property
    def display_name(self) -> str:
        if self.bot:
            return f"{self.bot} bot"
        return self.user.get_username() if self.user_id else "?"

    @property
    def playing_bot(self) -> str:
        """The bot that makes this seat's decisions ("" when its player decides)."""
        return self.bot or self.stand_in


class ActionRequest(models.Model):
    PENDING, APPLIED, REJECTED = "pending", "applied", "rejected"
    STATUSES = [(s, s) for s in (PENDING, APPLIED, REJECTED)]
    # Who made the request. A player's id is unique among that match's client requests only,
    # so no id a client picks can take the place of a move the server makes for a bot or a
    # clock (`bot:<version>`, `timeout:<version>`; issue 11).
    CLIENT, BOT, CLOCK = "client", "bot", "clock"
    ORIGINS = [(o, o) for o in (CLIENT, BOT, CLOCK)]

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="requests")
    seat = models.SmallIntegerField()
    origin = models.CharField(max_length=6, choices=ORIGINS, default=CLIENT)
    client_action_id = models.CharField(max_length=64)
    expected_version = models.PositiveIntegerField()
    action = models.CharField(max_length=200)
    status = models.CharField(max_length=10, choices=STATUSES, default=PENDING)
    code = models.CharField(max_length=40, blank=True)
    message = models.CharField(max_length=300, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    applied_version = models.PositiveIntegerField(null=True, blank=True)
    # A search bot's move (issue 18): its top three options as engine.search explains them,
    # [[action id, playouts, estimated win rate], ...] best first; null for every other
    # move. Never sent while the game runs: only the replay of a finished game shows it, to
    # the match's players (selectors.replay, docs/rulings.md).
    explanation = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "origin", "client_action_id"],
                name="one_request_per_origin_and_action_id",
            )
        ]
        indexes = [models.Index(fields=["match", "status"])]

    def __str__(self):
        return f"{self.action} by seat {self.seat} ({self.status})"


class MatchEvent(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    version = models.PositiveIntegerField()
    data = models.JSONField()  # the raw engine event (server-side only; see selectors)

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="one_event_per_seq")]

    def __str__(self):
        return f"event {self.seq} of match {self.match_id}"
