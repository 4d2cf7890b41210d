"""Tournament pages (tournaments/views.py): players register, check in, see their pairing
and report; staff start, pair, publish and judge from the dashboard. hu and en.

R 18.2 Swiss rounds, R 18.4 no draws and judge decisions, R 18.7 standings.
"""

import datetime

import pytest
from tournament_kit import colony, create_users, enter

from decks.services import save_deck
from tournaments import services
from tournaments.models import Round, TableSet, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(django_user_model, catalogue):
    return create_users(django_user_model, ["org", "judge", "alice", "bob", "carol"])


@pytest.fixture
def event(users):
    return services.create_tournament(
        users["org"],
        name="Debrecen Kupa",
        date=datetime.date(2026, 12, 19),
        judges=[users["judge"]],
    )


def test_organiser_creates_an_event_through_the_form(client, users):
    client.force_login(users["org"])
    page = client.get("/en/tournaments/new/")
    assert page.status_code == 200 and b"a judge decides, never a draw" in page.content
    response = client.post(
        "/en/tournaments/new/",
        {
            "name": "Pécs Open",
            "date": "2026-12-20",
            "place": "Pécs",
            "match_format": "bo3",
            "game_minutes": 60,
            "play_third_place": "on",
            "judge_names": "judge",
        },
    )
    t = Tournament.objects.get(name="Pécs Open")
    assert response.status_code == 302 and response["Location"].endswith(f"/tournaments/{t.pk}/")
    assert list(t.judges.values_list("username", flat=True)) == ["judge"]
    bad = client.post(
        "/en/tournaments/new/",
        {
            "name": "X",
            "date": "2026-12-20",
            "match_format": "bo1",
            "game_minutes": 60,
            "judge_names": "ghost",
        },
    )
    assert bad.status_code == 200 and b"Unknown user: ghost" in bad.content


def test_anonymous_reads_but_cannot_create(client, event):
    assert client.get("/en/tournaments/").status_code == 200
    assert b"Debrecen Kupa" in client.get(f"/en/tournaments/{event.pk}/").content
    assert client.get("/en/tournaments/new/").status_code == 302
    assert client.get(f"/en/tournaments/{event.pk}/dashboard/").status_code == 302


def test_full_round_through_the_pages(client, users, event):
    for name in ["alice", "bob"]:
        deck = save_deck(users[name], name=f"{name} colony", cards=colony())
        client.force_login(users[name])
        client.post(f"/en/tournaments/{event.pk}/do/register/", {"deck": deck.pk})
        client.post(f"/en/tournaments/{event.pk}/do/check-in/")
    assert event.registrations.filter(checked_in=True).count() == 2
    # a player cannot open the dashboard or pair
    assert client.get(f"/en/tournaments/{event.pk}/dashboard/").status_code == 403
    client.post(f"/en/tournaments/{event.pk}/do/pair/")
    assert not Round.objects.exists()

    client.force_login(users["org"])
    client.post(f"/en/tournaments/{event.pk}/do/start/")
    client.post(f"/en/tournaments/{event.pk}/do/pair/")
    client.post(f"/en/tournaments/{event.pk}/do/pair/")  # twice: still one round
    assert Round.objects.filter(tournament=event).count() == 1
    assert client.get(f"/en/tournaments/{event.pk}/rounds/1/pairings/").status_code == 200
    client.force_login(users["alice"])
    assert client.get(f"/en/tournaments/{event.pk}/rounds/1/pairings/").status_code == 404
    client.force_login(users["org"])
    client.post(f"/en/tournaments/{event.pk}/do/publish/", {"round": 1})
    dash = client.get(f"/en/tournaments/{event.pk}/dashboard/").content.decode()
    assert 'id="round-timer"' in dash and "Unreported matches (1)" in dash

    match = TableSet.objects.get(tournament=event)
    client.force_login(match.player_a.player)
    detail = client.get(f"/en/tournaments/{event.pk}/").content.decode()
    assert 'id="my-table">1<' in detail and 'id="report-button"' in detail
    draw = client.post(
        f"/en/tournaments/matches/{match.pk}/report/", {"games_a": 1, "games_b": 1}, follow=True
    )
    assert "no draws" in draw.content.decode()
    client.post(f"/en/tournaments/matches/{match.pk}/report/", {"games_a": 1, "games_b": 0})
    client.force_login(match.player_b.player)
    assert 'id="confirm-button"' in client.get(f"/en/tournaments/{event.pk}/").content.decode()
    client.post(f"/en/tournaments/matches/{match.pk}/confirm/")
    match.refresh_from_db()
    assert match.status == TableSet.CONFIRMED
    standings = client.get(f"/en/tournaments/{event.pk}/standings/").content.decode()
    assert f'data-player="{match.player_a.name}"' in standings and "OMW%" in standings


def test_pages_are_translated_to_hungarian(client, users, event):
    page = client.get(f"/hu/tournaments/{event.pk}/standings/").content.decode()
    assert "Állás" in page
    assert "Versenyek" in client.get("/hu/tournaments/").content.decode()
    assert "Standings" in client.get(f"/en/tournaments/{event.pk}/standings/").content.decode()


def test_refusals_speak_hungarian_on_hungarian_pages(client, users, event):
    """R 18.4 (no draws) refused in the page's language."""
    enter(event, users, ["alice", "bob"])
    services.start(event, users["org"])
    rnd = services.pair_next_round(event, users["org"])
    services.publish_round(rnd, users["org"])
    match = rnd.matches.get()
    client.force_login(match.player_a.player)
    page = client.post(
        f"/hu/tournaments/matches/{match.pk}/report/", {"games_a": 1, "games_b": 1}, follow=True
    ).content.decode()
    assert "nincs döntetlen" in page and "Eredmény bejelentése" in page
    page = client.post(f"/hu/tournaments/{event.pk}/do/pair/", follow=True).content.decode()
    assert "Ezt csak a szervező és a bírók tehetik meg." in page


def test_judge_decides_a_timed_out_game_from_the_dashboard(client, users, event):
    enter(event, users, ["alice", "bob"])
    services.start(event, users["org"])
    rnd = services.pair_next_round(event, users["org"])
    services.publish_round(rnd, users["org"])
    match = rnd.matches.get()
    services.report(match, match.player_a.player, 0, 0, timed_out=True)
    client.force_login(users["judge"])
    dash = client.get(f"/en/tournaments/{event.pk}/dashboard/").content.decode()
    assert "Disputes and time-outs (1)" in dash
    client.post(
        f"/en/tournaments/matches/{match.pk}/judge/", {"games_a": 0, "games_b": 1, "reason": "time"}
    )
    match.refresh_from_db()
    assert match.status == TableSet.CONFIRMED and match.judge_reason == "time"
    client.force_login(users["alice"])
    client.post(
        f"/en/tournaments/matches/{match.pk}/judge/", {"games_a": 1, "games_b": 0, "reason": "time"}
    )
    match.refresh_from_db()
    assert match.games_b == 1  # a player cannot judge


def test_standings_page_shows_a_late_entrants_missed_round(client, users, event, django_user_model):
    """R 18 late entry: the missed round is a loss (0-2, MTR practice), shown and explained.
    Two Swiss rounds: a late entry after the last one is refused (issue 35)."""
    Tournament.objects.filter(pk=event.pk).update(swiss_rounds=2)
    event.refresh_from_db()
    enter(event, users, ["alice", "bob"])
    services.start(event, users["org"])
    rnd = services.pair_next_round(event, users["org"])
    services.publish_round(rnd, users["org"])
    carol = users["carol"]
    services.late_entry(event, users["org"], carol, save_deck(carol, name="c", cards=colony()))
    page = client.get(f"/en/tournaments/{event.pk}/standings/").content.decode()
    assert "1 missed round, a loss" in page
    assert 'id="missed-legend"' in page
    assert "(missed rounds, each a loss: 1)" in page  # the explain text
    assert "0 / 2 = 0.0000 → 0.3300 (the floor)" in page  # GW%: the missed round's 0-2
    hu = client.get(f"/hu/tournaments/{event.pk}/standings/").content.decode()
    assert "1 kihagyott forduló, vereség" in hu and "0 / 2 = 0,0000 → 0,3300 (alsó határ)" in hu
