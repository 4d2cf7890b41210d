"""Which build of the engine runs: the compiled one or these .py files (issue 18).

`make setup` compiles the engine's rule modules (``COMPILED``) with mypyc from these very
sources into ``build/engine-mypyc/`` (scripts/build_engine.py), apart from the sources, so a
compiled module never sits next to its .py and shadows it. ``engine/__init__.py`` calls
``select`` once, at the engine's first import: the compiled modules are put ahead of the
sources on the package's path only when

- ``KGK_ENGINE_PURE`` is not set (``KGK_ENGINE_PURE=1``: the pure-Python engine, the
  reference the tests and the bench compare the compiled one with),
- the build exists and was made for this Python (its cache tag), and
- every compiled module's .py is byte for byte the one it was built from (a SHA-256 per
  file in the build's manifest): an edited .py (a developer, Django's autoreload, a
  restarted Celery worker) runs as pure Python, with a warning, until `make setup`
  rebuilds; it never runs a stale build.

Otherwise the engine is the pure-Python one, which plays the same games, decision for
decision (bench/engine_digest.py). ``BUILD`` says which one runs, ``REASON`` why.
"""

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "build" / "engine-mypyc"  # the compiled build (not in git)
GROUP = "kgk_engine"  # mypyc's shared library of the build: kgk_engine__mypyc
# The modules compiled: the rules and what they call at every decision. The tools (notation,
# simulate, soak, colonies), the bots by name and the search bot (bots, search,
# observation), the projection for clients (view) and this file stay Python.
COMPILED = (
    "actions",
    "announce",
    "basic_bots",
    "bombard",
    "catalog",
    "combat",
    "combat_base",
    "deck",
    "effects",
    "executors",
    "firing",
    "flow",
    "game",
    "main_actions",
    "main_phase",
    "ops",
    "resolve",
    "rng",
    "ruleset",
    "serialize",
    "state",
    "table",
    "values",
)

BUILD = "pure"  # "compiled" once select() put the compiled modules on the path
REASON = "not selected yet"


def source_digests() -> dict:
    """SHA-256 of each compiled module's source, as the build's manifest records them."""
    return {m: hashlib.sha256((HERE / f"{m}.py").read_bytes()).hexdigest() for m in COMPILED}


def select(path: list) -> str:
    """Put the compiled modules ahead of the sources on `path` (the package's __path__)
    when they may run; return the build that runs ("compiled" or "pure")."""
    global BUILD, REASON
    if os.environ.get("KGK_ENGINE_PURE"):
        REASON = "KGK_ENGINE_PURE is set"
        return BUILD
    manifest_file = OUT / "manifest.json"
    if not manifest_file.is_file():
        REASON = "no compiled build (make setup makes it)"
        return BUILD
    try:
        manifest = json.loads(manifest_file.read_text())
    except ValueError:
        REASON = "unreadable build manifest"
        return BUILD
    if manifest.get("cache_tag") != sys.implementation.cache_tag:
        REASON = f"the build is for {manifest.get('cache_tag')}, not {sys.implementation.cache_tag}"
        return BUILD
    built = manifest.get("sources", {})
    changed = sorted(m for m, digest in source_digests().items() if built.get(m) != digest)
    if changed:
        REASON = f"stale build: changed since it was built: {', '.join(changed)}"
        warnings.warn(
            f"engine: {REASON}; running the pure-Python engine (`make setup` rebuilds)",
            RuntimeWarning,
            stacklevel=2,
        )
        return BUILD
    name = f"{GROUP}__mypyc"
    if name not in sys.modules:  # the build's shared library, which each module's shim imports
        library = OUT / manifest["library"]
        loader = importlib.machinery.ExtensionFileLoader(name, str(library))
        spec = importlib.util.spec_from_file_location(name, library, loader=loader)
        assert spec is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            loader.exec_module(module)
        except ImportError as error:
            del sys.modules[name]
            REASON = f"the build does not load: {error}"
            return BUILD
    path.insert(0, str(OUT / "engine"))
    BUILD = "compiled"
    REASON = f"built {manifest.get('built', '?')} by mypyc {manifest.get('mypy', '?')}"
    return BUILD
