"""`manage.py simulate_tournament`: a whole online event played by bots, every game
through the matches app on a real Celery worker process (PostgreSQL, Redis DB 3).

R 18.2/18.7 Swiss rounds, R 18.3 top-four playoff in best-of-three sets, R 18.4 games
stopped without a winner decided by a judge (never a draw), R 18.6 prizes.
"""

import io

import pytest
from django.core.management import CommandError, call_command

from matches.models import ActionRequest
from matches.models import Match as Game
from tournaments.models import AuditEntry, OnlineGame, TableSet, Tournament


@pytest.mark.postgres
def test_simulated_event_is_played_by_bots_on_a_worker(tournament_worker, catalogue):
    out, err = io.StringIO(), io.StringIO()
    call_command(
        "simulate_tournament",
        players=8,
        rounds=3,
        bot="random",
        turn_limit=3,
        stall=240,
        stdout=out,
        stderr=err,
    )
    t = Tournament.objects.get()
    assert t.status == Tournament.FINISHED and t.online
    swiss = TableSet.objects.filter(tournament=t, stage="swiss")
    assert list(t.rounds.values_list("number", flat=True)) == [1, 2, 3]
    assert swiss.count() == 12 and not swiss.exclude(status=TableSet.CONFIRMED).exists()
    # every match of the event was decided by games played on the site
    for m in TableSet.objects.filter(tournament=t):
        games = list(m.online_games.select_related("game"))
        assert games, f"match {m.pk} has no game on the site"
        assert all(g.game.status == Game.FINISHED for g in games)
        needed = 1 if m.stage == "swiss" else 2
        assert max(m.games_a, m.games_b) == needed and m.games_a != m.games_b  # R 18.4
    semis = t.matches.filter(stage="semi")
    assert semis.count() == 2 and t.matches.filter(stage__in=["final", "third"]).count() == 2
    # the bots' moves were applied by the worker process, not by this one
    assert ActionRequest.objects.filter(status=ActionRequest.APPLIED).count() > 100
    log = tournament_worker.read_text()
    assert "matches.tasks.drain_match" in log and "succeeded" in log
    # games stopped by the turn limit were decided by the organiser as a judge (R 18.4)
    stopped = OnlineGame.objects.filter(game__result="turn_limit").count()
    assert AuditEntry.objects.filter(action="judge_game", data__reason="time").count() == stopped
    assert t.prizes.filter(awarded_to__isnull=False).count() == 3  # R 18.6
    text = out.getvalue()
    assert "place 1:" in text and text.count("sim-") >= 8 + 3
    assert "matches · round 3/3" in err.getvalue() and "final" in err.getvalue()


@pytest.mark.django_db
def test_too_few_players_is_refused_with_a_reason():
    with pytest.raises(CommandError, match="between 4 and 1024"):
        call_command("simulate_tournament", players=3, stdout=io.StringIO())
