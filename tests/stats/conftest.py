"""Fixtures of the stats tests: three finished games whose figures were computed by hand."""

import pytest

from .kit import game


@pytest.fixture
def codes(catalogue):
    zarg = list(catalogue.filter(race="zarg").values_list("code", flat=True)[:2])
    xeno = catalogue.filter(race="xeno").values_list("code", flat=True).first()
    return {"a1": zarg[0], "a2": zarg[1], "b1": xeno}


@pytest.fixture
def three_games(codes):
    return [
        game(codes, 0, [(0, "a1", "opening hand"), (1, "b1", "opening hand"), (0, "a2", "draw")]),
        game(codes, 1, [(0, "a2", "opening hand"), (0, "a1", "mulligan"), (1, "b1", "draw")]),
        game(codes, 0, [(1, "a1", "opening hand")]),
    ]
