"""Issue 18: the compiled engine plays the same games as the pure-Python one, and only runs
when it was built from the sources as they are (engine/_build.py).

This file runs on whichever build the engine picked: `make test` runs tests/engine on the
compiled build and again with KGK_ENGINE_PURE=1 (make test-engine-pure)."""

import importlib.util
import json
import os
import warnings
from pathlib import Path

import pytest

from engine import _build

_SPEC = importlib.util.spec_from_file_location(
    "engine_digest", Path(__file__).resolve().parents[2] / "bench" / "engine_digest.py"
)
engine_digest = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(engine_digest)
digest = engine_digest.digest

# bench/engine_digest.py's digest(8, 1, 2): 8 random EX-1 games, 2 heuristic games and 2
# four-seat tables (17,399 decisions), on the pure-Python engine of main before issue 18
SMALL_REFERENCE = ("17c6395afe3ca265e5f5d3713927861d", 17399)


def test_same_games_decision_for_decision():
    """Every pending decision, legal list, chosen action, event and final state hash."""
    assert digest(8, 1, 2) == SMALL_REFERENCE, f"engine build: {_build.BUILD}"


def test_the_build_in_use_is_the_one_asked_for():
    if os.environ.get("KGK_ENGINE_PURE"):
        assert _build.BUILD == "pure"
    elif os.environ.get("CI") == "true":  # make setup compiled it: CI must test that build
        assert _build.BUILD == "compiled", _build.REASON
    import engine.game

    compiled = not engine.game.__file__.endswith(".py")
    assert compiled == (_build.BUILD == "compiled")


def test_an_edited_source_never_runs_a_stale_build(monkeypatch):
    if not (_build.OUT / "manifest.json").is_file():
        pytest.skip("no compiled build here (make setup makes it)")
    monkeypatch.delenv("KGK_ENGINE_PURE", raising=False)
    built = json.loads((_build.OUT / "manifest.json").read_text())["sources"]
    edited = dict(built, game="0" * 64)  # engine/game.py changed since the build
    monkeypatch.setattr(_build, "source_digests", lambda: edited)
    monkeypatch.setattr(_build, "BUILD", "pure")
    path = ["engine"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert _build.select(path) == "pure"
    assert path == ["engine"], "the compiled modules were not put on the path"
    assert "game" in _build.REASON and "stale" in _build.REASON
    assert any("stale build" in str(w.message) for w in caught)


def test_the_switch_runs_the_sources(monkeypatch):
    monkeypatch.setenv("KGK_ENGINE_PURE", "1")
    monkeypatch.setattr(_build, "BUILD", "pure")
    path = ["engine"]
    assert _build.select(path) == "pure" and path == ["engine"]
