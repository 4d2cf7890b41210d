"""The match socket in the embedded default (in-memory channel layer, eager Celery).

A viewer only ever receives engine.view projections for the seat the SERVER gives them.
"""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from matches.models import Match

from .socket_kit import close_thread_connections, drain_messages, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def _post_first_legal(client, match_id):
    state = client.get(f"/api/matches/{match_id}/").json()
    body = {
        "client_action_id": f"ws{state['version']}",
        "expected_version": state["version"],
        "action": state["legal_actions"][0]["id"],
    }
    response = client.post(f"/api/matches/{match_id}/actions/", body, "application/json")
    assert response.status_code == 202, response.json()
    return state


def test_each_viewer_gets_its_own_projection_with_seq_numbers(human_match, clients, players):
    """R 16: players see their own view, a spectator the public one; seq has no gaps."""
    human_match.refresh_from_db()
    decider = human_match.deciding_seat
    spectator = Client()

    async def scenario():
        sockets = [await open_socket(human_match.pk, c) for c in (*clients, spectator)]
        assert all(connected for _s, connected, _c in sockets)
        hellos = [await s.receive_json_from(timeout=5) for s, _c, _k in sockets]
        before = await sync_to_async(_post_first_legal)(clients[decider], human_match.pk)
        updates = [await drain_messages(s) for s, _c, _k in sockets]
        for s, _c, _k in sockets:
            await s.disconnect()
        await close_thread_connections()
        return hellos, before, updates

    hellos, before, updates = asyncio.run(scenario())
    assert [h["state"]["you"] for h in hellos] == [0, 1, None]
    assert all(h["seq"] == before["seq"] and h["events"] == [] for h in hellos)
    for viewer, messages in zip((0, 1, None), updates, strict=True):
        assert len(messages) == 1, messages
        message = messages[0]
        assert message["type"] == "update" and message["version"] == before["version"] + 1
        seqs = [e["seq"] for e in message["events"]]
        assert seqs == list(range(before["seq"] + 1, message["seq"] + 1))
        assert message["state"]["you"] == viewer
        assert message["state"]["view"]["viewer"] == viewer
        if viewer is None:
            assert message["state"]["legal_actions"] == []
            assert not any("secret" in e for e in message["events"])
    # the socket's state is exactly what GET says (resync gives the same picture)
    for viewer, client in ((0, clients[0]), (1, clients[1]), (None, spectator)):
        got = client.get(f"/api/matches/{human_match.pk}/").json()
        pushed = updates[(0, 1, None).index(viewer)][0]["state"]
        assert got == pushed


def test_reconnecting_sends_the_current_state_at_once(human_match, clients):
    human_match.refresh_from_db()
    _post_first_legal(clients[human_match.deciding_seat], human_match.pk)

    async def reconnect():
        socket, connected, _code = await open_socket(human_match.pk, clients[0])
        hello = await socket.receive_json_from(timeout=5)
        await socket.disconnect()
        await close_thread_connections()
        return connected, hello

    connected, hello = asyncio.run(reconnect())
    assert connected
    assert hello["state"] == clients[0].get(f"/api/matches/{human_match.pk}/").json()


def test_a_socket_for_an_unknown_match_is_closed(db):
    async def attempt():
        socket, connected, code = await open_socket(424242)
        await socket.disconnect()
        await close_thread_connections()
        return connected, code

    connected, code = asyncio.run(attempt())
    assert not connected and code == 4404


def test_a_socket_from_a_foreign_origin_is_refused(human_match):
    from channels.testing import WebsocketCommunicator

    from cardgame.asgi import application

    async def attempt():
        socket = WebsocketCommunicator(
            application,
            f"/ws/matches/{human_match.pk}/",
            headers=[(b"origin", b"http://evil.example")],
        )
        connected, _code = await socket.connect(timeout=5)
        await socket.disconnect()
        return connected

    assert asyncio.run(attempt()) is False


def test_a_client_claiming_to_be_a_player_is_still_a_spectator(human_match):
    """Cockatrice #6115 (NOTES.md): the role comes from the session, never from the client."""

    async def attempt():
        socket, connected, _ = await open_socket(
            human_match.pk, path=f"/ws/matches/{human_match.pk}/?seat=0"
        )
        hello = await socket.receive_json_from(timeout=5)
        await socket.send_json_to({"type": "hello", "seat": 0})
        extra = await drain_messages(socket, timeout=0.3)
        await socket.disconnect()
        await close_thread_connections()
        return hello, extra

    hello, extra = asyncio.run(attempt())
    assert hello["state"]["you"] is None and hello["state"]["view"]["viewer"] is None
    assert extra == []


def test_sockets_do_not_wait_for_channels_shared_database_thread(human_match, clients):
    """Under load every socket queued in ONE thread: Channels runs `database_sync_to_async`
    (its auth middleware) and a hop before each handled message there. With that thread
    held, a player still connects, gets the state and receives the next update."""
    import threading

    from asgiref.sync import SyncToAsync

    human_match.refresh_from_db()
    decider = human_match.deciding_seat
    release = threading.Event()
    SyncToAsync.single_thread_executor.submit(release.wait, 30)

    async def scenario():
        try:
            socket, connected, _ = await open_socket(human_match.pk, clients[decider])
            hello = await socket.receive_json_from(timeout=5)
            post = sync_to_async(_post_first_legal, thread_sensitive=False)
            before = await post(clients[decider], human_match.pk)
            update = await socket.receive_json_from(timeout=5)
            await socket.disconnect()
        finally:
            release.set()
        await close_thread_connections()
        return connected, hello, before, update

    connected, hello, before, update = asyncio.run(scenario())
    assert connected and hello["state"]["you"] == decider
    assert update["version"] == before["version"] + 1


def test_a_session_from_before_a_password_change_is_only_a_spectator(human_match, clients, players):
    """R 16: the seat comes from a valid session; changing the password ends the old ones
    (Django's session hash), so that socket gets the public view, not the player's."""

    async def hello_for(client):
        socket, _connected, _ = await open_socket(human_match.pk, client)
        hello = await socket.receive_json_from(timeout=5)
        await socket.disconnect()
        await close_thread_connections()
        return hello

    assert asyncio.run(hello_for(clients[0]))["state"]["you"] == 0
    players[0].set_password("a-new-password-123")
    players[0].save()
    after = asyncio.run(hello_for(clients[0]))["state"]
    assert after["you"] is None and after["legal_actions"] == []
    assert after == Client().get(f"/api/matches/{human_match.pk}/").json()


def test_a_forged_session_cookie_is_a_spectator(human_match):
    from matches.consumers import session_user

    assert session_user("not-a-session-key").is_anonymous
    assert session_user(None).is_anonymous


def test_a_ping_is_answered_with_the_newest_commit_even_when_no_push_came(human_match, clients):
    """Issue 16: a quiet socket asks; the pong names the match's newest (version, seq), as
    noted at the commit, also after a push this socket never received (its group emptied),
    and from the database when the cache has nothing."""
    from channels.layers import get_channel_layer
    from django.core.cache import cache

    from matches.push import version_key

    human_match.refresh_from_db()
    group = f"match.{human_match.pk}.seat0"

    async def scenario():
        socket, connected, _code = await open_socket(human_match.pk, clients[0])
        hello = await socket.receive_json_from(timeout=5)
        layer = get_channel_layer()  # the in-memory layer of the embedded default
        for channel in list(layer.groups.get(group, {})):
            await layer.group_discard(group, channel)
        after = await sync_to_async(_post_first_legal)(
            clients[human_match.deciding_seat], human_match.pk
        )
        missed = await drain_messages(socket, timeout=0.3)
        await socket.send_json_to({"type": "ping"})
        pong = await socket.receive_json_from(timeout=5)
        await sync_to_async(cache.delete)(version_key(human_match.pk))
        await socket.send_json_to({"type": "ping"})
        from_db = await socket.receive_json_from(timeout=5)
        await socket.disconnect()
        await close_thread_connections()
        return connected, hello, after, missed, pong, from_db

    connected, hello, before, missed, pong, from_db = asyncio.run(scenario())
    human_match.refresh_from_db()
    assert connected and missed == []  # the push never reached this socket
    assert hello["version"] == before["version"]
    assert pong == {"type": "pong", "version": human_match.version, "seq": human_match.seq}
    assert human_match.version == before["version"] + 1
    assert from_db == pong


def test_a_pong_comes_behind_the_push_its_version_was_noted_with(
    human_match, clients, redis_url, settings
):
    """Issue 16: the worker notes a version and queues its push in one Redis call. A ping
    the socket reads that note for is answered behind the pushes already queued, so the
    page never hears of a version before its push and resyncs for nothing (CI's daphne
    test saw that resync). The push and the ping here reach the web process together: the
    push goes to Redis while its event loop is held, then the ping arrives."""
    from channels.layers import get_channel_layer

    from matches import push
    from matches.positions import current_state

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "cardgame.channel_layer.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url]},
        }
    }
    human_match.refresh_from_db()
    group = push.group_name(human_match.pk, 0)

    def made():
        match = Match.objects.get(pk=human_match.pk)
        return match, push.update_text(match, 0, current_state(match), []), push.stamp(match)

    async def scenario():
        socket, connected, _code = await open_socket(human_match.pk, clients[0])
        await socket.receive_json_from(timeout=5)  # the hello
        match, text, stamp_ = await sync_to_async(made)()
        orders = []
        for _ in range(5):
            push.note_version(match)  # in the loop's thread: nothing else runs meanwhile
            push._send_all(get_channel_layer(), [(group, text)], stamp_)
            await socket.send_json_to({"type": "ping"})
            got = [await socket.receive_json_from(timeout=5) for _ in range(2)]
            orders.append([message["type"] for message in got])
        await socket.disconnect()
        await close_thread_connections()
        return connected, orders

    connected, orders = asyncio.run(scenario())
    assert connected
    assert orders == [["update", "pong"]] * 5


def _reconnect_after_a_move(match_id, clients, viewers, between=None):
    """Every viewer's socket sees a move pushed, closes, and opens again (after `between`):
    the hellos of the second sockets, and the viewers whose hello was rebuilt (projected
    from the database) instead of taken from the last push."""
    from unittest import mock

    from matches import consumers

    rebuilt = []
    real = consumers.match_payload

    def counted(match, viewer, *args, **kwargs):
        rebuilt.append(viewer)
        return real(match, viewer, *args, **kwargs)

    async def scenario():
        sockets = [await open_socket(match_id, c) for c in viewers]
        for socket, _connected, _code in sockets:
            await socket.receive_json_from(timeout=5)
        decider = await sync_to_async(lambda: Match.objects.get(pk=match_id).deciding_seat)()
        await sync_to_async(_post_first_legal)(clients[decider], match_id)
        for socket, _connected, _code in sockets:
            assert len(await drain_messages(socket)) == 1
            await socket.disconnect()
        if between is not None:
            await sync_to_async(between)()
        hellos = []
        with mock.patch.object(consumers, "match_payload", counted):
            for client in viewers:
                socket, connected, _code = await open_socket(match_id, client)
                assert connected
                hellos.append(await socket.receive_json_from(timeout=5))
                await socket.disconnect()
        await close_thread_connections()
        return hellos

    return asyncio.run(scenario()), rebuilt


def test_a_reconnect_at_the_last_pushed_position_gets_that_push_without_a_replay(
    human_match, clients
):
    """Issue 16: a socket that reconnects while its match is still at the position its
    group was last pushed gets that position from the push, with no events, and the web
    process rebuilds and projects nothing. Each viewer from its own group (R 16): the
    picture GET gives that viewer, never another seat's."""
    spectator = Client()
    viewers = (*clients, spectator)
    hellos, rebuilt = _reconnect_after_a_move(human_match.pk, clients, viewers)
    assert rebuilt == []
    for viewer, client, hello in zip((0, 1, None), viewers, hellos, strict=True):
        assert hello["type"] == "update" and hello["events"] == []
        assert hello["state"]["you"] == viewer
        assert hello["state"] == client.get(f"/api/matches/{human_match.pk}/").json()
        assert hello["version"] == hello["state"]["version"]


def test_a_reconnect_after_a_change_no_push_told_reads_the_database(human_match, clients):
    """The kept push answers a reconnect only at its own stamp: a change of the match row
    that pushed nothing (none of ours does so; a judge's decision moves no version) makes
    the hello come from the database, as GET shows the match."""

    def unpushed_decision():
        match = Match.objects.get(pk=human_match.pk)
        match.status, match.result_reason = Match.NEEDS_JUDGE, "decided off the record"
        match.save(update_fields=["status", "result_reason", "updated"])

    hellos, rebuilt = _reconnect_after_a_move(
        human_match.pk, clients, clients, between=unpushed_decision
    )
    assert rebuilt == [0, 1]
    for client, hello in zip(clients, hellos, strict=True):
        assert hello["state"]["status"] == Match.NEEDS_JUDGE and hello["events"] == []
        assert hello["state"] == client.get(f"/api/matches/{human_match.pk}/").json()


def test_a_web_process_keeps_the_last_update_of_its_newest_groups_only():
    """Bounded memory: the least recently pushed group goes first; a message without a
    stamp or a cut (not one of matches/push.py's) is not kept."""
    from matches.consumers import LastUpdates

    kept = LastUpdates(limit=2)
    for group in ("a", "b", "a", "c"):
        kept.remember(group, {"text": f"{group} text", "cut": 1, "stamp": "1:1:t"})
    kept.remember("d", {"type": "match.update", "text": "d text"})
    assert kept.get("b") is None and kept.get("d") is None
    assert kept.get("a") == ("1:1:t", "a text", 1) and kept.get("c") == ("1:1:t", "c text", 1)
