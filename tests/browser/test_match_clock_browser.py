"""Issue 15 in a real browser: two people on one embedded-default site (live_server on
SQLite, eager Celery, no Redis, the in-process clock sweep as cardgame/asgi.py starts it);
one closes the tab, the other sees that player's clock run out and the game end.

Short clocks through the settings (MATCHES_CASUAL_BANK / MATCHES_CASUAL_DECISION_LIMIT):
a bank of BANK seconds and the same limit per decision, so the first decision the absent
player misses empties the bank and loses the game on time.
"""

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from matches import embedded_clock
from matches.models import Match

from .browser_kit import log_in
from .test_match_browser import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BANK = 8  # seconds


@pytest.fixture
def embedded_site(settings, live_server):
    settings.MATCHES_CASUAL_BANK = BANK
    settings.MATCHES_CASUAL_DECISION_LIMIT = BANK
    settings.MATCHES_CASUAL_INCREMENT = 0  # no time added per turn (issue 34's increments)
    assert settings.CELERY_TASK_ALWAYS_EAGER and not getattr(settings, "REDIS_URL", "")
    embedded_clock.start(interval=0.5)  # the autouse clock_sweep fixture may have already
    yield live_server
    assert embedded_clock.stop()


def test_a_player_who_closes_the_tab_loses_on_time(new_page, embedded_site, cards):
    make_user("alice")
    make_user("bob")
    alice, bob = new_page(), new_page()
    log_in(alice, embedded_site, "alice", "/en/play/")
    with alice.expect_navigation():
        alice.click("#challenge")  # an open challenge
    match = Match.objects.get(status=Match.OPEN)
    log_in(bob, embedded_site, "bob", "/hu/play/")
    with bob.expect_navigation():
        bob.click(f"#open-challenges [data-match='{match.pk}'] button.accept")
    alice.goto(f"{embedded_site.url}/en/play/{match.pk}/")
    expect(bob.locator("#side-bottom")).to_have_attribute("data-seat", "1")
    bob.context.close()  # Bob leaves: nobody answers for seat 1 any more
    result = alice.locator("#result")
    for _ in range(200):  # Alice answers whatever she is asked, at once
        if result.is_visible():
            break
        button = alice.locator("#actions button.act:not([disabled])").first
        try:
            button.wait_for(timeout=1000)
            button.click(timeout=1000)
        except PlaywrightTimeout:
            continue  # Bob's decision: his clock runs
        confirm = alice.get_by_role("alertdialog")
        if confirm.count():
            confirm.get_by_role("button").first.click()
    expect(result).to_be_visible(timeout=3 * BANK * 1000)
    expect(alice.locator("#result-head")).to_have_text("You won!")
    expect(alice.locator("#result-detail")).to_contain_text("out of time")
    match.refresh_from_db()
    assert (match.status, match.result, match.winner_seat) == ("finished", "timeout", 0)
    assert match.seats.get(seat=1).time_bank == 0
    alice.screenshot(path="/tmp/shots/matches/clock-result-en.png")
    assert not alice.js_errors, alice.js_errors
