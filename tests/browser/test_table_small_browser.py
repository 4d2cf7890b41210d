"""The game table's small bugs (issue 34), as a person meets them in the browser
(Playwright, Debian Chromium, pytest-django's live_server; the page polls there).

Each test sets a position up (engine.notation, the site's own card definitions) in a game
against the heuristic bot and does what a person does: tap, read. Screenshots of the main
phase, the fire prompt, the end-turn confirmation and a finished game, at 1366x900 and
390x844 in both languages, go to test-results/table-small/.
"""

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import translation
from playwright.sync_api import expect

from cards_data.definitions import card_dicts
from engine import notation
from engine.game import apply, legal_actions, pending
from engine.serialize import dump
from matches import presentation, services
from matches.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

from tests.matches.kit import legal_colony, put_position  # noqa: E402

from .browser_kit import PASSWORD, log_in, no_horizontal_scroll  # noqa: E402

OUT = Path(__file__).resolve().parents[2] / "test-results" / "table-small"
SIZES = {"desktop": (1366, 900), "phone": (390, 844)}


def words(lang):
    with translation.override(lang):
        return presentation.client_strings()


@pytest.fixture
def alice(catalogue):
    return get_user_model().objects.create_user("alice", password=PASSWORD)


def bot_position(user, text: str, moves=()):
    """A game of `user` (seat 0) against the heuristic bot whose position is `text`, then
    `moves` applied (action ids, or callables state -> action id); (match, state)."""
    match = services.create_match(
        players=(user, None), colonies=[legal_colony(1), legal_colony(2)], bots=(None, "heuristic")
    )
    state = notation.parse(text, list(card_dicts().values()))
    for move in moves:
        apply(state, move(state) if callable(move) else move)
    match = put_position(match, state)
    return match, state


def open_game(new_page, live_server, match, lang="hu", size="desktop"):
    width, height = SIZES[size]
    page = new_page(viewport={"width": width, "height": height})
    log_in(page, live_server, "alice", f"/{lang}/play/{match.pk}/")
    page.wait_for_function("() => window.KGKGame && window.KGKGame.state().version > 0")
    return page


def shot(page, name):
    OUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUT / f"{name}.png"))


def english(name: str) -> str:
    from cards_data.models import Card

    return Card.objects.get(name=name).name_en


def card(page, name, lang="hu"):
    """A card on the board by its name in the page's language (the board's cards are
    buttons named by the card)."""
    shown = english(name) if lang == "en" else name
    return page.locator("#table-wrap").get_by_role("button", name=shown).first


MAIN = """
kgk players=alice,bot turn=4 active=alice
alice credits=5
alice colony: Járőr-7*20
alice centre: Kísérőnaszád, Harci droid, Jó üzlet
alice canteen: Quorx kereskedőherceg
alice hangar: Vasököl [Célzóradar (down)], Bástya
bot credits=3
bot colony: Járőr-7*20
bot canteen: Harci droid
bot hangar: Futárhajó
"""


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_r19_6_play_and_pay_buttons_show_the_cost_they_take_now(new_page, live_server, alice, lang):
    """R 19.6: Quorx kereskedőherceg makes every card cost 1 less: the play button of
    Kísérőnaszád (printed 2) says 1 credit, the pay button of Célzóradar (printed 1) 0."""
    match, _state = bot_position(alice, MAIN)
    page = open_game(new_page, live_server, match, lang)
    w = words(lang)
    cost = w["ui"]["cost_now"]
    card(page, "Kísérőnaszád", lang).click()
    menu = page.locator("#card-menu")
    play = f"{w['actions']['play']} {cost['one'].replace('%(n)s', '1')}"
    expect(menu.get_by_role("button", name=play)).to_be_visible()
    menu.get_by_role("button", name=w["ui"]["cancel"]).click()
    card(page, "Célzóradar", lang).click()
    pay = f"{w['actions']['pay']} {cost['other'].replace('%(n)s', '0')}"
    expect(page.locator("#card-menu").get_by_role("button", name=pay)).to_be_visible()


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_the_phone_sheet_is_one_line_of_main_actions_in_the_main_phase(
    new_page, live_server, alice, lang
):
    """On a 390x844 phone the decision sheet of the main phase covers at most a quarter of
    the screen (it was 41-45 %); "More" opens the rest (drawing, searching, the stops)."""
    match, _state = bot_position(alice, MAIN)
    page = open_game(new_page, live_server, match, lang, "phone")
    w = words(lang)
    bar = page.locator("#action-bar")
    expect(bar.get_by_role("button", name=w["actions"]["end_turn"])).to_be_visible()
    share = bar.bounding_box()["height"] / 844
    shot(page, f"main-phone-{lang}")
    print(f"decision sheet, main phase, phone, {lang}: {share:.1%} of the screen")
    assert share <= 0.25, share
    expect(bar.get_by_role("button", name=w["actions"]["draw"])).to_be_hidden()
    bar.get_by_role("button", name=w["ui"]["sheet_more"]).click()
    expect(bar.get_by_role("button", name=w["actions"]["draw"])).to_be_visible()
    shot(page, f"main-phone-open-{lang}")
    no_horizontal_scroll(page)
    page.set_viewport_size({"width": 1366, "height": 900})
    expect(page.locator("#decision-help .help-text")).to_be_visible()
    shot(page, f"main-desktop-{lang}")


def test_the_first_game_guide_says_the_rule_behind_and_asks_for_no_tap(
    new_page, live_server, alice
):
    """The guide of a first game against a bot says the rule behind the decision, not the
    decision line again, and has nothing to tap away."""
    match, _state = bot_position(alice, MAIN)
    page = open_game(new_page, live_server, match, "hu", "desktop")
    w = words("hu")
    guide = page.locator("#guide")
    expect(guide).to_contain_text(w["decisions"]["main"]["why"])
    assert w["decisions"]["main"]["help"] not in guide.inner_text()
    assert guide.get_by_role("button").count() == 0


def test_pass_until_my_turn_and_the_chain_are_explained(new_page, live_server, alice):
    """R 12: the chain on the table carries a line saying what it is; the stops say what
    "Pass until my turn" does."""
    match, _state = bot_position(alice, MAIN)
    page = open_game(new_page, live_server, match, "hu", "desktop")
    w = words("hu")
    page.locator("#stops summary").click()
    expect(page.locator("#stops")).to_contain_text(w["stops"]["pass_turn_help"])
    # a chain entry as a push would bring it (the chain is public, R 12)
    page.evaluate(
        """() => { const s = JSON.parse(JSON.stringify(window.KGKGame.state()));
        s.version += 1; s.view.chain = [{name: "Jó üzlet", code: "KG1-108", player: 0}];
        window.KGKGame.receive({type: "update", events: [], seq: window.KGKGame.lastSeq(), state: s}); }"""
    )
    expect(page.locator(".chain .chain-help")).to_have_text(w["ui"]["chain_help"])


END = """
kgk players=alice,bot turn=4 active=alice
alice credits=0
alice colony: Járőr-7*20
alice centre: Jó üzlet
alice hangar: Vasököl (used)
bot credits=0
bot colony: Járőr-7*20
bot hangar: Futárhajó
"""


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_end_turn_asks_only_when_something_can_be_paid_or_attack(
    new_page, live_server, alice, lang
):
    """With 0 credits and no active ship (a 0-cost event is all that is legal), "End turn"
    ends the turn at once; with credits and an active ship it asks first."""
    w = words(lang)
    match, _state = bot_position(alice, END)
    page = open_game(new_page, live_server, match, lang)
    page.locator("#action-bar").get_by_role("button", name=w["actions"]["end_turn"]).click()
    expect(page.get_by_role("alertdialog")).to_have_count(0)
    page.wait_for_function("() => window.KGKGame.state().version > 1")
    assert page.get_by_role("alertdialog").count() == 0

    match, _state = bot_position(
        alice, END.replace("credits=0\nalice", "credits=4\nalice").replace(" (used)", "")
    )
    for size in ("desktop", "phone"):
        page = open_game(new_page, live_server, match, lang, size)
        page.locator("#action-bar").get_by_role("button", name=w["actions"]["end_turn"]).click()
        expect(page.get_by_role("alertdialog")).to_contain_text(w["stops"]["end_confirm"])
        shot(page, f"end-confirm-{size}-{lang}")


BOARD = """
kgk players=alice,bot turn=4 active=alice
alice credits=0
alice colony: Járőr-7*20
alice canteen: Harci droid
alice hangar: Bástya, Vasököl
bot credits=0
bot colony: Járőr-7*20
bot hangar: Futárhajó
"""


def _attack_with_all(state):
    """attack the colony with every ship of alice (R 11.4.2.1)."""
    apply(state, "attack:target=colony")
    while pending(state).decision == "attackers":
        picks = [a.id for a in legal_actions(state) if a.kind == "choose"]
        apply(state, picks[0] if picks else "done")


def test_r11_4_2_2_crew_boards_by_tapping_the_crew_then_the_ship(new_page, live_server, alice):
    """R 11.4.2.2: in the equip step a person taps the crew card, then the ship it boards."""
    match, state = bot_position(alice, BOARD)
    _attack_with_all(state)
    assert pending(state).decision == "board", pending(state)
    match, state = _store(match, state)
    page = open_game(new_page, live_server, match, "hu")
    card(page, "Harci droid").click()
    card(page, "Bástya").click()
    page.wait_for_function(
        "() => { const v = window.KGKGame.state().view; const b = v.players[0].hangar"
        ".find((s) => s.code === 'KG1-007'); return b && (b.attachments || []).length === 1; }"
    )


def _store(match, state):
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        match.version += 1
        match.snapshot, match.snapshot_version = dump(state), match.version
        waiting = pending(state)
        match.deciding_seat, match.decision = waiting.player, waiting.decision
        match.legal_ids = [a.id for a in legal_actions(state)]
        match.save()
    return match, state


FIRE = """
kgk players=alice,bot turn=4 active=alice
alice credits=0
alice colony: Járőr-7*20
alice hangar: Kardhal, Futárhajó
bot credits=0
bot colony: Járőr-7*20
bot hangar: Futárhajó
"""


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_r11_4_4_the_fire_prompt_names_shooter_and_target_plainly(
    new_page, live_server, alice, lang
):
    """R 11.4.4: alice's Kardhal and Futárhajó (both speed 6) may fire at the bot's
    defending Futárhajó. The target's menu says which ship fires ("Kardhal (Hangar) fires at
    this ship"), not "Fire at this ship — Kardhal"; alice's one Futárhajó has no "card 2"
    suffix though the bot has one too."""
    w = words(lang)
    match, state = bot_position(alice, FIRE)
    _attack_with_all(state)
    apply(state, f"choose:value={state.players[1].hangar[0]}")  # the bot defends
    assert {a.kind for a in legal_actions(state)} == {"fire", "pass"}, legal_actions(state)
    match, state = _store(match, state)
    hangar = w["zones"]["hangar"]
    for size in ("desktop", "phone"):
        page = open_game(new_page, live_server, match, lang, size)
        card(page, "Futárhajó", lang).click()  # the first of the name: the bot's (on top)
        menu = page.locator("#card-menu")
        for name in ("Kardhal", "Futárhajó"):
            shown = english(name) if lang == "en" else name
            label = w["actions"]["fire.with"] % {"ship": f"{shown} ({hangar})"}
            expect(menu.get_by_role("button", name=label, exact=True)).to_be_visible()
        second = w["ui"]["position"] % {"zone": hangar, "n": 2}
        assert second not in page.locator("#action-bar").inner_text()
        shot(page, f"fire-{size}-{lang}")


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_a_finished_game_status_line_says_the_result(new_page, live_server, alice, lang):
    """After the game the status line says it is over and who won, not whose turn it is."""
    w = words(lang)
    match, _state = bot_position(alice, MAIN)
    Match.objects.filter(pk=match.pk).update(
        status=Match.FINISHED, winner_seat=0, result="concede", deciding_seat=None
    )
    for size in ("desktop", "phone"):
        page = open_game(new_page, live_server, match, lang, size)
        status = page.locator("#status-line")
        expect(status).to_contain_text(w["phases"]["over"])
        expect(status).to_contain_text(w["ui"]["won"])
        assert w["ui"]["your_turn_now"] not in status.inner_text()
        assert w["phases"]["main"] not in status.inner_text()
        shot(page, f"finished-{size}-{lang}")


EMPTY_COLONY = """
kgk players=alice,bot turn=9 active=bot
alice credits=0
alice hangar: Vasököl
bot credits=0
bot colony: Járőr-7*20
"""


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_r15_1_a_lost_game_says_your_colony_is_empty(new_page, live_server, alice, lang):
    """R 15.1: the bot won at the end of its end phase because alice's colony is empty; her
    result says "Your colony is empty", not "alice (you)'s colony is empty"."""
    w = words(lang)
    match, _state = bot_position(alice, EMPTY_COLONY)
    Match.objects.filter(pk=match.pk).update(
        status=Match.FINISHED, winner_seat=1, result="colony", deciding_seat=None
    )
    page = open_game(new_page, live_server, match, lang, "phone")
    detail = page.locator("#result-detail")
    expect(detail).to_contain_text(w["reasons"]["colony.mine"])
    assert "alice" not in detail.inner_text()


def test_on_a_phone_the_bells_panel_hides_the_decision_sheet_while_open(
    new_page, live_server, alice
):
    """Both are sheets at the foot of a phone's screen: with the bell's panel open no game
    button peeks out above it to take the tap meant to close the panel."""
    match, _state = bot_position(alice, MAIN)
    page = open_game(new_page, live_server, match, "en", "phone")
    bar = page.locator("#action-bar")
    expect(bar).to_be_visible()
    page.locator("#bell > summary").click()
    expect(page.locator("#bell-all")).to_be_visible()
    expect(bar).to_be_hidden()
    page.locator("h1").first.click()  # a tap outside closes the panel
    expect(bar).to_be_visible()


DISCARD = """
kgk players=alice,bot turn=4 active=alice
alice credits=0
alice colony: Járőr-7*20
alice centre: Járőr-7*7
bot credits=0
bot colony: Járőr-7*20
"""


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_r11_5_1_the_discard_prompt_says_how_many_cards(new_page, live_server, alice, lang):
    """R 11.5.1: seven cards in the centre at the end of the turn: the prompt says to
    discard 2, on a phone's collapsed sheet too; after one pick, 1."""
    w = words(lang)
    match, _state = bot_position(alice, DISCARD, ["end_turn"])
    page = open_game(new_page, live_server, match, lang, "phone")
    forms = w["decisions"]["discard"]["count"]
    help_line = page.locator("#decision-help")
    expect(help_line).to_contain_text(forms["other"].replace("%(n)s", "2"))
    shot(page, f"discard-phone-{lang}")
    page.locator("#hand").get_by_role("button").first.click()
    expect(help_line).to_contain_text(forms["one"].replace("%(n)s", "1"))
