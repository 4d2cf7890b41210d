"""Clocks that fit people (issue 34) in a real browser: the lobby's time-control choice and
an open game listed with its clock; the table's time control, the warning band under a
minute and the sound toggle (off by default, remembered). Screenshots in Hungarian and
English at 1366x900 and 390x844 go to /tmp/shots/i34-clock/."""

from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from matches import services
from matches.models import Match

from .browser_kit import log_in, no_horizontal_scroll
from .test_match_browser import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots/i34-clock")
SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
LOBBY_TEXT = {
    "hu": ("Időkontroll emberek elleni játszmában", "kényelmes (20 perc + 30 mp körönként)"),
    "en": ("Clock in games with people", "relaxed (20 min + 30 s a turn)"),
}
BAND_TEXT = {"hu": "Egy percnél kevesebb maradt", "en": "Under a minute left"}
CONTROL_TEXT = {
    "hu": "Időkontroll: normál (10 perc + 15 mp körönként)",
    "en": "Time control: standard (10 min + 15 s a turn)",
}


def _page(new_page, size):
    if size == "phone":
        return new_page(viewport=SIZES[size], device_scale_factor=2, is_mobile=True,
                        has_touch=True)  # fmt: skip
    return new_page(viewport=SIZES[size])


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_lobby_offers_time_controls_and_lists_an_open_game_with_its_clock(
    new_page, live_server, cards, size
):
    _alice, _ = make_user("alice")
    bob, bob_deck = make_user("bob")
    services.challenge(bob, bob_deck, time_control="relaxed")  # an open challenge
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = _page(new_page, size)
    log_in(page, live_server, "alice", "/en/play/")
    for lang in ("hu", "en"):
        page.goto(f"{live_server.url}/{lang}/play/")
        label, listed = LOBBY_TEXT[lang]
        expect(page.locator("label[for=time_control]")).to_have_text(label)
        expect(page.locator("#time_control")).to_have_value("standard")
        expect(page.locator("#open-challenges .time-control")).to_have_text(listed)
        no_horizontal_scroll(page)
        page.locator("#open-challenges").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"lobby-{lang}-{size}.png"), full_page=True)
    assert not page.js_errors, page.js_errors


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_table_warns_under_a_minute_with_a_band_and_an_optional_sound(
    new_page, live_server, cards, size
):
    alice, alice_deck = make_user("alice")
    bob, bob_deck = make_user("bob")
    match = services.challenge(alice, alice_deck, opponent=bob)  # standard, the default
    services.accept(match, bob, bob_deck)
    match = Match.objects.get(pk=match.pk)
    decider = match.deciding_seat
    user = (alice, bob)[decider]
    match.seats.filter(seat=decider).update(time_bank=45)  # under a minute, as the clock
    Match.objects.filter(pk=match.pk).update(  # would have armed it: min(limit, bank)
        decision_started=timezone.now(), decision_deadline=timezone.now() + timedelta(seconds=45)
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = _page(new_page, size)
    log_in(page, live_server, user.username, "/en/play/")
    for lang in ("hu", "en"):
        page.goto(f"{live_server.url}/{lang}/play/{match.pk}/")
        expect(page.locator("#time-control")).to_contain_text(CONTROL_TEXT[lang])
        band = page.locator("#clock-warning")
        expect(band).to_be_visible()
        expect(band).to_contain_text(BAND_TEXT[lang])
        expect(page.locator(f"[data-clock='{decider}'].low").first).to_be_visible()
        sound = page.locator("#clock-sound")
        expect(sound).to_have_attribute("aria-pressed", "false")  # off by default
        no_horizontal_scroll(page)
        page.screenshot(path=str(SHOTS / f"table-{lang}-{size}.png"))
    sound = page.locator("#clock-sound")
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.locator("#clock-sound")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("localStorage.getItem('kgk.clockSound')") == "true"
    assert not page.js_errors, page.js_errors


def test_a_bot_game_shows_no_clock_at_all(new_page, live_server, cards):
    """Untimed against a bot: the table says so, and no bank or decision time is shown."""
    alice, alice_deck = make_user("alice")
    match = services.challenge(alice, alice_deck, bot="random")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = _page(new_page, "phone")
    log_in(page, live_server, "alice", "/en/play/")
    for lang, text in (("hu", "Időkontroll: időkorlát nélkül"), ("en", "Time control: untimed")):
        page.goto(f"{live_server.url}/{lang}/play/{match.pk}/")
        expect(page.locator("#time-control")).to_have_text(text)
        expect(page.locator("#actions button.act").first).to_be_visible()
        assert all(not t.strip() for t in page.locator("[data-clock]").all_inner_texts())
        assert page.locator("#clock-warning").count() == 0
        page.screenshot(path=str(SHOTS / f"table-untimed-{lang}-phone.png"))
    assert not page.js_errors, page.js_errors
