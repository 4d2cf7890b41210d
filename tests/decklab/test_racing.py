"""The racing rule of deck advice (decklab/racing.py, issue 39), tested directly and by many
simulated races with known win probabilities: how often an equal candidate is called
different (the stated error rate), how early a clearly worse one stops, and the games racing
saves against a fixed number of games per candidate."""

import random

import pytest

from decklab import racing


def simulated_round(rng, p_deck, p_candidates):
    """A play_round of independent games (no common random numbers: the worst case for the
    racing rule, whose differences are then noisiest)."""

    def play_round(first, games, who):
        results = {}
        for c in who:
            tally = racing.Tally()
            for _ in range(games):
                tally.add((rng.random() < p_candidates[c]) - (rng.random() < p_deck))
            results[c] = tally
        return results

    return play_round


def test_a_tally_of_identical_games_is_the_point_zero():
    tally = racing.Tally()
    for _ in range(40):
        tally.add(0.0)
    assert tally.interval(3.0) == (0.0, 0.0, 0.0)
    assert racing.verdict(tally, 3.0) == racing.SAME


def test_the_interval_is_the_normal_one_of_the_mean_difference():
    tally = racing.Tally()
    for d in [1, 0, 0, -1, 1, 1, 0, 0, 1, 0] * 10:
        tally.add(d)
    mean, low, high = tally.interval(1.96)
    assert mean == pytest.approx(0.3)
    sd = ((sum(d * d for d in [1, 0, 0, -1, 1, 1, 0, 0, 1, 0]) * 10 - 100 * 0.09) / 99) ** 0.5
    assert high - mean == pytest.approx(1.96 * sd / 10)
    assert mean - low == pytest.approx(high - mean)


def test_each_look_spends_a_share_of_the_error_rate():
    assert racing.z_for(0.05, 1) == pytest.approx(1.95996, abs=1e-4)
    assert racing.z_for(0.05, 6) == pytest.approx(2.63826, abs=1e-4)  # 1 - 0.05 / 12


def test_a_clearly_worse_candidate_stops_after_the_first_rounds():
    """It stops as worse, or (the futility stop, before its interval is wholly below 0) as
    no gain worth making; never better, and most often plainly worse."""
    rng = random.Random(1)
    stops, longer, worse = [], 0, 0
    for _ in range(200):
        race = racing.Race(2, budget=10_000)
        racing.run(race, simulated_round(rng, 0.6, [0.25, 0.6]))
        assert race.verdicts[0] in (racing.WORSE, racing.SAME)
        worse += race.verdicts[0] == racing.WORSE
        stops.append(race.tallies[0].games)
        longer += race.tallies[1].games > race.tallies[0].games  # the equal one plays on
    assert worse >= 150
    assert longer >= 150
    assert max(stops) <= sum(racing.ROUNDS[:3])
    assert sorted(stops)[len(stops) // 2] <= sum(racing.ROUNDS[:2])


def test_an_equal_candidate_is_called_different_at_most_at_the_stated_error_rate():
    rng = random.Random(2)
    races = 1000
    wrong = 0
    for _ in range(races):
        race = racing.Race(1, budget=10_000)
        racing.run(race, simulated_round(rng, 0.5, [0.5]))
        wrong += race.verdicts[0] in (racing.BETTER, racing.WORSE)
    # alpha = 5 %: the observed rate stays under it (Bonferroni is conservative).
    assert wrong / races <= racing.ALPHA


def test_a_gain_worth_making_is_stopped_as_no_gain_at_most_at_the_stated_error_rate():
    """The futility stop ("same": the top of the one-sided interval under +5 points) is a
    one-sided test at `alpha`: a candidate really 5 points better is stopped by it at most
    that often."""
    rng = random.Random(6)
    races, stopped = 1000, 0
    for _ in range(races):
        race = racing.Race(1, budget=10_000)
        racing.run(race, simulated_round(rng, 0.5, [0.5 + racing.MARGIN]))
        stopped += race.verdicts[0] == racing.SAME
    assert stopped / races <= racing.ALPHA


def test_identical_decks_are_never_called_different():
    """With common random numbers an identical candidate plays the very same games: every
    difference is 0, so it is "same" after the first round, never better or worse."""
    race = racing.Race(3, budget=10_000)

    def identical(first, games, who):
        tallies = {c: racing.Tally() for c in who}
        for c in who:
            for _ in range(games):
                tallies[c].add(0.0)
        return tallies

    racing.run(race, identical)
    assert race.verdicts == [racing.SAME] * 3
    assert race.spent == 3 * racing.ROUNDS[0]


def test_a_clearly_better_candidate_is_separated():
    rng = random.Random(3)
    race = racing.run(racing.Race(1, budget=10_000), simulated_round(rng, 0.4, [0.7]))
    assert race.verdicts == [racing.BETTER]
    mean, low, high = race.interval(0)
    assert low > 0 and low < 0.3 < high


def test_racing_saves_at_least_half_the_games_of_a_fixed_number_per_candidate():
    """A field like a real one: a few clearly worse swaps, a few equal, one better."""
    rng = random.Random(4)
    field = [0.2, 0.3, 0.35, 0.5, 0.5, 0.45, 0.3, 0.25, 0.7, 0.4]
    spent = fixed = 0
    for _ in range(20):
        race = racing.run(racing.Race(len(field), budget=6_000), simulated_round(rng, 0.5, field))
        spent += race.spent
        fixed += racing.fixed_games(race)
    assert spent <= 0.5 * fixed


def test_the_budget_is_never_exceeded():
    rng = random.Random(5)
    race = racing.run(racing.Race(8, budget=1_000), simulated_round(rng, 0.5, [0.5] * 8))
    assert race.spent <= 1_000
    assert racing.UNDECIDED in race.verdicts
