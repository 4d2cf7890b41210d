import os

import pytest

IN_CI = os.environ.get("CI") == "true"


@pytest.fixture(autouse=True)
def no_leftover_language():
    """Each test starts with no active translation (gettext gives the English msgid).

    A request through LocaleMiddleware leaves its language active in the thread, and a
    management command resets it: without this, a test's messages would depend on which
    test ran before it. Tests that want a language say so (translation.override, /hu/ URLs).
    """
    from django.utils import translation

    with translation.override(None):
        yield


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
def alice(django_user_model):
    """A plain user (the deck and deck lab tests' owner of decks)."""
    return django_user_model.objects.create_user("alice", password="pw-alice-123")


@pytest.fixture
def bob(django_user_model):
    """A second plain user (someone who does not own alice's decks)."""
    return django_user_model.objects.create_user("bob", password="pw-bob-123")


@pytest.fixture
def catalogue(db):
    """The real first-edition set, loaded through the real loader."""
    from cards_data.loader import load_cards

    load_cards()
    from cards_data.models import Card

    return Card.objects.all()
