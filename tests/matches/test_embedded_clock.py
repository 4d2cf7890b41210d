"""Issue 15: every game keeps moving, in the embedded default and with Redis and workers.

- The embedded default (SQLite, eager Celery, no Redis) runs the beat's very sweep inside
  the site process (matches/embedded_clock.py): a player who stops deciding is passed and
  loses on time, within the clock's limits.
- A bot move that fails at the database (a trigger that refuses the bot's insert for a
  moment, as a locked database would) is retried by the sweep until the bot has moved, and
  the request that caused it answers 202 with the truth (applied), not a 503.
- The same two games on PostgreSQL + Redis with a real worker and beat.
"""

import random
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.db.backends.signals import connection_created

from matches import embedded_clock, services
from matches.models import ActionRequest, Match

from .kit import logged_in, read_match

BANK = LIMIT = 3  # seconds: a short casual clock (MATCHES_CASUAL_BANK / _DECISION_LIMIT)
PLAYER_BANK = 60  # the player who keeps playing: never the one to run out
BUSY_FOR = 1.5  # seconds the injected failure refuses the bot's moves


@pytest.fixture
def short_clocks(settings):
    settings.MATCHES_CASUAL_BANK = BANK
    settings.MATCHES_CASUAL_DECISION_LIMIT = LIMIT
    settings.MATCHES_CASUAL_INCREMENT = 0  # no time added per turn (issue 34's increments)


@pytest.fixture
def clock_thread(transactional_db):
    """The embedded default's in-process sweeper, as cardgame/asgi.py starts it."""
    assert embedded_clock.start(interval=0.25)
    assert not embedded_clock.start(), "a second start is refused: one per process"
    yield
    assert embedded_clock.stop(), "the sweeping thread ended before the database's flush"
    assert not embedded_clock.running()


def sweeping_threads() -> list:
    return [t for t in threading.enumerate() if t.name == "matches-embedded-clock"]


def test_a_thread_told_to_stop_mid_sweep_ends_even_when_another_starts(monkeypatch):
    """A stop that has not waited the sweep out, followed by a start, once left the old
    thread sweeping beside the new one: they shared one stop signal, which the start
    cleared before the old thread read it. A test's flush then met the leftover thread's
    locks ("database table is locked", CI of 2026-11-28)."""
    in_sweep, release = threading.Event(), threading.Event()

    def slow_tick():
        in_sweep.set()
        release.wait(5)

    monkeypatch.setattr(embedded_clock, "tick", slow_tick)
    assert embedded_clock.start(interval=0.01)
    assert in_sweep.wait(5)
    assert not embedded_clock.stop(timeout=0), "the sweep under way is not over yet"
    assert embedded_clock.start(interval=0.01), "a stopped thread does not block a start"
    assert len(sweeping_threads()) == 2
    release.set()
    deadline = time.monotonic() + 5
    while len(sweeping_threads()) > 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(sweeping_threads()) == 1, "the thread told to stop ended after its sweep"
    assert embedded_clock.stop(timeout=5)
    assert not sweeping_threads()


def play_seat_until_over(client, match_id, seat, rng, timeout=30):
    """Play `seat` with random legal moves as soon as it decides; the other seat is left to
    its bot or its clock. Returns the answers to the moves (status, request status)."""
    answers = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match = read_match(match_id)
        if match is None or match.deciding_seat != seat and not match.is_over:
            time.sleep(0.05)
            continue
        if match.is_over:
            return answers
        if match.deciding_seat != seat or not match.legal_ids:
            time.sleep(0.05)
            continue
        body = {
            "client_action_id": f"s{seat}v{match.version}",
            "expected_version": match.version,
            "action": rng.choice(match.legal_ids),
        }
        response = client.post(f"/api/matches/{match_id}/actions/", body, "application/json")
        request = response.json().get("request") or {}
        answers.append((response.status_code, request.get("status")))
        if response.status_code != 202:
            time.sleep(0.05)  # a 409/422 race with the clock: read the position again
    match = Match.objects.get(pk=match_id)
    last = list(match.requests.values_list("origin", "client_action_id", "status", "code"))
    raise AssertionError(
        f"match {match_id} did not end in {timeout} s: version {match.version}, "
        f"seat {match.deciding_seat} decides, the last requests {last[-6:]}"
    )


def assert_lost_on_time_within_the_clock(match_id, idler):
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.FINISHED and match.result == "timeout", match.result_reason
    assert match.winner_seat == 1 - idler
    banks = dict(match.seats.values_list("seat", "time_bank"))
    assert banks[idler] == 0 and banks[1 - idler] > 0
    defaults = ActionRequest.objects.filter(match=match, origin="clock")
    assert set(defaults.values_list("seat", flat=True)) <= {idler}  # never the player's
    # The idler's bank, the time the player spent, and a sweep's delay (at most a couple
    # of seconds) for each of the idler's BANK / LIMIT decisions: the clock never let it hang.
    spent = PLAYER_BANK - banks[1 - idler]
    limit = timedelta(seconds=BANK + spent + 2 * BANK / LIMIT + 2)
    assert match.finished - match.started <= limit


def human_game(players, decks, player_bank=None):
    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=21)
    if player_bank is not None:  # seat 0 plays on; only seat 1's short clock may run out
        match.seats.filter(seat=0).update(time_bank=player_bank)
    return match


def bot_game(alice, decks):
    colonies = [services.deck_colony(d, "original") for d in decks]
    return services.create_match(
        players=(alice, None), colonies=colonies, bots=(None, "random"), seed=22,
        starting_player=0, engine_options={"turn_limit": 4},
    )  # fmt: skip


# --- the failure injected at the database ---------------------------------------------------


class BusyForBots:
    """A trigger refusing the inserts of one origin's moves for a while; counts the refusals."""

    def __init__(self, origin="bot", seconds=BUSY_FOR):
        self.origin = origin
        self.seconds = seconds
        self.until = 0.0
        self.sqlite_refusals = 0

    def sqlite_busy(self):
        if time.time() < self.until:
            self.sqlite_refusals += 1
            raise RuntimeError("injected: database is locked")
        return 0

    def register(self, sender=None, connection=None, **_kwargs):
        if connection.vendor == "sqlite":
            connection.connection.create_function("kgk_busy", 0, self.sqlite_busy)

    def prepare(self):
        """SQLite: the function on every connection, before other threads open theirs."""
        if connection.vendor == "sqlite":
            connection.ensure_connection()
            self.register(connection=connection)
            connection_created.connect(self.register)

    def install(self):
        self.until = time.time() + self.seconds
        if connection.vendor == "sqlite":
            sql = ["CREATE TRIGGER kgk_busy_bot BEFORE INSERT ON matches_actionrequest "
                   f"WHEN NEW.origin = '{self.origin}' BEGIN SELECT kgk_busy(); END"]  # fmt: skip
        else:
            until = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(self.until))
            until += f".{int(self.until % 1 * 1e6):06d}+00:00"
            sql = [
                "CREATE SEQUENCE kgk_busy_refusals",
                "CREATE FUNCTION kgk_busy_bot() RETURNS trigger AS $$ BEGIN "
                f"IF NEW.origin = '{self.origin}' AND clock_timestamp() < '{until}'::timestamptz THEN "
                "PERFORM nextval('kgk_busy_refusals'); "  # a sequence survives the rollback
                "RAISE EXCEPTION 'injected: database is busy' USING ERRCODE = '55P03'; "
                "END IF; RETURN NEW; END $$ LANGUAGE plpgsql",
                "CREATE TRIGGER kgk_busy_bot BEFORE INSERT ON matches_actionrequest "
                "FOR EACH ROW EXECUTE FUNCTION kgk_busy_bot()",
            ]
        with connection.cursor() as cursor:
            for statement in sql:
                cursor.execute(statement)

    def refusals(self) -> int:
        if connection.vendor == "sqlite":
            return self.sqlite_refusals
        with connection.cursor() as cursor:
            cursor.execute("SELECT last_value, is_called FROM kgk_busy_refusals")
            value, called = cursor.fetchone()
        return value if called else 0

    def remove(self):
        connection_created.disconnect(self.register)
        with connection.cursor() as cursor:
            cursor.execute("DROP TRIGGER IF EXISTS kgk_busy_bot" + (
                "" if connection.vendor == "sqlite" else " ON matches_actionrequest"))  # fmt: skip
            if connection.vendor == "postgresql":
                cursor.execute("DROP FUNCTION IF EXISTS kgk_busy_bot()")
                cursor.execute("DROP SEQUENCE IF EXISTS kgk_busy_refusals")


@pytest.fixture
def busy_for_bots(transactional_db):
    busy = BusyForBots()
    busy.prepare()
    yield busy
    busy.remove()


# --- the embedded default ----------------------------------------------------------------------


def test_a_player_who_stops_deciding_loses_on_time_in_the_embedded_default(
    short_clocks, clock_thread, players, decks
):
    match = human_game(players, decks, PLAYER_BANK)
    idler = 1
    play_seat_until_over(logged_in(players[0]), match.pk, 0, random.Random(1))
    assert_lost_on_time_within_the_clock(match.pk, idler)


def test_a_bot_move_refused_by_the_database_is_retried_in_the_embedded_default(
    busy_for_bots, clock_thread, players, decks
):
    match = bot_game(players[0], decks)
    busy_for_bots.install()
    answers = play_seat_until_over(logged_in(players[0]), match.pk, 0, random.Random(2))
    assert busy_for_bots.refusals() >= 1, "the bot's move did fail at the database"
    assert answers[0] == (202, "applied"), "the move was made: the answer says so"
    match.refresh_from_db()
    assert match.status == Match.FINISHED
    assert ActionRequest.objects.filter(match=match, seat=1, status="applied").exists()


# --- PostgreSQL + Redis, a real worker and beat -------------------------------------------------


@pytest.mark.postgres
def test_a_player_who_stops_deciding_loses_on_time_with_worker_and_beat(
    short_clocks, celery_worker_process, players, decks
):
    celery_worker_process.start(beat=True)
    match = human_game(players, decks, PLAYER_BANK)
    play_seat_until_over(logged_in(players[0]), match.pk, 0, random.Random(1))
    assert_lost_on_time_within_the_clock(match.pk, 1)


@pytest.mark.postgres
def test_a_bot_move_refused_by_the_database_is_retried_with_worker_and_beat(
    celery_worker_process, busy_for_bots, players, decks
):
    celery_worker_process.start(beat=True)
    match = bot_game(players[0], decks)
    busy_for_bots.install()
    answers = play_seat_until_over(logged_in(players[0]), match.pk, 0, random.Random(2))
    assert busy_for_bots.refusals() >= 1, "the bot's move did fail at the database"
    assert all(status == 202 for status, _ in answers[:1])
    match.refresh_from_db()
    assert match.status == Match.FINISHED
    assert ActionRequest.objects.filter(match=match, seat=1, status="applied").exists()


def test_an_action_the_busy_database_did_not_record_is_a_503_that_says_so(players, decks):
    """docs/matches-api.md: a 503 answer says what became of the action (never a move made)."""
    match = human_game(players, decks)
    match.refresh_from_db()
    busy = BusyForBots(origin="client", seconds=60)  # removed below, whatever the time
    busy.prepare()
    busy.install()
    try:
        client = logged_in(players[match.deciding_seat])
        body = {"client_action_id": "c1", "expected_version": match.version,
                "action": match.legal_ids[0]}  # fmt: skip
        response = client.post(f"/api/matches/{match.pk}/actions/", body, "application/json")
    finally:
        busy.remove()
    assert response.status_code == 503 and response["Retry-After"] == "2"
    answer = response.json()
    assert answer["code"] == "UNAVAILABLE" and answer["outcome"] == "not_stored"
    assert answer["request"] is None and answer["detail"]
    assert not ActionRequest.objects.filter(match=match).exists()
