"""The statistics' stored figures (docs/stats.md): kept up to date as games end
(recording.py), rebuilt from the stored games by `manage.py rebuild_stats`.

`ProcessedGame` is the idempotence key: a game's figures are added in the same
transaction as its row, so a game processed twice (a task delivered twice, a rebuild
racing a worker) counts once. `SeatResult` is one row per player of a processed game
(the deck and player pages read it); the tallies are its sums kept per key, so the pages
that cover every game (the metagame, a card) read a few rows instead of summing games.
"""

from django.conf import settings
from django.db import models


class ProcessedGame(models.Model):
    match = models.OneToOneField("matches.Match", on_delete=models.CASCADE, related_name="+")
    counted = models.BooleanField(help_text="false: processed, no figures (no winner, 3+ seats)")
    processed = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"match {self.match_id} processed"


class SeatResult(models.Model):
    """One player of a finished two-player game with a winner."""

    ONLINE, TOURNAMENT = "online", "tournament"
    SOURCES = [(ONLINE, ONLINE), (TOURNAMENT, TOURNAMENT)]

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="+")
    seat = models.SmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    deck = models.ForeignKey(
        "decks.Deck", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    deck_version = models.PositiveIntegerField(null=True, blank=True)
    race = models.CharField(max_length=20, blank=True)
    opponent_race = models.CharField(max_length=20, blank=True)
    won = models.BooleanField()
    bots = models.BooleanField(help_text="a bot played a seat of this game")
    source = models.CharField(max_length=12, choices=SOURCES)
    finished = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="stats_one_result_per_seat")
        ]
        indexes = [
            models.Index(fields=["deck", "deck_version"]),
            models.Index(fields=["user", "race"]),
        ]

    def __str__(self):
        return f"seat {self.seat} of match {self.match_id}: {'won' if self.won else 'lost'}"


class MatchupTally(models.Model):
    """Games of `race` against `opponent_race` in a month, and how many `race` won."""

    month = models.DateField()
    race = models.CharField(max_length=20, blank=True)
    opponent_race = models.CharField(max_length=20, blank=True)
    bots = models.BooleanField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["month", "race", "opponent_race", "bots"], name="stats_one_matchup_tally"
            )
        ]

    def __str__(self):
        return f"{self.race} v {self.opponent_race} {self.month:%Y-%m}: {self.wins}/{self.games}"


class CardTally(models.Model):
    """A card's games in colonies, when drawn and when in the opening centre, with wins."""

    code = models.CharField(max_length=16)
    bots = models.BooleanField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    drawn_games = models.PositiveIntegerField(default=0)
    drawn_wins = models.PositiveIntegerField(default=0)
    opening_games = models.PositiveIntegerField(default=0)
    opening_wins = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["code", "bots"], name="stats_one_card_tally")
        ]

    def __str__(self):
        return f"{self.code}: {self.wins}/{self.games}"

    COUNTERS = (
        "games", "wins", "drawn_games", "drawn_wins", "opening_games", "opening_wins"
    )  # fmt: skip


class DecklistRace(models.Model):
    """A tournament decklist's primary race, kept as the list is saved (receivers.py), so
    the metagame's event shares read one row per list instead of every list's cards."""

    registration = models.OneToOneField(
        "tournaments.Registration", on_delete=models.CASCADE, related_name="+"
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    race = models.CharField(max_length=20, blank=True)
    archetype = models.ForeignKey(
        "Archetype", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self):
        return f"{self.race or '-'} list in tournament {self.tournament_id}"


class DecklistCard(models.Model):
    """A card of a tournament decklist and its copies, kept with the list's race, so a
    card's page counts the lists that play it by an index instead of reading every list."""

    decklist = models.ForeignKey(DecklistRace, on_delete=models.CASCADE, related_name="cards")
    code = models.CharField(max_length=16, db_index=True)
    count = models.PositiveSmallIntegerField()

    def __str__(self):
        return f"{self.count} x {self.code} in list {self.decklist_id}"


class Archetype(models.Model):
    """A family of decklists found by clustering (clustering.py, docs/stats.md), refreshed
    with every list's place in it by `archetypes.refresh` (after a finished event, by
    `manage.py refresh_archetypes` and `rebuild_stats`), never per page view.

    `typical` and `signature` come from public lists only; a private deck's list is only
    counted in `lists` (it was placed by its nearest archetype, never shaped one)."""

    races = models.CharField(
        max_length=45, help_text="the race pair, '+'-joined, the most played in it first"
    )
    rank = models.PositiveSmallIntegerField(help_text="0: the pair's biggest archetype")
    other = models.BooleanField(help_text="the pair's lists in no archetype of their own")
    signature = models.JSONField(default=list, help_text="[code, ...] that name it")
    typical = models.JSONField(default=list, help_text="[[code, copies, share], ...]")
    lists = models.PositiveIntegerField(help_text="the lists, public and private, placed in it")
    found = models.DateTimeField(
        auto_now_add=True, help_text="the refresh that found it: the metagame's cache key"
    )

    class Meta:
        ordering = ["-lists", "races", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["races", "rank"], name="stats_one_archetype_rank")
        ]

    def __str__(self):
        return f"{self.races} #{self.rank} ({self.lists} lists)"


class DeckArchetype(models.Model):
    """The archetype of a deck's version (its page, and the games it played)."""

    deck = models.ForeignKey("decks.Deck", on_delete=models.CASCADE, related_name="+")
    version = models.PositiveIntegerField()
    archetype = models.ForeignKey(Archetype, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["deck", "version"], name="stats_one_deck_archetype")
        ]

    def __str__(self):
        return f"deck {self.deck_id} v{self.version}: archetype {self.archetype_id}"


class ArchetypeMatchupTally(models.Model):
    """Games of decks of `archetype` against decks of `opponent` in a month (a game counts
    where both seats played a saved deck's version), refreshed with the archetypes."""

    month = models.DateField()
    archetype = models.ForeignKey(Archetype, on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey(Archetype, on_delete=models.CASCADE, related_name="+")
    bots = models.BooleanField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["month", "archetype", "opponent", "bots"],
                name="stats_one_archetype_matchup",
            )
        ]

    def __str__(self):
        return (
            f"{self.archetype_id} v {self.opponent_id} {self.month:%Y-%m}: {self.wins}/{self.games}"
        )


class EventReport(models.Model):
    """A finished event's report as it was stored when the event ended (reports.py):
    shares by race and archetype, their conversion to the top four, the winning list
    (only a public or deckless list: a private deck's list is never stored here)."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    data = models.JSONField()
    made = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"report of tournament {self.tournament_id}"


class CardBeside(models.Model):
    """A card most often played beside another in public decks (the card page's "played
    beside it"), kept by `beside.refresh_beside` with the archetypes: one aggregate over
    every public deck's pairs of cards, where the page used to run it per view."""

    code = models.CharField(max_length=16)
    other = models.CharField(max_length=16)
    decks = models.PositiveIntegerField(help_text="public decks that play both")
    copies = models.FloatField(help_text="their average copies of `other`")

    class Meta:
        indexes = [models.Index(fields=["code", "-decks"])]

    def __str__(self):
        return f"{self.other} beside {self.code} in {self.decks} decks"
