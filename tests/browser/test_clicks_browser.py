"""Clicks per game against the heuristic bot (issue 34: "a person decides only what is
theirs to decide"; bench/RESULTS.md, "Issue 34: clicks per game").

A scripted person plays whole games on the page (tests/browser/test_table_browser.py's
Person: the words, highlighted cards and buttons on the page, never an id), accepting the
combat suggestion wherever the page offers one (#accept-suggestion), with the default clock
of a game against a bot (untimed: matches/clocks.py), until a colony ends the game (R 15).
It counts the clicks of each game, the clicks of each combat (R 11.4) and the decisions the
page asked. KGK_ASSIST=0 in the environment switches the issue's help off (matches/assist.py)
for the "before" figures; the goals are asserted only with it on.

    env -u DATABASE_URL -u REDIS_URL KGK_CLICK_GAMES=1 .venv/bin/python -m pytest -q \
        tests/browser/test_clicks_browser.py -k "hu and phone" -s
"""

import json
import os
import re
import statistics
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from matches import services
from matches.assist import assisting
from matches.models import ActionRequest, Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

from .browser_kit import log_in  # noqa: E402
from .test_match_browser import codes, legal_entries, make_user  # noqa: E402
from .test_table_browser import SIZES, Person  # noqa: E402

OUT = Path(__file__).resolve().parents[2] / "test-results" / "clicks"
GAMES = int(os.environ.get("KGK_CLICK_GAMES", "1"))
GAME_GOAL = 60  # median clicks of a game
COMBAT_GOAL = 6  # clicks of a typical (median) combat


class Counter(Person):
    """The table test's person, who takes the page's suggestion first, and counts."""

    def __init__(self, page, lang, shots_dir):
        super().__init__(page, lang, shots_dir)
        self.asked = 0
        self.combat_clicks = {}  # (turn, active) -> clicks while that turn's combat was on
        self.suggestions = 0
        self.by_kind = {}  # decision -> clicks
        self.turns = {}  # (turn, active) -> what this turn's main phase did

    def act(self):
        self.asked += 1
        state = self.page.evaluate("window.KGKGame.state()")
        view = state["view"]
        kind = state["pending"]["decision"]
        before = self.clicks
        accept = self.page.locator("#accept-suggestion")
        if accept.count() and accept.is_visible():
            self.suggestions += 1
            if f"suggest-{kind}" not in self.kinds_seen:  # what the person sees, once a kind
                self.kinds_seen.add(f"suggest-{kind}")
                self.check_page()
                self.page.screenshot(path=str(self.shots_dir / f"suggest-{kind}.png"))
            self.click(accept)
        elif kind == "main":
            self.main(state)
        else:
            super().act()
        self.by_kind[kind] = self.by_kind.get(kind, 0) + self.clicks - before
        if view.get("combat"):
            turn = (view["turn"], view["active"])
            self.combat_clicks[turn] = self.combat_clicks.get(turn, 0) + self.clicks - before

    def main(self, state):
        """A newcomer's main phase (R 12.1): pay for a ship (then any card), put one ship
        or a card into its own place a turn, attack the colony once, end the turn."""
        view, legal = state["view"], state["legal_actions"]
        types = {}
        _types(view, types)
        turn = (view["turn"], view["active"])
        done = self.turns.setdefault(turn, {"cards": 0, "pays": 0, "attacked": False})
        pays = sorted(
            (a for a in legal if a["kind"] == "pay"),
            key=lambda a: types.get(a["params"]["card"]) != "ship",
        )
        slot = {"surface": "base", "canteen": "crew"}
        plays = [
            a
            for a in legal
            if (a["kind"] == "play" and types.get(a["params"]["card"]) == "ship")
            or (
                a["kind"] == "place"
                and slot.get(a["params"]["to"]) == types.get(a["params"]["card"])
            )
        ]
        words = self.w["actions"]
        if pays and done["pays"] < 2:
            done["pays"] += 1
            return self.on_card(pays[0]["params"]["card"], words["pay"])
        if plays and done["cards"] < 1:
            done["cards"] += 1
            a = plays[0]
            word = words["play"] if a["kind"] == "play" else words[f"place.{a['params']['to']}"]
            return self.on_card(a["params"]["card"], word)
        attack = self.button(words["attack.colony"])
        if not done["attacked"] and attack.count():
            done["attacked"] = True
            return self.click(attack.first)
        self.click(self.button(words["end_turn"]))
        dialog = self.page.get_by_role("alertdialog")
        if dialog.count():  # "you can still attack or pay": yes, end it
            self.click(dialog.get_by_role("button", name=self.w["stops"]["end_confirm_yes"]))

    def on_card(self, card, word):
        """Tap the card, then its menu's button for `word` (the action's phrase)."""
        self.click(self.page.locator(f"#table-wrap [data-card='{card}']").first)
        menu = self.page.locator("#card-menu")
        start = re.compile("^" + re.escape(word.split("%")[0].strip()))
        self.click(menu.get_by_role("button", name=start).first)


def _types(node, out):
    """card id -> card type, for every card the view shows face up."""
    if isinstance(node, dict):
        if isinstance(node.get("id"), int) and node.get("type"):
            out[node["id"]] = node["type"]
        for value in node.values():
            _types(value, out)
    elif isinstance(node, list):
        for value in node:
            _types(value, out)


def play_one(new_page, live_server, lang, size, n):
    alice, deck = make_user(f"alice{n}")
    # the default clock (untimed against a bot); game n is the same deal with the help on
    # and off (its seed), though the games part as the person's choices differ
    match = services.create_match(
        players=(alice, None),
        colonies=(codes(legal_entries()), codes(legal_entries())),
        bots=(None, "heuristic"),
        decks=(deck, None),
        seed=3400 + n,
    )
    width, height = SIZES[size]
    phone = size == "phone"
    page = new_page(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
    shots = OUT / f"{lang}-{size}-{'on' if assisting() else 'off'}"
    shots.mkdir(parents=True, exist_ok=True)
    log_in(page, live_server, f"alice{n}", f"/{lang}/play/{match.pk}/")
    person = Counter(page, lang, shots)
    for _ in range(600):
        person.wait_for_my_turn()
        if page.locator("#result").is_visible():
            break
        before = page.evaluate("window.KGKGame.state().version")
        person.act()
        try:
            page.wait_for_function(
                "v => window.KGKGame.state().version > v || "
                "window.KGKGame.state().status !== 'active'",
                arg=before,
                timeout=1500,
            )
        except PlaywrightTimeout:
            pass  # a card menu or a question opened: the next step answers it
    expect(page.locator("#result")).to_be_visible()
    page.screenshot(path=str(shots / "result.png"))
    match.refresh_from_db()
    taken = match.requests.filter(client_action_id__startswith="auto:").count()
    person_moves = match.requests.filter(seat=0, status=ActionRequest.APPLIED).count()
    return match, {
        "clicks": person.clicks,
        "asked": person.asked,
        "combats": sorted(person.combat_clicks.values()),
        "suggestions": person.suggestions,
        "clicks_by_decision": person.by_kind,
        "taken_for_the_person": taken,
        "person_moves": person_moves,
        "turns": page.evaluate("window.KGKGame.state().view.turn"),
        "result": match.result,
        "winner": match.winner_seat,
    }


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("lang", ["hu", "en"])
def test_clicks_of_whole_games_against_the_heuristic_bot(new_page, live_server, cards, lang, size):
    """Whole games, ended by a colony (R 15) and never by the clock: the clicks a person
    needs, per game and per combat, within the issue's goals."""
    games = []
    for n in range(GAMES):
        match, figures = play_one(new_page, live_server, lang, size, n)
        assert match.status == Match.FINISHED
        assert match.result == "colony", match.result  # R 15, not "time"
        games.append(figures)
    combats = [c for g in games for c in g["combats"]]
    summary = {
        "lang": lang,
        "size": size,
        "assist": assisting(),
        "games": games,
        "median_clicks": statistics.median(g["clicks"] for g in games),
        "median_asked": statistics.median(g["asked"] for g in games),
        "median_combat_clicks": statistics.median(combats) if combats else 0,
        "combats": len(combats),
    }
    OUT.mkdir(parents=True, exist_ok=True)
    name = f"{lang}-{size}-{'on' if assisting() else 'off'}.json"
    (OUT / name).write_text(json.dumps(summary, indent=1))
    print(json.dumps(summary))
    if assisting():
        assert summary["median_clicks"] <= GAME_GOAL, summary
        assert summary["median_combat_clicks"] <= COMBAT_GOAL, summary
