"""The statistics pages show the stored figures, and never a private deck's list or an
unfinished game's hidden cards (R 16)."""

import datetime

import pytest
from django.test import Client

from decks.services import save_deck
from matches.models import Match
from stats.beside import refresh_beside
from stats.models import SeatResult
from stats.recording import record_game

from .kit import game

PERIOD = "?from=2026-11&to=2026-11"


@pytest.fixture
def recorded(three_games):
    for match in three_games:
        record_game(match.pk)
    return three_games


def test_the_metagame_shows_the_races_shares_and_the_matchups(recorded, client):
    page = client.get(f"/en/stats/{PERIOD}").content.decode()
    assert "Zarg" in page and "Xeno" in page
    # each race is one colony of each of the 3 games: 50% each
    assert page.count('<span class="bar-n">50% <small>(3)</small>') == 2
    # zarg won 2 of 3 against xeno: 67%, Wilson 21%-94%, greyed out (3 < 20 games)
    assert '<span class="rate thin" title="95% interval: 21%–94%">67%</span>' in page
    assert "3 games" in page


def test_the_bots_games_are_their_own_filter(codes, recorded, client):
    bot_game = game(codes, 1, [(1, "b1", "opening hand")], bots=("", "random"))
    record_game(bot_game.pk)
    people = client.get(f"/en/stats/{PERIOD}").content.decode()
    bots = client.get(f"/en/stats/{PERIOD}&bots=1").content.decode()
    assert "67%" in people and "67%" not in bots
    assert "1 game" in bots and "100%" in bots  # xeno's one win against zarg


def test_the_card_page_win_rates_when_drawn_against_the_baseline(codes, recorded, client):
    page = client.get(f"/en/stats/cards/{codes['a1']}/").content.decode()
    # a1: 3 of 6 in colonies (baseline 50%), drawn 1 of 3 (33%): 17 points below
    assert ">50%<" in page and ">33%<" in page
    assert "−17 points" in page


def test_a_private_deck_s_cards_never_sit_beside_a_card(codes, catalogue, client, alice):
    lone = catalogue.exclude(code__in=codes.values()).first()
    save_deck(alice, name="Secret", cards=[(codes["a1"], 3), (lone.code, 3)])
    public = save_deck(alice, name="Open", cards=[(codes["a1"], 3), (codes["a2"], 2)])
    public.is_public = True
    public.save()
    refresh_beside()  # with the archetypes: after an event, daily, in rebuild_stats
    page = client.get(f"/en/stats/cards/{codes['a1']}/").content.decode()
    assert f"/stats/cards/{codes['a2']}/" in page
    assert lone.name_en not in page and lone.name not in page and lone.code not in page


def test_the_deck_and_player_pages_and_a_private_deck(codes, client, alice, bob):
    secret = save_deck(alice, name="Secret colony", cards=[(codes["a1"], 2), (codes["a2"], 1)])
    match = game(codes, 0, [], users=(alice, bob), decks=(secret, None))
    record_game(match.pk)
    assert SeatResult.objects.get(seat=0).deck_version == 1
    assert client.get(f"/en/stats/decks/{secret.pk}/").status_code == 404
    client.force_login(bob)
    assert client.get(f"/en/stats/decks/{secret.pk}/").status_code == 404
    page = client.get("/en/stats/players/alice/").content.decode()
    assert "Secret colony" not in page and "a private or deleted deck" in page
    owner = Client()
    owner.force_login(alice)
    assert "Secret colony" in owner.get("/en/stats/players/alice/").content.decode()
    record = owner.get(f"/en/stats/decks/{secret.pk}/").content.decode()
    assert ">v1<" in record and ">100%<" in record


def test_an_unfinished_game_feeds_no_page_R_16(codes, client):
    running = game(codes, None, [(0, "a1", "opening hand")], status=Match.ACTIVE)
    record_game(running.pk)
    page = client.get(f"/en/stats/cards/{codes['a1']}/").content.decode()
    assert "0 games" in page
    assert "No games in this period yet." in client.get(f"/en/stats/{PERIOD}").content.decode()


def test_the_pages_in_hungarian(recorded, codes, client):
    page = client.get(f"/hu/stats/{PERIOD}").content.decode()
    assert "<h1>Metajáték</h1>" in page and "Fajok egymás ellen" in page
    assert "3 játszma" in page


def entries(event, users, lists, bot=""):
    from tournaments.models import Registration

    for user, cards in zip(users, lists, strict=False):
        Registration.objects.create(
            tournament=event, player=user, deck_name="x", cards=cards, bot=bot
        )


def test_the_events_race_shares_from_their_decklists(codes, client, django_user_model):
    from tournaments.models import Tournament

    users = [django_user_model.objects.create_user(f"p{i}") for i in range(5)]
    zarg, xeno = [[codes["a1"], 3], [codes["a2"], 3]], [[codes["b1"], 3]]
    event = {"organiser": users[0], "date": datetime.date(2026, 11, 7)}
    big = Tournament.objects.create(name="Big", status=Tournament.FINISHED, **event)
    small = Tournament.objects.create(name="Small", status=Tournament.FINISHED, **event)
    running = Tournament.objects.create(name="Running", status=Tournament.RUNNING, **event)
    entries(big, users, [zarg, zarg, zarg, xeno])
    entries(small, users, [zarg, xeno, xeno])
    entries(small, users[3:], [zarg, zarg], bot="random")  # a simulation's bots: not counted
    entries(running, users, [xeno] * 5)  # not finished: not counted
    page = client.get(f"/en/stats/{PERIOD}").content.decode()
    shares = page.split('id="event-shares"')[1].split("</section>")[0]
    # zarg (4 * 3/4 + 3 * 1/3) / 7 = 4/7 = 57%, xeno (4 * 1/4 + 3 * 2/3) / 7 = 3/7 = 43%
    assert '<span class="bar-n">57% <small>(4)</small>' in shares
    assert '<span class="bar-n">43% <small>(3)</small>' in shares
    card = client.get(f"/en/stats/cards/{codes['a1']}/").content.decode()
    listed = card.split("Tournament decklists</dt>")[1].split("</dd>")[0]
    assert "<dd>4 · 3.0 copies on average" in listed  # 3 + 1 people's lists, 3 copies each


def test_an_event_report_shares_conversion_and_the_winning_list(
    codes, client, django_user_model, monkeypatch
):
    from tournaments.models import Registration, Tournament

    users = [django_user_model.objects.create_user(f"e{i}") for i in range(5)]
    zarg, xeno = [[codes["a1"], 3], [codes["a2"], 3]], [[codes["b1"], 3]]
    event = Tournament.objects.create(
        name="Cup", status=Tournament.FINISHED, organiser=users[0], date=datetime.date(2026, 11, 7)
    )
    entries(event, users, [zarg, xeno, xeno, zarg, zarg])
    ids = list(
        Registration.objects.filter(tournament=event).order_by("pk").values_list("pk", flat=True)
    )
    # places: the first zarg list won, both xeno lists 2nd and 3rd, a zarg list 4th, one 5th
    places = dict(zip(ids, [1, 2, 3, 4, 5], strict=True))
    monkeypatch.setattr("stats.reports.final_places", lambda t: places)
    page = client.get(f"/en/stats/events/{event.pk}/").content.decode()
    assert '<span class="bar-n">60% <small>(3)</small>' in page  # zarg 3 of 5 lists
    assert '<span class="bar-n">40% <small>(2)</small>' in page
    conversion = page.split('id="event-races"')[1].split("</section>")[0]
    assert "<td>3</td><td>2</td><td>67%</td>" in conversion  # zarg: 2 of 3 in the top four
    assert "<td>2</td><td>2</td><td>100%</td>" in conversion
    winner = page.split('id="event-winner"')[1]
    assert "The winning list: e0" in winner and "3 × " in winner
    running = Tournament.objects.create(
        name="Now", status=Tournament.RUNNING, organiser=users[0], date=datetime.date(2026, 11, 7)
    )
    assert client.get(f"/en/stats/events/{running.pk}/").status_code == 404
