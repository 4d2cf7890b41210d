"""Fixtures of the quick-play tests: people with a legal deck each (the real catalogue),
their ratings when a test needs them, and short waits."""

import datetime

import pytest

from tests.matches.kit import make_deck


@pytest.fixture(autouse=True)
def quick_settings(settings):
    """The window and the waits the tests reason about (the module's defaults, stated)."""
    settings.QUICKPLAY_POOL = 4
    settings.QUICKPLAY_WINDOW_BASE = 100
    settings.QUICKPLAY_WINDOW_GROWTH = 10
    settings.QUICKPLAY_WAIT_LIMIT = 60
    settings.QUICKPLAY_TTL = 30
    return settings


@pytest.fixture
def person(catalogue, django_user_model):
    """Factory: a person with a legal deck (`person.deck`); `number` gives them a rating in
    the current season, `opted` makes them take part in ratings."""
    made = []

    def make(name, number=None, opted=False, seed=None):
        user = django_user_model.objects.create_user(name, password=f"pw-{name}-123")
        user.deck = make_deck(user, seed=len(made) if seed is None else seed, name=f"{name}'s")
        if opted:
            from ratings.models import OptIn

            OptIn.objects.create(user=user)
        if number is not None:
            rate(user, number)
        made.append(user)
        return user

    return make


def rate(user, number):
    """`user`'s display number in the current season (a season is opened if none runs)."""
    from ratings.models import Rating, Season
    from ratings.selectors import current_season

    season = current_season() or Season.objects.create(name="test", start=datetime.date(2026, 1, 1))
    Rating.objects.update_or_create(user=user, season=season, defaults={"number": number})


def join(user, **options):
    """`user` joins the standard casual queue of the original ruleset with their deck."""
    from quickplay import services

    fields = {"ruleset": "original", "time_control": "standard", "rated": False}
    return services.join(user, deck=user.deck, **{**fields, **options})


# a real Celery worker on Redis and the PostgreSQL test database (tests/matches/conftest.py)
from tests.matches.conftest import celery_worker_process, redis_url  # noqa: E402, F401
