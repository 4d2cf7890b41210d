"""What every test that needs a real service shares: skip it (or fail under CI=true) when
the service is absent, and the test database's URL for the processes a test starts.

A plain module, importable from any test folder: tests/conftest.py puts tests/ on the path
(--import-mode=importlib does not).
"""

import os

import pytest

IN_CI = os.environ.get("CI") == "true"


def service_missing(reason: str):
    """Skip a test whose service is absent here; under CI=true that is a failure."""
    if IN_CI or os.environ.get("KGK_REQUIRE_POSTGRES"):
        pytest.fail(f"{reason} (CI=true: a missing service is a failure, not a skip)")
    pytest.skip(reason)


def database_url(connection) -> str:
    """postgres:// URL of the pytest-django TEST database (for a worker or server process)."""
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
