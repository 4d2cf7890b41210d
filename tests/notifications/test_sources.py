"""Each event source announces once, after its commit, and the person hears of it (issue
37): a named challenge, an open challenge and a multiplayer table (to the owner's
followers), a round published (each player's table and opponent), a result to confirm (the
opponent), a decklist deadline (the beat's sweep, once per event and person), and "your
turn" (the DAYS part sends `turn_waiting`; here a fake send, as its contract says)."""

import datetime

import pytest
from django.utils import timezone

from matches import signals as match_signals
from matches.models import Match
from matches.services import games, tables
from notifications import tasks
from notifications.kinds import (
    CHALLENGE,
    DECKLIST_DEADLINE,
    FRIEND_TABLE,
    RESULT_TO_CONFIRM,
    ROUND_PUBLISHED,
    YOUR_TURN,
)
from notifications.messages import sentence
from notifications.models import Notification
from tournaments import services as events
from tournaments import signals as event_signals

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard():
    """Every send of the five signals, as (signal name, kwargs)."""
    sent = []
    named = {
        "challenge_sent": match_signals.challenge_sent,
        "table_opened": match_signals.table_opened,
        "round_published": event_signals.round_published,
        "result_to_confirm": event_signals.result_to_confirm,
    }
    receivers = {}
    for name, signal in named.items():
        receivers[name] = lambda sender, _name=name, **kwargs: sent.append((_name, kwargs))
        signal.connect(receivers[name], weak=False)
    yield sent
    for name, signal in named.items():
        signal.disconnect(receivers[name])


def notes(user, kind):
    return list(Notification.objects.filter(user=user, kind=kind))


def test_a_named_challenge_is_sent_once_and_reaches_the_challenged(
    anna, ben, make_deck, heard, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = games.challenge(anna, make_deck(anna), opponent=ben)
    assert [name for name, _ in heard] == ["challenge_sent"]
    assert heard[0][1]["challenged"] == ben and heard[0][1]["match"] == match
    (note,) = notes(ben, CHALLENGE)
    assert (
        note.actor == anna and sentence(note.kind, note.context) == "anna challenged you to a game."
    )


def test_an_open_challenge_and_a_table_reach_the_owners_followers(
    anna, ben, carl, make_deck, heard, django_capture_on_commit_callbacks
):
    from social.services import follow

    follow(ben, anna)
    deck = make_deck(anna)
    with django_capture_on_commit_callbacks(execute=True):
        games.challenge(anna, deck)
    with django_capture_on_commit_callbacks(execute=True):
        tables.open_table(anna, deck, seats=4)
    assert [name for name, _ in heard] == ["table_opened", "table_opened"]
    texts = [sentence(n.kind, n.context) for n in reversed(notes(ben, FRIEND_TABLE))]
    assert texts == [
        "anna, whom you follow, posted an open challenge.",
        "anna, whom you follow, opened a table for 4 players.",
    ]
    assert notes(carl, FRIEND_TABLE) == []  # carl does not follow anna


def test_a_challenge_against_a_bot_announces_nothing(anna, make_deck, heard):
    games.challenge(anna, make_deck(anna), bot="heuristic")
    assert heard == []


@pytest.fixture
def running_event(anna, ben, carl, make_deck):
    event = events.create_tournament(carl, name="Őszi Kupa", date=datetime.date(2026, 12, 5))
    for seed, person in enumerate((anna, ben)):
        entry = events.register(event, person, make_deck(person, seed))
        events.check_in(entry, person)
    events.start(event, carl)
    return event


def test_a_published_round_tells_each_player_their_table_and_opponent_once(
    running_event, anna, ben, carl, heard, django_capture_on_commit_callbacks
):
    """R 18.7: the round's pairings, published; publishing again announces nothing."""
    rnd = events.pair_next_round(running_event, carl)
    with django_capture_on_commit_callbacks(execute=True):
        events.publish_round(rnd, carl)
    with django_capture_on_commit_callbacks(execute=True):
        events.publish_round(rnd, carl)
    assert [name for name, _ in heard] == ["round_published"]
    (for_anna,) = notes(anna, ROUND_PUBLISHED)
    (for_ben,) = notes(ben, ROUND_PUBLISHED)
    assert sentence(for_ben.kind, for_ben.context) == (
        "Round 1 of Őszi Kupa: table 1, against anna."
    )
    assert for_anna.context["opponent"] == "ben"
    assert for_anna.url.endswith(f"/tournaments/{running_event.pk}/rounds/1/pairings/")


def test_a_reported_result_asks_the_opponent_once(
    running_event, anna, ben, carl, heard, django_capture_on_commit_callbacks
):
    """R 18.5: one player reports, the other confirms; a corrected report is not news."""
    rnd = events.pair_next_round(running_event, carl)
    events.publish_round(rnd, carl)
    table = rnd.matches.get()
    reporter, other = table.player_a.player, table.player_b.player
    with django_capture_on_commit_callbacks(execute=True):
        events.report(table, reporter, 1, 0)
    with django_capture_on_commit_callbacks(execute=True):
        events.report(table, reporter, 0, 1)
    assert [name for name, _ in heard if name == "result_to_confirm"] == ["result_to_confirm"]
    (note,) = notes(other, RESULT_TO_CONFIRM)
    assert note.actor == reporter
    assert sentence(note.kind, note.context) == (
        f"{reporter.username} reported your result in Őszi Kupa: {reporter.username} 1, you 0."
        " Confirm it or dispute it."
    )
    assert notes(reporter, RESULT_TO_CONFIRM) == []


def test_the_decklist_deadline_warns_each_registered_player_once(
    anna, ben, carl, make_deck, django_capture_on_commit_callbacks
):
    soon = timezone.now() + datetime.timedelta(hours=20)
    later = timezone.now() + datetime.timedelta(hours=30)
    near = events.create_tournament(
        carl, name="Near", date=soon.date() + datetime.timedelta(days=1), decklist_deadline=soon
    )
    far = events.create_tournament(
        carl, name="Far", date=later.date() + datetime.timedelta(days=1), decklist_deadline=later
    )
    for event in (near, far):
        events.register(event, anna, make_deck(anna))
    events.register(near, ben, make_deck(ben, 1))
    with django_capture_on_commit_callbacks(execute=True):
        tasks.warn_decklist_deadlines()
        tasks.warn_decklist_deadlines()  # the beat comes again five minutes later
    assert [n.context["tournament"] for n in notes(anna, DECKLIST_DEADLINE)] == ["Near"]
    assert len(notes(ben, DECKLIST_DEADLINE)) == 1
    assert notes(carl, DECKLIST_DEADLINE) == []  # the organiser did not register


def test_your_turn_reaches_the_person_whose_move_it_is(
    anna, ben, make_deck, django_capture_on_commit_callbacks
):
    """The DAYS part's contract: turn_waiting(match, user, deadline) after its commit."""
    with django_capture_on_commit_callbacks(execute=True):
        match = games.challenge(anna, make_deck(anna), opponent=ben)
        games.accept(match, ben, make_deck(ben, 1))
    deadline = timezone.now() + datetime.timedelta(days=2)
    with django_capture_on_commit_callbacks(execute=True):
        match_signals.turn_waiting.send(sender=Match, match=match, user=ben, deadline=deadline)
    (note,) = notes(ben, YOUR_TURN)
    assert note.url.endswith(f"/play/{match.pk}/")
    assert sentence(note.kind, note.context).startswith(
        "Your game against anna waits for your move. You have until"
    )
    assert notes(anna, YOUR_TURN) == []
