"""Less worker work per move (issue 16): the state cache of the drain and the pipelined push.

The cache: a drain of a position this process committed takes the engine state from
memory (never the 22 kB dump), and a position somebody else moved on is read again, so
every position still replays exactly from the applied requests (R 15: the game is the
sequence of its legal decisions). The push: every group's message and the version note in
two Redis round trips, delivered as channels-redis's own group_send delivers them.
"""

import asyncio
from unittest import mock

import pytest

from engine.flow import Event
from engine.game import legal_actions, pending
from engine.serialize import load
from matches import positions, push, services, state_cache
from matches.models import ActionRequest

from .kit import assert_consistent


def _request_next(match, client_id):
    """Store the first legal action of whoever decides now, as the web tier would."""
    match.refresh_from_db()
    state = load(match.state)
    return ActionRequest.objects.create(
        match=match,
        seat=pending(state).player,
        client_action_id=client_id,
        expected_version=match.version,
        action=legal_actions(state)[0].id,
    )


@pytest.fixture
def match(transactional_db, players, decks):
    state_cache.clear()
    colonies = [services.deck_colony(d, "original") for d in decks]
    yield services.create_match(players=players, colonies=colonies, seed=11)
    state_cache.clear()


def test_a_drain_of_a_position_this_process_committed_does_not_parse_the_dump(match):
    """R 15: the cached position moves on exactly as the stored one would."""
    _request_next(match, "a1")
    services.drain(match.pk)  # create_match committed version 0 in this process: cached
    _request_next(match, "a2")
    with mock.patch.object(positions, "load", side_effect=AssertionError("parsed the dump")):
        assert services.drain(match.pk) == 1
    match.refresh_from_db()
    assert match.version == 2
    assert_consistent(match)  # the stored dump is the replay of the applied requests


@pytest.mark.parametrize("vouched", [True, False], ids=["log-vouches", "unknown-request"])
def test_a_position_another_process_moved_on_is_never_applied_on_as_it_is(match, vouched):
    """R 15: a stale cached state (this process last saw version 1; another worker applied
    version 2 since) is never applied on as it is: it is brought forward by the logged
    action when the log shows the request that made version 1 (no snapshot parsed), else
    the drain reads the committed position from the database."""
    _request_next(match, "b1")
    services.drain(match.pk)
    version, updated, state, request_id = state_cache._states[match.pk]
    state_cache.clear()  # "another process": it holds nothing of this match
    _request_next(match, "b2")
    services.drain(match.pk)
    state_cache.clear()
    # back in the first process, version 1 held
    state_cache.put(match.pk, version, updated, state, request_id if vouched else None)
    _request_next(match, "b3")
    with mock.patch.object(positions, "load", wraps=load) as parsed:
        assert services.drain(match.pk) == 1
    assert parsed.call_count == (0 if vouched else 1)
    match.refresh_from_db()
    assert match.version == 3
    assert_consistent(match)


def test_a_failed_drain_leaves_no_cached_position(match):
    """A drain that rolls back must not leave the state it changed in the cache."""
    _request_next(match, "c1")
    services.drain(match.pk)
    _request_next(match, "c2")
    with (
        mock.patch.object(services.WriteBatch, "run", side_effect=RuntimeError("lost")),
        pytest.raises(RuntimeError),
    ):
        services.drain(match.pk)
    assert state_cache.peek(match.pk) is None
    assert services.drain(match.pk) == 1  # the sweep's retry, from the database
    match.refresh_from_db()
    assert match.version == 2
    assert_consistent(match)


def test_an_entry_evicted_between_the_look_and_the_take_is_read_again(match):
    """The locked read left the dump out for the cached position; if the entry is gone by
    the time the drain takes it (another thread's entries pushed it out), the drain reads
    the dump after all instead of failing."""
    _request_next(match, "e1")
    services.drain(match.pk)
    _request_next(match, "e2")
    with mock.patch.object(state_cache, "take", return_value=None):
        assert services.drain(match.pk) == 1
    match.refresh_from_db()
    assert match.version == 2
    assert_consistent(match)


def _counting_round_trips():
    """Patches counting redis-py's blocking round trips (the push's): single commands and
    pipelines."""
    from redis.client import Pipeline, Redis

    counts = {"commands": 0, "pipelines": 0, "names": []}
    command, execute = Redis.execute_command, Pipeline.execute

    def counted_command(self, *args, **kwargs):
        counts["commands"] += 1
        counts["names"].append(args[0])
        return command(self, *args, **kwargs)

    def counted_pipeline(self, *args, **kwargs):
        counts["pipelines"] += 1
        return execute(self, *args, **kwargs)

    patches = [
        mock.patch.object(Redis, "execute_command", counted_command),
        mock.patch.object(Pipeline, "execute", counted_pipeline),
    ]
    return counts, patches


def test_a_push_reaches_every_group_and_notes_the_version_in_one_round_trip(redis_url, settings):
    """Issue 16: the push is one script call (EVALSHA) for every group and the note."""
    from channels_redis.core import RedisChannelLayer
    from django.core.cache import cache

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
        },
        "throttle": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    }
    layer = RedisChannelLayer(hosts=[redis_url])
    fake = mock.Mock(pk=41, version=7, seq=23)
    groups = [push.group_name(41, viewer) for viewer in (0, 1, None)]
    counts, patches = _counting_round_trips()

    async def scenario():
        channels = [await layer.new_channel() for _ in range(4)]
        for group, channel in zip([*groups, groups[2]], channels, strict=True):
            await layer.group_add(group, channel)  # two spectators
        # the cut counts characters, as the web process slices the text it receives
        messages = [(group, (f"állás {group}|text for {group}", len(f"állás {group}|")))
                    for group in groups]  # fmt: skip
        note = push._scripted_note(fake, layer)
        push._send_all(layer, [(push.group_name(0, 0), ("nobody", 0))], "s")  # the script loaded
        for patch in patches:
            patch.start()
        try:
            push._send_all(layer, messages, "7:23:when", note)
        finally:
            for patch in patches:
                patch.stop()
        received = [await layer.receive(channel) for channel in channels]
        await layer.flush()
        return received

    received = asyncio.run(scenario())
    expected = [*groups, groups[2]]
    assert [m["text"] for m in received] == [f"állás {g}|text for {g}" for g in expected]
    assert all(m["type"] == "match.update" for m in received)
    # what a web process needs to answer a reconnect from the last update (consumers.py)
    assert [m["text"][: m["cut"]] for m in received] == [f"állás {g}|" for g in expected]
    assert {m["stamp"] for m in received} == {"7:23:when"}
    assert cache.get(push.version_key(41)) == [7, 23]
    assert counts == {"commands": 1, "pipelines": 0, "names": ["EVALSHA"]}


def test_the_push_script_is_loaded_again_after_redis_forgot_it(redis_url):
    """A Redis restart empties its script cache: the next push loads the script again."""
    import redis
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(hosts=[redis_url])

    async def scenario():
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        push._send_all(layer, [("g", ("before", 0))], "s")
        redis.Redis.from_url(redis_url).script_flush()
        push._send_all(layer, [("g", ("after", 0))], "s")
        received = [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(2)]
        await layer.flush()
        return received

    assert [m["text"] for m in asyncio.run(scenario())] == ["before", "after"]


def test_a_message_is_made_only_for_a_group_somebody_is_in(redis_url):
    """Issue 16: most games have no spectators; their projection and encoding are not made
    when nobody is in their group (the players' are)."""
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(hosts=[redis_url])
    made = []

    def text_for(group):
        def make():
            made.append(group)
            return f"text for {group}", 0

        return make

    groups = [push.group_name(42, viewer) for viewer in (0, 1, None)]

    async def scenario():
        channels = [await layer.new_channel() for _ in range(2)]
        for group, channel in zip(groups[:2], channels, strict=True):
            await layer.group_add(group, channel)  # the two players; no spectator
        push._send_all(layer, [(group, text_for(group)) for group in groups], "s")
        received = [await layer.receive(channel) for channel in channels]
        await layer.flush()
        return received

    received = asyncio.run(scenario())
    assert [m["text"] for m in received] == [f"text for {g}" for g in groups[:2]]
    assert made == groups[:2]


def test_the_note_goes_its_own_way_when_the_cache_is_not_the_layers_redis(redis_url, settings):
    """Locally (the embedded default's in-memory cache) push_update notes the version
    through the cache, as before."""
    from channels_redis.core import RedisChannelLayer

    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "throttle": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    }
    assert push._scripted_note(mock.Mock(pk=1), RedisChannelLayer(hosts=[redis_url])) is None


def test_a_web_process_that_falls_behind_loses_no_push(redis_url, settings):
    """Every socket of a web process shares one Redis list in channels-redis, and a
    message over that list's capacity was dropped without a word: 200 games on two busy
    web processes lost 87 pushes in two minutes (bench/RESULTS.md, issue 16). A process
    300 messages behind (one per game it serves) still gets every one, in order."""
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(hosts=[redis_url], capacity=settings.SOCKET_BACKLOG)
    games = 300

    async def scenario():
        channels = [await layer.new_channel() for _ in range(games)]
        for game, channel in enumerate(channels):
            await layer.group_add(push.group_name(game, 0), channel)
        for game in range(games):  # the process reads nothing meanwhile
            push._send_all(layer, [(push.group_name(game, 0), (f"game {game}", 0))], "s")
        received = [
            await asyncio.wait_for(layer.receive(channel), timeout=5) for channel in channels
        ]
        await layer.flush()
        return received

    received = asyncio.run(scenario())
    assert [m["text"] for m in received] == [f"game {game}" for game in range(games)]


def test_a_push_dropped_over_capacity_is_logged(redis_url, caplog):
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(hosts=[redis_url], capacity=2)

    async def scenario():
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        for n in range(3):
            push._send_all(layer, [("g", (f"message {n}", 0))], "s")
        await layer.flush()

    with caplog.at_level("WARNING", logger="matches.push"):
        asyncio.run(scenario())
    assert "dropped 1 message(s) of channels over capacity" in caplog.text


def test_an_idle_socket_outlives_the_layers_blocking_receive(redis_url):
    """A socket's receive is a BZPOPMIN that Redis answers after brpop_timeout when nothing
    came. With redis-py 8's default 5 s read timeout, the same as brpop_timeout, the read
    raced Redis's empty answer and the consumer died with "Timeout reading from" (a daphne
    browser test stayed silent ~10 s after a reconnect). The settings' connections wait
    longer than the blocking command, so an idle socket still receives what comes later."""
    from channels_redis.core import RedisChannelLayer

    from cardgame.channel_layer import layer_host

    layer = RedisChannelLayer(hosts=[layer_host(redis_url)])
    assert layer.hosts[0]["socket_timeout"] > layer.brpop_timeout

    async def scenario():
        channel = await layer.new_channel()
        waiting = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(layer.brpop_timeout + 1.5)  # one whole empty BZPOPMIN, and more
        await layer.send(channel, {"type": "match.update", "text": "late"})
        message = await asyncio.wait_for(waiting, timeout=5)
        await layer.flush()
        return message

    assert asyncio.run(scenario())["text"] == "late"


def _played(match, moves, prefix):
    """`moves` moves requested and drained; the match read again, with its position and
    seats as the push has them."""
    for n in range(moves):
        _request_next(match, f"{prefix}{n}")
        services.drain(match.pk)
    match.refresh_from_db()
    seats = list(match.seats.select_related("user").order_by("seat"))
    return positions.current_state(match), seats


def test_each_viewers_message_is_the_json_the_standard_library_would_write(match):
    """The push's text (orjson) is what `json.dumps(..., separators=(",", ":"),
    ensure_ascii=False)` writes, byte for byte, for every viewer of a game a few moves in
    (Hungarian card names and all; the state written before the events); the page parses
    the same object either way. Its cut leaves the position with no events: the message a
    reconnecting socket gets, byte for byte the one rebuilt from the database."""
    import json

    from matches.consumers import _hello

    state, seats = _played(match, 6, "j")
    events = [(row.seq, Event.from_dict(row.data)) for row in match.events.order_by("seq")]
    for viewer in push.viewers(match):
        payload = push.update_message(match, viewer, state, events, seats)
        payload["events"] = payload.pop("events")  # last
        text, cut = push.update_text(match, viewer, state, events, seats)
        assert payload["events"] and text.count('"events":') >= 1
        assert text == json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
        assert json.loads(text) == json.loads(json.dumps(payload))
        hello = push.hello_text(text, cut)
        assert json.loads(hello) == {**json.loads(text), "events": []}
        assert hello == _hello(match.pk, viewer)  # rebuilt: no kept update given
    assert push.encode({1: "á", "b": [1.5, None, True]}) == '{"1":"á","b":[1.5,null,true]}'


def test_the_brokers_channel_keeps_one_client_per_connection_pool(redis_url):
    """cardgame/broker.py: kombu's Redis channel, with the same client object for every
    bookkeeping command while its pool lives and a new one after kombu replaces the pool;
    messages still go through Redis and come back acknowledged."""
    from kombu import Connection

    with Connection(redis_url, transport="cardgame.broker:Transport") as connection:
        channel = connection.default_channel
        first = channel._create_client()
        assert channel._create_client() is first
        queue = connection.SimpleQueue("kgk-broker-test")
        queue.put({"move": 1})
        message = queue.get(timeout=5)
        assert message.payload == {"move": 1}
        message.ack()  # the unacked entry removed through the held client
        assert channel._create_client() is first
        assert not first.hexists(channel.unacked_key, message.delivery_tag)
        channel._disconnect_pools()  # as kombu does after a fork or a lost connection
        assert channel._create_client() is not first
        queue.clear()
        queue.close()


def _names_by_recursion(seen):
    """The walk `selectors._names` made before it kept its own stack (the reference)."""
    found = {}

    def walk(node):
        if isinstance(node, dict):
            if "id" in node and "name" in node and isinstance(node["id"], int):
                found[node["id"]] = {
                    "name": node["name"],
                    "name_en": node.get("name_en"),
                    "zone": node.get("zone"),
                }
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(seen)
    found["players"] = [p["name"] for p in seen.get("players", [])]
    return found


def test_the_names_a_view_shows_are_found_as_the_recursive_walk_found_them(match):
    """The deciding seat's action labels name cards from `_names(view)`: the same names,
    places and order for both seats and the spectator, position after position (R 16: each
    viewer's own view)."""
    from engine.view import view
    from matches.selectors import _names

    checked = 0
    for n in range(40):
        _request_next(match, f"n{n}")
        services.drain(match.pk)
        match.refresh_from_db()
        if match.status != "active":
            break
        state = positions.current_state(match)
        for viewer in push.viewers(match):
            seen = view(state, viewer)
            expected = _names_by_recursion(seen)
            got = _names(seen)
            assert got == expected and list(got) == list(expected)
            checked += len(got)
    assert checked > 200  # cards were named, not two empty dicts compared


def test_a_hello_from_the_kept_update_reads_the_row_once_without_its_snapshot(match):
    """Issue 16: a reconnect answered from the last update kept (matches/consumers.py)
    costs one query of the match row, which leaves the ~21 kB snapshot (column "state")
    out; the text is the update's without its events."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from matches.consumers import _hello

    state, seats = _played(match, 3, "k")
    text, cut = push.update_text(match, 0, state, [], seats)
    with CaptureQueriesContext(connection) as queries:
        hello = _hello(match.pk, 0, (push.stamp(match), text, cut))
    assert hello == push.hello_text(text, cut)
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert f'{connection.ops.quote_name("matches_match")}."state"' not in queries[0]["sql"]
    assert f'{connection.ops.quote_name("matches_match")}."version"' in queries[0]["sql"]


def test_a_queued_tasks_repr_is_the_one_celery_would_write(monkeypatch):
    """`tasks.enqueue` hands Celery the arguments' repr itself (Celery's saferepr was ~0.1
    ms of a publish's CPU): the same text the worker's logs and monitors showed before."""
    from celery.utils.saferepr import saferepr

    from matches import tasks

    sent = []
    monkeypatch.setitem(tasks.bot_move.app.conf, "task_always_eager", False)
    monkeypatch.setattr(tasks.bot_move, "apply_async", lambda args, **kw: sent.append((args, kw)))
    tasks.enqueue(tasks.bot_move, 12, 345)
    assert sent == [((12, 345), {"argsrepr": saferepr((12, 345)), "kwargsrepr": saferepr({})})]
