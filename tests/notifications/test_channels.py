"""The channels on real servers (issue 37): e-mail through a local SMTP server (aiosmtpd)
in each person's language with the one unsubscribe link, the webhook through a local HTTP
server, and who receives nothing: the unsubscribed, a channel turned off, a blocked actor."""

import re

import pytest

from notifications import services
from notifications.kinds import CHALLENGE, EMAIL, KINDS, SITE, WEBHOOK
from notifications.models import Notification

pytestmark = pytest.mark.django_db


def challenge(person, actor, commit):
    with commit(execute=True):
        return services.notify(
            person, CHALLENGE, actor=actor, url="/en/play/", challenger=actor.username
        )


def body_of(message) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def unsubscribe_link(message) -> str:
    return re.search(r"http://\S+/unsubscribe/\S+/", body_of(message)).group(0)


def test_email_arrives_in_each_persons_language_with_the_unsubscribe_link(
    smtp, anna, ben, carl, django_capture_on_commit_callbacks
):
    challenge(anna, carl, django_capture_on_commit_callbacks)
    challenge(ben, carl, django_capture_on_commit_callbacks)
    received = dict((tuple(to), msg) for to, msg in smtp.wait_for(2))
    hu, en = received[("anna@example.org",)], received[("ben@example.org",)]

    assert hu["Subject"] == "KGK: Új kihívás"
    assert "carl kihívott egy játszmára." in body_of(hu)
    assert "Leiratkozás minden e-mailről:" in body_of(hu) and "challenged" not in body_of(hu)
    assert en["Subject"] == "KGK: A new challenge"
    assert "carl challenged you to a game." in body_of(en)
    assert "Unsubscribe from all e-mail:" in body_of(en) and "kihív" not in body_of(en)
    for message, lang in ((hu, "hu"), (en, "en")):
        link = unsubscribe_link(message)
        assert f"/{lang}/notifications/unsubscribe/" in link
        assert message["List-Unsubscribe"].strip() == f"<{link}>"
        assert f"/{lang}/notifications/settings/" in body_of(message)


def test_after_the_unsubscribe_link_is_confirmed_no_more_email(
    smtp, anna, carl, client, django_capture_on_commit_callbacks
):
    challenge(anna, carl, django_capture_on_commit_callbacks)
    ((_to, message),) = smtp.wait_for(1)
    path = unsubscribe_link(message).split("localhost:8000", 1)[1]

    page = client.get(path)  # a GET only asks (a mail scanner following links changes nothing)
    assert page.status_code == 200 and b'id="confirm-unsubscribe"' in page.content
    assert not services.settings_for(anna).email_unsubscribed
    done = client.post(path)
    assert done.status_code == 200 and b'id="unsubscribed"' in done.content
    assert services.settings_for(anna).email_unsubscribed

    smtp.items.clear()
    sent = challenge(anna, carl, django_capture_on_commit_callbacks)
    assert sent is not None and sent.on_site  # the bell still rings
    assert smtp.wait_for(1, timeout=0.5) == []


def test_a_forged_unsubscribe_link_is_a_400_with_a_sentence(client, anna):
    token = services.unsubscribe_token(anna)
    response = client.post(f"/en/notifications/unsubscribe/{token}x/")
    assert response.status_code == 400
    assert b"Copy the whole link from the e-mail" in response.content
    assert not services.settings_for(anna).email_unsubscribed


def test_the_webhook_reaches_a_local_http_server(
    hooks, hook_url, ben, carl, django_capture_on_commit_callbacks
):
    services.save_settings(
        ben, channels={CHALLENGE: [SITE, WEBHOOK]}, webhook_url=hook_url, language="en"
    )
    notification = challenge(ben, carl, django_capture_on_commit_callbacks)
    ((path, body),) = hooks.wait_for(1)
    assert path == "/kgk-hook"
    assert set(body) == {"content"}  # Discord's body: nothing of apprise's own fields
    assert "carl challenged you to a game." in body["content"]
    assert "http://localhost:8000/en/play/" in body["content"]
    notification.refresh_from_db()
    assert notification.pending == []


def test_a_channel_turned_off_receives_nothing(
    smtp, hooks, hook_url, ben, carl, django_capture_on_commit_callbacks
):
    services.save_settings(ben, channels={CHALLENGE: [EMAIL]}, webhook_url=hook_url, language="en")
    sent = challenge(ben, carl, django_capture_on_commit_callbacks)
    assert not sent.on_site and services.bell(ben) == []  # the bell is off for challenges
    assert len(smtp.wait_for(1)) == 1
    assert hooks.wait_for(1, timeout=0.5) == []  # the webhook is off for challenges

    services.save_settings(ben, channels={}, webhook_url=hook_url, language="en")
    smtp.items.clear()
    assert challenge(ben, carl, django_capture_on_commit_callbacks) is None
    assert smtp.wait_for(1, timeout=0.5) == []


def test_a_blocked_actor_never_reaches_the_person(
    smtp, anna, carl, django_capture_on_commit_callbacks
):
    from social.services import block

    block(anna, carl)
    assert challenge(anna, carl, django_capture_on_commit_callbacks) is None
    block_back = challenge(carl, anna, django_capture_on_commit_callbacks)
    assert block_back is None  # either way round
    assert Notification.objects.count() == 0
    assert smtp.wait_for(1, timeout=0.5) == []


def test_defaults_site_for_all_email_where_an_answer_is_needed_webhook_off(anna):
    prefs = services.settings_for(anna)
    assert all(SITE in prefs.chosen(kind) for kind in KINDS)
    assert [k for k in KINDS if EMAIL not in prefs.chosen(k)] == ["friend_table"]
    assert not any(WEBHOOK in prefs.chosen(kind) for kind in KINDS)
