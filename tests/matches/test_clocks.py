"""Server-side clocks (docs/matches-api.md): default moves, banks, R 18.4 for tournaments."""

from datetime import timedelta

import pytest
from django.utils import timezone

from matches import clocks, services
from matches.clocks_sweep import sweep
from matches.models import ActionRequest, Match
from matches.signals import match_finished

pytestmark = pytest.mark.django_db


@pytest.fixture
def human_match(players, decks):
    colonies = [services.deck_colony(d, "original") for d in decks]
    return services.create_match(players=players, colonies=colonies, seed=5)


@pytest.fixture
def tournament_match(players, decks):
    colonies = [services.deck_colony(d, "original") for d in decks]
    return services.create_match(
        players=players, colonies=colonies, seed=5, game_time_limit=3600, casual=False
    )


def _overdue(match):
    """As if the decision had started one limit and a second ago."""
    now = timezone.now()
    Match.objects.filter(pk=match.pk).update(
        decision_started=now - timedelta(seconds=match.decision_limit + 1),
        decision_deadline=now - timedelta(seconds=1),
    )


def test_casual_defaults_a_bank_and_a_decision_limit(human_match):
    human_match.refresh_from_db()
    banks = [s.time_bank for s in human_match.seats.all()]
    assert banks == [clocks.CASUAL_BANK] * 2
    limit = (human_match.decision_deadline - human_match.decision_started).total_seconds()
    assert limit == pytest.approx(clocks.CASUAL_DECISION_LIMIT)


def test_the_default_move_is_pass_or_the_engines_decline():
    assert clocks.default_action(["play:card=3", "pass"]) == "pass"
    assert clocks.default_action(["board:card=1,ship=2", "done"]) == "done"
    assert clocks.default_action(["keep", "mulligan"]) == "keep"
    assert clocks.default_action(["choose:value=1", "choose:value=2"]) == "choose:value=1"
    assert clocks.default_action([]) is None


def test_a_decision_past_its_deadline_gets_the_default_move(
    human_match, django_capture_on_commit_callbacks
):
    human_match.refresh_from_db()
    version, seat, legal = human_match.version, human_match.deciding_seat, human_match.legal_ids
    assert services.submit_default_move(human_match.pk) == "not_due"
    _overdue(human_match)
    with django_capture_on_commit_callbacks(execute=True):
        outcome = services.submit_default_move(human_match.pk)
    assert outcome == f"default:{clocks.default_action(legal)}"
    request = ActionRequest.objects.get(match=human_match, client_action_id=f"timeout:{version}")
    assert request.status == "applied" and request.seat == seat
    human_match.refresh_from_db()
    assert human_match.version == version + 1
    assert human_match.seats.get(seat=seat).time_bank < clocks.CASUAL_BANK


def test_the_sweep_finds_overdue_matches(human_match, django_capture_on_commit_callbacks):
    _overdue(human_match)
    with django_capture_on_commit_callbacks(execute=True):
        found = sweep()
    assert found["timeouts"] == [human_match.pk]
    human_match.refresh_from_db()
    assert human_match.version == 1


def test_an_empty_bank_loses_a_casual_game_on_time(human_match, django_capture_on_commit_callbacks):
    human_match.refresh_from_db()
    loser = human_match.deciding_seat
    human_match.seats.filter(seat=loser).update(time_bank=0.5)
    _overdue(human_match)
    seen = []
    match_finished.connect(lambda sender, match, **kw: seen.append(match.pk), weak=False)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.submit_default_move(human_match.pk) == "finished"
    human_match.refresh_from_db()
    assert (human_match.result, human_match.winner_seat) == ("timeout", 1 - loser)
    assert seen == [human_match.pk]


def test_a_tournament_game_out_of_time_needs_a_judge_never_a_draw(
    tournament_match, django_capture_on_commit_callbacks
):
    """R 18.4: each game has one hour; then the judge decides; never a draw."""
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=tournament_match.pk).update(game_deadline=past)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.submit_default_move(tournament_match.pk) == "needs_judge"
    tournament_match.refresh_from_db()
    assert tournament_match.status == "needs_judge" and tournament_match.winner_seat is None
    assert tournament_match.result == ""
    with pytest.raises(services.BadRequest):
        services.judge_decide(tournament_match, None, "draw?")
    with django_capture_on_commit_callbacks(execute=True):
        services.judge_decide(tournament_match, 1, "time")
    tournament_match.refresh_from_db()
    assert (tournament_match.status, tournament_match.result) == ("finished", "judge")
    assert tournament_match.winner_seat == 1 and tournament_match.result_reason == "time"


def test_an_empty_bank_in_a_tournament_game_also_goes_to_the_judge(
    tournament_match, django_capture_on_commit_callbacks
):
    """R 18.4: a tournament game never ends on time by itself."""
    tournament_match.refresh_from_db()
    tournament_match.seats.update(time_bank=0.1)
    _overdue(tournament_match)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.submit_default_move(tournament_match.pk) == "needs_judge"
    tournament_match.refresh_from_db()
    assert tournament_match.status == "needs_judge" and tournament_match.winner_seat is None


def test_a_request_pending_too_long_is_drained_again(
    human_match, django_capture_on_commit_callbacks
):
    """A drain lost with a dead worker: the sweep queues it again (idempotent)."""
    human_match.refresh_from_db()
    user = human_match.seats.get(seat=human_match.deciding_seat).user
    services.submit_action(
        human_match, user, client_action_id="lost", expected_version=human_match.version,
        action=human_match.legal_ids[0],
    )  # fmt: skip
    ActionRequest.objects.filter(client_action_id="lost").update(
        created=timezone.now() - timedelta(seconds=30)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep()["drains"] == [human_match.pk]
    assert ActionRequest.objects.get(client_action_id="lost").status == "applied"
