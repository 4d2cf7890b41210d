"""Pairing the next round twice at the same moment (NOTES: "round generation running
twice") creates one round: select_for_update on the tournament row plus the unique
(tournament, number) constraint. Real concurrency needs PostgreSQL (SQLite serialises
writers), so this test runs there and skips elsewhere (fails under CI=true).
"""

import datetime
import threading

import pytest
from django.db import connection
from tournament_kit import colony

from decks.services import save_deck
from tournaments import services
from tournaments.models import Match, Round

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.mark.postgres
def test_two_simultaneous_pairings_make_one_round(postgres_db, catalogue, django_user_model):
    org = django_user_model.objects.create_user("org", password="pw-org-12345")
    event = services.create_tournament(org, name="Race", date=datetime.date(2026, 12, 1))
    for i in range(6):
        user = django_user_model.objects.create_user(f"p{i}", password="pw-p-12345")
        reg = services.register(event, user, save_deck(user, name="c", cards=colony()))
        services.check_in(reg, user)
    services.start(event, org)

    barrier = threading.Barrier(4)
    results, errors = [], []

    def pair():
        try:
            barrier.wait()
            results.append(services.pair_next_round(event, org).pk)
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=pair) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert len(set(results)) == 1
    assert Round.objects.filter(tournament=event).count() == 1
    assert Match.objects.filter(tournament=event).count() == 3
