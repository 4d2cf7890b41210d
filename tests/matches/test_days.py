"""Games over days (issue 37), in the embedded default (SQLite, eager tasks, no worker): the
time controls of hours and days a move, the clock reset when a turn starts, `turn_waiting`
once per turn of a person, the end on time, and the lobby's "Your move".

Time travel: the stored clock of the awaited decision (`decision_started`,
`decision_deadline`) is moved back, as if the time had passed; the sweep then runs as the
site runs it. The rules are docs/rulings.md "Games over days" (a move is a turn, R 11.1).
The same game with a real worker on PostgreSQL and Redis: test_days_worker.py.
"""

import json
import random
import re
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from matches import clocks, services
from matches.clocks_sweep import sweep
from matches.models import ActionRequest, Match
from matches.signals import turn_waiting

from .kit import awaited, decide, logged_in, post, turns_started

pytestmark = pytest.mark.django_db

DAY = clocks.TIME_CONTROLS[clocks.DAY].bank


@pytest.fixture
def waited():
    """Every turn_waiting sent in this process: (match id, user id, deadline)."""
    sent = []

    def receiver(sender, match, user, deadline, **kwargs):
        sent.append((match.pk, user.pk, deadline))

    turn_waiting.connect(receiver, dispatch_uid="test_days")
    yield sent
    turn_waiting.disconnect(dispatch_uid="test_days")


def days_game(clients, decks, capture, name=clocks.DAY) -> Match:
    """Alice challenges Bob to a game over days through the API; Bob accepts."""
    alice, bob = clients
    made = post(alice, "/api/matches/", {"deck": decks[0].pk, "opponent": "bob",
                                         "time_control": name}, capture)  # fmt: skip
    assert made.status_code == 201, made.json()
    match_id = made.json()["id"]
    accepted = post(bob, f"/api/matches/{match_id}/accept/", {"deck": decks[1].pk}, capture)
    assert accepted.status_code == 200, accepted.json()
    return Match.objects.get(pk=match_id)


def travel(match_id, seconds) -> None:
    """`seconds` pass: the awaited decision's clock is moved back by that much."""
    match = Match.objects.get(pk=match_id)
    Match.objects.filter(pk=match_id).update(
        decision_started=match.decision_started - timedelta(seconds=seconds),
        decision_deadline=match.decision_deadline - timedelta(seconds=seconds),
    )


def sweep_now(capture) -> dict:
    with capture(execute=True):
        return sweep()


# --- the time controls ------------------------------------------------------------------------


def test_the_lobby_offers_hours_and_days_a_move_in_both_languages(clients):
    english = clients[0].get("/en/play/").content.decode()
    for text in ("12 hours a move", "1 day a move", "3 days a move"):
        assert f">{text}</option>" in english
    hungarian = clients[0].get("/hu/play/").content.decode()
    for text in ("12 óra lépésenként", "1 nap lépésenként", "3 nap lépésenként"):
        assert f">{text}</option>" in hungarian
    assert "a move" not in hungarian


def test_time_left_in_words():
    now = timezone.now()
    assert clocks.time_left(now + timedelta(days=2, hours=3, minutes=30), now) == (
        "2 days 3 hours left"
    )
    assert clocks.time_left(now + timedelta(hours=5, minutes=20, seconds=9), now) == (
        "5 hours 20 min left"
    )
    assert clocks.time_left(now + timedelta(days=1, minutes=5), now) == "1 day left"
    assert clocks.time_left(now + timedelta(seconds=20), now) == "under a minute left"
    assert clocks.time_left(None, now) == "no time limit"


# --- a move is a turn: the clock, the signal ---------------------------------------------------


def test_each_turn_resets_both_clocks_and_turn_waiting_comes_once_per_turn(
    players, decks, clients, waited, django_capture_on_commit_callbacks
):
    """R 11.1 (a turn) and docs/rulings.md "Games over days": when a turn starts both banks
    are the limit again; turn_waiting goes to the turn player once per turn, after the
    commit, whatever the number of decisions in it."""
    capture = django_capture_on_commit_callbacks
    match = days_game(clients, decks, capture)
    assert match.time_control == clocks.DAY and match.decision_limit == DAY
    assert waited == []  # setup (the mulligans) is not a turn
    rng, decisions = random.Random(37), 0
    while len(turns_started(match.pk)) < 4:
        decide(clients, match.pk, rng, capture)
        decisions += 1
        match.refresh_from_db()
        assert match.status == Match.ACTIVE
    turns = turns_started(match.pk)
    assert [w[0] for w in waited] == [match.pk] * len(turns)
    assert [w[1] for w in waited] == [players[seat].pk for _turn, seat in turns]
    assert decisions > len(turns)  # not once per decision
    # the last turn started: both banks were set to a day, minus seconds of real time
    banks = dict(match.seats.values_list("seat", "time_bank"))
    assert all(DAY - 60 < bank <= DAY for bank in banks.values())
    assert match.decision_deadline - match.decision_started <= timedelta(seconds=DAY)
    assert match.decision_deadline - timezone.now() > timedelta(hours=23)
    deadline = waited[-1][2]
    assert timedelta(hours=23) < deadline - timezone.now() <= timedelta(days=1)


def test_turn_waiting_never_for_a_bots_turn(
    players, decks, waited, django_capture_on_commit_callbacks
):
    """A game over days against a bot: the person is told of each of their turns, the bot's
    turns send nothing."""
    capture = django_capture_on_commit_callbacks
    alice = players[0]
    colony = services.deck_colony(decks[0], "original")
    with capture(execute=True):
        match = services.create_match(
            players=(alice, None), colonies=[colony, colony], bots=(None, "random"), seed=8,
            time_control=clocks.HALF_DAY,
        )  # fmt: skip
    client, rng = logged_in(alice), random.Random(2)
    while len(turns_started(match.pk)) < 4:
        decide([client], match.pk, rng, capture)
        match.refresh_from_db()
    alice_turns = [t for t, seat in turns_started(match.pk) if seat == 0]
    assert len(alice_turns) >= 2 and len(waited) == len(alice_turns)
    assert {w[1] for w in waited} == {alice.pk}


# --- past the limit ------------------------------------------------------------------------


def test_an_answer_past_the_limit_is_made_for_its_player_and_the_game_goes_on(
    players, decks, clients, django_capture_on_commit_callbacks
):
    """docs/rulings.md "Games over days": a setup decision (R 10) and an answer inside the
    other player's turn (R 12.2) that run out get the default move; nobody loses."""
    capture = django_capture_on_commit_callbacks
    match = days_game(clients, decks, capture)
    assert awaited(clients, match.pk)["view"]["turn"] == 0  # a mulligan decision
    travel(match.pk, DAY + 1)
    assert sweep_now(capture)["timeouts"] == [match.pk]
    made = ActionRequest.objects.get(match=match, origin=ActionRequest.CLOCK)
    assert made.action == "keep" and made.status == ActionRequest.APPLIED
    rng = random.Random(5)
    for _ in range(3000):  # to an answer of the player whose turn it is not
        state = awaited(clients, match.pk)
        if state["view"]["turn"] >= 1 and state["you"] != state["view"]["active"]:
            break
        decide(clients, match.pk, rng, capture)
    else:
        raise AssertionError("no answer inside the other player's turn")
    version = state["version"]
    travel(match.pk, DAY + 1)
    assert sweep_now(capture)["timeouts"] == [match.pk]
    match.refresh_from_db()
    assert match.status == Match.ACTIVE and match.version > version
    answer = ActionRequest.objects.get(match=match, origin=ActionRequest.CLOCK,
                                       expected_version=version)  # fmt: skip
    assert answer.seat == state["you"] and answer.status == ActionRequest.APPLIED


def test_the_turn_player_past_the_limit_loses_on_time(
    players, decks, clients, waited, django_capture_on_commit_callbacks
):
    """docs/rulings.md "Games over days" (a casual game; R 15 names no loss on time): the
    player whose turn it is lets the day run out and loses; the sweep finds the game as it
    finds any other (its deadline); no turn_waiting after the end."""
    capture = django_capture_on_commit_callbacks
    match = days_game(clients, decks, capture, name=clocks.THREE_DAYS)
    rng = random.Random(11)
    for _ in range(3000):
        state = awaited(clients, match.pk)
        if state["view"]["turn"] >= 2 and state["you"] == state["view"]["active"]:
            break
        decide(clients, match.pk, rng, capture)
    loser = state["you"]
    travel(match.pk, 3 * DAY - 60)  # a minute before the end: nothing happens yet
    assert sweep_now(capture)["timeouts"] == []
    sent = len(waited)
    travel(match.pk, 61)
    assert sweep_now(capture)["timeouts"] == [match.pk]
    match.refresh_from_db()
    assert (match.status, match.result, match.winner_seat) == ("finished", "timeout", 1 - loser)
    assert match.seats.get(seat=loser).time_bank == 0
    assert len(waited) == sent
    assert not ActionRequest.objects.filter(match=match, status="pending").exists()


# --- the lobby: "Your move" --------------------------------------------------------------------


def test_your_move_lists_the_games_awaiting_you_with_the_time_left_in_words(
    players, decks, clients, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    match = days_game(clients, decks, capture, name=clocks.THREE_DAYS)
    mine = awaited(clients, match.pk)["you"]
    Match.objects.filter(pk=match.pk).update(
        decision_deadline=timezone.now() + timedelta(days=2, hours=3, minutes=30)
    )
    english = clients[mine].get("/en/play/").content.decode()
    section = english.split('id="your-move"', 1)[1].split("</section>", 1)[0]
    assert "Your move" in english and f'href="/en/play/{match.pk}/"' in section
    assert "2 days 3 hours left" in section and "3 days a move" in section
    assert english.index('id="your-move"') < english.index('id="new-title"')  # first
    hungarian = clients[mine].get("/hu/play/").content.decode()
    section = hungarian.split('id="your-move"', 1)[1].split("</section>", 1)[0]
    assert "Te lépsz" in hungarian and "még 2 nap 3 óra" in section
    assert " left<" not in section and "a move" not in section
    other = clients[1 - mine].get("/en/play/").content.decode()
    assert 'id="your-move"' not in other  # not theirs to move


def test_the_game_page_has_the_words_for_a_days_long_clock(
    players, decks, clients, django_capture_on_commit_callbacks
):
    """The page's script writes a clock of a day as "1 d 0 h" (static/matches/board/words.js),
    with these words from the server, never "1440:00" or a count of seconds."""
    match = days_game(clients, decks, django_capture_on_commit_callbacks)
    english = clients[0].get(f"/en/play/{match.pk}/").content.decode()
    assert "Time control: 1 day a move" in english
    assert page_strings(english)["ui"]["clock_days"] == "%(d)s d %(h)s h"
    hungarian = clients[0].get(f"/hu/play/{match.pk}/").content.decode()
    assert "1 nap lépésenként" in hungarian
    assert page_strings(hungarian)["ui"]["clock_days"] == "%(d)s nap %(h)s óra"
    assert page_strings(hungarian)["ui"]["clock_hours"] == "%(h)s óra %(m)s perc"


def page_strings(page: str) -> dict:
    """The words the game page gives its script (the `strings` JSON script)."""
    found = re.search(r'<script id="strings" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(found.group(1))


def test_a_player_who_comes_back_hours_later_reads_the_time_really_left(
    players, decks, clients, django_capture_on_commit_callbacks
):
    """Nothing assumes the player stayed: 19 hours after the decision began, the state read
    anew says when the decision started (the page counts the stored bank down from there),
    the same deadline, and the legal actions to go on with."""
    match = days_game(clients, decks, django_capture_on_commit_callbacks)
    before = awaited(clients, match.pk)
    seat = before["you"]
    assert before["clocks"]["bank"][seat] == pytest.approx(DAY, abs=60)
    travel(match.pk, 19 * 3600)
    after = awaited(clients, match.pk)
    assert after["you"] == seat and after["legal_actions"] == before["legal_actions"]
    # the bank as stored when the decision started (a push and a GET give the same state)
    assert after["clocks"]["bank"] == before["clocks"]["bank"]
    started = datetime.fromisoformat(after["clocks"]["decision_started"])
    assert (timezone.now() - started).total_seconds() == pytest.approx(19 * 3600, abs=60)
    deadline = Match.objects.get(pk=match.pk).decision_deadline
    assert after["clocks"]["decision_deadline"] == deadline.isoformat()
