"""Every refusal of the tournaments app has one home (tournaments/problems.py, issue 36):
a code for machines and a gettext sentence for people, in both languages, and the API and
the pages say the same words for it (R 18)."""

import ast
import datetime
import json
import re
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.html import escape
from tournament_kit import colony, create_users, enter

from decks.services import save_deck
from tournaments import problems, services

APP = Path(__file__).resolve().parents[2] / "tournaments"

WORDS = {"name": "Anna", "n": 3, "names": "Bea, Cili"}
"""Enough words for every sentence's placeholders."""


def app_strings() -> tuple[set[str], set[str]]:
    """(codes raised as Conflict("...") or NotAllowed("..."), every string constant) in the
    app's modules other than problems.py."""
    raised, strings = set(), set()
    for path in APP.glob("*.py"):
        if path.name == "problems.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                strings.add(node.value)
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            first = node.args[0]
            if name in ("Conflict", "NotAllowed") and isinstance(first, ast.Constant):
                raised.add(first.value)
    return raised, strings


def test_every_code_raised_has_a_sentence_and_every_sentence_is_used():
    raised, strings = app_strings()
    assert len(raised) > 40, "the scan finds the refusals"
    assert raised <= set(problems.MESSAGES), raised - set(problems.MESSAGES)
    assert set(problems.MESSAGES) <= strings, set(problems.MESSAGES) - strings


@pytest.mark.parametrize("code", sorted(problems.MESSAGES))
def test_every_code_reads_in_english_and_in_hungarian(code):
    with translation.override("en"):
        english = problems.sentence(code, WORDS)
    with translation.override("hu"):
        hungarian = problems.sentence(code, WORDS)
    for text in (english, hungarian):
        assert text.strip() and "%(" not in text, (code, text)
    assert hungarian != english, f"{code} has no Hungarian translation"


def test_a_refusal_carries_its_code_and_its_sentence():
    with translation.override("en"):
        error = problems.Conflict("ROUND_UNFINISHED", n=2)
    assert error.code == "ROUND_UNFINISHED"
    assert str(error) == error.detail == "Round 2 still has unfinished matches."
    assert error.payload() == {"detail": error.detail, "code": "ROUND_UNFINISHED"}
    assert isinstance(problems.NotAllowed("STAFF_ONLY"), services.PermissionDenied)


@pytest.fixture
def users(django_user_model, catalogue):
    return create_users(django_user_model, ["org", "ann", "bob", "cyd"])


@pytest.fixture
def started(users):
    """An event that has started: registration is closed (R 18.2)."""
    event = services.create_tournament(
        users["org"], name="Pécs Kupa", date=datetime.date(2026, 12, 5)
    )
    enter(event, users, ["ann", "bob"])
    services.start(event, users["org"])
    return event


def page_text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "hu"])
def test_the_api_and_the_pages_say_the_same_sentence_R18_2(client, users, started, language):
    """A late registration (409) and a player pairing a round (403): the API's `detail`
    and `code`, and the page's message, are the sentence of problems.py, in the reader's
    language."""
    deck = save_deck(users["cyd"], name="c", cards=colony())
    with translation.override(language):
        closed = problems.sentence("REGISTRATION_CLOSED")
        staff_only = problems.sentence("STAFF_ONLY")
    client.force_login(users["cyd"])
    api = client.post(
        f"/api/tournaments/{started.pk}/register/",
        json.dumps({"deck": deck.pk}),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert api.status_code == 409
    assert api.json() == {"detail": closed, "code": "REGISTRATION_CLOSED"}
    page = client.post(
        f"/{language}/tournaments/{started.pk}/do/register/", {"deck": deck.pk}, follow=True
    )
    assert escape(closed) in page_text(page)

    client.force_login(users["ann"])
    api = client.post(f"/api/tournaments/{started.pk}/rounds/", HTTP_ACCEPT_LANGUAGE=language)
    assert api.status_code == 403
    assert api.json() == {"detail": staff_only, "code": "STAFF_ONLY"}
    page = client.post(f"/{language}/tournaments/{started.pk}/do/pair/", follow=True)
    assert escape(staff_only) in page_text(page)
