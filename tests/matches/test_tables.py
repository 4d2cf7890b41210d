"""Multiplayer tables online (R 17.1): open, join, start with bots in the empty seats; each
seat's own projection (hidden information for every pair of seats and for spectators);
a player who leaves a table (concedes, runs out of time) is stood in for by a bot, so the
table never waits for them, and the game ends with a full ranking (R 17.1.6, AMB-44)."""

import itertools
import random
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from engine.game import apply, legal_actions, pending
from engine.ops import public
from engine.serialize import load
from matches import services
from matches.models import Match
from matches.push import update_message, viewers
from matches.selectors import match_payload

from .kit import legal_colony, make_deck, post

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(players, django_user_model):
    alice, bob = players
    carol = django_user_model.objects.create_user("carol", password="pw-carol-123")
    dave = django_user_model.objects.create_user("dave", password="pw-dave-123")
    users = [alice, bob, carol, dave]
    decks = [make_deck(u, seed=10 + i, name=f"{u.username} colony") for i, u in enumerate(users)]
    return users, decks


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


def test_a_table_is_opened_joined_and_started_with_bots_in_the_empty_seats(four):
    """R 17.1: three to six colonies; the host opens and starts, a friend joins, bots fill
    the rest; the API answers every wrong step with a clear 4xx."""
    (alice, bob, carol, _), decks = four
    a, b, c = client_for(alice), client_for(bob), client_for(carol)
    too_many = post(a, "/api/matches/", {"deck": decks[0].pk, "seats": 7})
    assert too_many.status_code == 400 and too_many.json()["code"] == "BAD_SEATS"
    opened = post(a, "/api/matches/", {"deck": decks[0].pk, "seats": 4})
    assert opened.status_code == 201, opened.json()
    table = opened.json()
    assert table["status"] == "open" and table["seat_count"] == 4 and table["you"] == 0
    url = f"/api/matches/{table['id']}"
    joined = post(b, f"{url}/join/", {"deck": decks[1].pk})
    assert joined.status_code == 200 and joined.json()["you"] == 1
    again = post(b, f"{url}/join/", {"deck": decks[1].pk})
    assert again.status_code == 409 and again.json()["code"] == "ALREADY_SEATED"
    not_host = post(b, f"{url}/start/")
    assert not_host.status_code == 403 and not_host.json()["code"] == "NOT_THE_HOST"
    accept = post(c, f"{url}/accept/", {"deck": decks[2].pk})
    assert accept.status_code == 409 and accept.json()["code"] == "A_TABLE"
    started = post(a, f"{url}/start/")
    assert started.status_code == 200, started.json()
    payload = started.json()
    assert payload["status"] == "active"
    assert [p["bot"] for p in payload["players"]] == [None, None, "heuristic", "heuristic"]
    assert [p["name"] for p in payload["players"]][:2] == ["alice", "bob"]
    assert payload["view"]["table"]["seats"] == 4
    late = post(c, f"{url}/join/", {"deck": decks[2].pk})
    assert late.status_code == 409 and late.json()["code"] == "NOT_OPEN"


def _hidden_leaks(node, state, viewer):
    """Every card the payload shows face up that `viewer` may not see (R 3.1, R 16)."""
    leaks = []
    if isinstance(node, dict):
        if isinstance(node.get("id"), int) and "code" in node and node["id"] in state.cards:
            card = state.cards[node["id"]]
            own = viewer is not None and card.owner == viewer and card.zone != "colony"
            if not (public(card) or own) and card.code == node["code"]:
                leaks.append((node["id"], card.owner, card.zone))
        for value in node.values():
            leaks += _hidden_leaks(value, state, viewer)
    elif isinstance(node, list):
        for value in node:
            leaks += _hidden_leaks(value, state, viewer)
    return leaks


def test_each_seat_and_a_spectator_see_only_their_own_hidden_cards(four):
    """R 3.1 / R 16 at a table of four: for every pair of seats (and a spectator), the
    payload and the push built for one never show another's hand, centre or face-down card;
    only the deciding seat gets legal actions."""
    users, decks = four
    match = services.create_match(
        players=users,
        colonies=[legal_colony(20 + i) for i in range(4)],
        bots=[None] * 4,
        decks=decks,
        seed=17,
    )
    assert viewers(match) == (0, 1, 2, 3, None)
    seats = list(match.seats.select_related("user").order_by("seat"))
    state = load(match.state)
    rng = random.Random(17)
    checked_pairs = set()
    for step in range(120):
        waiting = pending(state)
        if waiting is None:
            break
        if step % 10 == 0:
            for viewer in viewers(match):
                payload = match_payload(match, viewer, state, seats)
                pushed = update_message(match, viewer, state, [], seats)
                assert _hidden_leaks(payload, state, viewer) == []
                assert _hidden_leaks(pushed, state, viewer) == []
                assert bool(payload["legal_actions"]) == (viewer == match.deciding_seat)
                hands = {p["seat"]: p["centre"] for p in payload["view"]["players"]}
                for other in range(4):
                    if other != viewer:
                        assert hands[other] is None  # nobody else's centre, not even a list
                        checked_pairs.add((viewer, other))
        actions = legal_actions(state)
        apply(state, actions[rng.randrange(len(actions))].id)
        match.deciding_seat = pending(state).player if pending(state) else None
    assert checked_pairs == {
        (v, o) for v, o in itertools.product([0, 1, 2, 3, None], range(4)) if v != o
    }


def test_a_player_who_concedes_at_a_table_leaves_a_bot_and_the_game_ends_ranked(
    four, django_capture_on_commit_callbacks
):
    """A concession at a table of three does not end it for the others: a bot stands in
    (docs/rulings.md), the table plays to the end and every seat is ranked (R 17.1.6)."""
    (alice, *_), decks = four
    with django_capture_on_commit_callbacks(execute=True):
        match = services.create_match(
            players=[alice, None, None],
            colonies=[legal_colony(1)] * 3,
            bots=[None, "heuristic", "random"],
            decks=[decks[0], None, None],
            seed=5,
        )
    a = client_for(alice)
    answer = post(
        a, f"/api/matches/{match.pk}/concede/", capture=django_capture_on_commit_callbacks
    )
    assert answer.status_code == 200
    match.refresh_from_db()
    assert match.seats.get(seat=0).stand_in == "heuristic"
    assert match.status == Match.FINISHED and match.result == "elimination"
    assert sorted(match.ranking) == [0, 1, 2] and match.winner_seat == match.ranking[0]
    result = a.get(f"/api/matches/{match.pk}/").json()["result"]
    assert result["ranking"] == match.ranking and result["reason"] == "elimination"
    # replays as for two players, from any seat of the table
    replay = a.get(f"/api/matches/{match.pk}/replay/?seat=2")
    assert replay.status_code == 200 and len(replay.json()["steps"]) == match.version
    assert a.get(f"/api/matches/{match.pk}/replay/?seat=3").status_code == 400
    page = Client().get(f"/en/play/{match.pk}/replay/?seat=2")
    assert page.status_code == 200 and b'id="seat-2"' in page.content


def test_a_table_s_actions_name_the_player_they_aim_at():
    """R 17.1.2: an attack names which neighbour; R 17.1.3: "the opponent" is a player's
    name, never a seat number."""
    from matches.presentation import action_label

    names = {"players": ["Anna", "Béla", "Cili"]}
    attack = {"id": "attack:colony:p2", "kind": "attack", "target": "colony", "player": 2}
    assert action_label(attack, "main", names, "en") == "Attack the colony of Cili"
    assert action_label(attack, "main", names, "hu").endswith("Cili ellen")
    chosen = {"id": "choose:1", "kind": "choose", "value": 1}
    assert action_label(chosen, "opponent", names, "en") == "The opponent is Béla"
    assert "Béla" in action_label(chosen, "opponent", names, "hu")


def test_a_player_out_of_time_at_a_table_is_passed_by_the_clock_not_the_game(four):
    """The clock never holds a table up: a seat whose bank is empty gets a bot standing in,
    the game goes on (a two-player casual game would end on time)."""
    users, decks = four
    match = services.create_match(
        players=users[:3],
        colonies=[legal_colony(30 + i) for i in range(3)],
        bots=[None] * 3,
        decks=decks[:3],
        seed=3,
    )
    deciding = match.deciding_seat
    match.seats.filter(seat=deciding).update(time_bank=0)
    past = timezone.now() - timedelta(seconds=5)
    Match.objects.filter(pk=match.pk).update(decision_started=past, decision_deadline=past)
    assert services.submit_default_move(match.pk) == "stand_in"
    match.refresh_from_db()
    assert match.status == Match.ACTIVE
    assert match.seats.get(seat=deciding).stand_in == "heuristic"
    assert match.decision_deadline > timezone.now()  # the stand-in is not charged to the bank


def test_the_lobby_forms_open_join_and_start_a_table(four):
    """The lobby without a script: open a table, join it, start it; a wrong step is a
    clear message in the page's language, never a 500."""
    (alice, bob, carol, _), decks = four
    a, b, c = client_for(alice), client_for(bob), client_for(carol)
    bad = a.post("/en/play/", {"action": "table", "seats": "9", "deck": decks[0].pk})
    assert bad.status_code == 400 and b"A table seats three to six players." in bad.content
    opened = a.post("/en/play/", {"action": "table", "seats": "3", "deck": decks[0].pk})
    assert opened.status_code == 302
    table = Match.objects.get(status=Match.OPEN)
    assert table.seat_count == 3
    assert b"my-tables" in a.get("/en/play/").content
    joined = b.post("/hu/play/", {"action": "join", "match": table.pk, "deck": decks[1].pk})
    assert joined.status_code == 302
    early = b.post("/hu/play/", {"action": "start", "match": table.pk})
    assert early.status_code == 403
    assert "Csak a házigazda indíthatja el" in early.content.decode()
    left = b.post("/hu/play/", {"action": "leave", "match": table.pk})
    assert left.status_code == 302 and table.seats.filter(user=bob).count() == 0
    c.post("/en/play/", {"action": "join", "match": table.pk, "deck": decks[2].pk})
    started = a.post("/en/play/", {"action": "start", "match": table.pk})
    assert started.status_code == 302 and started["Location"].endswith(f"/play/{table.pk}/")
    table.refresh_from_db()
    assert table.status == Match.ACTIVE
    assert [(s.user_id, s.bot) for s in table.seats.order_by("seat")] == [
        (alice.pk, ""),
        (carol.pk, ""),
        (None, "heuristic"),
    ]
    page = c.get(f"/en/play/{table.pk}/")
    assert page.status_code == 200


def test_the_clock_sweep_wakes_a_stand_in_bot_that_was_left_waiting(four):
    """A lost bot task of a stand-in is found by the sweep like a bot seat's (the table never
    hangs on a player who left)."""
    from matches.clocks_sweep import sweep

    users, decks = four
    match = services.create_match(
        players=users[:3],
        colonies=[legal_colony(40 + i) for i in range(3)],
        bots=[None] * 3,
        decks=decks[:3],
        seed=8,
    )
    assert sweep()["bots"] == []
    match.seats.filter(seat=match.deciding_seat).update(stand_in="heuristic")
    Match.objects.filter(pk=match.pk).update(updated=timezone.now() - timedelta(seconds=30))
    assert sweep()["bots"] == [match.pk]


def test_the_host_chooses_the_bot_that_takes_the_free_seats(four):
    """R 17.1: bots fill a table's empty seats when the host starts it; the host picks which
    bot (the lobby's select, the API's `bot`), the heuristic one when none is named. A bot
    nobody offers is a 400 that names the choices, and the table stays open."""
    (alice, bob, _, _), decks = four
    a = client_for(alice)
    opened = a.post("/hu/play/", {"action": "table", "seats": "4", "deck": decks[0].pk})
    assert opened.status_code == 302
    table = Match.objects.get(status=Match.OPEN)
    lobby = a.get("/hu/play/").content.decode()
    assert "Botok a szabad helyekre" in lobby and "Gondolkodó bot: nehéz" in lobby
    unknown = post(a, f"/api/matches/{table.pk}/start/", {"bot": "cheater"})
    assert unknown.status_code == 400 and unknown.json()["code"] == "UNKNOWN_BOT"
    assert "search-hard" in unknown.json()["detail"]
    not_a_name = post(a, f"/api/matches/{table.pk}/start/", {"bot": 3})
    assert not_a_name.status_code == 400 and not_a_name.json()["code"] == "UNKNOWN_BOT"
    bad_form = a.post("/en/play/", {"action": "start", "match": table.pk, "bot": "cheater"})
    assert bad_form.status_code == 400 and b"Choose one of the bots offered." in bad_form.content
    table.refresh_from_db()
    assert table.status == Match.OPEN
    post(client_for(bob), f"/api/matches/{table.pk}/join/", {"deck": decks[1].pk})
    started = a.post("/en/play/", {"action": "start", "match": table.pk, "bot": "search-easy"})
    assert started.status_code == 302
    table.refresh_from_db()
    assert table.status == Match.ACTIVE
    assert [s.bot for s in table.seats.order_by("seat")] == ["", "", "search-easy", "search-easy"]


def test_two_bots_of_one_kind_at_a_table_are_numbered_in_the_lobby(four):
    """Issue 34: both bots of a table of three were "heurisztikus bot" (R 17.1)."""
    (alice, *_), decks = four
    match = services.create_match(
        players=[alice, None, None],
        colonies=[legal_colony(1)] * 3,
        bots=[None, "heuristic", "heuristic"],
        decks=[decks[0], None, None],
        seed=5,
    )
    players = client_for(alice).get(f"/api/matches/{match.pk}/").json()["players"]
    assert [p.get("bot_number") for p in players] == [None, 1, 2]
    lobby = client_for(alice).get("/hu/play/").content.decode()
    assert "1. heurisztikus bot" in lobby and "2. heurisztikus bot" in lobby
