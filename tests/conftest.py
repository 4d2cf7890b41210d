import os

import pytest

IN_CI = os.environ.get("CI") == "true"


def service_missing(reason: str):
    """Skip a test whose service is absent here; under CI=true that is a failure."""
    if IN_CI or os.environ.get("KGK_REQUIRE_POSTGRES"):
        pytest.fail(f"{reason} (CI=true: a missing service is a failure, not a skip)")
    pytest.skip(reason)


@pytest.fixture
def postgres_db(db):
    from django.db import connection

    if connection.vendor != "postgresql":
        service_missing("needs PostgreSQL: run with DATABASE_URL=postgres://...")
    return connection


@pytest.fixture
def catalogue(db):
    """The real first-edition set, loaded through the real loader."""
    from cards_data.loader import load_cards

    load_cards()
    from cards_data.models import Card

    return Card.objects.all()
