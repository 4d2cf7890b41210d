"""The client's address, for the lock-outs and the rate limits alike (cardgame.clientip,
issue 35): the connection's own address, or through TRUSTED_PROXIES proxies
(BEHIND_TLS_PROXY) the one the proxy appended to X-Forwarded-For; a header a client wrote
itself changes nothing. And the account forms' rates: password reset per address and per
e-mail address, sign-up per address.
"""

import pytest
from django.core import mail
from django.test import RequestFactory

from cardgame.clientip import client_ip
from cardgame.limits import (
    PasswordResetEmailThrottle,
    PasswordResetThrottle,
    SearchThrottle,
    SignUpThrottle,
)

pytestmark = pytest.mark.django_db

LIMIT = 3
LOGIN = "/en/accounts/login/"
RIGHT = {"username": "alice", "password": "pw-alice-123"}
WRONG = {"username": "alice", "password": "wrong"}


@pytest.fixture(autouse=True)
def small_limit(settings):
    settings.AXES_FAILURE_LIMIT = LIMIT


@pytest.fixture
def behind_a_proxy(settings):
    """The README's TLS proxy on the same host: connections come from 127.0.0.1."""
    settings.TRUSTED_PROXIES = 1
    settings.TRUSTED_PROXY_ADDRESSES = ["127.0.0.1", "::1"]


@pytest.fixture
def rate(monkeypatch):
    def set_rate(throttle, value):
        monkeypatch.setattr(throttle, "THROTTLE_RATES", {throttle.scope: value})

    return set_rate


def via_proxy(client_address, spoofed=None):
    """A request as the proxy passes it on: whatever the client sent in X-Forwarded-For,
    then the address the proxy saw it come from."""
    hops = [spoofed, client_address] if spoofed else [client_address]
    return {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": ", ".join(hops)}


# --- reading the address ----------------------------------------------------------------


@pytest.mark.parametrize(
    "proxies, meta, expected",
    [
        (0, {"REMOTE_ADDR": "198.51.100.9", "HTTP_X_FORWARDED_FOR": "1.2.3.4"}, "198.51.100.9"),
        (1, {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 203.0.113.5"}, "203.0.113.5"),
        (1, {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.5"}, "203.0.113.5"),
        (1, {"REMOTE_ADDR": "198.51.100.9", "HTTP_X_FORWARDED_FOR": "203.0.113.5"}, "198.51.100.9"),
        (1, {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "not-an-address"}, "127.0.0.1"),
        (1, {"REMOTE_ADDR": "127.0.0.1"}, "127.0.0.1"),
        (2, {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "6.6.6.6, 203.0.113.5, 10.0.0.2"}, "203.0.113.5"),
    ],
    ids=["no-proxy", "proxy", "proxy-only-hop", "direct-client", "garbage", "no-header", "two"],
)  # fmt: skip
def test_the_address_is_read_through_the_trusted_proxies_only(settings, proxies, meta, expected):
    settings.TRUSTED_PROXIES = proxies
    settings.TRUSTED_PROXY_ADDRESSES = ["127.0.0.1", "::1"]
    request = RequestFactory().get("/", **meta)
    assert client_ip(request) == expected


def test_the_setting_drives_axes_and_drf_alike(settings):
    """One setting: django-axes asks cardgame.clientip, DRF's NUM_PROXIES is the count."""
    from django.conf import settings as live

    assert live.AXES_CLIENT_IP_CALLABLE == "cardgame.clientip.client_ip"
    assert live.REST_FRAMEWORK["NUM_PROXIES"] == live.TRUSTED_PROXIES
    assert live.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]


# --- the lock-outs ----------------------------------------------------------------------


def test_behind_a_proxy_two_users_at_two_addresses_are_locked_apart(client, alice, behind_a_proxy):
    """Before, every user behind the proxy was 127.0.0.1: one attacker locked everybody."""
    for _ in range(LIMIT):
        client.post(LOGIN, WRONG, **via_proxy("203.0.113.5"))
    assert client.post(LOGIN, RIGHT, **via_proxy("203.0.113.5")).status_code == 429
    response = client.post(LOGIN, RIGHT, **via_proxy("198.51.100.7"))
    assert response.status_code == 302


def test_a_spoofed_forwarded_for_behind_the_proxy_changes_nothing(client, alice, behind_a_proxy):
    """The attacker writes a new X-Forwarded-For each time: the proxy's own entry counts."""
    for n in range(LIMIT):
        client.post(LOGIN, WRONG, **via_proxy("203.0.113.5", spoofed=f"10.1.1.{n}"))
    response = client.post(LOGIN, RIGHT, **via_proxy("203.0.113.5", spoofed="10.1.1.99"))
    assert response.status_code == 429


@pytest.mark.parametrize("proxies", [0, 1], ids=["no-proxy", "proxy-configured"])
def test_a_spoofed_forwarded_for_from_a_client_that_is_not_the_proxy_changes_nothing(
    client, alice, settings, proxies
):
    settings.TRUSTED_PROXIES = proxies
    for n in range(LIMIT):
        client.post(LOGIN, WRONG, REMOTE_ADDR="198.51.100.66", HTTP_X_FORWARDED_FOR=f"10.2.2.{n}")
    response = client.post(
        LOGIN, RIGHT, REMOTE_ADDR="198.51.100.66", HTTP_X_FORWARDED_FOR="10.2.2.99"
    )
    assert response.status_code == 429


# --- the API's rates --------------------------------------------------------------------


def test_a_rotating_forwarded_for_does_not_escape_the_search_rate(client, rate):
    """Issue 35: DRF read X-Forwarded-For (NUM_PROXIES unset): 100 of 100 answered."""
    rate(SearchThrottle, "3/min")
    codes = [
        client.get("/api/cards/", HTTP_X_FORWARDED_FOR=f"10.3.3.{n}").status_code for n in range(6)
    ]
    assert codes[:3] == [200] * 3 and codes[3:] == [429] * 3


def test_behind_a_proxy_two_clients_have_a_search_rate_each(client, rate, behind_a_proxy):
    rate(SearchThrottle, "2/min")
    first = [client.get("/api/cards/", **via_proxy("203.0.113.5")).status_code for _ in range(3)]
    assert first == [200, 200, 429]
    assert client.get("/api/cards/", **via_proxy("198.51.100.7")).status_code == 200
    spoofed = via_proxy("203.0.113.5", spoofed="198.51.100.7")
    assert client.get("/api/cards/", **spoofed).status_code == 429


# --- password reset and sign-up ---------------------------------------------------------


@pytest.fixture
def alice_with_mail(alice):
    alice.email = "alice@example.org"
    alice.save()
    return alice


def test_thirty_password_resets_from_one_address_send_a_few_e_mails(client, alice_with_mail):
    """Issue 35: 30 requests were 30 e-mails. Now at most the per-e-mail rate (3 an hour by
    default); the others get a sentence that says what to do, and nothing is sent."""
    codes = [
        client.post("/en/accounts/password-reset/", {"email": "alice@example.org"}).status_code
        for _ in range(30)
    ]
    assert len(mail.outbox) <= 3 and codes.count(302) == len(mail.outbox) >= 1
    assert codes.count(429) == 30 - len(mail.outbox)
    response = client.post("/en/accounts/password-reset/", {"email": "alice@example.org"})
    assert response.status_code == 429
    assert "Many password e-mails were asked for lately" in response.content.decode()


def test_password_resets_are_limited_per_address_over_many_e_mails(client, db, rate):
    rate(PasswordResetThrottle, "5/hour")
    rate(PasswordResetEmailThrottle, "3/hour")
    codes = [
        client.post("/en/accounts/password-reset/", {"email": f"p{n}@example.org"}).status_code
        for n in range(8)
    ]
    assert codes == [302] * 5 + [429] * 3
    other = client.post(
        "/en/accounts/password-reset/", {"email": "p9@example.org"}, REMOTE_ADDR="10.4.4.4"
    )
    assert other.status_code == 302


def test_password_resets_are_limited_per_e_mail_over_many_addresses(client, alice_with_mail, rate):
    rate(PasswordResetEmailThrottle, "3/hour")
    for n in range(10):
        client.post(
            "/en/accounts/password-reset/",
            {"email": "ALICE@example.org"},
            REMOTE_ADDR=f"10.5.5.{n}",
        )
    assert len(mail.outbox) == 3


def test_the_password_reset_refusal_speaks_hungarian(client, alice_with_mail, rate):
    rate(PasswordResetEmailThrottle, "1/hour")
    client.post("/hu/accounts/password-reset/", {"email": "alice@example.org"})
    response = client.post("/hu/accounts/password-reset/", {"email": "alice@example.org"})
    assert response.status_code == 429
    assert "jelszó-e-mailt" in response.content.decode()


def sign_up(client, name, **extra):
    data = {"username": name, "email": f"{name}@example.org", "password1": "kgk-Passw0rd-x!",
            "password2": "kgk-Passw0rd-x!"}  # fmt: skip
    response = client.post("/en/accounts/signup/", data, **extra)
    client.logout()
    return response


def test_sign_up_is_limited_per_address(client, db, rate):
    from django.contrib.auth import get_user_model

    rate(SignUpThrottle, "3/hour")
    codes = [sign_up(client, f"new{n}").status_code for n in range(5)]
    assert codes == [302] * 3 + [429] * 2
    refused = sign_up(client, "new9")
    assert "Many accounts were made from your network address lately" in refused.content.decode()
    assert sign_up(client, "elsewhere", REMOTE_ADDR="10.6.6.6").status_code == 302
    assert get_user_model().objects.count() == 4
