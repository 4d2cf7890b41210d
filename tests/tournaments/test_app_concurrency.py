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
from tournaments.models import Round, TableSet

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
    assert TableSet.objects.filter(tournament=event).count() == 3


@pytest.mark.postgres
def test_ten_pairing_requests_at_once_make_one_round_and_one_201(
    postgres_db, catalogue, django_user_model
):
    """Issue 35: ten POSTs of .../rounds/ at once made one round, but 5-8 callers were told
    201 Created (the view compared round counts around the call). Now exactly the request
    that paired it gets 201; one that waited for the lock while another paired gets 409
    with a sentence (one that came after the draft was there, the idempotent 200)."""
    from django.test import Client

    org = django_user_model.objects.create_user("org", password="pw-org-12345")
    event = services.create_tournament(org, name="Rush", date=datetime.date(2026, 12, 1))
    for i in range(8):
        user = django_user_model.objects.create_user(f"p{i}", password="pw-p-12345")
        reg = services.register(event, user, save_deck(user, name="c", cards=colony()))
        services.check_in(reg, user)
    services.start(event, org)

    callers = 10
    barrier = threading.Barrier(callers)
    answers, errors = [], []

    def pair():
        client = Client(headers={"accept-language": "en"})
        client.force_login(org)
        try:
            barrier.wait()
            response = client.post(f"/api/tournaments/{event.pk}/rounds/")
            answers.append((response.status_code, response.json()))
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=pair) for _ in range(callers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    codes = sorted(code for code, _body in answers)
    assert codes.count(201) == 1, codes
    assert set(codes) <= {200, 201, 409}, codes
    for code, body in answers:
        if code == 409:
            assert body["round"] == 1 and "paired by another request" in body["detail"]
        else:
            assert body["number"] == 1 and body["status"] == "draft"
    assert Round.objects.filter(tournament=event).count() == 1
    assert TableSet.objects.filter(tournament=event).count() == 4
