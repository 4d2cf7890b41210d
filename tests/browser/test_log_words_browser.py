"""Issue 34: the log's sentences as the pages' own script (static/matches/board.js) writes
them from the server's phrase table, in a real Chromium: counted words agree with the count
("+1 credit", not "+1 credits")."""

import json
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.utils import translation

from matches.presentation import client_strings

pytestmark = pytest.mark.browser

STATIC = Path(settings.BASE_DIR) / "static"
ORIGIN = "http://board.test"  # answered by the page's route below: no server needed


def _board_page(new_page, lang):
    """A page with the phrase table and the board's ES modules (static/matches/board.js,
    which imports static/matches/board/*.js), served from the checkout."""
    with translation.override(lang):
        strings = json.dumps(client_strings()).replace("</", "<\\/")
    html = (
        f'<div data-lang="{lang}"></div>'
        f'<script id="strings" type="application/json">{strings}</script>'
        '<script type="module" src="/static/matches/board.js"></script>'
    )

    def serve(route):
        path = urlparse(route.request.url).path
        if path == "/":
            route.fulfill(body=html, content_type="text/html")
        else:
            script = STATIC / path.removeprefix("/static/")
            route.fulfill(body=script.read_text(encoding="utf-8"), content_type="text/javascript")

    page = new_page()
    page.route(f"{ORIGIN}/**", serve)
    page.goto(f"{ORIGIN}/")
    page.wait_for_function("window.KGKBoard")
    return page


def _describe(new_page, lang, events):
    page = _board_page(new_page, lang)
    lines = page.evaluate(
        """(events) => events.map((ev) => {
            const parts = window.KGKBoard.describe(ev, (seat) => ["Anna", "Béla"][seat]);
            return parts.map((p) => (typeof p === "string" ? p : p.textContent)).join("");
        })""",
        events,
    )
    assert not page.js_errors, page.js_errors
    return lines


def test_english_log_counts_credits_and_upgrade_counters(new_page):
    lines = _describe(
        new_page,
        "en",
        [
            {"kind": "credits", "player": 0, "change": 1, "credits": 3},
            {"kind": "credits", "player": 1, "change": -2, "credits": 0},
            {
                "kind": "upgrades",
                "card": {"id": 9, "code": "KG1-075", "name": "Aknagyűrű"},
                "upgrades": 1,
            },
        ],
    )
    assert lines[0] == "Anna: +1 credit (now 3)"
    assert lines[1] == "Béla: -2 credits (now 0)"
    assert lines[2].endswith("now has 1 upgrade counter")


def test_hungarian_log_keeps_its_one_form(new_page):
    lines = _describe(new_page, "hu", [{"kind": "credits", "player": 0, "change": 2, "credits": 5}])
    assert lines == ["Anna: +2 credit (most 5)"]


@pytest.mark.parametrize(
    "lang, line",
    [("en", "Anna attacks Béla: Colony"), ("hu", "Anna támad Béla ellen: Kolónia")],
)
def test_at_a_table_the_log_names_whose_colony_is_attacked(new_page, lang, line):
    """R 17.1.2: at a table of three or more the attacked neighbour is not implied."""
    lines = _describe(
        new_page,
        lang,
        [{"kind": "attack", "player": 0, "target": "colony", "defender": 1, "surcharge": 0}],
    )
    assert lines == [line]


def test_two_bots_of_one_kind_are_numbered(new_page):
    page = _board_page(new_page, "en")
    names = page.evaluate(
        """() => [{bot: "heuristic", bot_number: 1}, {bot: "heuristic", bot_number: 2},
                  {bot: "random"}].map(window.KGKBoard.botName)"""
    )
    assert names == ["heuristic bot 1", "heuristic bot 2", "random bot"]
