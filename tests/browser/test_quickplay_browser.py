"""Quick play as people use it (Playwright, Debian Chromium, pytest-django's live_server,
which speaks no WebSocket: the section polls its status, the same heartbeat the socket's
ping is). Issue 37's must-show: two people queue from two browsers and land at the same
table; a third waits past the limit and gets a bot."""

import re

import pytest
from playwright.sync_api import expect

from matches.models import Match

from .browser_kit import log_in
from .test_match_browser import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
GAME = re.compile(r"/en/play/(\d+)/$")


def queue_up(page, bot_after_wait=False):
    section = page.locator("#quickplay")
    expect(section.get_by_role("heading", name="Quick play")).to_be_visible()
    if bot_after_wait:
        section.get_by_label("Give me a bot if nobody comes").check()
    section.get_by_role("button", name="Find a game").click()


def test_two_people_meet_at_one_table_and_a_third_gets_a_bot(
    new_page, live_server, cards, settings
):
    settings.QUICKPLAY_WAIT_LIMIT = 2  # seconds: the third person's wait
    pages = {}
    for name in ("ann", "ben", "cid"):
        make_user(name)
        pages[name] = new_page()
        log_in(pages[name], live_server, name, "/en/play/")

    ann, ben, cid = pages["ann"], pages["ben"], pages["cid"]
    queue_up(ann)
    expect(ann.locator("#qp-queue")).to_have_text(
        "You are waiting for an opponent: Original (tournament), "
        "standard (10 min + 15 s a turn), casual."
    )
    expect(ben.locator("#qp-counts")).to_contain_text("1 waiting")  # ben's page polls
    queue_up(ben)
    ben.wait_for_url(GAME)
    ann.wait_for_url(GAME)  # ann's page heard it on its next poll
    assert ann.url == ben.url
    match = Match.objects.get(pk=GAME.search(ann.url).group(1))
    assert sorted(s.user.username for s in match.seats.all()) == ["ann", "ben"]

    queue_up(cid, bot_after_wait=True)
    expect(cid.locator("#qp-bot-note")).to_have_text(
        "You get a bot of your strength when the wait is over."
    )
    cid.wait_for_url(GAME)
    game = Match.objects.get(pk=GAME.search(cid.url).group(1))
    seats = list(game.seats.order_by("seat"))
    assert seats[0].user.username == "cid" and seats[1].bot == "heuristic"
    assert not game.rated
    for page in pages.values():
        assert page.js_errors == []
