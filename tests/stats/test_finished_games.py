"""A real game reaches the statistics when it ends: matches sends `match_finished`, the
stats app's receiver queues `record_game` (eager in the embedded default)."""

import pytest

from matches import services
from matches.models import Match
from stats.models import CardTally, ProcessedGame, SeatResult
from tournaments.simulation import legal_colony_names

pytestmark = pytest.mark.django_db


def colony(seed: str) -> list[str]:
    return [code for code in legal_colony_names(seed, 6) for _ in range(3)]


def test_a_finished_bot_game_is_counted_once_with_its_drawn_cards(
    catalogue, django_capture_on_commit_callbacks
):
    colonies = [colony("stats-a"), colony("stats-b")]
    with django_capture_on_commit_callbacks(execute=True):
        match = services.create_match(
            players=(None, None), colonies=colonies, bots=("heuristic", "random"), seed=53
        )
    match.refresh_from_db()
    assert match.status == Match.FINISHED and match.winner_seat is not None
    assert ProcessedGame.objects.get().match_id == match.pk
    results = {r.seat: r for r in SeatResult.objects.all()}
    assert [results[0].won, results[1].won].count(True) == 1
    assert results[match.winner_seat].won and all(r.bots for r in results.values())
    tallies = CardTally.objects.filter(bots=True)
    names = set(colonies[0]) | set(colonies[1])
    assert set(tallies.values_list("code", flat=True)) == names
    # each seat drew at least its opening hand: five or more cards seen, each counted once
    assert sum(t.opening_games for t in tallies) >= 2
    assert all(t.drawn_games <= t.games and t.opening_games <= t.drawn_games for t in tallies)


def test_the_tallies_equal_the_games_log_read_whole_card_by_card(
    catalogue, django_capture_on_commit_callbacks
):
    """The seam game -> statistics: record_game reads a few keys of the log in SQL; the
    pure reader (stats.gamelog.seen_cards, R 10.4, R 10.5, R 16) reads the whole events.
    For every card of both colonies the drawn and opening counts must be the same."""
    from collections import Counter

    from matches.models import MatchEvent
    from stats.gamelog import seen_cards

    colonies = [colony("seam-a"), colony("seam-b")]
    with django_capture_on_commit_callbacks(execute=True):
        match = services.create_match(
            players=(None, None), colonies=colonies, bots=("heuristic", "heuristic"), seed=71
        )
    match.refresh_from_db()
    assert match.status == Match.FINISHED
    events = MatchEvent.objects.filter(match=match).order_by("seq")
    seen = seen_cards(events.values_list("data", flat=True))
    drawn, opening = Counter(), Counter()
    for seat in (0, 1):
        for code in set(colonies[seat]):
            drawn[code] += code in seen[seat].drawn
            opening[code] += code in seen[seat].opening
    assert sum(drawn.values()) >= 10  # both opening hands at least: the reader found moves
    tallies = {t.code: t for t in CardTally.objects.filter(bots=True)}
    assert set(tallies) == set(colonies[0]) | set(colonies[1])
    for code, tally in tallies.items():
        assert (tally.drawn_games, tally.opening_games) == (drawn[code], opening[code]), code
