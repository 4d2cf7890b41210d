"""The pairing's warnings on the staff dashboard in a real browser, in Hungarian and in
English, on a 1366x900 screen and a 390x844 phone (issue 35: the Hungarian dashboard
showed English sentences with registration ids). Screenshots go to /tmp/shots/pairing/."""

import datetime
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation
from playwright.sync_api import expect

from decks.services import save_deck
from tournaments import pairing_warnings, services
from tournaments.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

from tests.tournaments.test_pairing_warnings import every_warning  # noqa: E402
from tests.tournaments.tournament_kit import colony  # noqa: E402

from .browser_kit import PASSWORD, log_in, no_horizontal_scroll  # noqa: E402

SHOTS = Path("/tmp/shots/pairing")
PLAYERS = ["kovacs_anna", "biro_bela", "szabo_cecil"]
SIZES = {"1366x900": {"width": 1366, "height": 900}, "390x844": {"width": 390, "height": 844}}


def event_with_every_warning(cards):
    users = {
        name: get_user_model().objects.create_user(name, password=PASSWORD)
        for name in ["org", *PLAYERS]
    }
    event = services.create_tournament(
        users["org"], name="Pécsi Kupa", date=datetime.date(2026, 12, 28)
    )
    regs = {}
    for name in PLAYERS:
        regs[name] = services.register(
            event, users[name], save_deck(users[name], name="c", cards=colony())
        )
        services.check_in(regs[name], users[name])
    services.start(event, users["org"])
    rnd = services.pair_next_round(event, users["org"])
    warnings = every_warning(*(regs[name].pk for name in PLAYERS))
    Round.objects.filter(pk=rnd.pk).update(warnings=warnings)
    rnd.refresh_from_db()
    return event, rnd


def test_the_dashboard_names_the_players_in_the_readers_language(new_page, live_server, cards):
    event, rnd = event_with_every_warning(cards)
    with translation.override("hu"):  # the sentences tests/tournaments pins word for word
        hungarian = [w["message"] for w in pairing_warnings.round_warnings(rnd)]
    assert "kovacs_anna" in hungarian[0] and "Rematch" not in " ".join(hungarian)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in SIZES.items():
        page = new_page(viewport=viewport)
        log_in(page, live_server, "org", f"/en/tournaments/{event.pk}/dashboard/")
        for lang in ("hu", "en"):
            page.goto(f"{live_server.url}/{lang}/tournaments/{event.pk}/dashboard/")
            shown = page.locator("#round-status p.warning")
            expect(shown).to_have_count(5)
            if lang == "hu":  # the sentences with the names, no id and no English
                assert shown.all_inner_texts() == hungarian
            else:
                expect(shown.first).to_have_text(
                    "Rematch at table 1: kovacs_anna and biro_bela have played each other "
                    "before; every possible pairing has a rematch."
                )
            no_horizontal_scroll(page)
            page.locator("#round-status").screenshot(
                path=str(SHOTS / f"dashboard-{lang}-{size}.png")
            )
        assert not page.js_errors
