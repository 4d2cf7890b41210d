"""The standings and the pairing run with Python's cyclic collector paused (half their CPU
at 16,384 players went to collections, bench/RESULTS.md issue 14): it must come back on
whatever happens, and a caller's own pause must be left alone."""

import gc

import pytest

from tournaments.standings_query import collector_paused


def test_the_collector_is_off_inside_and_on_again_after():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_comes_back_after_an_error():
    with pytest.raises(ZeroDivisionError), collector_paused():
        1 / 0  # noqa: B018
    assert gc.isenabled()


def test_a_callers_own_pause_is_theirs_to_end():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
