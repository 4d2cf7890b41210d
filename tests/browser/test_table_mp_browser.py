"""A multiplayer table (R 17.1) in real browsers (Playwright, Debian Chromium) against
pytest-django's live_server (WSGI: the pages keep current by polling).

Three people in three browser contexts (desktop English, phone Hungarian, desktop
Hungarian): the host opens a table for four in the lobby, the two others join it with their
decks, the host starts it and a bot takes the fourth seat. Every page shows the three other
colonies as strips (whose turn, who can be attacked), only its own centre (R 16.2); each
person plays a few decisions, then lets a bot play for them, and the bots play the table to
its end: every page shows the ranking (R 17.1.6). Screenshots go to KGK_SHOTS if set.
"""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from matches.models import Match

from .browser_kit import log_in, no_horizontal_scroll
from .test_match_browser import click_and_wait, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("KGK_SHOTS")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESK = {"viewport": {"width": 1366, "height": 900}}


def shot(page, name):
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def test_three_people_join_a_table_of_four_and_play_it_to_the_end(new_page, live_server, cards):
    for name in ("alice", "bob", "carol"):
        make_user(name)
    alice, bob, carol = new_page(**DESK), new_page(**PHONE), new_page(**DESK)
    log_in(alice, live_server, "alice", "/en/play/")
    alice.select_option("#seats", "4")
    with alice.expect_navigation():
        alice.click("#open-table")
    table = Match.objects.get(status=Match.OPEN)
    assert table.seat_count == 4
    item = f"[data-match='{table.pk}']"
    expect(alice.locator(f"#my-tables {item}")).to_contain_text("table of 4")
    for page, name, lang in ((bob, "bob", "hu"), (carol, "carol", "hu")):
        log_in(page, live_server, name, f"/{lang}/play/")
        expect(page.locator(f"#open-challenges {item}")).to_contain_text("4 fős asztal")
        with page.expect_navigation():
            page.click(f"#open-challenges {item} button.join")
        expect(page.locator(f"#my-tables {item}")).to_be_visible()
    shot(bob, "lobby-phone-hu")
    shot(carol, "lobby-desktop-hu")
    alice.reload()
    expect(alice.locator(f"#my-tables {item}")).to_contain_text("bob")
    shot(alice, "lobby-desktop-en")
    no_horizontal_scroll(bob)
    with alice.expect_navigation():
        alice.click(f"#my-tables {item} button.start")
    table.refresh_from_db()
    assert table.status == Match.ACTIVE
    assert [s.bot for s in table.seats.order_by("seat")] == ["", "", "", "heuristic"]
    bob.goto(f"{live_server.url}/hu/play/{table.pk}/")
    carol.goto(f"{live_server.url}/hu/play/{table.pk}/")
    pages = [(alice, 0), (bob, 1), (carol, 2)]
    for page, seat in pages:
        assert not page.js_errors, page.js_errors
        expect(page.locator("#side-bottom")).to_have_attribute("data-seat", str(seat))
        expect(page.locator("#table-strips .strip")).to_have_count(3)
        state = page.evaluate("window.KGKGame.state()")
        for other in range(4):  # R 16.2: nobody else's centre reaches this page
            assert (state["view"]["players"][other]["centre"] is None) == (other != seat)
        # R 17.1.2: the two neighbours are marked as the ones this seat may attack
        neighbours = sorted({(seat + 1) % 4, (seat - 1) % 4})
        marked = page.locator("#table-strips .strip.neighbour")
        assert (
            sorted(int(s) for s in marked.evaluate_all("ns => ns.map(n => n.dataset.seat)"))
            == neighbours
        )
    no_horizontal_scroll(bob)
    shot(alice, "table-desktop-en")
    shot(bob, "table-phone-hu")
    shot(carol, "table-desktop-hu")
    # a spectator (not logged in, a phone, English) sees the four colonies and no centre
    watcher = new_page(**PHONE)
    watcher.goto(f"{live_server.url}/en/play/{table.pk}/")
    expect(watcher.locator("#table-strips .strip")).to_have_count(3)
    state = watcher.evaluate("window.KGKGame.state()")
    assert state["you"] is None and state["legal_actions"] == []
    assert all(p["centre"] is None for p in state["view"]["players"])
    assert watcher.locator("#hand .card").count() == 0
    no_horizontal_scroll(watcher)
    shot(watcher, "table-phone-en-spectator")
    # each person makes a few decisions when it is theirs (the others' pages follow)
    made = 0
    for _ in range(60):
        if made >= 6:
            break
        for page, _seat in pages:
            button = page.locator("#actions button.act:not([disabled])").first
            if button.count() and button.is_visible() and click_and_wait(page, button):
                made += 1
        alice.wait_for_timeout(300)
    assert made >= 3
    # then each lets a bot play on for them; the bots play the table to its end
    for page, _seat in pages:
        page.once("dialog", lambda dialog: dialog.accept())
        expect(page.locator("#concede")).to_have_text(
            "Let a bot play for me" if page is alice else "Játsszon helyettem egy bot"
        )
        page.click("#concede")
        expect(page.locator("#concede")).to_be_hidden(timeout=60_000)
    table.refresh_from_db()
    for page, _seat in pages:
        expect(page.locator("#result")).to_be_visible(timeout=120_000)
    table.refresh_from_db()
    assert table.status == Match.FINISHED and table.result == "elimination"
    assert sorted(table.ranking) == [0, 1, 2, 3]
    expect(alice.locator("#result-detail")).to_contain_text("Ranking: 1.")
    expect(bob.locator("#result-detail")).to_contain_text("Helyezések: 1.")
    expect(alice.locator("#table-strips .badge.rank")).to_have_count(3)
    shot(alice, "table-end-desktop-en")
    shot(bob, "table-end-phone-hu")
    for page in (alice, bob, carol, watcher):
        assert not page.js_errors, page.js_errors
