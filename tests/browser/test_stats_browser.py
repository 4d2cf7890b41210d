"""The statistics in a real browser: an event report prints without the site's menu
and its share link (the print layout) and its print button opens the print dialog; on
a phone, the metagame's trend chart fits the screen with its month labels inside it and
no page scrolls sideways."""

import datetime

import pytest
from django.contrib.auth import get_user_model

from decks.services import save_deck
from matches.models import Match, Seat
from stats.recording import record_game
from tournaments.models import Registration, Tournament

from .browser_kit import no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def finished_event(cards, django_capture_on_commit_callbacks):
    """A four-player event that ended (its report stored by the receiver), and two
    finished games in two months between the players' decks."""
    zarg = list(cards.filter(race="zarg").values_list("code", flat=True)[:6])
    users = [get_user_model().objects.create_user(f"p{i}") for i in range(4)]
    decks = [
        save_deck(u, name=f"Deck {i}", cards=[(c, 3) for c in zarg], is_public=True)
        for i, u in enumerate(users)
    ]
    event = Tournament.objects.create(
        name="Cup", organiser=users[0], date=datetime.date(2026, 11, 7), status="running"
    )
    for user, deck in zip(users, decks, strict=True):
        cards_ = [[c, 3] for c in sorted(zarg)]
        Registration.objects.create(
            tournament=event, player=user, deck=deck, deck_name=deck.name, cards=cards_
        )
    with django_capture_on_commit_callbacks(execute=True):
        event.status = Tournament.FINISHED
        event.save(update_fields=["status"])
    for month in (10, 11):
        finished = datetime.datetime(2026, month, 3, tzinfo=datetime.UTC)
        match = Match.objects.create(seed=1, status="finished", winner_seat=0, finished=finished)
        for seat in range(2):
            colony = [c for c in zarg for _ in range(3)]
            Seat.objects.create(match=match, seat=seat, colony=colony, deck=decks[seat])
        record_game(match.pk)
    return event


def test_the_event_report_prints_and_the_trend_fits_a_phone(
    finished_event, live_server, page, phone_page
):
    page.goto(f"{live_server.url}/en/stats/events/{finished_event.pk}/")
    assert page.locator("#event-races").is_visible()
    page.evaluate("window.printed = 0; window.print = () => { window.printed += 1 }")
    page.click("#print-report")
    assert page.evaluate("window.printed") >= 1  # the print dialog opened
    page.emulate_media(media="print")
    assert not page.locator(".share-link").is_visible()
    assert not page.locator("body > header").is_visible()
    assert page.locator("#event-races").is_visible()
    assert not page.js_errors

    phone_page.goto(f"{live_server.url}/hu/stats/?from=2026-10&to=2026-11")
    chart = phone_page.locator("#trend svg")
    box = chart.bounding_box()
    assert box["width"] <= 390
    for label in ("2026. okt.", "2026. nov."):
        text = phone_page.locator("#trend svg text", has_text=label).bounding_box()
        assert text["x"] >= 0 and text["x"] + text["width"] <= 390, label
        assert text["height"] >= 9, "a month label readable on a phone"
    no_horizontal_scroll(phone_page)
