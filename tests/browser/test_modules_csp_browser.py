"""Issue 36: the deck builder's and the game table's scripts are ES modules (static/js/builder.js,
static/matches/game.js and replay.js import their parts, no bundler). Under the site's own
Content-Security-Policy enforced (cardgame/settings.py CSP_DIRECTIVES: script-src 'self'),
each page loads its modules and runs: no script error, nothing refused."""

import pytest
from django.conf import settings
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

from .browser_kit import log_in  # noqa: E402
from .test_match_browser import make_user  # noqa: E402

POLICY = "; ".join(f"{name} {' '.join(values)}" for name, values in settings.CSP_DIRECTIVES.items())


def enforce_policy(page):
    """Every page the browser opens carries the policy as an enforced header (the site sends
    it enforced behind HTTPS only); the refusals it causes are kept in page.refused."""
    page.refused = []
    page.on(
        "console",
        lambda message: (
            page.refused.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )

    def add_policy(route):
        if route.request.resource_type != "document":
            route.continue_()
            return
        response = route.fetch(max_redirects=0)  # the browser follows a redirect itself
        headers = {**response.headers, "content-security-policy": POLICY}
        route.fulfill(response=response, headers=headers)

    page.route("**/*", add_policy)


def test_builder_and_table_modules_run_under_the_enforced_policy(new_page, live_server, cards):
    make_user("alice")
    page = new_page()
    log_in(page, live_server, "alice", "/en/play/")
    with page.expect_navigation():
        page.click("#play-heuristic")
    game = page.url
    # from here on every page is opened by a plain GET: Playwright routes only the first
    # request of a redirect chain, so a page reached by a redirect would carry no policy
    enforce_policy(page)
    page.goto(f"{live_server.url}/en/decks/new/")
    expect(page.locator("#race-chips .chip").first).to_be_visible()  # builder.js asked the API
    page.goto(game)
    page.wait_for_function("() => window.KGKGame")  # game.js ran
    expect(page.locator("#side-bottom .side-head")).to_be_visible()  # board.js drew the table
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#concede")
    expect(page.locator("#result")).to_contain_text("You lost")
    with page.expect_navigation():
        page.click("#replay-link")
    page.click("#last")
    expect(page.locator("#result")).to_be_visible()  # replay.js with the same board
    assert not page.refused, page.refused
    assert not page.js_errors, page.js_errors
