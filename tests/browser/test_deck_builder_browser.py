"""The deck builder in a real browser: keyboard building, live validation, save, export, import.

Playwright's sync API drives Debian's Chromium (see conftest.py) against pytest-django's
live_server, with the real first-edition set loaded through the real loader. Which cards
the searches must offer is worked out with plain ORM filters, not with the search
language under test.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from decks.models import CollectionEntry, Deck
from decks.services import save_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "builder-pw-123"
# Three races with no opposing pair among them (R 7.1), five names each, three copies
# of every name (R 9.2): 3 x 5 x 3 = 45 cards (R 9.1).
PLAN = [
    ("r:zarg t:ship", {"race": "zarg", "type": "ship"}),
    ("r:human t:ship", {"race": "human", "type": "ship"}),
    ("t:base r:insectoid", {"race": "insectoid", "type": "base"}),
]
NAMES_PER_SEARCH = 5


@pytest.fixture
def user(transactional_db):
    return get_user_model().objects.create_user("builder", password=PASSWORD)


def log_in(page, live_server, lang="en", next_path=None):
    next_path = next_path or f"/{lang}/decks/new/"
    page.goto(f"{live_server.url}/{lang}/accounts/login/?next={next_path}")
    page.fill("#id_username", "builder")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("form.narrow button[type=submit]")
    assert page.url == f"{live_server.url}{next_path}"
    # builder.js has asked /api/races/ for the chips
    expect(page.locator("#race-chips .chip")).to_have_count(8)


def search_for(page, query, first_code):
    """Type a query; wait until the (debounced) results start with `first_code`."""
    page.fill("#builder-search", query)
    expect(page.locator("#search-results")).to_have_attribute("data-query", query)
    expect(page.locator("#search-results li").first).to_have_attribute("data-code", first_code)


def expect_count(page, text):
    expect(page.locator("#deck-count")).to_have_text(text)


def expect_legal(page):
    expect(page.locator("#legal-badge")).to_have_attribute("data-legal", "true")
    expect(page.locator("#legal-badge")).to_have_text("Legal")
    expect(page.locator("#problems li")).to_have_count(0)


def deck_cards_via_api(page, deck_id):
    body = page.evaluate(
        "id => fetch(`/api/decks/${id}/`, {credentials: 'same-origin'}).then(r => r.json())",
        deck_id,
    )
    return {card["code"]: card["count"] for card in body["cards"]}, body


def saved_deck_id(page, live_server, lang="en"):
    expect(page.locator("#save-status")).to_have_attribute("data-state", "saved")
    deck_id = int(page.get_attribute("#builder", "data-deck-id"))
    assert page.url == f"{live_server.url}/{lang}/decks/{deck_id}/edit/"
    return deck_id


def test_build_a_legal_colony_with_the_keyboard_save_export_and_import(
    page, live_server, cards, user
):
    log_in(page, live_server)
    expect_count(page, "0/45")
    expect(page.locator("#legal-badge")).to_have_attribute("data-legal", "false")
    expect(page.locator('#problems li[data-code="DECK_SIZE"]')).to_contain_text("0 cards")

    # A malformed query: the API's 400 message under the box, no results.
    page.fill("#builder-search", "cost<=abc")
    expect(page.locator("#search-error")).to_be_visible()
    expect(page.locator("#search-error")).to_contain_text("abc")
    expect(page.locator("#search-results li")).to_have_count(0)

    expected = {}
    for query, filters in PLAN:
        chosen = list(cards.filter(**filters).order_by("code")[:NAMES_PER_SEARCH])
        assert len(chosen) == NAMES_PER_SEARCH
        search_for(page, query, chosen[0].code)
        expect(page.locator("#search-error")).to_be_hidden()
        # results show cost, the name in the UI language and the type line
        first = page.locator("#search-results li").first
        expect(first.locator(".result-name")).to_have_text(chosen[0].name_en)
        expect(first.locator(".cost")).to_have_text(chosen[0].cost_display)
        page.press("#builder-search", "ArrowDown")  # into the results, first one highlighted
        for position, card in enumerate(chosen):
            if position:
                page.keyboard.press("ArrowDown")
            highlighted = page.locator('#search-results li[aria-selected="true"]')
            expect(highlighted).to_have_attribute("data-code", card.code)
            for key in ("Enter", "+", "Enter"):  # Enter and + both add one copy
                page.keyboard.press(key)
            expect(highlighted.locator(".in-deck")).to_have_text("×3")
            expected[card.code] = 3
        expect_count(page, f"{sum(expected.values())}/45")

    assert len({cards.get(code=code).name for code in expected}) == 15
    expect_count(page, "45/45")
    expect_legal(page)

    # The deck list: grouped by type, with counts.
    expect(page.locator(".deck-group")).to_have_count(2)
    expect(page.locator('.deck-group[data-type="ship"] h3')).to_contain_text("(30)")
    expect(page.locator('.deck-group[data-type="base"] h3')).to_contain_text("(15)")
    expect(page.locator(".deck-row")).to_have_count(15)

    # Race chips: the three races are highlighted, their opposing races closed off (R 7.1).
    for race in ("zarg", "human", "insectoid"):
        expect(page.locator(f'.chip[data-race="{race}"]')).to_have_attribute("data-in-deck", "true")
    for race in ("cerebrite", "xeno", "carnoplantus"):
        expect(page.locator(f'.chip[data-race="{race}"]')).to_have_attribute("data-blocked", "true")
    for race in ("triciplite", "space_shark"):
        expect(page.locator(f'.chip[data-race="{race}"]')).to_have_attribute(
            "data-blocked", "false"
        )

    # A card of the opposing race: the problem appears, the badge is not legal...
    cerebrite = cards.filter(race="cerebrite", type="ship").order_by("code").first()
    page.press("body", "/")  # `/` focuses the search box
    assert page.evaluate("document.activeElement.id") == "builder-search"
    search_for(page, "r:cerebrite t:ship", cerebrite.code)
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect_count(page, "46/45")
    expect(page.locator("#legal-badge")).to_have_attribute("data-legal", "false")
    expect(page.locator("#legal-badge")).to_have_text("2 problems")
    opposing = page.locator('#problems li[data-code="OPPOSING_RACES"]')
    expect(opposing).to_contain_text("Cerebrite")
    expect(opposing).to_contain_text("Zarg")
    expect(page.locator('#problems li[data-code="DECK_SIZE"]')).to_contain_text("46")
    # Free race choice (R 9.5.3) lifts the race rule; the original ruleset brings it back.
    page.select_option("#deck-ruleset", "free")
    expect(page.locator("#legal-badge")).to_have_text("1 problem")
    expect(opposing).to_have_count(0)
    expect(page.locator('.chip[data-race="zarg"]')).to_have_attribute("data-blocked", "false")
    page.select_option("#deck-ruleset", "original")
    expect(opposing).to_have_count(1)
    expect(page.locator('.chip[data-race="zarg"]')).to_have_attribute("data-blocked", "true")
    page.focus("#search-results")
    # ... and goes away with the card (`-` removes one copy of the highlighted result).
    page.keyboard.press("-")
    expect(opposing).to_have_count(0)
    expect_count(page, "45/45")
    expect_legal(page)

    # Save: the page becomes the deck's edit page and says which version it saved.
    page.fill("#deck-name", "Zarg-ember raid")
    page.click("#deck-save")
    first_id = saved_deck_id(page, live_server)
    expect(page.locator("#save-status")).to_contain_text("version 1")
    saved, body = deck_cards_via_api(page, first_id)
    assert saved == expected
    assert body["is_legal"] is True and body["problems"] == []

    # Export: the saved deck's text, fetched from the export button's URL.
    page.click("#export-box summary")
    href = page.get_attribute("#export-text-en", "href")
    assert href == f"/api/decks/{first_id}/export/?lang=en"  # text is the default format
    text = page.evaluate("url => fetch(url).then(r => r.text())", href)
    assert "# Ships (30)" in text and "# Bases (15)" in text
    card_lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert len(card_lines) == 15 and all(re.fullmatch(r"3 \S.*", line) for line in card_lines)
    # the client-side export of the same colony reads the same
    assert page.input_value("#export-output") == text

    # A new deck from that text, through the import box.
    page.goto(f"{live_server.url}/en/decks/new/")
    expect(page.locator("#race-chips .chip")).to_have_count(8)
    expect_count(page, "0/45")
    page.click("#import-box summary")
    page.fill("#import-text", text)
    page.click("#import-button")
    expect_count(page, "45/45")
    expect_legal(page)
    expect(page.locator("#import-status")).to_contain_text("45")
    page.fill("#deck-name", "Imported raid")
    page.click("#deck-save")
    second_id = saved_deck_id(page, live_server)
    assert second_id != first_id

    imported, _ = deck_cards_via_api(page, second_id)
    original, _ = deck_cards_via_api(page, first_id)
    assert imported == original == expected
    assert Deck.objects.get(pk=second_id).owner == user
    assert not page.js_errors


def test_edit_import_suggestions_collection_and_hungarian_names(page, live_server, cards, user):
    cobra = cards.get(name="Cobra Flash")
    other = cards.filter(race=cobra.race).exclude(pk=cobra.pk).order_by("code").first()
    deck = save_deck(user, name="Cobra", cards=[(cobra.code, 2), (other.code, 1)])
    CollectionEntry.objects.create(owner=user, card=cobra, count=1)
    path = f"/hu/decks/{deck.pk}/edit/"
    log_in(page, live_server, lang="hu", next_path=path)

    # The page starts with the deck's cards, named in the page's language.
    expect_count(page, "3/45")
    row = page.locator(f'.deck-row[data-code="{cobra.code}"]')
    expect(row.locator(".count")).to_have_text("2")
    expect(row.locator(".deck-name")).to_have_text(cobra.name)
    expect(page.locator("#legal-badge")).to_have_attribute("data-legal", "false")
    expect(page.locator('#problems li[data-code="DECK_SIZE"]')).to_contain_text("3 lap")

    # Mouse: the list's +/- buttons.
    row.locator(".plus").click()
    expect(row.locator(".count")).to_have_text("3")
    expect_count(page, "4/45")
    row.locator(".plus").click()  # a fourth copy: COPY_LIMIT names the card
    expect(page.locator('#problems li[data-code="COPY_LIMIT"]')).to_contain_text(cobra.name)
    row.locator(".minus").click()
    expect(page.locator('#problems li[data-code="COPY_LIMIT"]')).to_have_count(0)

    # From my collection: one owned, three in the deck.
    page.check("#collection-toggle")
    expect(row.locator(".missing")).to_have_text("hiányzik 2")
    expect(page.locator(f'.deck-row[data-code="{other.code}"] .missing')).to_have_text("hiányzik 1")
    page.uncheck("#collection-toggle")
    expect(row.locator(".missing")).to_be_hidden()

    # A race chip filters the search to its race.
    page.click(f'.chip[data-race="{cobra.race}"]')
    expect(page.locator("#builder-search")).to_have_value(f"r:{cobra.race}")
    first = cards.filter(race=cobra.race).order_by("code").first()
    expect(page.locator("#search-results li").first).to_have_attribute("data-code", first.code)
    expect(page.locator(f'.chip[data-race="{cobra.race}"]')).to_have_attribute(
        "aria-pressed", "true"
    )

    # In the search box, Enter on a query already searched adds its first result.
    search_for(page, '"Cobra Flash"', cobra.code)
    page.press("#builder-search", "Enter")
    expect(row.locator(".count")).to_have_text("4")
    assert page.evaluate("document.activeElement.id") == "builder-search"
    expect(page.locator('#problems li[data-code="COPY_LIMIT"]')).to_contain_text("4")

    # Import with a typo: the line error offers the card; choosing it imports the list.
    page.click("#import-box summary")
    page.fill("#import-text", "3 Cobra Flsh\n")
    page.click("#import-button")
    error = page.locator('#import-errors li[data-line="1"]')
    expect(error).to_contain_text("Cobra Flsh")
    # the suggestion once, as a button (issue 34: the Hungarian sentence stayed beside it)
    assert error.inner_text().count("Erre gondoltál") == 1
    assert error.inner_text().count("Cobra Flash") == 1
    error.locator("button.suggestion", has_text="Cobra Flash").click()
    expect(page.locator("#import-text")).to_have_value("3 Cobra Flash\n")
    expect_count(page, "3/45")
    expect(page.locator(".deck-row")).to_have_count(1)

    # Saving an edited deck adds a version, on the same deck.
    page.click("#deck-save")
    assert saved_deck_id(page, live_server, lang="hu") == deck.pk
    expect(page.locator("#save-status")).to_contain_text("2. változat")
    assert dict(deck.entries.values_list("card__code", "count")) == {cobra.code: 3}
    assert not page.js_errors


def test_save_errors_from_the_api_are_shown(page, live_server, cards, user):
    log_in(page, live_server)
    page.click("#deck-save")  # no name
    expect(page.locator("#save-status")).to_have_attribute("data-state", "error")
    expect(page.locator("#save-errors")).to_contain_text("name")
    assert Deck.objects.count() == 0


def test_phone_stacks_search_and_deck_without_horizontal_scrolling(
    phone_page, live_server, cards, user
):
    page = phone_page
    ships = list(cards.filter(race="space_shark", type="ship").order_by("code")[:3])
    deck = save_deck(user, name="Shark " * 15, cards=[(c.code, 3) for c in ships])
    log_in(page, live_server, next_path=f"/en/decks/{deck.pk}/edit/")
    expect_count(page, "9/45")
    search_for(page, "t:crew", cards.filter(type="crew").order_by("code").first().code)
    search = page.locator(".builder-search").bounding_box()
    colony = page.locator(".builder-deck").bounding_box()
    assert colony["y"] >= search["y"] + search["height"] - 1, (search, colony)
    assert search["x"] + search["width"] <= 390 and colony["x"] + colony["width"] <= 390
    widths = page.evaluate(
        "({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})"
    )
    assert widths["inner"] == 390
    assert widths["scroll"] <= widths["inner"], widths
    # touch: the + button adds
    page.locator("#search-results li").first.locator(".plus").tap()
    expect_count(page, "10/45")
    assert not page.js_errors


def test_unsaved_work_survives_navigation_as_a_draft(page, live_server, cards, user):
    """Following a link loses nothing: a warning first, then the draft is restored."""
    from decks.models import Deck

    log_in(page, live_server)
    page.fill("#deck-name", "Draft colony")
    page.fill("#builder-search", "r:zarg")
    page.locator("#search-results li[data-code] .plus").first.click()
    expect(page.locator("#deck-count")).to_have_text("1/45")
    warned = []
    page.on("dialog", lambda dialog: (warned.append(dialog.type), dialog.accept()))
    page.click("a#nav-play")
    page.wait_for_url("**/play/")
    assert warned == ["beforeunload"]
    page.goto(f"{live_server.url}/en/decks/new/")
    expect(page.locator("#deck-count")).to_have_text("1/45")
    expect(page.locator("#deck-name")).to_have_value("Draft colony")
    assert not Deck.objects.exists()
    assert not page.js_errors
