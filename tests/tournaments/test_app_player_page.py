"""A player's page (/<lang>/players/<user name>/): user name, member since, public decks
and the event history (issue 14): date, event, record W-L-D (R 18.4: never a draw),
final place or current stage, the decklist where the reader may see it (staff during the
event, everybody after it, R 9.6 frozen lists), prizes (R 18.6)."""

import datetime

import pytest
from django.db.models import Q
from tournament_kit import colony, create_users, enter

from cards_data.models import Card
from decks.services import save_deck
from tournaments import penalties, services

pytestmark = pytest.mark.django_db

NAMES = ["ann", "bob", "cyd", "dan"]


@pytest.fixture
def users(django_user_model, catalogue):
    return create_users(django_user_model, ["org", "eve", *NAMES])


def new_event(users, name, day, **fields):
    return services.create_tournament(
        users["org"], name=name, date=datetime.date(2026, 12, day), **fields
    )


def play_swiss(event, staff):
    """Every Swiss round: player a of each table wins 1-0."""
    while not services.swiss_finished(event):
        rnd = services.pair_next_round(event, staff)
        services.publish_round(rnd, staff)
        for m in rnd.matches.exclude(player_b=None):
            services.enter_result(m, staff, 1, 0)


@pytest.fixture
def finished(users):
    """A four-player event played to the end: two Swiss rounds, the playoff, prizes."""
    event = new_event(users, "Győri Kupa", 5, swiss_rounds=2)
    regs = enter(event, users, NAMES)
    services.start(event, users["org"])
    play_swiss(event, users["org"])
    for semi in services.start_playoff(event, users["org"]):
        services.enter_result(semi, users["org"], 2, 0)
    for stage in ("final", "third"):
        services.enter_result(event.matches.get(stage=stage), users["org"], 2, 1)
    event.refresh_from_db()
    ultras = Card.objects.filter(rarity="ultra_rare").order_by("code")[:3]
    services.award_prizes(event, users["org"], {i + 1: c.code for i, c in enumerate(ultras)})
    return event, regs


@pytest.fixture
def running(users):
    """A running event (round 1 published, unplayed) with ann and bob."""
    event = new_event(users, "Soproni Kupa", 19)
    regs = enter(event, users, ["ann", "bob"])
    services.start(event, users["org"])
    rnd = services.pair_next_round(event, users["org"])
    services.publish_round(rnd, users["org"])
    event.refresh_from_db()
    return event, regs


def record(event, reg) -> tuple[int, int]:
    wins = losses = 0
    for m in event.matches.filter(Q(player_a=reg) | Q(player_b=reg), status="confirmed"):
        if m.is_bye or (m.games_a > m.games_b) == (m.player_a_id == reg.pk):
            wins += 1
        else:
            losses += 1
    return wins, losses


def row_of(page: str, event) -> str:
    start = page.index(f'data-event="{event.pk}"')
    return page[start : page.index("</tr>", start)]


def test_the_page_shows_the_name_member_since_and_public_decks_only(client, users):
    save_deck(users["ann"], name="Open Zarg", cards=colony(), is_public=True)
    save_deck(users["ann"], name="Secret Xeno", cards=colony())
    for lang, since, public in (
        ("en", "Member since", "Public decks"),
        ("hu", "Regisztrált:", "Nyilvános"),
    ):
        page = client.get(f"/{lang}/players/ann/")
        assert page.status_code == 200
        text = page.content.decode()
        assert 'id="player-name">ann<' in text and since in text and public in text
        assert "Open Zarg" in text and "Secret Xeno" not in text
    assert client.get("/en/players/nobody/").status_code == 404


def test_r_18_6_the_history_of_a_finished_event_shows_record_place_decklist_and_prize(
    client, users, finished
):
    event, regs = finished
    first = services.placings(event)[0]
    name = first.player.username
    page = client.get(f"/en/players/{name}/").content.decode()
    row = row_of(page, event)
    wins, losses = record(event, first)
    assert f"{wins}–{losses}–0" in row  # W-L-D: KGK has no draws (R 18.4)
    assert "Place 1" in row and "Győri Kupa" in row
    assert f"/tournaments/{event.pk}/" in row
    assert f"/tournaments/{event.pk}/decklists/{first.pk}/" in row  # published after it
    prize = event.prizes.get(place=1).card
    assert prize.name_en in row and prize.code in row
    assert 'datetime="2026-12-05"' in row
    hu = row_of(client.get(f"/hu/players/{name}/").content.decode(), event)
    assert "1. hely" in hu and prize.name in hu
    # fourth place: the other semi-finalist (the third-place match's loser)
    third = event.matches.get(stage="third")
    fourth = third.player_a if third.winner == third.player_b else third.player_b
    page = client.get(f"/en/players/{fourth.player.username}/").content.decode()
    assert "Place 4" in row_of(page, event)


def test_a_running_event_shows_its_stage_and_hides_the_decklist_from_others(client, users, running):
    """Decklists are for staff during the event (and for their own player); another
    user's view of a player's page names neither the list nor its link."""
    event, regs = running
    save_deck(users["ann"], name="Open deck", cards=colony(), is_public=True)
    url = f"/tournaments/{event.pk}/decklists/{regs['ann'].pk}/"
    deck_name = regs["ann"].deck_name
    for viewer in (None, users["bob"], users["eve"]):
        if viewer is None:
            client.logout()
        else:
            client.force_login(viewer)
        page = client.get("/en/players/ann/").content.decode()
        row = row_of(page, event)
        assert "Swiss round 1 of 1" in row
        assert url not in page and "published when the event is finished" in row
        assert f">{deck_name}<" not in row
        assert client.get(f"/en{url}").status_code in (302, 403)
    for viewer in (users["org"], users["ann"]):  # staff, and the player themself
        client.force_login(viewer)
        row = row_of(client.get("/en/players/ann/").content.decode(), event)
        assert url in row
        assert client.get(f"/en{url}").status_code == 200
    client.force_login(users["bob"])
    hu = row_of(client.get("/hu/players/ann/").content.decode(), event)
    assert "Svájci forduló: 1 / 1" in hu and "a verseny végén lesz nyilvános" in hu


def test_dropped_and_disqualified_players_do_not_place(client, users, running):
    event, regs = running
    penalties.give_penalty(regs["bob"], users["org"], "disqualification", "unsporting")
    row = row_of(client.get("/en/players/bob/").content.decode(), event)
    assert "disqualified" in row and "0–1–0" in row
    row = row_of(client.get("/hu/players/bob/").content.decode(), event)
    assert "kizárva" in row


def test_a_player_sees_their_own_penalties_others_do_not(client, users, running):
    event, regs = running
    penalties.give_penalty(regs["ann"], users["org"], "warning", "tardiness", "late")
    client.force_login(users["ann"])
    assert "Tardiness" in row_of_page(client, "ann", event)
    client.force_login(users["bob"])
    assert "Tardiness" not in client.get("/en/players/ann/").content.decode()


def row_of_page(client, name, event):
    page = client.get(f"/en/players/{name}/").content.decode()
    start = page.index(f'data-event="{event.pk}"')
    return page[start : page.index("</tbody>", start)]


def test_the_menu_and_the_standings_link_to_player_pages(client, users, running):
    event, regs = running
    client.force_login(users["ann"])
    page = client.get("/en/").content.decode()
    assert 'href="/en/players/ann/#events" id="nav-my-events"' in page
    assert 'href="/en/players/ann/" id="nav-profile"' in page
    assert ">My events<" in page and ">Versenyeim<" in client.get("/hu/").content.decode()
    mine = client.get("/en/players/ann/").content.decode()
    assert "My events (1)" in mine
    standings = client.get(f"/en/tournaments/{event.pk}/standings/").content.decode()
    assert 'href="/en/players/bob/"' in standings
    pairings = client.get(f"/en/tournaments/{event.pk}/rounds/1/pairings/").content.decode()
    assert 'href="/en/players/ann/"' in pairings


def test_a_player_with_no_events(client, users):
    client.force_login(users["eve"])
    assert "You have not entered an event yet." in client.get("/en/players/eve/").content.decode()
    client.force_login(users["ann"])
    assert "No events yet." in client.get("/en/players/eve/").content.decode()
