"""Every user-written field renders inert on every page that shows it: deck name and
description, tournament (event) name, username. Descriptions are Markdown (kgk|markdown)."""

import datetime
from urllib.parse import quote

import pytest

from decks import services as deck_services
from tests.decks.test_pages import LACI, colony
from tournaments import penalties
from tournaments import services as tournament_services

PAYLOAD = '<script>alert("xss")</script><img src=x onerror=alert(1)>'


def assert_inert(page: str, where: str = ""):
    for raw in ("<script>alert", "<script>x", "<img src=x"):
        at = page.find(raw)
        assert at < 0, (where, page[max(0, at - 200) : at + 60])


@pytest.fixture
def mallory(django_user_model):
    return django_user_model.objects.create_user(username="m<script>x</script>", password="pw")


@pytest.fixture
def hostile(catalogue, mallory):
    deck = deck_services.save_deck(
        mallory,
        name=PAYLOAD,
        description=f"**bold** {PAYLOAD} [link](javascript:alert(1))",
        cards=colony(LACI),
        is_public=True,
    )
    event = tournament_services.create_tournament(
        mallory, name=PAYLOAD, date=datetime.date(2026, 12, 1)
    )
    # mallory plays in her own event: her page lists it with the deck's name; a judge's
    # note on her penalty is shown on the dashboard and her pages
    reg = tournament_services.register(event, mallory, deck)
    penalties.give_penalty(reg, mallory, "warning", "other", PAYLOAD)
    return deck, event


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_user_written_fields_render_inert_on_every_page(client, hostile, mallory, lang):
    deck, event = hostile
    client.force_login(mallory)
    urls = [
        f"/{lang}/decks/",
        f"/{lang}/decks/{deck.pk}/",
        f"/{lang}/decks/{deck.pk}/edit/",
        f"/{lang}/decks/{deck.pk}/print/",
        f"/{lang}/decks/{deck.pk}/versions/",
        f"/{lang}/lab/decks/{deck.pk}/",
        f"/{lang}/play/",
        f"/{lang}/tournaments/",
        f"/{lang}/tournaments/{event.pk}/",
        f"/{lang}/tournaments/{event.pk}/dashboard/",
        f"/{lang}/tournaments/{event.pk}/standings/",
        f"/{lang}/players/{quote(mallory.username)}/",
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert_inert(response.content.decode(), url)


def test_description_markdown_renders_a_safe_subset(client, hostile):
    deck, _event = hostile
    page = client.get(f"/en/decks/{deck.pk}/").content.decode()
    assert "<strong>bold</strong>" in page and "**bold**" not in page
    assert "javascript:" not in page
    assert "&lt;script&gt;" in page
