"""DESIGN.md: the engine imports nothing from Django, Celery, Channels or the apps."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import engine

FORBIDDEN = (
    "django",
    "rest_framework",
    "celery",
    "channels",
    "cards_data",
    "decks",
    "tournaments",
    "matches",
)


def test_engine_modules_import_no_web_stack():
    modules = [f"engine.{m.name}" for m in pkgutil.walk_packages(engine.__path__)]
    assert modules, "engine has modules"
    script = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})\n"
        "print(','.join(bad))\n"
    )
    root = Path(engine.__file__).resolve().parent.parent
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
