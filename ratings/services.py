"""Writes of the ratings app: opting in and out, rating a finished game once, opening a season.

Which games are rated (docs/ratings.md): a finished game created as rated (`Match.rated`),
every seat taken by a different person (no bot seat), all of them opted in when the game is
rated. A bot that stood in for a person who left a multiplayer table (`Seat.stand_in`) does
not stop the rating: the person who left is ranked where the engine ranked them when they
left (R 17.1.6), and the others are rated against the people they played.
"""

import datetime

from django.db import transaction
from django.utils import timezone

from matches.models import Match

from . import skill
from .models import OptIn, RatedGame, Rating, RatingChange, Season
from .selectors import current_season

# Why a rated game was looked at and not rated (RatedGame.reason).
BOT_SEAT, SAME_PERSON, NOT_OPTED_IN, NO_RANKING = (
    "bot_seat",
    "same_person",
    "not_opted_in",
    "no_ranking",
)


def set_opt_in(user, opted_in: bool) -> bool:
    """Take part in ratings, or stop (the history stays). Returns the new setting."""
    if opted_in:
        OptIn.objects.get_or_create(user=user)
    else:
        OptIn.objects.filter(user=user).delete()
    return opted_in


def places(match: Match, seats) -> list[int] | None:
    """Each seat's finishing place (1 best; equal places are a draw), in seat order. Two
    players: the winner first, no winner a draw. A table: Match.ranking, seats best first
    (R 17.1.6). None when the ranking does not name every seat once."""
    numbers = [s.seat for s in seats]
    if not match.multiplayer:
        if match.winner_seat is None:
            return [1 for _ in numbers]
        return [1 if n == match.winner_seat else 2 for n in numbers]
    ranking = list(match.ranking or [])
    if sorted(ranking) != sorted(numbers):
        return None
    return [ranking.index(n) + 1 for n in numbers]


def why_not_rated(match: Match, seats) -> str:
    """'' when the game's people are rated, else the reason (this module's constants)."""
    if any(s.bot or s.user_id is None for s in seats):
        return BOT_SEAT
    people = [s.user_id for s in seats]
    if len(set(people)) != len(people):
        return SAME_PERSON
    if OptIn.objects.filter(user_id__in=people).count() != len(people):
        return NOT_OPTED_IN
    if places(match, seats) is None:
        return NO_RANKING
    return ""


def rate_match(match_id: int) -> RatedGame | None:
    """Update the ratings of a finished rated game's people, once. None when there is nothing
    to do: not a rated game, not finished (a game waiting for a judge is rated when the judge
    finishes it), no season running, or rated already."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not match.rated or match.status != Match.FINISHED:
        return None
    season = current_season(timezone.localdate(match.finished or timezone.now()))
    if season is None:
        return None
    seats = list(match.seats.order_by("seat"))
    with transaction.atomic():
        reason = why_not_rated(match, seats)
        if reason:
            marked, created = RatedGame.objects.get_or_create(
                match=match, defaults={"season": season, "counted": False, "reason": reason}
            )
            return marked if created else None
        ratings = _locked_ratings(season, [s.user_id for s in seats])
        # Checked under the lock: a second worker waits for the first, then sees its row.
        if RatedGame.objects.filter(match=match).exists():
            return None
        _apply(match, season, seats, ratings)
        return RatedGame.objects.create(match=match, season=season, counted=True)


def _locked_ratings(season: Season, user_ids: list[int]) -> dict[int, Rating]:
    """The people's ratings of the season, created when missing, locked in one order (by user)
    so that two games of the same person rated at once queue instead of losing an update."""
    for user_id in sorted(user_ids):
        Rating.objects.get_or_create(user_id=user_id, season=season)
    rows = Rating.objects.select_for_update().filter(season=season, user_id__in=user_ids)
    return {r.user_id: r for r in rows.order_by("user_id")}


def _apply(match: Match, season: Season, seats, ratings: dict[int, Rating]) -> None:
    order = places(match, seats)
    before = [ratings[s.user_id] for s in seats]
    after = skill.rate_ranking([skill.Skill(r.mu, r.sigma) for r in before], order)
    changes = []
    for rating, new, place in zip(before, after, order, strict=True):
        changes.append(
            RatingChange(
                match=match,
                user_id=rating.user_id,
                season=season,
                place=place,
                mu_before=rating.mu,
                sigma_before=rating.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                number_before=rating.number,
                number_after=skill.display_number(new.mu, new.sigma),
            )
        )
        rating.mu, rating.sigma = new.mu, new.sigma
        rating.number = skill.display_number(new.mu, new.sigma)
        rating.games += 1
        rating.save(update_fields=["mu", "sigma", "number", "games", "updated"])
    RatingChange.objects.bulk_create(changes)


def open_season(name: str, start: datetime.date) -> Season:
    """Open a season from `start`; the one running the day before ends then. Everyone starts
    the new season as a newcomer (skill.NEWCOMER)."""
    with transaction.atomic():
        if Season.objects.filter(start__gte=start).exists():  # seasons never overlap
            raise ValueError("a new season starts after the current one")
        previous = current_season(start - datetime.timedelta(days=1))
        if previous is not None:
            previous.end = start - datetime.timedelta(days=1)
            previous.save(update_fields=["end"])
        return Season.objects.create(name=name, start=start)
