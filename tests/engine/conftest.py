"""Lets the engine tests import their helper module (engine_kit.py) under any import mode."""

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)


def pytest_collection_modifyitems(config, items):
    """The soak run is long: it runs only when asked for by marker (`-m soak`, make
    test-soak), not in a plain `pytest tests/engine`."""
    if "soak" in (config.getoption("markexpr") or ""):
        return
    kept = [item for item in items if item.get_closest_marker("soak") is None]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept
