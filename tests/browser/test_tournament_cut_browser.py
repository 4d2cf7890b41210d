"""An event with a late entrant and a tie at the cut, in Hungarian, in a real browser
(issue 35): staff enter the late player from the dashboard's form, the missed round is a
loss (R 18.7), and the standings draw the top-four cut (R 18.3) and say which tiebreaker
decided the tie at it, with Hungarian abbreviations and decimal commas.
"""

import datetime
import itertools
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from decks.services import save_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

from .browser_kit import PASSWORD, log_in, no_horizontal_scroll  # noqa: E402
from .test_tournament_browser import colony  # noqa: E402


def _results_with_a_tie_at_the_cut(event, rnd):
    """Round `rnd`'s results (best of three) that leave 4th and 5th equal on points and
    separated by a tiebreaker: tried on the pure standings (tournaments.standings)."""
    from tournaments import standings as st
    from tournaments.models import TableSet

    done = []
    for m in TableSet.objects.filter(tournament=event, round__number__lt=rnd.number):
        if m.player_b_id is None:
            done.append(st.SetRecord.bye(m.round.number, m.player_a_id))
        else:
            done.append(
                st.SetRecord(m.round.number, m.player_a_id, m.player_b_id, m.games_a, m.games_b)
            )
    players = list(event.registrations.values_list("pk", "late_entry_round"))
    for pk, first in players:
        done += [st.SetRecord.missed_round(n, pk) for n in range(1, (first or 1))]
    tables = list(rnd.matches.exclude(player_b=None).order_by("table"))
    for scores in itertools.product([(2, 0), (2, 1), (0, 2), (1, 2)], repeat=len(tables)):
        now = [
            st.SetRecord(rnd.number, m.player_a_id, m.player_b_id, a, b)
            for m, (a, b) in zip(tables, scores, strict=True)
        ]
        rows = [r for r in st.standings([pk for pk, _f in players], done + now) if r.opponents]
        fourth, fifth = rows[3], rows[4]
        key = lambda r: (r.omw, r.gwp, r.ogw)  # noqa: E731
        if fourth.points == fifth.points and key(fourth) != key(fifth):
            return list(zip(tables, scores, strict=True))
    raise AssertionError("no result of the round ties the cut")


def test_late_entrant_and_a_tie_at_the_cut_in_hungarian(new_page, live_server, cards):
    from tournaments import services

    names = ["org", "ann", "bob", "cyd", "dan", "eve", "fay"]
    users = {n: get_user_model().objects.create_user(n, password=PASSWORD) for n in names}
    event = services.create_tournament(
        users["org"],
        name="Vágási Kupa",
        date=datetime.date(2026, 12, 30),
        swiss_rounds=2,
        match_format="bo3",
    )
    for n in names[1:6]:
        reg = services.register(event, users[n], save_deck(users[n], name="c", cards=colony(cards)))
        services.check_in(reg, users[n])
    save_deck(users["fay"], name="Fay pakli", cards=colony(cards))
    services.start(event, users["org"])
    rnd = services.pair_next_round(event, users["org"])
    services.publish_round(rnd, users["org"])
    for m in rnd.matches.exclude(player_b=None):
        services.enter_result(m, users["org"], 2, 1)

    # the organiser enters fay late from the Hungarian dashboard, on a phone
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    dashboard = f"/hu/tournaments/{event.pk}/dashboard/"
    log_in(page, live_server, "org", f"/en/tournaments/{event.pk}/dashboard/")
    page.goto(f"{live_server.url}{dashboard}")
    expect(page.locator("#late-entry h2")).to_have_text("Késői nevezés")
    expect(page.locator("#late-entry")).to_contain_text("2. fordulótól")
    page.fill("#late-player", "fay")
    with page.expect_navigation():
        page.click("#late-entry-button")
    expect(page.locator(".messages")).to_contain_text("fay késve nevezett")
    expect(page.locator("#players")).to_contain_text("késői nevezés")
    no_horizontal_scroll(page)
    fay = event.registrations.get(player__username="fay")
    assert fay.late_entry_round == 2

    # round 2 with fay; results that tie 4th and 5th on points
    rnd = services.pair_next_round(event, users["org"])
    services.publish_round(rnd, users["org"])
    for m, (a, b) in _results_with_a_tie_at_the_cut(event, rnd):
        services.enter_result(m, users["org"], a, b)

    page.goto(f"{live_server.url}/hu/tournaments/{event.pk}/standings/")
    line = page.locator("#cut-line")
    expect(line).to_be_visible()
    expect(line).to_have_text("Rájátszás: az első négy jut tovább")
    expect(page.locator("#standings tbody tr.cut-above")).to_have_count(1)
    tie = page.locator("#cut-note .cut-tie").first
    expect(tie).to_be_visible()
    expect(tie).to_contain_text("egyaránt")
    expect(tie).to_have_text(
        re.compile(r"(EMGY%|JGY%|EJGY%) döntött: \S+ \d,\d{4}, \S+ \d,\d{4}\.$")
    )
    expect(page.locator("#standings thead")).to_contain_text("EMGY%")
    expect(page.locator("#standings tr[data-player=fay]")).to_contain_text("1 kihagyott forduló")
    text = page.locator(".tour-page").inner_text()
    assert "OMW%" not in text and not re.search(r"\b[01]\.\d", text)
    no_horizontal_scroll(page)
    assert not page.js_errors
