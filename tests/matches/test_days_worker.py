"""A game over days played with time travel on PostgreSQL, Redis and real Celery workers
(issue 37's must-show): the "your turn" signal and notification once per turn, a worker killed (SIGKILL)
between a stored move and its application and a new one started (nothing lost), and past
the limit the beat's sweep ends the game on time for the turn player
(docs/rulings.md "Games over days"; a move is a turn, R 11.1).

Time travel moves the stored clock of the awaited decision back; the workers keep the real
clock. `turn_waiting` is sent in the worker, which the test process cannot hear: the worker
logs each one it sends (`turn_waiting: match …, seat …, turn …`, at INFO, matches/services/
commit.py `announce_turns`), and the test reads the workers' logs.
"""

import random
import re
import time
from datetime import timedelta

import pytest

from matches import clocks
from matches.models import ActionRequest, Match
from notifications.kinds import YOUR_TURN
from notifications.models import Notification

from .kit import assert_consistent, awaited, decide, logged_in, turns_started

pytestmark = pytest.mark.postgres

DAY = clocks.TIME_CONTROLS[clocks.DAY].bank


@pytest.fixture
def workers(transactional_db, monkeypatch, request):
    """The matches tests' worker pool, its workers logging at INFO (the turn_waiting line).
    `transactional_db` named here: asked for only inside, it would come after `db`, and the
    worker would see none of the test's rows."""
    monkeypatch.setenv("LOG_LEVEL", "INFO")
    return request.getfixturevalue("celery_worker_process")


def wait_until(predicate, timeout=60, what="the condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def version_of(match_id) -> int:
    return Match.objects.get(pk=match_id).version


def play_and_wait(clients, match_id, rng) -> dict:
    state = decide(clients, match_id, rng)
    try:
        wait_until(lambda: version_of(match_id) > state["version"], what="the worker's drain")
    except AssertionError:
        rows = list(
            ActionRequest.objects.filter(match_id=match_id).values_list(
                "seat", "action", "status", "code", "message"
            )
        )
        raise AssertionError(f"not applied: {rows} at {state['version']}") from None
    return state


def turn_waiting_sent(pool, match_id) -> list[tuple[int, int]]:
    """(turn, seat) of every turn_waiting the workers logged for the match."""
    pattern = re.compile(rf"turn_waiting: match {match_id}, seat (\d+), turn (\d+)")
    found = []
    for process in pool.processes:
        for seat, turn in pattern.findall(process.log_path.read_text()):
            found.append((int(turn), int(seat)))
    return sorted(found)


def your_turn_notices(match_id, players) -> list[tuple[int, str]]:
    """(seat, match) of every "your turn" notification the worker stored for the game (the
    notifications app's receiver of turn_waiting, in the worker process)."""
    seat_of = {player.pk: seat for seat, player in enumerate(players)}
    rows = Notification.objects.filter(kind=YOUR_TURN, context__match_id=match_id)
    return sorted(seat_of[user] for user in rows.values_list("user_id", flat=True))


def test_a_game_over_days_with_time_travel_a_worker_restart_and_a_timeout(workers, players, decks):
    clients = [logged_in(players[0]), logged_in(players[1])]
    made = clients[0].post("/api/matches/", {"deck": decks[0].pk, "opponent": "bob",
                                              "time_control": "day"}, "application/json")  # fmt: skip
    assert made.status_code == 201, made.json()
    match_id = made.json()["id"]
    accepted = clients[1].post(f"/api/matches/{match_id}/accept/", {"deck": decks[1].pk},
                               "application/json")  # fmt: skip
    assert accepted.status_code == 200
    rng = random.Random(37)

    # Two turns of play: the "your turn" signal once per turn, not per decision.
    decisions = 0
    while len(turns_started(match_id)) < 2:
        play_and_wait(clients, match_id, rng)
        decisions += 1
    turns = turns_started(match_id)
    assert wait_until(lambda: turn_waiting_sent(workers, match_id) == sorted(turns),
                      what="one turn_waiting per turn")  # fmt: skip
    assert decisions > len(turns)
    # each became the person's "your turn" notification (alice challenged: seat 0 is hers)
    assert wait_until(lambda: your_turn_notices(match_id, players) == sorted(s for _t, s in turns),
                      what="one 'your turn' notification per turn")  # fmt: skip

    # A worker killed between a stored move and its application; a new one applies it.
    workers.kill(workers.processes[0])
    state = decide(clients, match_id, rng)
    stored = ActionRequest.objects.get(match_id=match_id, client_action_id=f"d{state['version']}")
    assert stored.status == ActionRequest.PENDING and version_of(match_id) == state["version"]
    workers.start(beat=True)  # the beat's sweep also re-queues a lost drain
    wait_until(lambda: version_of(match_id) > state["version"], what="the new worker")
    stored.refresh_from_db()
    assert stored.status == ActionRequest.APPLIED
    assert_consistent(Match.objects.get(pk=match_id))

    # On to a decision of the turn player (turn 3 or later), then a day and a second pass.
    for _ in range(3000):
        state = awaited(clients, match_id)
        if state["view"]["turn"] >= 3 and state["you"] == state["view"]["active"]:
            break
        play_and_wait(clients, match_id, rng)
    else:
        raise AssertionError("no decision of the turn player")
    turns = turns_started(match_id)
    assert wait_until(lambda: turn_waiting_sent(workers, match_id) == sorted(turns),
                      what="one turn_waiting per turn, across the restart")  # fmt: skip
    loser = state["you"]
    match = Match.objects.get(pk=match_id)
    assert match.decision_deadline - match.decision_started <= timedelta(seconds=DAY)
    Match.objects.filter(pk=match_id).update(
        decision_started=match.decision_started - timedelta(seconds=DAY + 1),
        decision_deadline=match.decision_deadline - timedelta(seconds=DAY + 1),
    )
    wait_until(lambda: Match.objects.get(pk=match_id).status == Match.FINISHED, timeout=60,
               what="the sweep's timeout")  # fmt: skip
    match = Match.objects.get(pk=match_id)
    assert (match.result, match.winner_seat) == ("timeout", 1 - loser)
    assert match.seats.get(seat=loser).time_bank == 0
    assert_consistent(match)
    assert not ActionRequest.objects.filter(match_id=match_id, status="pending").exists()
    assert turn_waiting_sent(workers, match_id) == sorted(turns)  # none after the end
    assert your_turn_notices(match_id, players) == sorted(s for _t, s in turns)
