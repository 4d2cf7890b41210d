"""Penalties and a player's page in a real browser, in Hungarian and English, on a desktop
(1366×900) and a phone (390×844): the judge gives a game loss from the dashboard's form
(every input labelled and on screen), the penalised player sees it, and a player's page
lists a finished event (place, record, decklist, prize) and a running one (its stage).
No horizontal scroll, no internal code, no English left on a Hungarian page.
Screenshots go to $KGK_SHOTS (default /tmp/shots/walkthrough).
"""

import datetime

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from decks.services import save_deck
from tournaments import services
from tournaments.models import Penalty

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

from .browser_kit import PASSWORD, log_in  # noqa: E402
from .test_tournament_browser import colony  # noqa: E402
from .test_walkthrough import SHOTS, SIZES, check_page  # noqa: E402

NAMES = ["annamaria_kovacs", "bob", "cyd", "dan"]


@pytest.fixture
def world(cards):
    """A finished four-player event with prizes, and a running one (round 1 published)."""
    users = {
        name: get_user_model().objects.create_user(name, password=PASSWORD)
        for name in ["org", *NAMES]
    }
    decks = {
        name: save_deck(users[name], name=f"{name} zarg", cards=colony(cards), is_public=True)
        for name in NAMES
    }
    org = users["org"]

    def entered(name, day, **fields):
        event = services.create_tournament(
            org, name=name, date=datetime.date(2026, 11, day), **fields
        )
        for player in NAMES:
            reg = services.register(event, users[player], decks[player])
            services.check_in(reg, users[player])
        services.start(event, org)
        event.refresh_from_db()
        return event

    done = entered("Győri Téli Kupa", 7, swiss_rounds=2)
    while not services.swiss_finished(done):
        rnd = services.pair_next_round(done, org)
        services.publish_round(rnd, org)
        for m in rnd.matches.exclude(player_b=None):
            services.enter_result(m, org, 1, 0)
    for semi in services.start_playoff(done, org):
        services.enter_result(semi, org, 2, 0)
    for stage in ("final", "third"):
        services.enter_result(done.matches.get(stage=stage), org, 2, 1)
    ultras = cards.filter(rarity="ultra_rare").order_by("code")[:3]
    services.award_prizes(done, org, {i + 1: c.code for i, c in enumerate(ultras)})
    running = entered("Soproni Bajnokság", 28, match_format="bo3")
    services.publish_round(services.pair_next_round(running, org), org)
    return {"done": done, "running": running}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", ["hu", "en"])
def test_penalty_form_and_player_page(new_page, live_server, world, lang, size):
    SHOTS.mkdir(parents=True, exist_ok=True)
    running = world["running"]
    found = []
    staff = new_page(viewport=SIZES[size])
    dashboard = f"/{lang}/tournaments/{running.pk}/dashboard/"
    log_in(staff, live_server, "org", dashboard)
    form = staff.locator("#penalty-form")
    expect(form).to_be_visible()
    for field in ("player", "penalty", "infraction", "note"):
        label = form.locator(f"label[for=id_{field}]")
        expect(label).to_be_visible()
        box = label.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"], field
    form.locator("#id_player").select_option(label=NAMES[0])
    form.locator("#id_penalty").select_option("game_loss")
    form.locator("#id_infraction").select_option("slow_play")
    form.locator("#id_note").fill("3 perc egy döntésre / 3 minutes on one decision")
    with staff.expect_navigation():
        staff.click("#penalty-button")
    expect(staff.locator("#penalties .penalty-list li").first).to_contain_text(NAMES[0])
    assert Penalty.objects.filter(kind="game_loss").count() == 1
    found += check_page(staff, lang, "dashboard")  # "None." is KNOWN_GAPS
    staff.locator("#penalties").screenshot(path=str(SHOTS / f"penalties-{lang}-{size}.png"))

    player = new_page(viewport=SIZES[size])
    own = f"/{lang}/players/{NAMES[0]}/"
    log_in(player, live_server, NAMES[0], own)
    expect(player.locator("#history tbody tr[data-event]")).to_have_count(2)
    found += check_page(player, lang, "player")
    player.screenshot(path=str(SHOTS / f"player-{lang}-{size}.png"), full_page=True)
    player.goto(f"{live_server.url}/{lang}/tournaments/{running.pk}/")
    expect(player.locator("#my-penalties")).to_be_visible()
    found += check_page(player, lang, "event-own-penalty")
    player.screenshot(path=str(SHOTS / f"event-penalty-{lang}-{size}.png"), full_page=True)
    assert not found, "\n".join(found)
