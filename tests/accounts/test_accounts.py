"""Accounts: a welcome after signing up, password reset by e-mail, "My decks" in the menu."""

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail

PASSWORD = "kolonia-45-lap"


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_signing_up_welcomes_with_the_builder_and_a_first_game(client, db, lang):
    data = {"username": "alice", "email": "a@example.com", "password1": PASSWORD}
    response = client.post(f"/{lang}/accounts/signup/", {**data, "password2": PASSWORD})
    assert response.status_code == 302 and response["Location"] == f"/{lang}/accounts/welcome/"
    page = client.get(response["Location"]).content.decode()
    assert f'href="/{lang}/decks/new/" id="welcome-builder"' in page
    assert f'href="/{lang}/play/" id="welcome-play"' in page
    assert f'href="/{lang}/decks/?mine=1" id="nav-my-decks"' in page


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_password_reset_by_e_mail(client, db, lang):
    User.objects.create_user("alice", "alice@example.com", "old-password-1")
    login = client.get(f"/{lang}/accounts/login/").content.decode()
    assert f'href="/{lang}/accounts/password-reset/"' in login
    response = client.post(f"/{lang}/accounts/password-reset/", {"email": "alice@example.com"})
    assert response.status_code == 302
    assert response["Location"] == f"/{lang}/accounts/password-reset/sent/"
    (message,) = mail.outbox
    assert message.to == ["alice@example.com"]
    assert ("Új jelszavad" if lang == "hu" else "Your new password") in message.subject
    link = re.search(r"https?://[^/]+(/\S+/password-reset/\S+/)", message.body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200 and form.context["validlink"]
    done = client.post(
        form.redirect_chain[-1][0] if form.redirect_chain else link,
        {"new_password1": "new-password-45", "new_password2": "new-password-45"},
    )
    assert done.status_code == 302
    assert User.objects.get(username="alice").check_password("new-password-45")


def test_embedded_default_prints_e_mail_to_the_console(settings):
    from django.conf import settings as live

    source = (live.BASE_DIR / "cardgame" / "settings.py").read_text()
    assert '"django.core.mail.backends.console.EmailBackend"' in source
    assert 'os.environ.get("EMAIL_HOST", "")' in source


def test_hungarian_account_pages_speak_to_the_player_informally(client, db):
    """The site says "te" (Elfelejtetted a jelszavad?); Django's own Hungarian messages on the
    same pages said "Ön" (Írja be…, A jelszavának…), so our catalogue gives them in the
    site's register."""
    signup = client.get("/hu/accounts/signup/").content.decode()
    assert "Írd be még egyszer ugyanazt a jelszót, ellenőrzésként." in signup
    assert "A jelszavadnak legalább 8 karakter hosszúnak kell lennie." in signup
    assert "Írja be" not in signup and "jelszavának" not in signup
    User.objects.create_user("anna", password="a-good-password-1")
    wrong = client.post("/hu/accounts/login/", {"username": "anna", "password": "nope"})
    assert "Hibás felhasználónév vagy jelszó." in wrong.content.decode()
