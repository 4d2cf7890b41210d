"""Quick play's services on the database (SQLite here, PostgreSQL with DATABASE_URL): who is
matched with whom, the game that is made, the bot after the wait, leaving and expiry."""

from datetime import timedelta

import pytest
from django.utils import timezone

from matches.errors import MatchError
from matches.models import Match
from quickplay import services
from quickplay.errors import QueueError
from quickplay.models import QueueEntry
from social.models import Block

from .conftest import join

pytestmark = pytest.mark.django_db


def players_of(match: Match) -> list:
    return [s.user_id for s in match.seats.order_by("seat")]


def test_two_people_waiting_are_matched_at_once_into_one_game(person):
    ann, ben = person("ann"), person("ben")
    first = join(ann)
    assert first.waiting
    second = join(ben)
    first.refresh_from_db()
    assert second.status == first.status == QueueEntry.MATCHED
    assert second.match_id == first.match_id
    match = second.match
    assert players_of(match) == [ann.pk, ben.pk]  # the one who waited longer sits first
    assert match.status == Match.ACTIVE and match.time_control == "standard"
    assert match.casual and not match.rated
    assert [s.deck_id for s in match.seats.order_by("seat")] == [ann.deck.pk, ben.deck.pk]


def test_queues_stay_apart_by_ruleset_clock_and_rated(person):
    """A queue is a ruleset, a time control and rated or not: nobody crosses over."""
    people = [person(n, opted=True) for n in ("ann", "ben", "cid", "dot")]
    join(people[0], ruleset="original")
    join(people[1], ruleset="free")
    join(people[2], time_control="quick")
    join(people[3], rated=True)
    assert QueueEntry.objects.filter(status=QueueEntry.WAITING).count() == 4
    assert not Match.objects.exists()
    eve = person("eve", opted=True)
    entry = join(eve, rated=True)
    assert entry.status == QueueEntry.MATCHED
    assert set(players_of(entry.match)) == {people[3].pk, eve.pk}
    assert entry.match.rated  # Match.rated for the rated queue


def test_the_rated_queue_is_for_people_who_opted_in(person):
    ann = person("ann")
    with pytest.raises(QueueError) as refused:
        join(ann, rated=True)
    assert refused.value.status == 403 and refused.value.code == "NOT_OPTED_IN"
    assert not QueueEntry.objects.exists()


def test_blocked_people_are_never_matched_either_way(person):
    ann, ben, cid = person("ann"), person("ben"), person("cid")
    Block.objects.create(blocker=ben, blocked=ann)  # ben blocks ann: ann must not meet ben
    join(ann)
    assert join(ben).waiting  # ann waits, but ben blocked her
    entry = join(cid)
    assert entry.status == QueueEntry.MATCHED
    assert players_of(entry.match) == [ann.pk, cid.pk]  # the longest wait first, not ben
    assert QueueEntry.objects.get(user=ben, status=QueueEntry.WAITING)


def test_queueing_twice_is_refused_with_a_sentence(person):
    ann = person("ann")
    join(ann)
    with pytest.raises(QueueError) as refused:
        join(ann, time_control="quick")
    assert refused.value.status == 409 and refused.value.code == "ALREADY_QUEUED"
    assert "already waiting" in refused.value.detail
    assert QueueEntry.objects.filter(user=ann).count() == 1


def test_by_rating_when_there_are_enough_of_them(person, settings):
    """With enough people waiting (QUICKPLAY_POOL others; 1 here, so the window always
    applies) the partner is the closest skill inside the window; a far one waits until the
    window has widened, and a heartbeat tries again."""
    settings.QUICKPLAY_POOL = 1
    near, far = person("near", number=1520), person("far", number=1900)
    join(far)
    assert join(near).waiting  # 380 apart, window 100
    mid = person("mid", number=1500)
    entry = join(mid)  # near is 20 away, far 400
    assert set(players_of(entry.match)) == {near.pk, mid.pk}
    low = person("low", number=1150)
    assert join(low).waiting  # far is 750 away
    # far has waited 70 s: the window is 100 + 10 x 70 = 800 points
    QueueEntry.objects.filter(user=far).update(joined=timezone.now() - timedelta(seconds=70))
    matched = services.heartbeat(low)
    assert matched.status == QueueEntry.MATCHED
    assert set(players_of(matched.match)) == {low.pk, far.pk}


def test_a_bot_of_matched_strength_after_the_wait_never_rated(person, settings):
    ann = person("ann", number=1550, opted=True)  # a cruiser: the normal thinking bot
    entry = join(ann, rated=True, bot_after_wait=True)
    assert services.heartbeat(ann).waiting  # before the wait limit: still waiting
    QueueEntry.objects.filter(pk=entry.pk).update(
        joined=timezone.now() - timedelta(seconds=settings.QUICKPLAY_WAIT_LIMIT + 1)
    )
    done = services.heartbeat(ann)
    assert done.status == QueueEntry.BOT
    seats = list(done.match.seats.order_by("seat"))
    assert seats[0].user_id == ann.pk and seats[1].bot == "search-normal"
    assert not done.match.rated and done.match.time_control == "untimed"


def test_the_bot_is_asked_for_only_after_the_wait(person, settings):
    ann = person("ann")  # never rated: 1100, a scout: the heuristic bot
    entry = join(ann)
    with pytest.raises(QueueError) as refused:
        services.take_bot(ann)
    assert refused.value.code == "NO_BOT_YET" and "60 seconds" in refused.value.detail
    QueueEntry.objects.filter(pk=entry.pk).update(joined=timezone.now() - timedelta(seconds=61))
    done = services.take_bot(ann)
    assert done.status == QueueEntry.BOT
    assert [s.bot for s in done.match.seats.order_by("seat")] == ["", "heuristic"]
    with pytest.raises(QueueError) as again:
        services.take_bot(ann)
    assert again.value.code == "NOT_QUEUED"


def test_a_silent_page_expires_and_its_ghost_is_never_matched(person, settings):
    """A crashed browser sends no close: past the TTL without a heartbeat its entry is not
    matched (even before the sweep), and the sweep removes it."""
    ann, ben = person("ann"), person("ben")
    ghost = join(ann)
    QueueEntry.objects.filter(pk=ghost.pk).update(
        seen=timezone.now() - timedelta(seconds=settings.QUICKPLAY_TTL + 1)
    )
    assert join(ben).waiting  # ann's ghost is not a partner
    assert services.sweep() == 1  # ben still waiting and tried again
    ghost.refresh_from_db()
    assert ghost.status == QueueEntry.EXPIRED
    assert not Match.objects.exists()


def test_leaving_takes_the_person_out_and_they_may_join_again(person):
    ann, ben = person("ann"), person("ben")
    join(ann)
    assert services.leave(ann) == 1
    assert services.leave(ann) == 0
    assert join(ben).waiting
    assert join(ann).status == QueueEntry.MATCHED


def test_an_illegal_deck_gets_its_problems_as_the_sentence(person, django_user_model):
    """R 9: a deck not legal for the ruleset cannot join; its problems say why."""
    from decks.services import save_deck

    ann = person("ann")
    ann.deck = save_deck(ann, name="short", cards=[(ann.deck.entries.first().card.code, 3)])
    with pytest.raises(MatchError) as refused:
        join(ann)
    assert refused.value.status == 422 and refused.value.code == "DECK_NOT_LEGAL"
    assert "45" in refused.value.detail  # R 9.1: the colony's size
    assert not QueueEntry.objects.exists()
