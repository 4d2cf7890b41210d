"""Every message a person can read has a Hungarian translation.

Two checks: each entry of every Hungarian catalogue has a msgstr (none fuzzy), and every
literal message the code hands to gettext (Python `_()`/`gettext()`/`ngettext()`… and
templates' `{% translate "…" %}`) is in one of those catalogues. There is no xgettext
here, so the Python side reads the code with `ast` and the template side with a regex.
"""

import ast
import re
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
SKIP_DIRS = {".venv", "tests", "bench", "node_modules", "staticfiles", "scripts"}
GETTEXT_NAMES = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext",
                 "ngettext_forms"}  # fmt: skip
TRANSLATE_TAG = re.compile(
    r"""{%\s*translate\s+(["'])(.+?)\1(?:\s+(?:as|context|noop)\b[^%]*)?\s*%}"""
)


def hungarian_catalogues() -> list[Path]:
    return sorted(ROOT.glob("locale/hu/LC_MESSAGES/*.po")) + sorted(
        ROOT.glob("*/locale/hu/LC_MESSAGES/*.po")
    )


def catalogue_ids() -> set[str]:
    ids = set()
    for path in hungarian_catalogues():
        ids |= {e.msgid for e in polib.pofile(str(path)) if not e.obsolete}
    return ids


def own_files(pattern: str):
    for path in ROOT.rglob(pattern):
        if not SKIP_DIRS & set(path.relative_to(ROOT).parts):
            yield path


def python_messages():
    for path in own_files("*.py"):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in GETTEXT_NAMES:
                continue
            first = node.args[1] if name == "pgettext" and len(node.args) > 1 else node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                yield f"{path.relative_to(ROOT)}:{node.lineno}", first.value


def template_messages():
    for path in own_files("*.html"):
        for match in TRANSLATE_TAG.finditer(path.read_text()):
            yield str(path.relative_to(ROOT)), match.group(2)


@pytest.mark.parametrize("path", hungarian_catalogues(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_hungarian_entry_is_translated(path):
    po = polib.pofile(str(path))
    missing = [e.msgid for e in po if not e.obsolete and (not e.translated() or e.fuzzy)]
    assert not missing, f"{path}: untranslated {missing[:10]}"


def test_every_message_in_the_code_is_in_a_hungarian_catalogue():
    known = catalogue_ids()
    # a template's {% translate "95% CI" %} is catalogued with its % doubled
    found = [(where, text, text) for where, text in python_messages()]
    found += [(where, text, text.replace("%", "%%")) for where, text in template_messages()]
    missing = sorted(
        {
            f"{where}: {text!r}"
            for where, text, msgid in found
            if text not in known and msgid not in known
        }
    )
    assert not missing, "messages with no Hungarian translation:\n" + "\n".join(missing[:40])


# RULES.md's numbering ("R 18.4"): an engineers' reference, a code to a player (the browser
# walkthrough checks its pages with the same pattern)
RULE_NUMBER = re.compile(r"\bR \d+(\.\d+)*\b")


def test_no_message_a_person_reads_cites_a_rule_number():
    """ "R 18.4" is RULES.md's numbering, an engineers' reference: a player has no rules text
    numbered that way, so on a page it is a code to them. The catalogues' entries (both
    languages) and the code's messages keep the sentence and leave the number out."""
    entries = [e for path in hungarian_catalogues() for e in polib.pofile(str(path))]
    entries += list(polib.pofile(str(ROOT / "locale/en/LC_MESSAGES/django.po")))
    texts = [t for e in entries if not e.obsolete
             for t in (e.msgid, e.msgid_plural, e.msgstr, *e.msgstr_plural.values()) if t]  # fmt: skip
    texts += [text for _where, text in [*python_messages(), *template_messages()]]
    cited = sorted({t for t in texts if RULE_NUMBER.search(t)})
    assert not cited, cited[:10]
