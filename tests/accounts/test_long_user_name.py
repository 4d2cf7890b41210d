"""Issue 35: a user name longer than any account's on the login form is a form error,
never a 500. It reached authenticate() and django-axes' failure record, whose user-name
column holds 255 characters: PostgreSQL refused the row ("value too long")."""

import pytest
from axes.models import AccessAttempt

pytestmark = pytest.mark.django_db

LONG = "a" * 300


@pytest.mark.parametrize("url", ["/en/accounts/login/", "/en/admin/login/"])
@pytest.mark.parametrize("name", [LONG, "é" * 256, "a" * 151])
def test_a_too_long_user_name_is_a_form_error(client, alice, url, name):
    response = client.post(url, {"username": name, "password": "whatever"})
    assert response.status_code == 200
    assert "a user name has at most 150 characters" in response.content.decode()
    assert not AccessAttempt.objects.exists()  # nothing tried, nothing counted


def test_the_form_error_speaks_hungarian(client, alice):
    response = client.post("/hu/accounts/login/", {"username": LONG, "password": "x"})
    assert response.status_code == 200
    assert "legfeljebb 150 karakter" in response.content.decode()


def test_a_name_of_the_longest_length_is_still_tried(client, alice):
    response = client.post("/en/accounts/login/", {"username": "a" * 150, "password": "x"})
    assert response.status_code == 200 and AccessAttempt.objects.count() == 1


def test_the_lock_out_record_takes_a_long_name_from_any_login(rf, alice):
    """The backstop (AXES_USERNAME_CALLABLE): authenticate() called with a long name by any
    other path records it clipped to the column, no database error."""
    from django.contrib.auth import authenticate

    request = rf.post("/en/accounts/login/", {"username": LONG, "password": "x"})
    assert authenticate(request, username=LONG, password="x") is None
    (attempt,) = AccessAttempt.objects.all()
    assert attempt.username == LONG[:255]


@pytest.mark.postgres
def test_a_too_long_user_name_is_no_500_on_postgresql(postgres_db, client, alice):
    response = client.post("/en/accounts/login/", {"username": LONG, "password": "x"})
    assert response.status_code == 200
    assert "at most 150 characters" in response.content.decode()
