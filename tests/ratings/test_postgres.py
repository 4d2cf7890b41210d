"""Rating on PostgreSQL with real concurrency: the same game's end processed by two real
Celery workers, and two games of the same person rated at the same moment (docs/ratings.md:
the RatedGame row and the lock of the players' Rating rows)."""

import threading
import time

import pytest
from django.db import connection, transaction
from service_kit import service_missing

from matches.models import Match
from matches.signals import match_finished
from ratings import services, tasks
from ratings.models import RatedGame, Rating, RatingChange
from ratings.selectors import current_season

from .conftest import finished_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def pg(transactional_db):
    if connection.vendor != "postgresql":
        service_missing("needs PostgreSQL: run with DATABASE_URL=postgres://...")


def wait_for(predicate, timeout=30.0, what="the condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def sessions_waiting_for_a_lock() -> int:
    with connection.cursor() as cursor:
        # the statistics views are a snapshot per transaction: take a fresh one each time
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def rate_in_threads(match_ids, hold_user):
    """Rate each game in its own thread and connection while this test holds `hold_user`'s
    Rating row locked, so every thread is inside its transaction at once; then let go."""
    errors = []

    def rate(match_id):
        try:
            services.rate_match(match_id)
        except Exception as exc:  # reported to the test below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=rate, args=(pk,)) for pk in match_ids]
    with transaction.atomic():
        Rating.objects.select_for_update().get(user=hold_user, season=current_season())
        for thread in threads:
            thread.start()
        wait_for(lambda: sessions_waiting_for_a_lock() >= len(threads), what="both threads")
    for thread in threads:
        thread.join(timeout=30)
    assert not errors, errors


def test_two_games_of_the_same_person_rated_at_once_lose_no_update(pg, people):
    ann, ben, cid = people[:3]
    Rating.objects.create(user=ann, season=current_season())
    first = finished_game([ann, ben], winner=0)
    second = finished_game([cid, ann], winner=1)
    rate_in_threads([first.pk, second.pk], hold_user=ann)
    ann_rating = Rating.objects.get(user=ann)
    assert ann_rating.games == 2
    changes = list(RatingChange.objects.filter(user=ann).order_by("created", "pk"))
    assert len(changes) == 2
    # one game started from where the other left ann: the updates chained, none was lost
    assert changes[1].mu_before == changes[0].mu_after
    assert changes[1].sigma_before == changes[0].sigma_after
    assert ann_rating.mu == changes[1].mu_after


def test_the_same_end_processed_twice_at_once_rates_once(pg, people):
    ann, ben = people[:2]
    Rating.objects.create(user=ann, season=current_season())
    match = finished_game([ann, ben], winner=1)
    rate_in_threads([match.pk, match.pk], hold_user=ann)
    assert RatedGame.objects.filter(match=match).count() == 1
    assert Rating.objects.get(user=ann).games == Rating.objects.get(user=ben).games == 1
    assert RatingChange.objects.filter(match=match).count() == 2


def test_real_workers_rate_a_game_delivered_twice_once(ratings_worker, people):
    """A real game end (match_finished) and a second delivery of its task, each taken by
    one of two real Celery workers on PostgreSQL + Redis."""
    ratings_worker.start()  # a second worker: the two deliveries may run at the same time
    ann, ben = people[:2]
    match = finished_game([ann, ben], winner=0)
    match_finished.send(sender=Match, match=match)  # the receiver queues rate_match
    tasks.rate_match.delay(match.pk)  # delivered again

    def runs() -> int:
        return sum(
            line.count("ratings.tasks.rate_match[") and "succeeded" in line
            for p in ratings_worker.processes
            for line in p.log_path.read_text().splitlines()
        )

    wait_for(lambda: runs() >= 2, timeout=60, what="both deliveries to run")
    assert RatedGame.objects.filter(match=match, counted=True).count() == 1
    ann_rating, ben_rating = Rating.objects.get(user=ann), Rating.objects.get(user=ben)
    assert ann_rating.games == ben_rating.games == 1
    assert ann_rating.mu > ben_rating.mu
    assert RatingChange.objects.filter(match=match).count() == 2
