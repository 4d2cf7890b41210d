"""Friends and blocks (issue 37): the models' pairs, the selectors other apps import, the
buttons' views (CSRF, idempotent, a 4xx sentence for bad input), the friends page, and who
is online (social/presence.py: the cache, at most one write a minute per person)."""

import time

import pytest
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from social import presence, selectors, services
from social.models import Block, Follow

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(n, password=f"pw-{n}-1") for n in "abcd"]


@pytest.fixture(autouse=True)
def fresh_presence():
    cache.clear()
    presence.forget_local_notes()
    yield
    presence.forget_local_notes()


def logged_in(user, csrf=False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def test_a_pair_is_stored_once_and_nobody_follows_or_blocks_themselves(people):
    a, b = people[:2]
    Follow.objects.create(follower=a, followed=b)
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(follower=a, followed=b)
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(follower=a, followed=a)
    with pytest.raises(IntegrityError), transaction.atomic():
        Block.objects.create(blocker=b, blocked=b)
    Follow.objects.create(follower=b, followed=a)  # the other direction is another pair
    assert Follow.objects.count() == 2


def test_selectors_answer_for_either_direction(people):
    a, b, c, d = people
    services.follow(a, b)
    services.follow(c, b)
    services.follow(a, c)
    services.block(d, a)
    assert selectors.following_ids(a.pk) == {b.pk, c.pk}
    assert sorted(selectors.followers_of(b.pk)) == sorted([a.pk, c.pk])
    assert selectors.blocked_between(a.pk, d.pk) and selectors.blocked_between(d.pk, a.pk)
    assert not selectors.blocked_between(a.pk, b.pk)
    assert selectors.blocked_ids(a.pk) == {d.pk} == selectors.blocked_ids(a.pk)
    assert selectors.blocked_ids(d.pk) == {a.pk}
    assert selectors.blocked_ids(b.pk) == set()


def test_services_are_idempotent_and_a_block_ends_both_follows(people):
    a, b = people[:2]
    for _ in range(2):
        services.follow(a, b)
        services.follow(b, a)
    assert Follow.objects.count() == 2
    services.block(a, b)
    services.block(a, b)
    assert Block.objects.count() == 1 and Follow.objects.count() == 0
    with pytest.raises(services.Refused) as refused:
        services.follow(b, a)  # the blocked one cannot follow back either
    assert refused.value.status == 409
    services.unblock(a, b)
    services.unblock(a, b)
    assert Block.objects.count() == 0
    with pytest.raises(services.Refused):
        services.follow(a, a)


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_buttons_follow_and_block_and_come_back(people, lang):
    a, b = people[:2]
    client = logged_in(a)
    back = f"/{lang}/players/{b.username}/"
    response = client.post(f"/{lang}/friends/follow/", {"user": b.username, "next": back})
    assert response.status_code == 302 and response["Location"] == back
    assert selectors.following_ids(a.pk) == {b.pk}
    again = client.post(f"/{lang}/friends/follow/", {"user": b.username})
    assert again.status_code == 302 and again["Location"] == back  # no next: their page
    assert Follow.objects.count() == 1
    client.post(f"/{lang}/friends/block/", {"user": b.username, "next": "https://evil.test/"})
    assert selectors.blocked_between(a.pk, b.pk) and not selectors.following_ids(a.pk)
    client.post(f"/{lang}/friends/unblock/", {"user": b.username})
    assert not selectors.blocked_between(a.pk, b.pk)


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", ("no player named", "yourself", "names no player")),
     ("hu", ("nincs", "saját magad", "nem nevez meg"))],
)  # fmt: skip
def test_bad_input_is_a_4xx_with_a_sentence(people, lang, words):
    a = people[0]
    client = logged_in(a)
    unknown = client.post(f"/{lang}/friends/follow/", {"user": "nobody-here"})
    assert unknown.status_code == 404 and words[0] in unknown.content.decode().lower()
    own = client.post(f"/{lang}/friends/block/", {"user": a.username})
    assert own.status_code == 400 and words[1] in own.content.decode().lower()
    empty = client.post(f"/{lang}/friends/unfollow/", {})
    assert empty.status_code == 400 and words[2] in empty.content.decode().lower()
    assert client.get(f"/{lang}/friends/follow/").status_code == 405
    assert Client().post(f"/{lang}/friends/follow/", {"user": "b"}).status_code == 403
    assert not Follow.objects.exists() and not Block.objects.exists()


def test_the_buttons_need_the_csrf_token(people):
    a, b = people[:2]
    client = logged_in(a, csrf=True)
    assert client.post("/en/friends/follow/", {"user": b.username}).status_code == 403
    page = client.get(f"/en/players/{b.username}/").content.decode()
    token = client.cookies["csrftoken"].value
    assert 'name="csrfmiddlewaretoken"' in page and 'id="follow-button"' in page
    done = client.post("/en/friends/follow/", {"user": b.username, "csrfmiddlewaretoken": token})
    assert done.status_code == 302 and selectors.following_ids(a.pk) == {b.pk}


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_player_page_shows_the_buttons_for_what_you_may_do(people, lang):
    a, b = people[:2]
    client = logged_in(a)
    page = client.get(f"/{lang}/players/{b.username}/").content.decode()
    assert 'id="follow-button"' in page and 'id="block-button"' in page
    assert f"/{lang}/play/?opponent=b#new-game" in page  # "Challenge": the lobby, filled in
    services.follow(a, b)
    page = client.get(f"/{lang}/players/{b.username}/").content.decode()
    assert 'id="unfollow-button"' in page and 'id="follow-button"' not in page
    services.block(b, a)  # blocked by them: no challenge, no follow
    page = client.get(f"/{lang}/players/{b.username}/").content.decode()
    assert 'id="challenge-player"' not in page and 'id="follow-button"' not in page
    assert 'id="block-button"' in page and 'id="blocked-note"' in page
    own = client.get(f"/{lang}/players/{a.username}/").content.decode()
    assert 'id="my-friends"' in own and 'id="block-button"' not in own
    anonymous = Client().get(f"/{lang}/players/{b.username}/").content.decode()
    assert 'id="player-presence"' in anonymous and 'id="block-button"' not in anonymous


def test_the_player_pages_buttons_ask_about_blocks_once(people):
    """Either direction of a block, in one query (social.selectors.block_directions)."""
    a, b, c = people[:3]
    services.block(c, a)  # another pair's block changes nothing on b's page
    client = logged_in(a)
    client.get(f"/en/players/{b.username}/")
    for block in (None, (a, b), (b, a)):
        if block:
            Block.objects.all().delete()
            services.block(*block)
        with CaptureQueriesContext(connection) as seen:
            page = client.get(f"/en/players/{b.username}/").content.decode()
        reads = [q["sql"] for q in seen.captured_queries if '"social_block"' in q["sql"]]
        assert len(reads) == 1, reads
        assert ('id="unblock-button"' in page) == (block == (a, b))
        assert ('id="challenge-player"' in page) == (block is None)
    assert selectors.block_directions(a.pk, b.pk) == (False, True)
    assert selectors.block_directions(b.pk, a.pk) == (True, False)
    assert selectors.block_directions(b.pk, c.pk) == (False, False)


def test_the_lobby_takes_the_opponent_from_the_challenge_link(people):
    page = logged_in(people[0]).get("/en/play/?opponent=b").content.decode()
    assert 'id="opponent" name="opponent" autocomplete="off" value="b"' in page


@pytest.mark.parametrize(
    ("lang", "online", "offline"), [("en", "online", "offline"), ("hu", "elérhető", "nem elérhető")]
)
def test_the_friends_page_lists_online_friends_first(people, lang, online, offline):
    a, b, c, d = people
    services.follow(a, b)
    services.follow(a, c)
    services.follow(d, a)
    services.block(a, d)  # also ends d's follow
    services.follow(b, a)
    presence.record_seen(c)
    page = logged_in(a).get(f"/{lang}/friends/").content.decode()
    following = page[page.index('id="following"') : page.index('id="followers"')]
    assert following.index('data-user="c"') < following.index('data-user="b"')
    assert f"</span>{online}</span>" in following and f"</span>{offline}</span>" in following
    followers = page[page.index('id="followers"') : page.index('id="blocking"')]
    assert 'data-user="b"' in followers and 'data-user="d"' not in followers
    blocking = page[page.index('id="blocking"') :]
    assert 'data-user="d"' in blocking and "/friends/unblock/" in blocking
    assert Client().get(f"/{lang}/friends/").status_code == 302  # log in first


def test_presence_writes_the_cache_at_most_once_a_minute(people, monkeypatch):
    a, b = people[:2]
    writes = []
    real_set = cache.set
    monkeypatch.setattr(
        cache, "set", lambda *args, **kw: writes.append(args) or real_set(*args, **kw)
    )
    assert selectors.online_ids([a.pk, b.pk]) == set()
    for _ in range(5):
        presence.record_seen(a)
    assert len(writes) == 1 and selectors.online_ids([a.pk, b.pk]) == {a.pk}
    clock = [time.monotonic() + presence.RECORD_EVERY + 1]
    monkeypatch.setattr(presence.time, "monotonic", lambda: clock[0])
    presence.record_seen(a)
    assert len(writes) == 2  # a minute later: refreshed, so the key does not expire
    assert writes[-1][2] == presence.ONLINE_WINDOW  # the key expires by itself


def test_a_person_seen_long_ago_is_offline(people, monkeypatch):
    a = people[0]
    presence.record_seen(a)
    later = time.time() + presence.ONLINE_WINDOW + 1
    monkeypatch.setattr(presence.time, "time", lambda: later)
    assert selectors.online_ids([a.pk]) == set()


def test_pages_people_keep_open_note_them_online(people):
    a, b = people[:2]
    logged_in(a).get("/en/play/")
    logged_in(b).get("/en/friends/")
    assert selectors.online_ids([a.pk, b.pk]) == {a.pk, b.pk}
    assert presence.seen_ids([]) == set()
