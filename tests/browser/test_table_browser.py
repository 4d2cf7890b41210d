"""The game table as a person uses it (Playwright, Debian Chromium, pytest-django's
live_server; the page keeps current by polling there).

- A whole game against the heuristic bot, at 1366x900 and 390x844, in Hungarian and in
  English. The player finds what to click by the words on the page (the server's own phrase
  table), by role, and by the highlighted cards on the board; never by an id. At every step
  no visible text contains an internal id or an engine name (the names are read from the
  engine's source: tests/engine_vocabulary.py). A screenshot of each decision kind is kept
  under test-results/table/, and the clicks are counted (bench/RESULTS.md, "Game table").
- Every event kind the engine can produce renders as a sentence in both languages.
"""

import json
import re
from pathlib import Path

import pytest
from django.utils import translation
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from engine.serialize import load
from matches import presentation
from matches.models import ActionRequest, Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

from engine_vocabulary import all_tokens, vocabulary  # noqa: E402

from .browser_kit import log_in, no_horizontal_scroll  # noqa: E402
from .test_match_browser import bot_match, legal_entries, make_user  # noqa: E402

OUT = Path(__file__).resolve().parents[2] / "test-results" / "table"
TURNS = 6  # a short game: the engine's turn limit ends it (R 15 would take ~30 turns)
SIZES = {"desktop": (1366, 900), "phone": (390, 844)}
# engine names that are also ordinary words of the page's language, as the page writes them
WORDS = {"hu": {"robot", "mulligan"}, "en": set()}
ID_LIKE = re.compile(r"\b\d{3,}\b|#\d+|\b[a-z]+:[a-z]+=\d+|\b\w+_\w+\b")
# the match's public number and the replay's step counter: numbers a person reads
RAW_TOKEN = re.compile(r"\[[A-Z]+\]")
MATCH_NUMBER = re.compile(r"Game #\d+|Replay of game #\d+|\b\d+ / \d+\b")


def phrases(lang):
    with translation.override(lang):
        return presentation.client_strings()


def leaks(text: str, lang: str) -> list:
    """Internal ids and engine names in a page's visible text."""
    text = MATCH_NUMBER.sub(
        "", re.sub(r"\bKG\d-\d{3}\b", "", text)
    )  # a card's printed code (the card page shows it)
    found = ID_LIKE.findall(text)
    found += RAW_TOKEN.findall(text)  # card text shows R 2.4 tokens as icons, never "[USED]"
    if lang == "hu":  # every engine name is English: none may show on a Hungarian page
        names = all_tokens() - WORDS["hu"]
        found += [w for w in re.findall(r"\b[a-z][a-z_]+\b", text) if w in names]
    return found


class Person:
    """Plays by what the page shows: the decision's title, highlighted cards, buttons."""

    def __init__(self, page, lang, shots_dir):
        self.page, self.lang, self.w = page, lang, phrases(lang)
        self.shots_dir = shots_dir
        self.clicks = 0
        self.kinds_seen = set()
        self.turn_actions = {}
        self.clicked_turns = set()  # (turn, active) of every turn with a click
        self.titles = {d["title"]: k for k, d in self.w["decisions"].items()}

    def click(self, locator):
        locator.click()
        self.clicks += 1

    def button(self, text, scope=None):
        return (scope or self.page.locator("#action-bar")).get_by_role("button", name=text)

    def board_cards(self):
        return self.page.locator("#table-wrap").get_by_role("button")

    def decision_kind(self):
        title = self.page.locator("#decision").inner_text()
        prefix = f"{self.w['ui']['your_turn']}: "
        assert title.startswith(prefix), title
        return self.titles[title[len(prefix) :]]

    def wait_for_my_turn(self):
        """Until the page asks this person. live_server has no beat: when a move waits
        (SQLite serialises no drains, so two at once can leave a request pending), run the
        beat's sweep, the production safety net for lost tasks (matches/clocks_sweep.py)."""
        from matches.clocks_sweep import sweep

        for _ in range(5):
            try:
                return self._wait_for_my_turn(timeout=7_000)
            except PlaywrightTimeout:
                sweep()
        try:
            self._wait_for_my_turn(timeout=7_000)
        except PlaywrightTimeout:
            self.page.screenshot(path=str(self.shots_dir / "stuck.png"))
            state = self.page.evaluate("window.KGKGame.state()")
            server = Match.objects.get(pk=state["id"])
            requests = list(server.requests.order_by("-pk").values_list("action", "status")[:3])
            raise AssertionError(
                f"stuck: page v{state['version']} {state['pending']}; server v{server.version}"
                f" seat {server.deciding_seat} {server.decision} {requests}"
            ) from None

    def _wait_for_my_turn(self, timeout):
        self.page.wait_for_function(
            "() => { const s = window.KGKGame.state();"
            " if (s.status !== 'active') return true;"
            " return s.pending && s.pending.player === s.you && !window.KGKGame.autoPassing()"
            " && !window.KGKGame.busy(); }",
            timeout=timeout,
        )

    def check_page(self):
        text = self.page.evaluate("document.body.innerText")
        assert not leaks(text, self.lang), leaks(text, self.lang)
        no_horizontal_scroll(self.page)

    def act(self):
        page = self.page
        kind = self.decision_kind()
        if kind not in self.kinds_seen:
            self.kinds_seen.add(kind)
            page.screenshot(path=str(self.shots_dir / f"{kind}.png"))
        state = page.evaluate("window.KGKGame.state().view")
        turn = (state["turn"], state["active"])
        self.clicked_turns.add(turn)
        done = self.turn_actions.setdefault(turn, {"cards": 0, "attacked": False})
        actions = self.w["actions"]
        cards = self.board_cards()
        if kind == "mulligan":
            return self.click(self.button(actions["keep"]))
        if kind == "main":
            attack = self.button(actions["attack.colony"])
            if done["cards"] < 3 and cards.count():
                done["cards"] += 1
                self.click(cards.first)
                return self.choose_in_menu()
            if not done["attacked"] and attack.count():
                done["attacked"] = True
                return self.click(attack)
            self.click(self.button(actions["end_turn"]))
            dialog = page.get_by_role("alertdialog")
            if dialog.count():  # "you can still attack or pay": yes, end it
                self.click(dialog.get_by_role("button", name=self.w["stops"]["end_confirm_yes"]))
            return None
        if kind == "return_fire":
            return self.click(self.button(actions["return_fire"]))
        primary = page.locator("#actions .act.primary")  # the highlighted, safe choice
        if kind == "respond":
            return self.click(primary.first)
        picked = page.locator("#table-wrap [aria-pressed=true]").count()
        eager = kind in ("distribute", "fire", "board", "payments")
        if cards.count() and (picked == 0 or eager or not primary.count()):
            self.click(cards.first)
            return self.choose_in_menu()
        return self.click(
            primary.first if primary.count() else page.locator("#actions button").first
        )

    def choose_in_menu(self):
        menu = self.page.get_by_role(
            "group", name=re.compile(re.escape(self.w["ui"]["card_menu"].split("%")[0]))
        )
        if menu.count():
            self.click(menu.get_by_role("button").first)


def zoom_shows_the_card(page, phone):
    """Hover (desktop) or a long press (touch) on a card of the centre shows its full face,
    the card page's own."""
    hand = page.locator("#hand").get_by_role("group").first
    hand.wait_for()
    name = hand.locator(".card-name").inner_text().replace("\u00ad", "")  # soft hyphens
    zoom = page.get_by_role("dialog")
    if phone:
        hand.evaluate(
            "el => el.dispatchEvent(new TouchEvent('touchstart', {bubbles: true, touches:"
            " [new Touch({identifier: 1, target: el, clientX: 5, clientY: 5})]}))"
        )
        page.wait_for_timeout(700)
    else:
        hand.hover()
    expect(zoom).to_be_visible()
    expect(zoom.locator(".card-face")).to_contain_text(name)
    if phone:
        hand.evaluate("el => el.dispatchEvent(new TouchEvent('touchend', {bubbles: true}))")
        page.evaluate(  # a touch anywhere else closes it
            "document.body.dispatchEvent(new TouchEvent('touchstart', {bubbles: true}))"
        )
    else:
        page.mouse.move(1, 1)
    expect(zoom).to_be_hidden()


def version(page):
    return page.evaluate("window.KGKGame.state().version")


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("lang", ["hu", "en"])
def test_a_person_plays_a_whole_game_against_the_heuristic_bot(
    new_page, live_server, cards, lang, size
):
    alice, deck = make_user("alice")
    match = bot_match(alice, deck, "heuristic", turn_limit=TURNS)
    width, height = SIZES[size]
    phone = size == "phone"
    page = new_page(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
    shots = OUT / f"{lang}-{size}"
    shots.mkdir(parents=True, exist_ok=True)
    log_in(page, live_server, "alice", f"/{lang}/play/{match.pk}/")
    person = Person(page, lang, shots)
    zoom_shows_the_card(page, phone)
    steps = 0
    while steps < 400:
        person.wait_for_my_turn()
        if page.locator("#result").is_visible():
            break
        person.check_page()
        before = version(page)
        person.act()
        steps += 1
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
    person.check_page()
    page.screenshot(path=str(shots / "result.png"), full_page=False)
    match.refresh_from_db()
    assert match.status == Match.FINISHED
    expect(page.locator("#conn")).to_have_text(person.w["ui"]["finished"])  # no "live" when over
    expect(page.get_by_role("link", name=person.w["ui"]["replay"])).to_be_visible()
    expect(page.get_by_role("button", name=person.w["ui"]["rematch"])).to_be_visible()
    assert {"mulligan", "main"} <= person.kinds_seen
    assert not page.js_errors, page.js_errors
    _record(match, person, lang, size)
    # the replay: the same table, sentences and result
    with page.expect_navigation():
        page.get_by_role("link", name=person.w["ui"]["replay"]).click()
    expect(page.locator("#step-label")).to_contain_text("0 /")  # loaded
    page.get_by_role("button", name=person.w["ui"]["last_step"]).click()
    expect(page.locator("#result")).to_be_visible()
    person.check_page()
    page.screenshot(path=str(shots / "replay.png"))


def _record(match, person, lang, size):
    """Clicks per decision and the opponent's turns that needed no click (bench/RESULTS.md)."""
    decisions = ActionRequest.objects.filter(match=match, seat=0, status="applied").count()
    final = load(match.state)
    last_turn, starter = final.turn, final.starting_player
    opponent_turns = [
        t for t in range(1, last_turn + 1) if (starter if t % 2 else 1 - starter) == 1
    ]
    clicked = {t for t, active in person.clicked_turns if active == 1}
    figures = {
        "lang": lang, "size": size, "clicks": person.clicks, "decisions": decisions,
        "clicks_per_decision": round(person.clicks / max(decisions, 1), 2),
        "opponent_turns": len(opponent_turns),
        "opponent_turns_without_click": len([t for t in opponent_turns if t not in clicked]),
        "decision_kinds": sorted(person.kinds_seen),
    }  # fmt: skip
    (OUT / f"clicks-{lang}-{size}.json").write_text(json.dumps(figures, indent=1))
    print("table figures", figures)


def test_every_event_kind_reads_as_a_sentence_in_both_languages(page, live_server, cards):
    """Each event kind of the engine, with the fields it carries, rendered by the page's own
    describe(): a sentence, no placeholder left, no engine name, no id."""
    from engine.bots import make_bot
    from engine.colonies import PRESETS, build_colony, load_cards
    from engine.game import apply, new_game, pending
    from engine.ruleset import Ruleset
    from engine.view import view_event

    samples = {}
    catalogue = load_cards()
    for g in range(30):
        events = []
        colonies = [
            build_colony(catalogue, PRESETS["laci"]),
            build_colony(catalogue, PRESETS["dani"]),
        ]
        state = new_game(colonies, g, Ruleset(turn_limit=12), events=events)
        bots = [make_bot("heuristic", g), make_bot("random", g)]
        while (p := pending(state)) is not None:
            events += apply(state, bots[p.player].choose(state, p.player))
        for e in events:
            samples.setdefault(e.kind, view_event(e, 0))
    # a table's elimination (AMB-44), with the fields engine.table.eliminate emits
    samples.setdefault("eliminated", {"kind": "eliminated", "player": 2, "by": 0, "turn": 9})
    for kind in vocabulary()["events"] - set(samples):  # rare kinds: their name alone
        samples[kind] = {"kind": kind}
    alice, deck = make_user("alice")
    match = bot_match(alice, deck)
    log_in(page, live_server, "alice", f"/hu/play/{match.pk}/")
    for lang in ("hu", "en"):
        page.goto(f"{live_server.url}/{lang}/play/{match.pk}/")
        texts = page.evaluate(
            "events => Object.fromEntries(events.map(ev => [ev.kind, (() => {"
            " const li = document.createElement('li');"
            " li.append(...window.KGKBoard.describe(ev, s => 'P' + s)); return li.textContent; })()]))",
            list(samples.values()),
        )
        for kind, text in texts.items():
            assert text.strip() and "%(" not in text, (lang, kind, text)
            assert not leaks(text, lang), (lang, kind, text)


def test_a_card_named_only_by_its_code_reads_with_its_name(page, live_server, cards):
    """Events that name a card by its code alone (announce, resolve: the card is public by
    then) read with the card's name once its face has arrived, never as "a face-down card";
    a card played moves to the chain without a line of its own (the play line says it)."""
    from cards_data.models import Card

    alice, deck = make_user("alice")
    match = bot_match(alice, deck)
    unseen = Card.objects.exclude(code__in={code for code, _ in legal_entries()}).first()
    log_in(page, live_server, "alice", f"/en/play/{match.pk}/")
    line = page.evaluate(
        "code => { const li = document.createElement('li'); li.id = 'probe';"
        " li.append(...window.KGKBoard.describe({kind: 'resolve', code, player: 1}, s => 'P' + s));"
        " document.body.append(li); return li.textContent; }",
        unseen.code,
    )
    assert "face-down" not in line
    expect(page.locator("#probe")).to_have_text(f"{unseen.name_en} resolves")
    moved = {"kind": "move", "card": {"id": 9, "code": unseen.code}, "from": "centre",
             "to": "chain", "why": "play"}  # fmt: skip
    assert page.evaluate("ev => window.KGKBoard.redundant(ev)", moved)
