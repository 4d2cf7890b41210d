"""Logins are throttled per account at an address; the API takes sessions only
(issue 11, finding 4; issue 35).

Before: 60 wrong passwords at 2/s, then the right one was accepted at once, through the
form, the admin and HTTP Basic; and a made-up Basic header made an anonymous API request
hash a password. Now django-axes locks the pair (user name, address) after
settings.AXES_FAILURE_LIMIT failures, and the API ignores HTTP Basic. Issue 35: a lock by
name alone could be aimed at any player by anybody (names are public), a lock by address
alone shut everybody behind one address; tests/cardgame/test_client_address.py has the
proxies.
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


def test_failures_for_other_names_do_not_lock_a_name_at_the_same_address(client, alice, bob):
    """Issue 35: not the address alone (behind a NAT or a proxy it is everybody's): someone
    mistyping other names at a shared address does not lock bob out there."""
    for n in range(LIMIT):
        client.post("/en/accounts/login/", {"username": f"nobody{n}", "password": "x"})
    response = client.post("/en/accounts/login/", {"username": "bob", "password": "pw-bob-123"})
    assert response.status_code == 302


def test_an_attacker_at_one_address_cannot_lock_the_owner_out_at_another(client, alice):
    """Issue 35: ten wrong passwords for a public user name locked the account for its
    owner everywhere (429 with the right password). Now the pair is locked: the attacker
    at their address, never the owner at theirs."""
    attacker = {"REMOTE_ADDR": "10.0.0.66"}
    for n in range(LIMIT):  # other names between do not reset the attacker's count
        client.post("/en/accounts/login/", {"username": "alice", "password": f"g{n}"}, **attacker)
        client.post("/en/accounts/login/", {"username": f"other{n}", "password": "x"}, **attacker)
    right = {"username": "alice", "password": "pw-alice-123"}
    assert client.post("/en/accounts/login/", right, **attacker).status_code == 429
    response = client.post("/en/accounts/login/", right, REMOTE_ADDR="10.9.9.9")
    assert response.status_code == 302 and "_auth_user_id" in client.session


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
