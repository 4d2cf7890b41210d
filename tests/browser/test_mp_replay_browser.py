"""Issue 34 in a real browser: the replay of a finished table of three (R 17.1) plays from
every seat (it was blank: "Cannot read properties of null (reading 'insertBefore')"), its
result's reason matches the ranking (R 17.1.6: most eliminations first), the two heuristic
bots have distinct names, and a third account reads no "(you)"."""

import os
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation
from playwright.sync_api import expect

from matches import presentation
from matches import services as matches
from matches.models import Match

from .browser_kit import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("KGK_SHOTS")


def _deck(user):
    from decks.services import save_deck
    from engine.colonies import build_colony, load_cards

    counts = {}
    for card in build_colony(load_cards(), ["xeno", "insectoid", "zarg", "space_shark"]):
        counts[card["code"]] = counts.get(card["code"], 0) + 1
    return save_deck(user, name="Laci", cards=sorted(counts.items()), is_public=True)


@pytest.fixture
def finished_table(cards):
    """alice and two heuristic bots; alice concedes, a bot stands in, the bots finish."""
    users = get_user_model().objects
    alice = users.create_user("alice", password=PASSWORD)
    users.create_user("carol", password=PASSWORD)
    colony = matches.deck_colony(_deck(alice), "original")
    match = matches.create_match(
        players=[alice, None, None],
        colonies=[colony] * 3,
        bots=[None, "heuristic", "heuristic"],
        decks=[None, None, None],
        seed=5,
    )
    matches.concede(match, alice)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        match.refresh_from_db()
        if match.status == Match.FINISHED:
            return match
        time.sleep(0.5)
    raise AssertionError(f"the bots did not finish the table: {match.status}")


def _open(page, live_server, match, seat, lang, user=None):
    path = f"/{lang}/play/{match.pk}/replay/?seat={seat}"
    if user:
        log_in(page, live_server, user, path)
    else:
        page.goto(f"{live_server.url}{path}")
    page.wait_for_function("window.KGKReplay && window.KGKReplay.count() > 1")


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_finished_table_replays_from_every_seat(new_page, live_server, finished_table, lang):
    match = finished_table
    assert match.result == "elimination" and len(match.ranking) == 3
    with translation.override(lang):
        words = presentation.client_strings()
    bot = words["bots"]["heuristic"]
    for seat in range(3):
        page = new_page()
        _open(page, live_server, match, seat, lang)
        # it plays: a step forward changes the board and the step counter
        expect(page.locator("#side-bottom")).not_to_be_empty()
        label = page.locator("#step-label").inner_text()
        page.click("#next")
        expect(page.locator("#step-label")).not_to_have_text(label)
        page.click("#last")
        result = page.locator("#result")
        expect(result).to_be_visible()
        winner = match.ranking[0]
        head = page.locator("#result-head").inner_text()
        names = {0: "alice", 1: f"{bot} 1", 2: f"{bot} 2"}
        if lang == "hu":
            names = {0: "alice", 1: f"1. {bot}", 2: f"2. {bot}"}
        assert names[winner] in head, (head, match.ranking)
        # the reason is the ranking's (R 17.1.6), not "the last colony left"
        expect(page.locator("#result-detail")).to_contain_text(words["reasons"]["elimination"])
        # the strips: the other two seats, each ranked, the bots told apart
        strips = page.locator("#table-strips .strip")
        expect(strips).to_have_count(2)
        strip_names = [strips.nth(i).locator(".player-name").inner_text() for i in range(2)]
        assert len(set(strip_names)) == 2, strip_names
        for other in (s for s in range(3) if s != seat):
            place = words["ui"]["place"][str(match.ranking.index(other) + 1)]
            expect(page.locator(f'#table-strips .strip[data-seat="{other}"]')).to_contain_text(
                place
            )
        # nobody logged in: no seat is "you"
        assert f"({words['ui']['you']})" not in page.locator("#replay").inner_text()
        assert page.js_errors == [], page.js_errors
        if SHOTS and seat == 0:
            for size, viewport in (("desktop", (1366, 900)), ("phone", (390, 844))):
                page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
                page.screenshot(
                    path=str(Path(SHOTS) / f"mp-replay-{lang}-{size}.png"), full_page=True
                )


def test_a_third_account_reads_no_you_and_a_player_does(new_page, live_server, finished_table):
    match = finished_table
    with translation.override("en"):
        you = f"({presentation.client_strings()['ui']['you']})"
    carol = new_page()
    _open(carol, live_server, match, 0, "en", user="carol")
    carol.click("#last")
    expect(carol.locator("#result")).to_be_visible()
    assert you not in carol.locator("#replay").inner_text()
    assert "Your turn" not in carol.locator("#status-line").inner_text()
    alice = new_page()
    _open(alice, live_server, match, 1, "en", user="alice")  # her own game, another seat
    alice.click("#last")
    expect(alice.locator('#table-strips .strip[data-seat="0"]')).to_contain_text(f"alice {you}")
    assert carol.js_errors == [] and alice.js_errors == []
