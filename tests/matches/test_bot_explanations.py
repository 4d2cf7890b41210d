"""Issue 18: a search bot's moves keep its top three options with their estimated win rates,
and the replay of the finished game shows them to the match's players only.

R 16.2: no information may be given about the cards of a player's centre; the bot's options
name cards of its hand and its estimates come from its view of the game, so while the game
runs they reach nobody (docs/rulings.md "The search bot's explanations in the replay").
"""

import asyncio
import json
import random

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from matches import services
from matches.models import ActionRequest, Match

from .kit import logged_in
from .socket_kit import close_thread_connections, drain_messages, open_socket

pytestmark = pytest.mark.django_db(transaction=True)

# the keys of an explanation, stored or shown: none may appear in anything sent in the game
MARKERS = ('"explanation"', '"playouts"', '"win_rate"')


def leaks(text: str) -> list[str]:
    return [marker for marker in MARKERS if marker in text]


def colony(deck):
    return services.deck_colony(deck, "original")


def _everything_a_viewer_can_fetch(match_id, clients, own_request):
    """Every HTTP response about the match, if it is still being played (else None): the
    state, the events, the game page, the replay (API and page), and the player's own
    request's status."""
    out = []
    for client in clients:
        for url in (
            f"/api/matches/{match_id}/",
            f"/api/matches/{match_id}/events/?after=0",
            f"/api/matches/{match_id}/replay/?seat=0",
            f"/api/matches/{match_id}/replay/?seat=1",
            f"/en/play/{match_id}/",
            f"/hu/play/{match_id}/replay/",
        ):
            out.append((url, client.get(url).content.decode()))
    url = f"/api/matches/{match_id}/actions/{own_request}/"
    out.append((url, clients[0].get(url).content.decode()))
    if Match.objects.get(pk=match_id).status != Match.ACTIVE:
        return None  # the game ended in the meantime: these were not all sent in the game
    return out


def _move(client, match_id, rng):
    state = client.get(f"/api/matches/{match_id}/").json()
    if state["status"] != "active":
        return None, state
    action = rng.choice(state["legal_actions"])["id"]
    body = {
        "client_action_id": f"c{state['version']}",
        "expected_version": state["version"],
        "action": action,
    }
    response = client.post(f"/api/matches/{match_id}/actions/", body, "application/json")
    assert response.status_code == 202, response.json()
    return response.json()["request"]["id"], state


def test_explanations_reach_nobody_in_the_game_and_the_players_after_it(players, decks):
    alice, bob = players
    mine, stranger, anonymous = logged_in(alice), logged_in(bob), Client()
    match = services.create_match(
        players=(alice, None),
        colonies=(colony(decks[0]), colony(decks[1])),
        bots=(None, "search-easy"),
        starting_player=1,  # the bot decides first
        seed=18,
        engine_options={"turn_limit": 4},
    )
    rng = random.Random(18)

    async def the_game():
        sockets = [await open_socket(match.pk, c) for c in (mine, stranger, anonymous)]
        assert all(connected for _s, connected, _c in sockets)
        pushed, fetched = [], []
        for _ in range(400):
            for socket, _c, _k in sockets:
                pushed += await drain_messages(socket, timeout=0.2)
            request_id, state = await sync_to_async(_move)(mine, match.pk, rng)
            if request_id is None:  # the game is over
                break
            round_ = await sync_to_async(_everything_a_viewer_can_fetch)(
                match.pk, (mine, stranger, anonymous), request_id
            )
            fetched += round_ or []
        for socket, _c, _k in sockets:
            await socket.disconnect()
        await close_thread_connections()
        return pushed, fetched

    pushed, fetched = asyncio.run(the_game())
    match.refresh_from_db()
    assert match.status == Match.FINISHED and match.result == "turn_limit"
    explained = ActionRequest.objects.filter(match=match, seat=1).exclude(explanation=None)
    assert explained.count() >= 3, "the bot weighed several decisions"
    assert pushed, "the sockets got the game's updates"
    for message in pushed:
        assert not leaks(json.dumps(message)), message
    assert len(fetched) > 100
    for url, text in fetched:
        assert not leaks(text), (url, leaks(text))

    # after the game: the player's replay carries every stored explanation, in words
    stored = {r.applied_version: r for r in explained}
    for seat in (0, 1):
        replay = mine.get(f"/api/matches/{match.pk}/replay/?seat={seat}").json()
        assert replay["explanations"] is True
        shown = {s["version"]: s["explanation"] for s in replay["steps"] if "explanation" in s}
        assert set(shown) == set(stored)
        for version, options in shown.items():
            request = stored[version]
            assert 1 <= len(options) <= 3
            assert [o["action"] for o in options] == [e[0] for e in request.explanation]
            assert options[0]["action"] == request.action and options[0]["chosen"]
            for option in options:
                assert option["label_en"] and option["label_hu"]
                assert option["label_en"] != option["action"]  # words, not the raw id
                assert option["win_rate"] is None or 0 <= option["win_rate"] <= 100
                assert option["playouts"] >= 0
    # ...and nobody else's: a logged-in stranger, an anonymous visitor
    for client in (stranger, anonymous):
        for seat in (0, 1):
            response = client.get(f"/api/matches/{match.pk}/replay/?seat={seat}")
            assert response.status_code == 200
            assert response.json()["explanations"] is False
            assert not leaks(response.content.decode())


def test_bot_batches_store_explanations_of_the_search_bot_only(players, decks):
    """Bot against bot (services.play_bot_game's batches): the search bot's decisions keep
    their options; the heuristic bot's never have any. Nobody held a seat, so nobody sees
    them in the replay."""
    alice, _bob = players
    match = services.create_match(
        players=(None, None),
        colonies=(colony(decks[0]), colony(decks[1])),
        bots=("search-easy", "heuristic"),
        seed=5,
        engine_options={"turn_limit": 2},
    )
    match.refresh_from_db()
    assert match.status == Match.FINISHED
    bot_moves = ActionRequest.objects.filter(match=match, origin=ActionRequest.BOT)
    assert bot_moves.filter(seat=0).exclude(explanation=None).exists()
    assert not bot_moves.filter(seat=1).exclude(explanation=None).exists()
    for request in bot_moves.filter(seat=0).exclude(explanation=None):
        assert request.explanation[0][0] == request.action  # the most weighed is the move
    replay = logged_in(alice).get(f"/api/matches/{match.pk}/replay/?seat=0").json()
    assert replay["explanations"] is False and not any("explanation" in s for s in replay["steps"])
