"""The figures against numbers computed by hand (stats/figures.py)."""

import pytest

from stats.figures import MIN_SAMPLE, Rate, primary_race, shares, weighted_shares, wilson


def test_wilson_interval_of_9_wins_in_10_games():
    # p = 0.9, z^2 = 3.8415: centre (0.9 + 0.19207) / 1.38415 = 0.78898,
    # half 1.96 * sqrt(0.009 + 0.0096037) / 1.38415 = 0.19314
    low, high = wilson(9, 10)
    assert low == pytest.approx(0.59584, abs=1e-4)
    assert high == pytest.approx(0.98212, abs=1e-4)


def test_wilson_stays_inside_0_and_1_and_is_symmetric_at_a_half():
    assert wilson(0, 5)[0] == 0.0 and wilson(5, 5)[1] == 1.0
    low, high = wilson(10, 20)
    assert low == pytest.approx(1 - high) and low == pytest.approx(0.29929, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_rate_its_difference_from_a_baseline_and_its_sample_size():
    drawn, baseline = Rate(wins=6, games=10), Rate(wins=10, games=25)
    assert drawn.value == 0.6 and baseline.value == 0.4
    assert drawn.minus(baseline) == pytest.approx(0.2)
    assert not drawn.enough and Rate(0, MIN_SAMPLE).enough
    assert Rate(0, 0).value is None and Rate(0, 0).minus(drawn) is None


def test_shares():
    assert shares({"zarg": 3, "xeno": 1}) == {"zarg": 0.75, "xeno": 0.25}
    assert shares({"zarg": 0}) == {"zarg": 0.0}


def test_shares_weighted_by_event_size():
    # 10 players, 4 lists: zarg 3/4, xeno 1/4; 30 players, 3 lists: zarg 1/3, xeno 2/3.
    # zarg = (10 * 0.75 + 30 / 3) / 40 = 0.4375; xeno = (10 * 0.25 + 30 * 2 / 3) / 40 = 0.5625
    # (pooling the 7 lists would say zarg 4/7 = 0.571: the small event's lists count more)
    result = weighted_shares([(10, {"zarg": 3, "xeno": 1}), (30, {"zarg": 1, "xeno": 2})])
    assert result == pytest.approx({"zarg": 0.4375, "xeno": 0.5625})
    assert weighted_shares([(8, {})]) == {}


def test_primary_race_is_the_race_with_most_copies_ties_alphabetical():
    assert primary_race({"zarg": 20, "xeno": 25}) == "xeno"
    assert primary_race({"zarg": 20, "human": 20, "": 5}) == "human"
    assert primary_race({"": 45}) == ""
