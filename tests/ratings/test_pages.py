"""The ratings pages in both languages: the leaderboard of a season, the opt-in setting, the
player page's rating panel with its chart, and opening a season (docs/ratings.md)."""

import datetime
import html
import re

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from ratings import services
from ratings.models import OptIn, Rating, Season
from ratings.selectors import current_season

from .conftest import finished_game

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def board(people, django_user_model):
    """ann and ben established (12 games), cid provisional (3), dot rated but opted out."""
    season = current_season()
    ann, ben, cid, dot = people[:4]
    Rating.objects.create(user=ann, season=season, mu=35, sigma=2, number=1825, games=12)
    Rating.objects.create(user=ben, season=season, mu=28, sigma=3, number=1575, games=12)
    Rating.objects.create(user=cid, season=season, mu=27, sigma=6, number=1325, games=3)
    Rating.objects.create(user=dot, season=season, mu=40, sigma=2, number=2000, games=20)
    OptIn.objects.filter(user=dot).delete()
    return season


def test_the_leaderboard_ranks_established_players_and_keeps_provisional_ones_apart(client, board):
    en = text(client.get("/en/ratings/"))
    table = en[en.index('id="leaderboard-table"') : en.index('id="provisional"')]
    assert table.index("ann") < table.index("ben") and "cid" not in table
    assert "Destroyer" in table and "1825" in table and "Cruiser" in table
    provisional = en[en.index('id="provisional-table"') :]
    assert "cid" in provisional and "Fighter" in provisional
    assert "dot" not in en  # opted out: off the leaderboard
    assert 'href="/en/players/ann/"' in en


def test_the_leaderboard_in_hungarian_has_no_english_words(client, board):
    hu = text(client.get("/hu/ratings/"))
    assert "Ranglista" in hu and "Romboló" in hu and "Cirkáló" in hu and "Ideiglenes" in hu
    for english in ("Leaderboard", "Destroyer", "Cruiser", "Provisional", "Season", "Level"):
        assert english not in hu, english


def test_a_season_is_chosen_and_a_bad_choice_is_a_sentence(client, board, people):
    old = Season.objects.create(
        name="2025", start=datetime.date(2025, 1, 1), end=datetime.date(2025, 12, 31)
    )
    Rating.objects.create(user=people[4], season=old, number=1700, games=15)
    page = text(client.get(f"/en/ratings/?season={old.pk}"))
    assert "eve" in page and "ann" not in page
    assert "2026 (current)" in page
    bad = client.get("/en/ratings/?season=abc")
    assert bad.status_code == 400 and "whole number" in text(bad)
    missing = client.get("/hu/ratings/?season=999")
    assert missing.status_code == 404 and "Nincs ilyen idény" in text(missing)


def test_opting_in_and_out_on_the_settings_page(client, django_user_model):
    assert client.get("/en/ratings/settings/").status_code == 302  # log in first
    gus = django_user_model.objects.create_user("gus", password="pw-gus-123")
    client.force_login(gus)
    assert 'value="0" checked' in text(client.get("/en/ratings/settings/"))  # off by default
    response = client.post("/en/ratings/settings/", {"opted_in": "1"})
    assert response.status_code == 302 and OptIn.objects.filter(user=gus).exists()
    assert "You take part in ratings" in text(client.get("/en/ratings/settings/"))
    client.post("/hu/ratings/settings/", {"opted_in": "0"})
    assert not OptIn.objects.filter(user=gus).exists()
    bad = client.post("/hu/ratings/settings/", {"opted_in": "maybe"})
    assert bad.status_code == 400 and "igen vagy nem" in text(bad)


def test_the_player_page_shows_level_number_and_the_history_chart(people):
    ann, ben = people[:2]
    for winner in (0, 0, 1):
        services.rate_match(finished_game([ann, ben], winner=winner).pk)
    rating = Rating.objects.get(user=ann)
    viewer = Client()
    en = text(viewer.get("/en/players/ann/"))
    panel = en[en.index('id="rating"') :]
    assert f">{rating.number}<" in panel and "3 rated games" in panel and "provisional" in panel
    assert "<svg" in panel and "<polyline" in panel
    assert panel.count("<circle") == 4  # the start and each of the three games
    hu = text(viewer.get("/hu/players/ann/"))
    hu_panel = hu[hu.index('id="rating"') :]
    assert "3 értékelt játszma" in hu_panel and "Értékszám" in hu_panel
    assert "Scout" not in hu_panel and "rated games" not in hu_panel
    # SVG numbers keep their point in Hungarian (no localised "12,5")
    assert re.findall(r'cx="([^"]+)"', hu_panel) == re.findall(r'cx="([^"]+)"', panel)
    assert all(re.fullmatch(r"\d+(\.\d)?", y) for y in re.findall(r' y1="([^"]+)"', hu_panel))


def test_a_person_who_has_not_opted_in_is_told_where_to_opt_in(django_user_model):
    hal = django_user_model.objects.create_user("hal", password="pw-hal-123")
    own = Client()
    own.force_login(hal)
    mine = text(own.get("/en/players/hal/"))
    assert "You do not take part in ratings." in mine and 'href="/en/ratings/settings/"' in mine
    theirs = text(Client().get("/en/players/hal/"))
    assert "Does not take part in ratings." in theirs and "<svg" not in theirs


def sql_of(client, url, status=200) -> list[str]:
    with CaptureQueriesContext(connection) as seen:
        assert client.get(url).status_code == status
    return [q["sql"] for q in seen.captured_queries]


def test_the_panel_of_a_player_with_no_rating_reads_no_history(people):
    season = current_season()
    assert season is not None and not Rating.objects.filter(user=people[0]).exists()
    viewer = Client()
    viewer.get("/en/players/ann/")
    sqls = sql_of(viewer, "/en/players/ann/")
    assert any('FROM "ratings_rating"' in sql for sql in sqls)  # the panel asked
    assert not [sql for sql in sqls if "ratings_ratingchange" in sql]


def test_the_leaderboard_finds_the_current_season_once(client, board):
    client.get("/en/ratings/")
    for url, status in (("/en/ratings/", 200), (f"/en/ratings/?season={board.pk}", 200),
                        ("/en/ratings/?season=x", 400)):  # fmt: skip
        running = [
            sql for sql in sql_of(client, url, status) if '"ratings_season"."start" <=' in sql
        ]
        assert len(running) == 1, running


def test_opening_a_season_ends_the_current_one(people):
    first = current_season()
    call_command("open_season", "2027", start="2027-01-01")
    first.refresh_from_db()
    assert first.end == datetime.date(2026, 12, 31)
    assert current_season(datetime.date(2027, 1, 2)).name == "2027"
    assert current_season(datetime.date(2026, 12, 31)) == first
    with pytest.raises(CommandError):
        call_command("open_season", "2027", start="2027-02-01")  # the name is taken
    with pytest.raises(CommandError):
        call_command("open_season", "x", start="1.1.2028")
    # a season that would start before one already opened: seasons never overlap
    with pytest.raises(CommandError):
        call_command("open_season", "2026b", start="2026-12-01")
    assert Season.objects.count() == 2
