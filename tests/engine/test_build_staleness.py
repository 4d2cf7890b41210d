"""The compiled engine's builder (scripts/build_engine.py) rebuilds when any engine module
changed, not only a compiled one: mypyc type-checks what the compiled modules import
(engine.search through engine.bots), and a merge that changed only search.py stopped CI's
fresh build twice while the local build said "up to date"."""

import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _builder(monkeypatch):
    # the script sets KGK_ENGINE_PURE for itself: undone after the test, or the processes
    # later tests start would run the pure engine
    monkeypatch.setenv("KGK_ENGINE_PURE", "1")
    spec = importlib.util.spec_from_file_location(
        "build_engine", ROOT / "scripts" / "build_engine.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_change_to_a_module_that_is_not_compiled_makes_the_build_stale(tmp_path, monkeypatch):
    builder = _builder(monkeypatch)
    monkeypatch.setattr(builder._build, "OUT", tmp_path)
    (tmp_path / "lib.so").write_bytes(b"")
    checked = builder.checked_digests()
    assert "search" in checked and "search" not in builder._build.COMPILED
    manifest = {
        "cache_tag": sys.implementation.cache_tag,
        "library": "lib.so",
        "sources": builder._build.source_digests(),
        "checked": checked,
    }
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    assert builder.up_to_date()
    manifest["checked"] = {**checked, "search": "0" * 64}  # search.py edited since the build
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    assert not builder.up_to_date()
