import os
import sys
from pathlib import Path

import pytest

TESTS = str(Path(__file__).resolve().parent)
if TESTS not in sys.path:  # --import-mode=importlib does not put tests/ on the path
    sys.path.insert(0, TESTS)

from service_kit import IN_CI, service_missing  # noqa: E402, F401 (used by the fixtures)


def _fast_password_hash():
    """A fast password hash in the tests and in every site or worker process they start
    (their environments are copies of this one; cardgame/settings.py reads the variable).
    pytest-django has loaded the settings already: this process gets the setting itself."""
    from django.conf import settings
    from django.contrib.auth import hashers

    os.environ["KGK_TEST_FAST_PASSWORD_HASH"] = "1"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    hashers.get_hashers.cache_clear()
    hashers.get_hashers_by_algorithm.cache_clear()


_fast_password_hash()


def _no_embedded_clock_unless_asked():
    """The site process sweeps the clocks itself in the embedded default (cardgame/asgi.py
    starts matches/embedded_clock.py); tests that import the ASGI app must not get that
    thread behind their back. A test that wants it calls embedded_clock.start()."""
    from django.conf import settings

    settings.MATCHES_EMBEDDED_CLOCK = False


_no_embedded_clock_unless_asked()


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


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """Each test starts with no API rate counted (the throttle cache, local memory in tests).

    Failed-login counts (django-axes) live in the database and go with each test's rollback.
    """
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    if isinstance(caches["throttle"], LocMemCache):
        caches["throttle"].clear()


@pytest.fixture(autouse=True)
def fresh_card_answers():
    """Each test starts with no kept card search answer (cards_data/answers.py).

    A served catalogue's every change gives a new stamp token; a test's cards go with its
    rollback and the stamp back to what it was, so the next test's different cards could
    meet an answer kept under the same token."""
    from cards_data import answers

    answers.forget()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """The SQLite pass tests a database file, as `make run` serves one (WAL, a writer waits
    for the lock), not Django's default in-memory test database.

    That one is shared-cache: its locks are per table, and a statement that meets another
    connection's lock fails at once ("database table is locked") instead of waiting, which
    no site ever sees. A live-server test whose page read a table while the test wrote it
    failed that way in CI (2026-11-29, the deck lab's progress test)."""
    from django.conf import settings

    default = settings.DATABASES["default"]
    if default["ENGINE"].endswith("sqlite3"):
        default.setdefault("TEST", {})["NAME"] = str(_sqlite_test_file(tmp_path_factory))


def _sqlite_test_file(tmp_path_factory) -> Path:
    """In memory where the machine has a tmpfs, so that the file's writes never wait for a
    disk (there the 200-game hidden-information sweep took 163 s, against 149 s on the
    in-memory database; on disk it was not timed), else in pytest's temporary directory."""
    import atexit
    import shutil
    import tempfile

    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        folder = tempfile.mkdtemp(prefix="kgk-test-", dir=shm)
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        return Path(folder) / "test.sqlite3"
    return tmp_path_factory.mktemp("sqlite") / "test.sqlite3"


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
