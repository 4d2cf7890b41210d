"""Playwright (sync API) driving Debian's Chromium against pytest-django's live_server.

No browser download: the tests launch /usr/bin/chromium (`apt-get install chromium`,
which `make test` does as root). Without it they skip here and fail under CI=true.
"""

import os

import pytest

# Playwright's sync API runs an event loop in the test thread; without this Django refuses
# database access from that thread (SynchronousOnlyOperation) in fixtures and tests.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = os.environ.get("KGK_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # the network is closed: no update checks, no sync, no background fetches
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 15_000


from service_kit import service_missing  # noqa: E402


@pytest.fixture(scope="module")
def chromium():
    """One headless Chromium per test module.

    Not per session: while Playwright runs, the thread has a running event loop, which
    later non-browser tests should not inherit.
    """
    if not os.access(CHROMIUM, os.X_OK):
        service_missing(
            f"needs Chromium at {CHROMIUM}: apt-get install -y chromium chromium-driver"
        )
    from playwright.sync_api import expect, sync_playwright

    # Assertions wait as long as actions do: `expect`'s own default is 5 s, which a page
    # that renders after a database write overran on a slow, busy 2-core CI machine.
    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _page(chromium, **context_options):
    context = chromium.new_context(**context_options)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    return context, page


@pytest.fixture
def new_page(chromium):
    """Factory: a page in a fresh browser context (own cookies), closed after the test."""
    contexts = []

    def make(**context_options):
        context, page = _page(chromium, **{"viewport": DESKTOP, **context_options})
        contexts.append(context)
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page):
    """A desktop-sized page (1280x900; Playwright's default locale, en-US)."""
    return new_page()


@pytest.fixture
def phone_page(new_page):
    """A phone-sized page: 390x844 CSS pixels, touch, the viewport meta tag honoured."""
    return new_page(viewport=PHONE, device_scale_factor=3, is_mobile=True, has_touch=True)


@pytest.fixture(autouse=True)
def clock_sweep(request, settings):
    """The site as `make run` runs it: in the embedded default (eager tasks, no beat) the
    site process sweeps the clocks itself (cardgame/asgi.py starts matches/embedded_clock.py;
    tests/conftest.py keeps it off for tests that do not ask). Without it, a bot move that
    met a locked SQLite table waited for a sweep that never came and a game played by bots
    stopped halfway (the three-browser table test, about one run in five)."""
    from matches import embedded_clock

    if "live_server" not in request.fixturenames or not settings.CELERY_TASK_ALWAYS_EAGER:
        yield
        return
    request.getfixturevalue("transactional_db")  # so the thread stops before the flush
    started = embedded_clock.start(interval=0.5)
    yield
    if started:  # wait for the sweep under way: a thread left sweeping breaks the flush
        assert embedded_clock.stop(), "the clock thread outlived its test"


@pytest.fixture
def cards(transactional_db, live_server):
    """The real first-edition set, loaded through the real loader into the live server's DB."""
    from cards_data.loader import load_cards
    from cards_data.models import Card

    load_cards()
    return Card.objects.all()
