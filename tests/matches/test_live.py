"""The live games list (issue 37): the games being played now with a person at the table,
the most watched first, who plays (a bot by its name in the reader's language), and how
many watch. Spectator sockets are counted where matches/consumers.py accepts and closes
them; players' sockets are not. Counts live in Redis with keys that expire, or in the
process's memory in the embedded default (matches/spectators.py)."""

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from matches import services, spectators
from matches.models import Match

from .kit import legal_colony, logged_in
from .socket_kit import close_thread_connections, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def games(players):
    """A person against a bot, a game between the two players, and a bots-only game."""
    alice, bob = players
    colony = legal_colony(seed=7)
    vs_bot = services.create_match(
        players=(alice, None), colonies=(colony, colony), bots=(None, "heuristic")
    )
    people = services.create_match(players=(alice, bob), colonies=(colony, colony))
    bots_only = services.create_match(
        players=(None, None), colonies=(colony, colony), bots=("random", "random")
    )
    return vs_bot, people, bots_only


def rows(page: str) -> list[int]:
    """The match ids of the list, in its order."""
    body = page[page.index('id="live-games"') :]
    return [int(part.split('"')[0]) for part in body.split('data-match="')[1:]]


def watching(page: str, match_id: int) -> int:
    row = page[page.index(f'data-match="{match_id}"') :]
    return int(row.split('data-spectators="')[1].split('"')[0])


@pytest.mark.parametrize(("lang", "bot"), [("en", "heuristic bot"), ("hu", "heurisztikus bot")])
def test_the_list_shows_games_with_people_and_names_bots_in_words(games, lang, bot):
    vs_bot, people, bots_only = games
    Match.objects.filter(pk=people.pk).update(status=Match.FINISHED)
    page = Client().get(f"/{lang}/play/live/").content.decode()  # anyone may look
    assert rows(page) == [vs_bot.pk]  # not the finished game, not the bots' game
    assert f"alice – {bot}" in page and f'href="/{lang}/play/{vs_bot.pk}/"' in page
    assert "heuristic<" not in page  # the bot's code is not a word a person reads
    lobby = logged_in(people.seats.first().user).get(f"/{lang}/play/").content.decode()
    assert f'href="/{lang}/play/live/" id="live-games-link"' in lobby


def test_only_active_games_spectators_are_counted(games, monkeypatch):
    """Review of issue 37: a finished game's spectators (its sockets stay counted until they
    close) are never read: the list asks the counts of the ACTIVE games it shows only."""
    vs_bot, people, _bots_only = games
    Match.objects.filter(pk=people.pk).update(status=Match.FINISHED)
    spectators.joined(people.pk, "specific.finished-watcher")
    asked = []
    real_counts = spectators.counts

    def counts(ids):
        asked.append(list(ids))
        return real_counts(asked[-1])

    monkeypatch.setattr(spectators, "counts", counts)
    page = Client().get("/en/play/live/").content.decode()
    spectators.left(people.pk, "specific.finished-watcher")
    assert asked == [[vs_bot.pk]] and rows(page) == [vs_bot.pk]


def test_spectator_sockets_are_counted_and_the_most_watched_comes_first(games, clients):
    vs_bot, people, _bots_only = games
    page = Client().get("/en/play/live/").content.decode()
    assert rows(page) == [people.pk, vs_bot.pk]  # newest first while nobody watches

    async def watch():
        spectators_ = [(await open_socket(vs_bot.pk, Client()))[0] for _ in range(2)]
        player = (await open_socket(people.pk, clients[0]))[0]  # a player: never counted
        seen = await sync_to_async(Client().get)("/en/play/live/")
        for socket in [*spectators_, player]:
            await socket.receive_json_from(timeout=5)
        await spectators_[0].disconnect()
        after = await sync_to_async(Client().get)("/en/play/live/")
        await spectators_[1].disconnect()
        await player.disconnect()
        await close_thread_connections()
        return seen.content.decode(), after.content.decode()

    seen, after = asyncio.run(watch())
    assert rows(seen) == [vs_bot.pk, people.pk]
    assert watching(seen, vs_bot.pk) == 2 and watching(seen, people.pk) == 0
    assert "2 watching" in seen
    assert watching(after, vs_bot.pk) == 1
    assert spectators.counts([vs_bot.pk]) == {vs_bot.pk: 0}  # every socket closed


def test_redis_counts_expire_and_forget_a_dead_process(redis_url, settings, monkeypatch):
    """With REDIS_URL the counts are sorted sets that expire: a socket whose process died
    without closing it stops counting after STALE, and its key goes away by itself."""
    settings.REDIS_URL = redis_url
    store = spectators.store()
    assert isinstance(store, spectators.RedisCounts)
    spectators.joined(41, "specific.a")
    spectators.joined(41, "specific.b")
    spectators.joined(41, "specific.b")  # a refresh: still one member
    assert spectators.counts([41, 42]) == {41: 2, 42: 0}
    ttl = store.client.ttl(spectators.key(41))
    assert 0 < ttl <= spectators.STALE
    spectators.left(41, "specific.a")
    assert spectators.counts([41]) == {41: 1}
    later = time.time() + spectators.STALE + 1
    monkeypatch.setattr(spectators.time, "time", lambda: later)
    assert spectators.counts([41]) == {41: 0}  # never refreshed: no longer counted


def test_a_spectator_socket_is_counted_in_redis(games, redis_url, settings):
    settings.REDIS_URL = redis_url
    vs_bot = games[0]
    client = spectators.store().client

    async def watch():
        socket = (await open_socket(vs_bot.pk, Client()))[0]
        await socket.receive_json_from(timeout=5)
        members = await sync_to_async(client.zcard)(spectators.key(vs_bot.pk))
        page = await sync_to_async(Client().get)("/en/play/live/")
        await socket.disconnect()
        await close_thread_connections()
        return members, page.content.decode()

    members, page = asyncio.run(watch())
    assert members == 1 and watching(page, vs_bot.pk) == 1
    assert client.zcard(spectators.key(vs_bot.pk)) == 0  # the closed socket removed itself
