"""A walkthrough of the site outside the game table, as a new user sees it: every page in
Hungarian and English, on a desktop (1366×900) and a phone (390×844).

On every page: no internal code (taken from the engine's and the apps' own code lists, so
a new code is caught), no rule number of RULES.md, no Python repr, no horizontal scroll, and in Hungarian no text that
is still its English msgid. Screenshots go to $KGK_SHOTS (default /tmp/shots/walkthrough).
"""

import datetime
import os
import re
from pathlib import Path

import polib
import pytest
from playwright.sync_api import expect

from tests.cardgame.test_translations import RULE_NUMBER

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("KGK_SHOTS", "/tmp/shots/walkthrough"))
SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
PASSWORD = "walk-through-pw-1"
REPR = re.compile(r"\{'[a-z_]+': |\[\('|<[A-Za-z_.]+ object at 0x|\bNone\b|\bTrue\b|\bFalse\b")
# words that are the same in both languages (reviewed)
SAME_IN_HUNGARIAN = {
    "API",
    "KGK",
    "OK",
    "Swiss",
    "JSON",
    "E-mail",
    "Email",
    "Bo1",
    "Bo3",
    "English",
}
# Gaps another part of issue 13 is closing (the organiser's activity log is the tournaments
# work): listed here by page and check, so the rest of the walkthrough guards everything else.
KNOWN_GAPS = {("dashboard", "repr")}


def internal_codes() -> set[str]:
    """Codes for machines: the engine's deck problems and the apps' error codes."""
    sources = [ROOT / "engine" / "deck.py", *ROOT.glob("*/services.py"), *ROOT.glob("*/api.py")]
    codes = set()
    for path in sources:
        text = path.read_text()
        codes |= set(re.findall(r'DeckProblem\(\s*"([A-Z][A-Z_]{3,})"', text))
        codes |= set(
            re.findall(
                r'(?:Request|Conflict|Forbidden|Unprocessable|NotFound)\(\s*"([A-Z][A-Z_]{3,})"',
                text,
            )
        )
    return codes


def english_msgids() -> set[str]:
    """English msgids whose Hungarian differs: seeing one on a /hu/ page is a miss."""
    ids = set()
    for path in [
        *ROOT.glob("locale/hu/LC_MESSAGES/*.po"),
        *ROOT.glob("*/locale/hu/LC_MESSAGES/*.po"),
    ]:
        for entry in polib.pofile(str(path)):
            if entry.msgstr and entry.msgstr != entry.msgid and "%" not in entry.msgid:
                ids.add(entry.msgid)
    return ids - SAME_IN_HUNGARIAN


CODES = internal_codes()
ENGLISH = english_msgids()


@pytest.fixture
def world(transactional_db, cards):
    """alice (organiser and deck owner) with a legal deck, an illegal one, and an event."""
    from django.contrib.auth import get_user_model

    from decks import services as deck_services
    from tests.decks.test_pages import LACI, colony
    from tournaments import services as tournament_services

    alice = get_user_model().objects.create_user("alice", password=PASSWORD)
    bob = get_user_model().objects.create_user("bob", password=PASSWORD)
    deck = deck_services.save_deck(
        alice, name="Laci", description="**Fast** zarg colony", cards=colony(LACI), is_public=True
    )
    bob_deck = deck_services.save_deck(bob, name="Bob", cards=colony(LACI))
    event = tournament_services.create_tournament(
        alice, name="Budapest Open", date=datetime.date(2026, 12, 5)
    )
    tournament_services.register(event, alice, deck)
    tournament_services.register(event, bob, bob_deck)
    return {"deck": deck, "event": event}


def pages(world) -> list[tuple[str, str]]:
    deck, event = world["deck"], world["event"]
    return [
        ("welcome", "/{lang}/accounts/welcome/"),
        ("cards", "/{lang}/"),
        ("search", "/{lang}/?q=t:ship"),
        ("search-none", "/{lang}/?q=zzzzqqq"),
        ("card", "/{lang}/cards/KG1-001/"),
        ("card-missing", "/{lang}/cards/KG1-999/"),
        ("help", "/{lang}/help/search/"),
        ("builder", "/{lang}/decks/new/"),
        ("deck", f"/{{lang}}/decks/{deck.pk}/"),
        ("decks", "/{lang}/decks/?mine=1"),
        ("import", "/{lang}/decks/import/"),
        ("collection", "/{lang}/decks/collection/"),
        ("lobby", "/{lang}/play/"),
        ("lab", f"/{{lang}}/lab/decks/{deck.pk}/"),
        ("tournaments", "/{lang}/tournaments/"),
        ("new-event", "/{lang}/tournaments/new/"),
        ("event", f"/{{lang}}/tournaments/{event.pk}/"),
        ("dashboard", f"/{{lang}}/tournaments/{event.pk}/dashboard/"),
        ("standings", f"/{{lang}}/tournaments/{event.pk}/standings/"),
        ("player", "/{lang}/players/alice/"),
        ("player-other", "/{lang}/players/bob/"),
    ]


def log_in(page, base, lang):
    page.goto(f"{base}/{lang}/accounts/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("form.narrow button[type=submit]")


def check_page(page, lang, where):
    text = page.inner_text("body")
    problems = []
    codes = sorted(code for code in CODES if re.search(rf"\b{code}\b", text))
    if codes:
        problems.append(f"internal codes {codes}")
    if RULE_NUMBER.search(text):
        problems.append(f"rule number {RULE_NUMBER.search(text).group(0)!r}")
    if REPR.search(text) and (where, "repr") not in KNOWN_GAPS:
        problems.append(f"Python repr {REPR.search(text).group(0)!r}")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    if overflow > 0:
        problems.append(f"horizontal scroll of {overflow}px")
    if lang == "hu":
        lines = {line.strip() for line in text.splitlines() if line.strip()}
        english = sorted(lines & ENGLISH)
        if english:
            problems.append(f"untranslated {english[:8]}")
    return [f"{where}: {p}" for p in problems]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", ["hu", "en"])
def test_walkthrough(new_page, live_server, world, lang, size):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = new_page(viewport=SIZES[size])
    found = []
    # signing up is the first thing a new user sees
    page.goto(f"{live_server.url}/{lang}/accounts/signup/")
    found += check_page(page, lang, "signup")
    page.screenshot(path=str(SHOTS / f"signup-{lang}-{size}.png"))
    page.goto(f"{live_server.url}/{lang}/accounts/password-reset/")
    found += check_page(page, lang, "password-reset")
    page.screenshot(path=str(SHOTS / f"password-reset-{lang}-{size}.png"))
    log_in(page, live_server.url, lang)
    for name, path in pages(world):
        page.goto(live_server.url + path.format(lang=lang))
        found += check_page(page, lang, name)
        page.screenshot(path=str(SHOTS / f"{name}-{lang}-{size}.png"))
    # importing an illegal list: every problem as a sentence, never its code
    page.goto(f"{live_server.url}/{lang}/decks/import/")
    page.fill("#id_text", "4 Járőr-7\n3 Kísérőnaszád\n")
    page.click("#import-form button[value=check]")
    expect(page.locator(".problems li").first).to_be_visible()
    found += check_page(page, lang, "import-illegal")
    page.screenshot(path=str(SHOTS / f"import-illegal-{lang}-{size}.png"))
    assert not found, "\n".join(found)


def test_api_docs_work_with_the_network_blocked(new_page, live_server, db):
    """Swagger UI comes from the site itself (drf-spectacular-sidecar): no CDN needed."""
    page = new_page()
    blocked = []

    def only_the_site(route):
        if route.request.url.startswith(live_server.url):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    page.route("**/*", only_the_site)
    page.goto(f"{live_server.url}/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("KGK API")
    page.screenshot(path=str(SHOTS / "api-docs-offline.png"))
    assert not blocked


def test_phone_card_list_has_filters_in_a_drawer_and_whole_words(phone_page, live_server, cards):
    page = phone_page
    page.goto(f"{live_server.url}/hu/")
    drawer = page.locator("#filters-drawer")
    expect(drawer).not_to_have_attribute("open", "")
    toggle = page.locator("#filters-drawer > summary")
    first_card = page.locator(".card-face").first
    assert toggle.bounding_box()["y"] < first_card.bounding_box()["y"] < 844
    toggle.click()
    expect(page.locator("#facet-form")).to_be_visible()
    # a name wraps between words only: its longest word fits on one line
    split = page.evaluate(
        """() => [...document.querySelectorAll('.card-face .card-name a')].filter((a) => {
          const probe = document.createElement('span');
          probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap;font:inherit';
          a.parentElement.append(probe);
          const longest = Math.max(...a.textContent.split(/\\s+/).map((w) => {
            probe.textContent = w; return probe.getBoundingClientRect().width; }));
          probe.remove();
          return longest > a.parentElement.getBoundingClientRect().width + 0.5;
        }).map((a) => a.textContent)"""
    )
    assert not split, split


def test_help_examples_run_as_searches(page, live_server, cards):
    page.goto(f"{live_server.url}/en/help/search/")
    example = page.locator("a.query-example").first
    query = example.inner_text()
    example.click()
    page.wait_for_url("**/en/?q=*")
    assert page.locator("#search-error").count() == 0, query
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0


def test_deck_lists_preview_cards_on_hover_and_show_a_visual_view(page, live_server, world):
    """Pointing at a card in a deck's list shows its face; the deck can be seen as cards."""
    deck = world["deck"]
    page.goto(f"{live_server.url}/hu/decks/{deck.pk}/")
    link = page.locator(".card-rows a").first
    name = link.inner_text()
    link.hover()
    pop = page.locator(".card-preview-pop .card-face")
    expect(pop).to_be_visible()
    expect(pop).to_contain_text(name)
    page.locator("#deck-visual > summary").click()
    faces = page.locator("#deck-visual .card-face")
    expect(faces.first).to_be_visible()
    assert faces.count() == deck.entries.count()
    assert not page.js_errors
