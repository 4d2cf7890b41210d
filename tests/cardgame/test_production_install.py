"""A production install has no test tools (issue 35): `pip install .` gives the site's
dependencies, `pip install ".[dev]"` the test tools for `make test` (pyproject.toml).

Every module the site runs (the apps' modules, migrations and management commands; not
tests/, bench/ or scripts/) is imported in a fresh interpreter where the dev-only packages
cannot be imported (a meta-path finder refuses them, even where they are installed): an
import of one of them anywhere in the site fails here.
"""

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ["accounts", "cardgame", "cards_data", "decklab", "decks", "engine", "matches",
        "tournaments"]  # fmt: skip
DEV_ONLY = ["pytest", "_pytest", "pytest_django", "hypothesis", "playwright", "schemathesis",
            "bandit", "ruff", "mypy", "mypyc", "py_spy", "websockets"]  # fmt: skip

IMPORT_ALL = """
import importlib, importlib.abc, os, sys
REFUSED = set(sys.argv[1].split(","))

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in REFUSED:
            raise ImportError(f"dev-only package imported by the site: {name}")
        return None

sys.meta_path.insert(0, Refuse())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardgame.settings")
import django
django.setup()
for name in sys.argv[2:]:
    importlib.import_module(name)
leaked = sorted(m for m in sys.modules if m.split(".")[0] in REFUSED)
assert not leaked, leaked
print("imported", len(sys.argv) - 2)
"""


def site_modules() -> list[str]:
    names = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "locale" in parts:
                continue
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_the_site_imports_no_dev_only_package():
    """Issue 35: every site module imports with pytest, hypothesis, playwright,
    schemathesis, bandit, ruff, mypy, py-spy and websockets made unimportable."""
    modules = site_modules()
    assert len(modules) > 100 and "tournaments.swiss" in modules
    env = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "cardgame.settings",
           "KGK_ENGINE_PURE": "1", "PYTHONPATH": str(ROOT)}  # fmt: skip
    out = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL, ",".join(DEV_ONLY), *modules],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    assert f"imported {len(modules)}" in out.stdout


def test_the_finder_refuses_what_it_should():
    """The check itself works: a module that imports pytest fails under it."""
    out = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL, "pytest", "pytest"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert out.returncode != 0 and "dev-only package imported by the site: pytest" in out.stderr


def test_test_tools_are_an_extra_not_a_dependency():
    """`pip install .` installs none of the test tools; `.[dev]` has them; the engine's
    compiler (mypy's mypyc) is the `build` extra that `make setup` installs."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    base = " ".join(project["dependencies"]).lower()
    extras = project["optional-dependencies"]
    for name in ("pytest", "hypothesis", "playwright", "schemathesis", "bandit", "ruff",
                 "mypy", "py-spy", "websockets"):  # fmt: skip
        assert name not in base, name
    dev = " ".join(extras["dev"]).lower()
    for name in ("pytest", "hypothesis", "playwright", "schemathesis", "bandit", "ruff"):
        assert name in dev, name
    assert any(req.lower().startswith("mypy") for req in extras["build"])
    makefile = (ROOT / "Makefile").read_text()
    assert '".[build]"' in makefile and '".[dev,build]"' in makefile
