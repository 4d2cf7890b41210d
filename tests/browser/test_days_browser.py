"""Games over days (issue 37) in a real browser: the lobby's "Your move" opens the game,
and the game page writes a clock of hours and days in words of the page's language (never
"1440:00"), the time really left after the player was away for hours."""

import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from matches import clocks, services
from matches.models import Match

from .browser_kit import log_in, no_horizontal_scroll
from .test_match_browser import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# 19 h 10 min into a day: the decider's clock (4 h 50 min left, a minute less as it runs)
# and the time left in the lobby; the other player's clock does not run: a whole day
OWN = {"en": r"4 h (49|50) min", "hu": r"4 óra (49|50) perc"}
LEFT = {"en": r"4 hours (49|50) min left", "hu": r"még 4 óra (49|50) perc"}
OTHER = {"en": "1 d", "hu": "1 nap"}


def test_your_move_opens_a_game_over_days_whose_clock_reads_in_hours_and_days(
    new_page, live_server, cards
):
    alice, alice_deck = make_user("alice")
    bob, bob_deck = make_user("bob")
    match = services.challenge(alice, alice_deck, opponent=bob, time_control=clocks.DAY)
    services.accept(match, bob, bob_deck)
    match = Match.objects.get(pk=match.pk)
    away = timedelta(hours=19, minutes=10)  # the decider comes back 19 h later
    Match.objects.filter(pk=match.pk).update(
        decision_started=match.decision_started - away,
        decision_deadline=match.decision_deadline - away,
    )
    decider = match.deciding_seat
    user = (alice, bob)[decider]
    page = new_page(viewport={"width": 390, "height": 844})
    log_in(page, live_server, user.username, "/en/play/")
    for lang in ("en", "hu"):
        page.goto(f"{live_server.url}/{lang}/play/")
        mine = page.locator("#your-move")
        expect(mine.locator(".time-left")).to_have_text(re.compile(LEFT[lang]))
        no_horizontal_scroll(page)
        mine.locator(f"a[href='/{lang}/play/{match.pk}/']").click()
        expect(page.locator("#actions button.act").first).to_be_visible()
        own = page.locator(f"[data-clock='{decider}']").first
        expect(own).to_contain_text(re.compile(OWN[lang]))
        other = page.locator(f"[data-clock='{1 - decider}']").first
        expect(other).to_contain_text(OTHER[lang])
        texts = " ".join(page.locator("[data-clock]").all_inner_texts())
        assert not re.search(r"\d{3,}:\d\d", texts), texts  # no "1150:00"
    assert not page.js_errors, page.js_errors
