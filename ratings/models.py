"""Ratings (issue 37, docs/ratings.md): seasons, who opted in, each person's skill per
season, and one row per rated game and per person for the history.

`RatedGame` is the idempotence key: it is created in the same transaction as the ratings'
update, under a lock of the players' `Rating` rows, so a game whose end is processed twice
(a task delivered twice, two workers) changes the ratings once.
"""

from django.conf import settings
from django.db import models

from . import skill


class Season(models.Model):
    """A stretch of time with its own ratings. `end` empty: runs until the next season opens
    (`manage.py open_season`). Names are the same in every language (e.g. "2026")."""

    name = models.CharField(max_length=40, unique=True)
    start = models.DateField()
    end = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["-start"]

    def __str__(self):
        return self.name


class OptIn(models.Model):
    """A person who takes part in ratings (default: nobody). Opting out deletes the row: their
    games are no longer rated and they leave the leaderboard; their history is kept."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_opt_in"
    )
    since = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.user_id} opted in"


class Rating(models.Model):
    """A person's skill in a season (openskill's mu and sigma) and their rated games."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField(default=skill.NEWCOMER.mu)
    sigma = models.FloatField(default=skill.NEWCOMER.sigma)
    number = models.IntegerField(default=skill.DEFAULT_NUMBER, db_index=True)
    games = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "season"], name="ratings_one_per_season")
        ]

    def __str__(self):
        return f"{self.user_id} in {self.season_id}: {self.number}"

    @property
    def provisional(self) -> bool:
        return self.games < skill.PROVISIONAL_GAMES


class RatedGame(models.Model):
    """A game whose ratings were updated (or looked at and found not to be rated)."""

    match = models.OneToOneField("matches.Match", on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.SET_NULL)
    counted = models.BooleanField(help_text="false: looked at, not rated (see `reason`)")
    reason = models.CharField(max_length=40, blank=True)
    processed = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"match {self.match_id} rated={self.counted}"


class RatingChange(models.Model):
    """One person's rating before and after one rated game: the history and its chart."""

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    number_before = models.IntegerField()
    number_after = models.IntegerField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="ratings_one_change_per_game")
        ]
        indexes = [models.Index(fields=["user", "season", "created"])]

    def __str__(self):
        return f"{self.user_id} in match {self.match_id}: {self.number_before}->{self.number_after}"
