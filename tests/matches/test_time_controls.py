"""Clocks that fit people (issue 34): named time controls, with time travel.

The clock is moved by hand (`timezone.now` patched: every part of the site reads the time
from it, the sweep `check_clocks` runs, the services, the rows' auto_now), so a game of
300 decisions at 10 s each is played in seconds. matches/clocks.py holds the table.
"""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from matches import clocks, services
from matches.clocks_sweep import sweep
from matches.models import ActionRequest, Match, MatchEvent

from .kit import logged_in, post

pytestmark = pytest.mark.django_db


class Clock:
    """The site's time, moved by the test."""

    def __init__(self):
        self.now = timezone.now()

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch):
    fake = Clock()
    monkeypatch.setattr(timezone, "now", fake)
    return fake


def _move(match, user, action, capture):
    with capture(execute=True):
        services.submit_action(
            match, user, client_action_id=f"t{match.version}", expected_version=match.version,
            action=action,
        )  # fmt: skip


def _sweep(capture):
    with capture(execute=True):
        return sweep()


def _pick(legal, rng):
    """A move a person might make: anything but giving the game away at once."""
    keep = [a for a in legal if not a.startswith("concede")]
    return rng.choice(keep or legal)


# --- against a bot: untimed ----------------------------------------------------------------


def test_a_person_at_10_s_a_decision_never_loses_on_time_against_a_bot(
    clock, players, decks, django_capture_on_commit_callbacks
):
    """300 decisions at 10 s each (50 minutes of thinking; the old clock's 600 s bank was
    gone after ~60 of them): the default time control against a bot is untimed, the
    periodic check_clocks finds nothing due, no move is ever made for the person, and every
    game ends by the game (R 15), never by the clock."""
    alice = players[0]
    capture = django_capture_on_commit_callbacks
    rng = random.Random(34)
    decisions, games = 0, []
    while decisions < 300:
        with capture(execute=True):  # the bot's first moves, if it starts
            match = services.challenge(alice, decks[0], bot="heuristic")
        assert match.time_control == clocks.UNTIMED
        while True:
            match.refresh_from_db()
            if match.is_over:
                break
            assert match.deciding_seat == 0, "the bot moved at once: the person decides"
            assert match.decision_deadline is None  # no deadline on the person's decision
            clock.advance(10)
            assert _sweep(capture)["timeouts"] == []
            _move(match, alice, _pick(match.legal_ids, rng), capture)
            decisions += 1
        games.append(match)
    for match in games:
        assert match.result != "timeout" and match.status == Match.FINISHED, match.result
        assert not ActionRequest.objects.filter(match=match, origin=ActionRequest.CLOCK).exists()
    assert decisions >= 300


def test_a_person_who_walks_away_from_a_bot_game_leaves_it_waiting(
    clock, players, decks, django_capture_on_commit_callbacks
):
    """Untimed: two hours away, the sweep makes no move for them, the game is still theirs."""
    capture = django_capture_on_commit_callbacks
    with capture(execute=True):  # the bot moves first when the die says so (R 10.2)
        match = services.challenge(players[0], decks[0], bot="random")
    match.refresh_from_db()
    assert match.deciding_seat == 0  # the person's decision, whoever started
    version = match.version
    for _ in range(12):
        clock.advance(600)
        assert _sweep(capture)["timeouts"] == []
        assert services.submit_default_move(match.pk) == "not_due"
    match.refresh_from_db()
    assert (match.status, match.version, match.deciding_seat) == ("active", version, 0)
    assert match.seats.get(seat=0).time_bank == 0  # never charged: there is no bank


# --- between people: a bank and an increment -----------------------------------------------


def _people_game(clients, decks, name, capture):
    """Alice challenges Bob with `name` through the API; Bob accepts."""
    alice, bob = clients
    answer = post(alice, "/api/matches/", {"deck": decks[0].pk, "opponent": "bob",
                                           "time_control": name}, capture)  # fmt: skip
    assert answer.status_code == 201, answer.json()
    match_id = answer.json()["id"]
    accepted = post(bob, f"/api/matches/{match_id}/accept/", {"deck": decks[1].pk}, capture)
    assert accepted.status_code == 200, accepted.json()
    return Match.objects.get(pk=match_id)


def _banks(match):
    return dict(match.seats.values_list("seat", "time_bank"))


def _turns_started(match, version):
    """The seats whose turn started with the move that made `version` (engine `turn`)."""
    rows = MatchEvent.objects.filter(match=match, version=version)
    return [r.data["data"]["player"] for r in rows if r.data["kind"] == "turn"]


def test_between_people_the_bank_and_the_increment_work_as_the_lobby_says(
    clock, players, decks, clients, django_capture_on_commit_callbacks
):
    """quick = 5 min + 5 s a turn, as the lobby shows it: each decision's time comes off its
    decider's bank, and a player's bank gets 5 s when their turn starts."""
    capture = django_capture_on_commit_callbacks
    quick = clocks.TIME_CONTROLS["quick"]
    assert (quick.bank, quick.increment) == (300, 5)
    match = _people_game(clients, decks, "quick", capture)
    lobby = logged_in(players[1]).get("/en/play/").content.decode()
    assert "quick (5 min + 5 s a turn)" in lobby
    match.refresh_from_db()
    assert match.time_control == "quick"
    expected = {0: 300.0, 1: 300.0}
    assert _banks(match) == pytest.approx(expected)
    rng, increments = random.Random(7), 0
    for step in range(60):
        match.refresh_from_db()
        if match.is_over:
            break
        seat = match.deciding_seat
        spent = 3 + step % 5  # 3-7 s a decision
        clock.advance(spent)
        _move(match, players[seat], _pick(match.legal_ids, rng), capture)
        expected[seat] -= spent
        for started in _turns_started(match, match.version + 1):
            expected[started] += quick.increment
            increments += 1
        assert _banks(match) == pytest.approx(expected), f"after decision {step}"
    assert increments >= 3, "several turns started"
    assert min(expected.values()) < 300 - 20  # time was really spent


def test_between_people_a_player_past_their_bank_loses_on_time(
    clock, players, decks, clients, django_capture_on_commit_callbacks
):
    """A casual game between people: the player who lets the clock run (the limit per
    decision makes their default move, each one charged) loses when the bank is empty."""
    capture = django_capture_on_commit_callbacks
    match = _people_game(clients, decks, "quick", capture)
    match.refresh_from_db()
    idler = match.deciding_seat
    rng = random.Random(3)
    for _ in range(400):
        match.refresh_from_db()
        if match.is_over:
            break
        if match.deciding_seat != idler:  # the other one answers at once
            _move(match, players[match.deciding_seat], _pick(match.legal_ids, rng), capture)
            continue
        clock.advance(clocks.TIME_CONTROLS["quick"].decision_limit + 1)
        _sweep(capture)
    match.refresh_from_db()
    assert (match.status, match.result, match.winner_seat) == ("finished", "timeout", 1 - idler)
    assert _banks(match)[idler] == 0
    assert ActionRequest.objects.filter(match=match, origin="clock", seat=idler).exists()


def test_an_untimed_game_never_made_for_people_by_default(players, decks):
    """Between people the default is standard (10 min + 15 s a turn), never untimed."""
    match = services.challenge(players[0], decks[0], opponent=players[1])
    assert match.time_control == clocks.STANDARD
    assert match.decision_limit == clocks.TIME_CONTROLS["standard"].decision_limit


# --- tournaments: R 18.4 unchanged ---------------------------------------------------------


def test_a_tournament_game_keeps_its_hour_and_goes_to_the_judge_r18_4(
    clock, players, decks, django_capture_on_commit_callbacks
):
    """R 18.4: one hour a game, no increment, then a judge decides (never on time, never a
    draw), whatever the casual time controls are."""
    capture = django_capture_on_commit_callbacks
    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(
        players=players, colonies=colonies, seed=5, game_time_limit=3600, casual=False
    )
    assert match.time_control == clocks.TOURNAMENT
    assert clocks.increment(match.time_control) == 0
    match.refresh_from_db()
    rng = random.Random(1)
    for _ in range(20):  # turns start: no increment is added
        match.refresh_from_db()
        clock.advance(1)
        _move(match, players[match.deciding_seat], _pick(match.legal_ids, rng), capture)
    match.refresh_from_db()
    assert all(bank <= 3600 for bank in _banks(match).values())
    clock.advance(3600)
    _sweep(capture)
    match.refresh_from_db()
    assert match.status == Match.NEEDS_JUDGE and match.winner_seat is None


# --- bad input ------------------------------------------------------------------------------


def test_an_unknown_time_control_is_a_400_with_a_sentence(clients, decks):
    answer = clients[0].post(
        "/api/matches/", {"deck": decks[0].pk, "time_control": "blitz"}, "application/json"
    )
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "UNKNOWN_TIME_CONTROL"
    assert "blitz" in body["detail"] and "standard" in body["detail"]
    assert not Match.objects.exists()
    answer = clients[0].post(
        "/api/matches/", {"deck": decks[0].pk, "time_control": 5}, "application/json"
    )
    assert answer.status_code == 400 and answer.json()["code"] == "UNKNOWN_TIME_CONTROL"


def test_the_lobby_refuses_an_unknown_time_control_in_words(clients, decks):
    page = clients[0].post(
        "/hu/play/", {"action": "challenge", "deck": decks[0].pk, "time_control": "blitz"}
    )
    assert page.status_code == 400
    assert "A listában szereplő időkontrollok egyikét válaszd." in page.content.decode()


# --- what a person reads ------------------------------------------------------------------


def test_the_lobby_offers_the_time_controls_and_lists_an_open_game_with_its_clock(clients, decks):
    alice, bob = clients
    page = alice.get("/en/play/").content.decode()
    assert 'name="time_control"' in page
    for text in ("relaxed (20 min + 30 s a turn)", "standard (10 min + 15 s a turn)",
                 "quick (5 min + 5 s a turn)"):  # fmt: skip
        assert text in page
    made = alice.post("/en/play/", {"action": "challenge", "deck": decks[0].pk,
                                    "time_control": "relaxed"})  # fmt: skip
    assert made.status_code == 302
    match = Match.objects.get()
    assert (match.status, match.time_control) == (Match.OPEN, "relaxed")
    listed = bob.get("/hu/play/").content.decode()
    assert "kényelmes (20 perc + 30 mp körönként)" in listed
    english = bob.get("/en/play/").content.decode()
    assert "relaxed (20 min + 30 s a turn)" in english


def test_a_bot_game_from_the_lobby_is_untimed_whatever_the_people_clock_says(clients, decks):
    made = clients[0].post(
        "/en/play/", {"action": "bot-heuristic", "deck": decks[0].pk, "time_control": "quick"}
    )
    assert made.status_code == 302
    match = Match.objects.get()
    assert match.time_control == clocks.UNTIMED
    page = clients[0].get(f"/hu/play/{match.pk}/").content.decode()
    assert "Időkontroll: időkorlát nélkül" in page
    assert 'id="clock-warning"' not in page  # nothing to warn about


def test_the_table_shows_the_time_control_and_has_the_warning_band(
    clients, decks, players, django_capture_on_commit_callbacks
):
    match = _people_game(clients, decks, "standard", django_capture_on_commit_callbacks)
    page = clients[0].get(f"/en/play/{match.pk}/").content.decode()
    assert "Time control: standard (10 min + 15 s a turn)" in page
    assert 'id="clock-warning"' in page and "Under a minute left" in page
    assert 'id="clock-sound"' in page and 'aria-pressed="false"' in page
    hu = clients[0].get(f"/hu/play/{match.pk}/").content.decode()
    assert "Időkontroll: normál (10 perc + 15 mp körönként)" in hu
    assert "Egy percnél kevesebb maradt" in hu and "Figyelmeztető hang: ki" in hu


def test_a_table_started_alone_with_bots_is_untimed(players, decks):
    """The host alone with bots plays against bots: untimed, as a bot game."""
    table = services.open_table(players[0], decks[0], seats=3, time_control="quick")
    assert table.time_control == "quick"
    started = services.start_table(table, players[0])
    started.refresh_from_db()
    assert started.time_control == clocks.UNTIMED
