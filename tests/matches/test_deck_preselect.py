"""The deck a person is offered first (issue 34): the lobby and a tournament's registration
pre-select the newest legal deck (R 9), not a newer deck that is not legal."""

import datetime
import re

import pytest

from decks.services import save_deck
from tournaments import services as tournaments

from .kit import logged_in, make_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def decks(players):
    alice = players[0]
    legal = make_deck(alice, seed=1, name="Legal colony")
    draft = save_deck(alice, name="Draft", cards=[("KG1-001", 3)])  # newer, not legal (R 9.1)
    assert legal.is_legal and not draft.is_legal
    return legal, draft


def selected(html: str, select_id: str) -> list[str]:
    block = re.search(rf'<select[^>]*id="{select_id}".*?</select>', html, re.S).group(0)
    return re.findall(r'<option value="(\d+)"[^>]*selected', block)


def test_r9_the_lobby_preselects_the_newest_legal_deck(players, decks):
    legal, draft = decks
    html = logged_in(players[0]).get("/hu/play/").content.decode()
    assert selected(html, "deck") == [str(legal.pk)]


def test_r9_tournament_registration_preselects_the_newest_legal_deck(players, decks):
    legal, draft = decks
    event = tournaments.create_tournament(
        players[1], name="Kupa", date=datetime.date(2026, 12, 19), judges=[]
    )
    html = logged_in(players[0]).get(f"/hu/tournaments/{event.pk}/").content.decode()
    assert selected(html, "deck-select") == [str(legal.pk)]
