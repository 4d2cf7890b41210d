"""Reads of the ratings app. `skill_for` and `opted_in` are the contract quick play imports
(matching people by rating, its rated queue)."""

from django.db.models import Q
from django.utils import timezone

from . import skill
from .models import OptIn, Rating, RatingChange, Season


def current_season(today=None) -> Season | None:
    """The season running today: the latest one started by today and not ended before it."""
    today = today or timezone.localdate()
    return (
        Season.objects.filter(start__lte=today)
        .filter(Q(end__isnull=True) | Q(end__gte=today))
        .order_by("-start", "-pk")
        .first()
    )


def skill_for(user_ids) -> dict[int, float]:
    """Each person's display number in the current season (skill.display_number);
    skill.DEFAULT_NUMBER for a person with no rating in it. Every id asked for is a key."""
    ids = {int(i) for i in user_ids}
    numbers = {i: float(skill.DEFAULT_NUMBER) for i in ids}
    season = current_season()
    if season is None or not ids:
        return numbers
    rows = Rating.objects.filter(season=season, user_id__in=ids).values_list("user_id", "number")
    numbers.update({user_id: float(number) for user_id, number in rows})
    return numbers


def opted_in(user_ids) -> set[int]:
    """Those of `user_ids` who take part in ratings."""
    ids = {int(i) for i in user_ids}
    if not ids:
        return set()
    return set(OptIn.objects.filter(user_id__in=ids).values_list("user_id", flat=True))


def is_opted_in(user) -> bool:
    return bool(user and user.is_authenticated and OptIn.objects.filter(user=user).exists())


def seasons() -> list[Season]:
    return list(Season.objects.order_by("-start", "-pk"))


def leaderboard(season: Season) -> tuple[list[Rating], list[Rating]]:
    """The season's opted-in players: (established, provisional), each best number first."""
    rows = list(
        Rating.objects.filter(season=season, games__gt=0, user__rating_opt_in__isnull=False)
        .select_related("user")
        .order_by("-number", "-games", "user__username")
    )
    established = [r for r in rows if not r.provisional]
    provisional = [r for r in rows if r.provisional]
    return established, provisional


def rating_of(user, season: Season | None) -> Rating | None:
    if season is None:
        return None
    return Rating.objects.filter(user=user, season=season).first()


def history(user, season: Season | None) -> list[RatingChange]:
    """A person's rated games of the season, oldest first (the chart)."""
    if season is None:
        return []
    return list(RatingChange.objects.filter(user=user, season=season).order_by("created", "pk"))
