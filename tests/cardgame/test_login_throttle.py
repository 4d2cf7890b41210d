"""Logins are throttled per account and per address; the API takes sessions only
(issue 11, finding 4).

Before: 60 wrong passwords at 2/s, then the right one was accepted at once, through the
form, the admin and HTTP Basic; and a made-up Basic header made an anonymous API request
hash a password. Now django-axes locks an account (or an address) after
settings.AXES_FAILURE_LIMIT failures, and the API ignores HTTP Basic.
"""

import base64

import pytest

pytestmark = pytest.mark.django_db

LIMIT = 3  # the tests' limit (each failure hashes a password: slow on purpose)


@pytest.fixture(autouse=True)
def small_limit(settings):
    settings.AXES_FAILURE_LIMIT = LIMIT


def fail_logins(client, url, username, times, **extra):
    for _ in range(times):
        response = client.post(url, {"username": username, "password": "wrong"}, **extra)
        assert response.status_code in (200, 429)
    return response


@pytest.mark.parametrize("url", ["/en/accounts/login/", "/en/admin/login/"])
def test_after_the_limit_even_the_right_password_is_refused(client, alice, url):
    fail_logins(client, url, "alice", LIMIT)
    response = client.post(url, {"username": "alice", "password": "pw-alice-123"})
    assert response.status_code == 429
    assert "Too many failed logins" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_lockout_speaks_hungarian(client, alice):
    fail_logins(client, "/hu/accounts/login/", "alice", LIMIT)
    response = client.post("/hu/accounts/login/", {"username": "alice", "password": "x"})
    assert response.status_code == 429
    assert "Túl sok sikertelen belépés" in response.content.decode()


def test_an_address_is_locked_across_accounts(client, alice, bob):
    """Per address: guessing many accounts' passwords from one address is stopped too."""
    for n in range(LIMIT):
        client.post("/en/accounts/login/", {"username": f"nobody{n}", "password": "x"})
    response = client.post("/en/accounts/login/", {"username": "bob", "password": "pw-bob-123"})
    assert response.status_code == 429


def test_an_account_is_locked_from_every_address(client, alice):
    for n in range(LIMIT):
        client.post(
            "/en/accounts/login/",
            {"username": "alice", "password": "x"},
            REMOTE_ADDR=f"10.0.0.{n + 1}",
        )
    response = client.post(
        "/en/accounts/login/",
        {"username": "alice", "password": "pw-alice-123"},
        REMOTE_ADDR="10.9.9.9",
    )
    assert response.status_code == 429


def test_a_success_before_the_limit_resets_the_count(client, alice):
    fail_logins(client, "/en/accounts/login/", "alice", LIMIT - 1)
    response = client.post("/en/accounts/login/", {"username": "alice", "password": "pw-alice-123"})
    assert response.status_code == 302
    client.logout()
    fail_logins(client, "/en/accounts/login/", "alice", LIMIT - 1)
    response = client.post("/en/accounts/login/", {"username": "alice", "password": "pw-alice-123"})
    assert response.status_code == 302


def basic(username, password):
    token = base64.b64encode(f"{username}:{password}".encode()).decode()
    return {"HTTP_AUTHORIZATION": f"Basic {token}"}


def test_the_api_ignores_http_basic(client, alice):
    """Only the session logs in: the right password in a Basic header is not a login."""
    response = client.get("/api/collection/", **basic("alice", "pw-alice-123"))
    assert response.status_code == 403
    client.force_login(alice)
    assert client.get("/api/collection/").status_code == 200


def test_a_made_up_basic_header_is_not_checked(client, alice, django_assert_num_queries):
    """Anonymous with a bogus header: no user lookup, no password hashing (no query at all)."""
    with django_assert_num_queries(0):
        response = client.get("/api/races/", **basic("alice", "guess"))
    assert response.status_code == 200
