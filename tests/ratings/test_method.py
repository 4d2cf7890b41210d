"""The rating method (ratings/skill.py): openskill's Plackett-Luce model against its published
worked example and against the Weng-Lin algorithm written out by hand; the display number and
the levels (docs/ratings.md)."""

import math

import pytest

from ratings import skill
from ratings.skill import Skill, display_number, level_for, rate_ranking


def test_the_model_reproduces_the_documented_example():
    """The "Limited Example" of openskill's README (openskill 6.2, also on its documentation
    site): two teams of two newcomers, the first team wins; each winner goes to
    mu 26.964294621803063, sigma 8.177962604389991, each loser to mu 23.035705378196937."""
    r = skill.MODEL.rating
    [[a, b], [x, y]] = skill.MODEL.rate([[r(), r()], [r(), r()]])
    assert (skill.MODEL.mu, skill.MODEL.sigma) == (25.0, 25 / 3)
    assert a.mu == pytest.approx(26.964294621803063, abs=1e-12)
    assert a.sigma == pytest.approx(8.177962604389991, abs=1e-12)
    assert x.mu == pytest.approx(23.035705378196937, abs=1e-12)
    assert x.sigma == pytest.approx(8.177962604389991, abs=1e-12)
    assert (a.mu, a.sigma) == (b.mu, b.sigma) and (x.mu, x.sigma) == (y.mu, y.sigma)


def weng_lin_plackett_luce(players, places, beta=25 / 6, tau=25 / 300, kappa=1e-4):
    """Weng and Lin, "A Bayesian Approximation Method for Online Ranking", JMLR 12 (2011),
    Algorithm 4 (the Plackett-Luce model), written out for teams of one, with openskill's
    additive dynamics tau (sigma^2 + tau^2 before the update) and gamma = sigma / c."""
    var = [s * s + tau * tau for _, s in players]
    mus = [m for m, _ in players]
    n = len(players)
    c = math.sqrt(sum(v + beta * beta for v in var))
    e = [math.exp(m / c) for m in mus]
    sums = [sum(e[j] for j in range(n) if places[j] >= places[q]) for q in range(n)]
    ties = [sum(1 for j in range(n) if places[j] == places[q]) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if places[q] <= places[i]:
                p = e[i] / sums[q]
                omega += ((1.0 if q == i else 0.0) - p) / ties[q]
                delta += p * (1 - p) / ties[q]
        gamma = math.sqrt(var[i]) / c
        mu = mus[i] + var[i] / c * omega
        sigma = math.sqrt(var[i] * max(1 - gamma * var[i] / c**2 * delta, kappa))
        out.append((mu, sigma))
    return out


@pytest.mark.parametrize(
    "players, places",
    [
        ([(25, 25 / 3), (25, 25 / 3)], [1, 2]),  # two newcomers, the first wins
        ([(25, 25 / 3), (30, 6)], [1, 2]),  # an upset: the weaker one wins
        ([(28, 3), (22, 4)], [1, 1]),  # a draw
        ([(25, 25 / 3), (30, 6), (20, 7), (26, 5)], [3, 1, 4, 2]),  # a table of four
    ],
)
def test_rate_ranking_is_the_weng_lin_update(players, places):
    expected = weng_lin_plackett_luce(players, places)
    got = rate_ranking([Skill(m, s) for m, s in players], places)
    for (mu, sigma), new in zip(expected, got, strict=True):
        assert new.mu == pytest.approx(mu, rel=1e-12)
        assert new.sigma == pytest.approx(sigma, rel=1e-12)


def test_the_display_number_is_the_documented_formula():
    """number = round(1100 + 25 (mu - 3 sigma)): a newcomer shows 1100."""
    assert display_number(25, 25 / 3) == skill.DEFAULT_NUMBER == 1100
    assert display_number(25, 2.8) == round(1100 + 25 * (25 - 8.4))
    # the same mu with less doubt is a higher number: the number is conservative
    assert display_number(30, 2) > display_number(30, 5)


@pytest.mark.parametrize(
    "number, key",
    [
        (950, "scout"),
        (1299, "scout"),
        (1300, "fighter"),
        (1499, "fighter"),
        (1500, "cruiser"),
        (1700, "destroyer"),
        (1899, "destroyer"),
        (1900, "flagship"),
        (2400, "flagship"),
    ],
)
def test_levels_follow_the_documented_thresholds(number, key):
    assert level_for(number).key == key
