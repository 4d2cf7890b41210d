"""docs/rules.md is the rules reference a clone has: every rule number that the code, the
tests, the pages' scripts, the translations, the card data and the other docs cite ("R 11.4.4.6",
"§22", "AMB-23", "EX-5", "T-7") is defined there, so a citation never points at nothing."""

import functools
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "rules.md"
CITING_SUFFIXES = {".py", ".js", ".css", ".html", ".txt", ".po", ".json", ".md"}
NOT_OURS = {"build", "node_modules", "staticfiles", "test-results", "__pycache__"}  # and .*

# "R 11.4.4.6", "R 16" (a whole section), "§22"; "R1" without the space is a round.
RULE_CITED = re.compile(r"(?:\bR |§ ?)(\d+(?:\.\d+)*)\b(?!\.\d)")
LABEL_CITED = re.compile(r"\b(AMB-\d+|EX-\d+|T-\d{1,2})\b")

# Where the reference defines a number: a section heading ("## 11. The turn",
# "### 11.4 Combat") or a bold number opening a line or a list item ("**11.4.4.6.2** ...",
# "- **AMB-23 Burst fire's limit.**", "**EX-5 A chain in a shot.**").
RULE_DEFINED = re.compile(r"^(?:#{2,3} |\s*(?:- )?\*\*)(\d+(?:\.\d+)*)\b", re.MULTILINE)
LABEL_DEFINED = re.compile(r"^\s*(?:- )?\*\*(AMB-\d+|EX-\d+|T-\d+)\b", re.MULTILINE)


@functools.cache
def defined_numbers():
    text = REFERENCE.read_text(encoding="utf-8")
    return set(RULE_DEFINED.findall(text)), set(LABEL_DEFINED.findall(text))


def citing_files():
    for folder, subfolders, names in os.walk(ROOT):
        subfolders[:] = [d for d in subfolders if d not in NOT_OURS and not d.startswith(".")]
        for name in names:
            path = Path(folder, name)
            if path.suffix in CITING_SUFFIXES and path not in (REFERENCE, Path(__file__)):
                yield path.relative_to(ROOT), path.read_text(encoding="utf-8", errors="replace")


@functools.cache
def citations():
    """{cited number: first file citing it} for the rule numbers and the labels."""
    rules, labels = {}, {}
    for relative, text in citing_files():
        for number in RULE_CITED.findall(text):
            rules.setdefault(number, str(relative))
        for label in LABEL_CITED.findall(text):
            labels.setdefault(label, str(relative))
    return rules, labels


def test_every_cited_rule_number_is_in_the_reference():
    defined, _ = defined_numbers()
    cited, _ = citations()
    missing = {number: where for number, where in cited.items() if number not in defined}
    assert not missing, f"cited but not in docs/rules.md: {missing}"


def test_every_cited_decision_and_example_is_in_the_reference():
    _, defined = defined_numbers()
    _, cited = citations()
    missing = {label: where for label, where in cited.items() if label not in defined}
    assert not missing, f"cited but not in docs/rules.md: {missing}"


@pytest.mark.parametrize(
    "number",
    ["0.6", "4.7.3.4", "11.4.4.6.7", "11.5.7", "12.9", "17.1.6", "18.7", "19.23", "21.3"],
)
def test_the_reference_defines_each_level_of_numbering(number):
    """The definition patterns above find rules at every depth the reference uses."""
    assert number in defined_numbers()[0]


def test_the_reference_keeps_every_decided_ambiguity():
    """§22: AMB-01 to AMB-56, none lost, each with its reading."""
    _, labels = defined_numbers()
    assert {f"AMB-{n:02d}" for n in range(1, 57)} <= labels


def test_a_number_the_reference_lacks_is_caught():
    """The check can fail: a citation of a rule that does not exist is reported."""
    defined, _ = defined_numbers()
    assert RULE_CITED.findall("the rule R 11.4.9, R 3 and §24") == ["11.4.9", "3", "24"]
    assert "11.4.9" not in defined and "24" not in defined
