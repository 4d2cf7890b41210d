"""Issue 18 in a real browser: the deck lab's bot choice recomputes the expected run time as
the choice changes (static/decklab/lab-form.js), and the replay of a finished game against
the thinking bot shows the bot's weighed options to its player, not to a spectator."""

import random

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation
from playwright.sync_api import expect

from decklab import services as lab
from decklab.views import duration
from decks.services import save_deck
from matches import selectors
from matches import services as matches
from matches.models import Match

from .browser_kit import PASSWORD, log_in, no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _deck(user):
    from engine.colonies import build_colony, load_cards

    counts = {}
    for card in build_colony(load_cards(), ["xeno", "insectoid", "zarg", "space_shark"]):
        counts[card["code"]] = counts.get(card["code"], 0) + 1
    return save_deck(user, name="Laci lab", cards=sorted(counts.items()), is_public=True)


@pytest.fixture
def alice(cards):
    return get_user_model().objects.create_user("alice", password=PASSWORD)


def test_the_lab_form_shows_the_expected_time_of_the_chosen_bot(
    new_page, live_server, alice, settings
):
    deck = _deck(alice)
    page = new_page(viewport={"width": 390, "height": 844})
    log_in(page, live_server, "alice", f"/hu/lab/decks/{deck.pk}/")
    workers = settings.DECKLAB_WORKERS
    with translation.override("hu"):
        expect(page.locator("#lab-estimate-time")).to_have_text(
            duration(lab.expected_seconds("heuristic", 200, workers))
        )
        page.select_option("#bot", "search-hard")
        page.fill("#games", "100")
        expect(page.locator("#lab-estimate-time")).to_have_text(
            duration(lab.expected_seconds("search-hard", 100, workers))
        )
        expect(page.locator("#lab-limits")).to_have_text("1 és 200 játszma között.")
        page.fill("#games", "201")  # over the thinking bot's cap: no estimate
        expect(page.locator("#lab-estimate-time")).to_have_text("—")
        page.select_option("#bot", "search-easy")
        expect(page.locator("#lab-estimate-time")).to_have_text(
            duration(lab.expected_seconds("search-easy", 201, workers))
        )
    no_horizontal_scroll(page)
    assert page.js_errors == []


def test_the_replay_shows_the_bots_options_to_its_player_only(new_page, live_server, alice):
    colony = matches.deck_colony(_deck(alice), "original")
    match = matches.create_match(
        players=(alice, None),
        colonies=(colony, colony),
        bots=(None, "search-easy"),
        starting_player=1,
        seed=18,
        engine_options={"turn_limit": 3},
    )
    rng = random.Random(3)
    for _ in range(500):
        match.refresh_from_db()
        if match.status != Match.ACTIVE:
            break
        legal = selectors.match_payload(match, 0)["legal_actions"]
        matches.submit_action(
            match, alice, client_action_id=f"c{match.version}",
            expected_version=match.version, action=rng.choice(legal)["id"],
        )  # fmt: skip
    assert match.status == Match.FINISHED
    steps = selectors.replay(match, 0, explanations=True)["steps"]
    step = next(i for i, s in enumerate(steps, 1) if len(s.get("explanation", [])) >= 2)
    url = f"/en/play/{match.pk}/replay/?seat=0"

    page = new_page()
    log_in(page, live_server, "alice", url)
    page.wait_for_function("window.KGKReplay && window.KGKReplay.count() > 1")
    page.evaluate(f"window.KGKReplay.show({step})")
    box = page.locator("#thinking")
    expect(box).to_be_visible()
    options = steps[step - 1]["explanation"]
    expect(box.locator("li")).to_have_count(len(options))
    expect(box.locator("li").first).to_contain_text(options[0]["label_en"])
    expect(box.locator("li").first).to_contain_text("chosen")
    expect(box).to_contain_text("estimated win rate")
    page.evaluate("window.KGKReplay.show(0)")  # the setup: nobody decided anything
    expect(box).to_be_hidden()
    assert page.js_errors == []

    spectator = new_page()
    spectator.goto(f"{live_server.url}{url}")
    spectator.wait_for_function("window.KGKReplay && window.KGKReplay.count() > 1")
    spectator.evaluate(f"window.KGKReplay.show({step})")
    expect(spectator.locator("#thinking")).to_be_hidden()
