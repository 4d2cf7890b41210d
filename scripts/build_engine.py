"""Compile the rules engine with mypyc into build/engine-mypyc/ (issue 18; engine/_build.py).

    .venv/bin/python scripts/build_engine.py [--force]

`make setup` runs it. The modules of ``engine._build.COMPILED`` are compiled from engine/
as they are (the same sources the pure-Python engine runs) into a build directory apart from
the sources, with a manifest of the SHA-256 of each source; engine/_build.py uses the build
only while every source still matches. Up to date (same sources, same Python): nothing to do.
Without mypyc (or a C compiler) it says so and exits 0: the engine then runs as pure Python.
"""

import argparse
import hashlib
import json
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["KGK_ENGINE_PURE"] = "1"  # import the sources' engine._build, never a build

from engine import _build  # noqa: E402


def up_to_date() -> bool:
    try:
        manifest = json.loads((_build.OUT / "manifest.json").read_text())
    except (OSError, ValueError):
        return False
    return (
        manifest.get("cache_tag") == sys.implementation.cache_tag
        and manifest.get("sources") == _build.source_digests()
        and manifest.get("checked") == checked_digests()
        and (_build.OUT / manifest.get("library", "-")).is_file()
    )


def checked_digests() -> dict:
    """SHA-256 of every engine module, compiled or not: mypyc type-checks the compiled
    modules together with what they import (engine.search through engine.bots), so a change
    to a module that only runs as Python can still stop the build. The runtime's staleness
    check (engine/_build.py) stays on the compiled modules: only they are in the build.
    Twice a merge that changed only engine/search.py said "up to date" here and then
    stopped CI's fresh build on a type error."""
    return {
        path.stem: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted((ROOT / "engine").glob("*.py"))
    }


def build() -> int:
    try:
        import mypy.version
        from mypyc.build import mypycify
        from setuptools import setup
    except ImportError as error:
        print(f"build_engine: no mypyc ({error}): the engine runs as pure Python")
        return 0
    sources = _build.source_digests()  # before compiling: an edit meanwhile makes it stale
    checked = checked_digests()
    work = ROOT / "build" / "engine-work"
    staged = ROOT / "build" / "engine-mypyc.new"
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(staged, ignore_errors=True)
    started = time.perf_counter()
    work.mkdir(parents=True)
    cwd = os.getcwd()
    os.chdir(work)  # mypy's cache and setuptools' project files: the work directory's
    try:
        extensions = mypycify(  # modules named by their packages: engine/game.py -> engine.game
            [str(ROOT / "engine" / f"{m}.py") for m in _build.COMPILED],
            group_name=_build.GROUP,
            target_dir=str(work / "c"),
            multi_file=True,  # a C file per module: compiled in parallel (-j)
        )
        setup(
            name="kgk-engine-mypyc",
            ext_modules=extensions,
            script_args=[
                "--quiet",
                "build_ext",
                "--build-lib",
                str(staged),
                "--build-temp",
                str(work / "temp"),
                "--parallel",
                str(os.cpu_count() or 1),
            ],
        )
    finally:
        os.chdir(cwd)
    library = sorted(p.name for p in staged.glob(f"{_build.GROUP}__mypyc*"))
    if len(library) != 1:
        print(f"build_engine: no shared library in {staged}: {library}", file=sys.stderr)
        return 1
    manifest = {
        "cache_tag": sys.implementation.cache_tag,
        "mypy": mypy.version.__version__,
        "built": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "library": library[0],
        "sources": sources,
        "checked": checked,
    }
    (staged / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    shutil.rmtree(_build.OUT, ignore_errors=True)
    staged.rename(_build.OUT)
    shutil.rmtree(work, ignore_errors=True)
    print(
        f"build_engine: compiled {len(_build.COMPILED)} modules into "
        f"{_build.OUT.relative_to(ROOT)} in {time.perf_counter() - started:.0f} s"
    )
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--force", action="store_true", help="rebuild even when up to date")
    args = parser.parse_args(argv)
    if not args.force and up_to_date():
        print(f"build_engine: {_build.OUT.relative_to(ROOT)} is up to date")
        return 0
    try:
        status = build()
    except (Exception, SystemExit) as exc:  # mypyc exits on a type error
        status = exc.code if isinstance(exc, SystemExit) else 1
        print(f"build_engine: the build failed ({exc!r})", file=sys.stderr)
    if status and os.environ.get("CI") != "true":
        # a developer's `make run` must not stop on a type error: the pure engine serves
        # (CI fails instead, so the compiled build stays buildable)
        print("build_engine: the engine runs as pure Python", file=sys.stderr)
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
