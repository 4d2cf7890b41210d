"""Fixtures of the ratings tests: people who opted in, finished games made as rows (the
rating reads only the seats and the result), and a real Celery worker on PostgreSQL + Redis."""

import datetime
import os

import pytest
from django.utils import timezone
from service_kit import redis_db, workers_on

from matches.models import Match, Seat
from ratings.models import OptIn, Season

TEST_REDIS_URL = os.environ.get("KGK_TEST_REDIS_URL", "redis://127.0.0.1:6379/1")
FIRST_SEASON = "2026"  # ratings/migrations/0002_first_season.py
FINISHED = timezone.make_aware(datetime.datetime(2026, 11, 14, 18, 0))


@pytest.fixture
def season(db):
    """The first season, as the data migration opens it (a transactional test's flush
    empties the table, so it is made again there)."""
    first, _ = Season.objects.get_or_create(
        name=FIRST_SEASON, defaults={"start": datetime.date(2026, 1, 1)}
    )
    return first


@pytest.fixture
def people(season, django_user_model):
    """Six people, all opted in to ratings: ann, ben, cid, dot, eve, fay."""
    names = ["ann", "ben", "cid", "dot", "eve", "fay"]
    users = [django_user_model.objects.create_user(n, password=f"pw-{n}-123") for n in names]
    OptIn.objects.bulk_create([OptIn(user=u) for u in users])
    return users


def finished_game(users, *, winner=None, ranking=(), rated=True, bots=(), stand_ins=()):
    """A finished game between `users` (None: a bot seat, `bots[i]` its name), as the
    matches app leaves it: winner_seat for two seats, the ranking for a table."""
    match = Match.objects.create(
        seed=1,
        status=Match.FINISHED,
        winner_seat=winner,
        ranking=list(ranking),
        seat_count=len(users),
        finished=FINISHED,
        result="colony" if winner is not None or ranking else "turn_limit",
        rated=rated,
    )
    for i, user in enumerate(users):
        Seat.objects.create(
            match=match,
            seat=i,
            user=user,
            bot=(bots[i] if i < len(bots) else "") or ("" if user else "heuristic"),
            stand_in=stand_ins[i] if i < len(stand_ins) else "",
        )
    return match


@pytest.fixture
def ratings_worker(transactional_db, settings, tmp_path):
    """One real `celery -A cardgame worker` on the pytest-django TEST database (PostgreSQL)
    and Redis (KGK_TEST_REDIS_URL); the test process's Celery sends to the same broker (not
    eager). Use with `@pytest.mark.postgres`."""
    log_per_task = {"CELERY_TASK_LOG_LEVEL": "INFO"}  # a line per task: the test counts them
    with workers_on(settings, redis_db(TEST_REDIS_URL), tmp_path, "ratings", log_per_task) as pool:
        pool.start()
        yield pool
