"""Fixtures of the notifications tests: two people (one reads Hungarian, one English), a
real SMTP server (aiosmtpd) and a real HTTP server for webhooks on the notify ports
(8630-8639), and legal decks for the event sources."""

import http.server
import json
import threading
from email import message_from_bytes, policy

import pytest

SMTP_PORT = 8631
HOOK_PORT = 8632


def reader(django_user_model, name: str, language: str):
    """A person with an e-mail address who reads the site in `language`."""
    from notifications.services import settings_for

    user = django_user_model.objects.create_user(
        name, email=f"{name}@example.org", password=f"pw-{name}-12345"
    )
    prefs = settings_for(user)
    prefs.language = language
    prefs.save()
    return user


@pytest.fixture
def anna(django_user_model):
    """Reads the site in Hungarian."""
    return reader(django_user_model, "anna", "hu")


@pytest.fixture
def ben(django_user_model):
    """Reads the site in English."""
    return reader(django_user_model, "ben", "en")


@pytest.fixture
def carl(django_user_model):
    return django_user_model.objects.create_user("carl", password="pw-carl-12345")


class Inbox:
    """What a local server received, with a wait on the next arrival (no sleeps)."""

    def __init__(self):
        self.items = []
        self.arrived = threading.Condition()

    def add(self, item):
        with self.arrived:
            self.items.append(item)
            self.arrived.notify_all()

    def wait_for(self, count, timeout=10.0):
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.items) >= count, timeout)
        return self.items


@pytest.fixture(scope="module")
def smtp_server():
    """aiosmtpd on 127.0.0.1:SMTP_PORT; each message parsed into an email.message."""
    from aiosmtpd.controller import Controller

    inbox = Inbox()

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            message = message_from_bytes(envelope.original_content, policy=policy.default)
            inbox.add((envelope.rcpt_tos, message))
            return "250 OK"

    controller = Controller(Handler(), hostname="127.0.0.1", port=SMTP_PORT)
    controller.start()
    yield inbox
    controller.stop()


@pytest.fixture
def smtp(smtp_server, settings):
    """The site's e-mail going to the local SMTP server, an empty inbox."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", SMTP_PORT
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    smtp_server.items.clear()
    return smtp_server


@pytest.fixture(scope="module")
def hook_server():
    """An HTTP server on 127.0.0.1:HOOK_PORT keeping every POST's path and JSON body."""
    inbox = Inbox()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            inbox.add((self.path, json.loads(body)))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", HOOK_PORT), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield inbox
    server.shutdown()
    server.server_close()


@pytest.fixture
def hooks(hook_server, settings):
    """Webhooks may post to the local server (the setting the tests turn on)."""
    settings.NOTIFICATIONS_WEBHOOK_ALLOW_PRIVATE = True
    hook_server.items.clear()
    return hook_server


@pytest.fixture
def hook_url():
    return f"http://127.0.0.1:{HOOK_PORT}/kgk-hook"


@pytest.fixture
def make_deck(catalogue):
    """A legal saved deck for a user (R 9: 15 names x 3 copies from compatible races)."""
    from decks.services import save_deck
    from tournaments.simulation import legal_colony_names

    def make(owner, seed=0):
        names = legal_colony_names(f"notify-colony-{seed}", 6)
        return save_deck(
            owner, name=f"{owner.username} colony", cards=sorted((c, 3) for c in set(names))
        )

    return make
