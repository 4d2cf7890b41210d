"""The catalogue in a real browser: search, card page, language switch, errors, a phone.

Playwright's sync API drives Debian's Chromium (see conftest.py) against pytest-django's
live_server, with the real first-edition set loaded through the real loader. The expected
results come from plain ORM filters, not from the search language under test.
"""

import re

import pytest

from cards_data.search.normalize import fold

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGE_SIZE = 30  # cards_data.views.PAGE_SIZE


def search(page, live_server, lang, query):
    """Open the card list, type `query` in the search box, submit; the navigation's response."""
    page.goto(f"{live_server.url}/{lang}/")
    page.fill("#site-search", query)
    with page.expect_navigation() as navigation:
        page.press("#site-search", "Enter")
    response = navigation.value
    assert f"/{lang}/?" in page.url
    assert page.input_value("#site-search") == query  # the box keeps the query
    return response


def result_count(page) -> int:
    text = page.inner_text("#result-count")
    match = re.search(r"\d+", text)
    assert match, f"no number in the result count {text!r}"
    return int(match.group())


def shown_codes(page) -> list[str]:
    return page.locator(".results .card-face").evaluate_all("els => els.map(e => e.dataset.code)")


def assert_results(page, expected):
    """The count and the first page of results are exactly the expected cards, by code."""
    expected_codes = list(expected.order_by("code").values_list("code", flat=True))
    assert expected_codes, "the query should match some cards of the real set"
    assert result_count(page) == len(expected_codes)
    assert shown_codes(page) == expected_codes[:PAGE_SIZE]


def definition_values(page) -> list[str]:
    return [text.strip() for text in page.locator(".card-detail dl dd").all_inner_texts()]


def assert_card_page(page, card, name, other_name):
    title = page.inner_text("#card-title")
    assert title.startswith(name), title
    assert other_name in title
    values = definition_values(page)
    assert values[0] == card.code
    assert card.cost_display in values
    if card.is_ship:  # speed, firepower, armour, bombardment, size: one after the other
        stats = [str(v) for v in (card.speed, card.firepower, card.armour, card.bombardment)]
        starts = [i for i in range(1, len(values) - 4) if values[i : i + 4] == stats]
        assert starts, f"{stats} not in {values}"
        assert values[starts[0] + 4].startswith(str(card.size)), values
        icons = page.locator(".big .card-face .icons li").all_inner_texts()
        assert [icon.split()[-1] for icon in icons] == stats


# The browser's own language (Accept-Language) must not matter. It does today: Django's
# set_language resolves `next` (/hu/...) under the language negotiated for /i18n/setlang/
# (cookie, then Accept-Language), not the page's; an English browser on a /hu/ page gets
# Resolver404 inside translate_url() and is sent back to the same /hu/ page.
@pytest.mark.parametrize(
    "browser_locale",
    [
        "hu-HU",
        "en-US",  # the switch must not depend on the browser's own language
    ],
)
def test_search_open_a_card_and_switch_language(new_page, live_server, cards, browser_locale):
    page = new_page(locale=browser_locale)
    response = search(page, live_server, "hu", "t:űrhajó r:urcapa")
    assert response.status == 200
    assert page.get_attribute("html", "lang") == "hu"
    expected = cards.filter(type="ship", race="space_shark")
    assert_results(page, expected)
    race_lines = page.locator(".results .card-face .race-line").all_inner_texts()
    assert race_lines and all(line.startswith("Űrcápa") for line in race_lines)

    card = expected.order_by("code").first()
    page.click(f'.results .card-face[data-code="{card.code}"] .card-name a')
    page.wait_for_url(f"**/hu/cards/{card.code}/")
    assert_card_page(page, card, card.name, card.name_en)

    with page.expect_navigation():  # POST /i18n/setlang/, then its redirect
        page.click(".lang-switch")
    assert page.url == f"{live_server.url}/en/cards/{card.code}/"
    assert page.get_attribute("html", "lang") == "en"
    assert page.inner_text("#card-title").startswith(card.name_en)
    assert_card_page(page, card, card.name_en, card.name)
    assert not page.js_errors


def test_quoted_phrase_finds_the_card(page, live_server, cards):
    response = search(page, live_server, "en", '"Cobra Flash"')
    assert response.status == 200
    phrase = fold("Cobra Flash")
    expected = cards.filter(search_name__contains=phrase) | cards.filter(
        search_text__contains=phrase
    )
    assert_results(page, expected)

    cobra = cards.get(name="Cobra Flash")
    page.click(f'.results .card-face[data-code="{cobra.code}"] .card-name a')
    page.wait_for_url(f"**/en/cards/{cobra.code}/")
    assert_card_page(page, cobra, cobra.name_en, cobra.name)


def test_malformed_query_shows_the_error(page, live_server, cards):
    response = search(page, live_server, "hu", "cost<=abc")
    assert response.status == 400
    error = page.locator("#search-error")
    assert error.is_visible()
    assert "abc" in error.inner_text()
    assert page.locator("#result-count").count() == 0
    assert page.locator(".results .card-face").count() == 0


@pytest.mark.parametrize("path", ["/hu/", "/en/?q=t:ship", "/hu/cards/{code}/"])
def test_phone_has_no_horizontal_scrolling(phone_page, live_server, cards, path):
    path = path.format(code=cards.get(name="Cobra Flash").code)
    response = phone_page.goto(f"{live_server.url}{path}")
    assert response.status == 200
    # the stylesheet is there (otherwise there would be nothing to check)
    assert phone_page.evaluate("getComputedStyle(document.body).margin") == "0px"
    assert phone_page.locator(".card-face").first.is_visible()
    # a too-wide page either scrolls sideways or (is_mobile) makes Chromium zoom out,
    # which widens innerWidth: both fail here
    widths = phone_page.evaluate(
        "({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})"
    )
    assert widths["inner"] == 390
    assert widths["scroll"] <= widths["inner"], widths
