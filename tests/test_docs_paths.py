"""A clone can follow its own docs: every link between the docs and every repository path they
name in backticks ("`matches/push.py`") exists, so a moved or renamed module cannot leave the
architecture page, the README or the rules reference pointing at nothing (issue 36)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "engine" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")  # [text](target#anchor)
# A path with at least one folder and a file's suffix, in backticks; <edition>-style parts
# and * stand for any name.
PATH = re.compile(r"`((?:[\w.-]+/)+[\w.*<>-]+\.(?:py|md|json|js|css|html|txt))`")


def missing_targets(doc: Path) -> list[str]:
    text = doc.read_text(encoding="utf-8")
    missing = []
    for target in LINK.findall(text):
        if "://" not in target and not (doc.parent / target).exists():
            missing.append(f"link {target}")
    for path in PATH.findall(text):
        pattern = re.sub(r"<[^>]+>", "*", path)
        if not any(ROOT.glob(pattern)) and not any(doc.parent.glob(pattern)):
            missing.append(f"path {path}")
    return missing


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: str(doc.relative_to(ROOT)))
def test_every_link_and_path_in_the_docs_exists(doc):
    assert not missing_targets(doc)


def test_a_path_that_does_not_exist_is_caught(tmp_path):
    doc = tmp_path / "page.md"
    doc.write_text("See `matches/no_such_module.py` and [this](nowhere.md).", encoding="utf-8")
    assert missing_targets(doc) == ["link nowhere.md", "path matches/no_such_module.py"]
