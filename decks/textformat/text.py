"""The text format: one card line per card (`3 Cobra Flash`), read and written.

This is the one grammar of a card line on the site: deck lists (pasted, uploaded,
imported through the API) and the collection form read lines with it.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass

from cards_data.search.normalize import fold
from engine.catalog import TYPES

from .collector import DECK_COUNTS, Collector, CountRule
from .common import (
    HEADER_TYPO_CUTOFF,
    MAX_LINE_LENGTH,
    MAX_LINES,
    LineError,
    ParseResult,
    control_character,
    echo,
    message,
)
from .index import CardIndex

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_COMMENT = re.compile(r"#|//")
_COUNT_FIRST_X = re.compile(r"([+-]?[0-9]+)\s*[xX×]\s+(\S.*)")  # 3x Name, 3 x Name
_COUNT_FIRST = re.compile(r"([+-]?[0-9]+)\s+(\S.*)")  # 3 Name
_COUNT_LAST = re.compile(r"(.*\S)\s+[xX×]\s*([+-]?[0-9]+)")  # Name x3
_HEADER_COUNT = re.compile(r"(.*?)\s*\(\s*([0-9]+)\s*\)")  # Ships (12)


def _candidates(body: str):
    """(count text or None, name) readings of a card line, most literal first."""
    yield None, body
    for pattern in (_COUNT_FIRST_X, _COUNT_FIRST):
        match = pattern.fullmatch(body)
        if match:
            yield match.group(1), match.group(2)
    match = _COUNT_LAST.fullmatch(body)
    if match:
        yield match.group(2), match.group(1)


@dataclass
class _Reading:
    card: dict | None
    count_text: str | None
    name: str


def _read(body: str, index: CardIndex) -> _Reading:
    """The first reading of `body` whose name resolves; else the likeliest reading."""
    readings = list(_candidates(body))
    for count_text, name in readings:
        card = index.resolve(name)
        if card is not None:
            return _Reading(card, count_text, name)
    count_text, name = readings[1] if len(readings) > 1 else readings[0]
    return _Reading(None, count_text, name)


def _count(count_text: str | None, rule: CountRule) -> int | None:
    """The count a line asks for, or None if out of the rule's range."""
    if count_text is None:
        return 1
    digits = count_text.lstrip("+-").lstrip("0")
    if count_text.startswith("-") or len(digits) > len(str(rule.maximum)):
        return None
    value = int(digits or "0")
    return value if rule.minimum <= value <= rule.maximum else None


def _header_text(body: str) -> tuple[str, str | None] | None:
    """(what it names, its count) if `body` is shaped like a section header
    (`Ships:`, `Űrhajók (12)`, `Ships (12):`), else None."""
    text = body
    colon = text.endswith(":")
    if colon:
        text = text[:-1].rstrip()
    match = _HEADER_COUNT.fullmatch(text)
    if match:
        return match.group(1), match.group(2)
    return (text, None) if colon else None


def parse_decklist(
    text: str, index: CardIndex, max_lines: int = MAX_LINES, counts: CountRule = DECK_COUNTS
) -> ParseResult:
    """Read a pasted or uploaded deck list (or, with other `counts`, any list of cards:
    the collection form reads owned counts with it).

    One card per line: `3 Cobra Flash`, `3x Cobra Flash`, `3 x Cobra Flash`,
    `Cobra Flash x3`, `Cobra Flash` (one copy), `3 KG1-214` (by code); names in
    Hungarian or English, accents and case optional. `#` and `//` start comments;
    blank lines and section headers (`Ships:`, `Űrhajók (12)`) are skipped, but only
    when what they name is not a card. Repeated cards are merged.
    """
    if not isinstance(text, str):
        raise TypeError("parse_decklist reads text: decode uploads with decode_upload first")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    collector = Collector(rule=counts)
    if len(lines) > max_lines:
        problem = message("too_many_lines", count=len(lines), max=max_lines)
        collector.errors.append(LineError(max_lines + 1, "", problem))
        return collector.result()
    for line_no, line in enumerate(lines, 1):
        _parse_line(line_no, line, index, collector)
    return collector.result()


def _parse_line(line_no: int, line: str, index: CardIndex, collector: Collector):
    bad = control_character(line)
    if bad:
        column, char = bad
        problem = message("control_character", char=char, column=column)
        return collector.error(line_no, line, problem)
    comment = _COMMENT.search(line)
    body = (line[: comment.start()] if comment else line).strip()
    if not body:
        return
    if len(body) > MAX_LINE_LENGTH:
        problem = message("line_too_long", length=len(body), max=MAX_LINE_LENGTH)
        return collector.error(line_no, line, problem)
    header = _header_text(body)
    if header is not None:
        return _header_line(*header, index, collector, line_no, line)
    reading = _read(body, index)
    if reading.card is None:
        if not any(ch.isalpha() for ch in reading.name):
            return collector.error(line_no, line, message("unparsable", text=echo(body)))
        return collector.unknown(line_no, line, reading.name, index)
    rule = collector.rule
    if reading.count_text is None and rule.required:
        problem = message("count_missing", name=reading.card["name"])
        return collector.error(line_no, line, problem)
    count = _count(reading.count_text, rule)
    if count is None:
        problem = message(
            rule.out_of_range,
            count=echo(reading.count_text, 10),
            name=reading.card["name"],
            min=rule.minimum,
            max=rule.maximum,
        )
        return collector.error(line_no, line, problem)
    collector.add(line_no, line, reading.card, count)


def _header_line(
    header: str, header_count, index: CardIndex, collector: Collector, line_no: int, line: str
):
    """A line shaped like a section header is skipped only if it names no card.

    One that names a card (`Cobra Flash (3)`, `3 Cobra Flash:`) is an error, as is
    one that starts with a count or is within a typo of a card name (reported as an
    unknown card); it is never silently read as a card line or dropped.
    """
    if not any(ch.isalpha() for ch in header):
        return collector.error(line_no, line, message("unparsable", text=echo(line.strip())))
    reading = _read(header, index)
    if reading.card is not None:
        count = reading.count_text or header_count or "1"
        example = f"{count.lstrip('+')} {reading.name}"
        problem = message("header_names_card", text=echo(header), example=echo(example))
        return collector.error(line_no, line, problem)
    if reading.count_text is not None:
        return collector.unknown(line_no, line, reading.name, index)
    if fold(header) in KNOWN_HEADERS:
        return
    close = collector.suggest(index, header, cutoff=HEADER_TYPO_CUTOFF)
    if close is None or close:  # a typo of a card name, or no budget left to tell
        return collector.unknown(line_no, line, reading.name, index)


# --------------------------------------------------------------------------- export

# R 4.1: the six types in rulebook order, as section headers.
TYPE_HEADERS = {
    "ship": {"hu": "Űrhajók", "en": "Ships"},
    "armament": {"hu": "Fegyverzetek", "en": "Armaments"},
    "crew": {"hu": "Legénység", "en": "Crew"},
    "base": {"hu": "Bázisok", "en": "Bases"},
    "event": {"hu": "Események", "en": "Events"},
    "interrupt": {"hu": "Megszakítások", "en": "Interrupts"},
}
OTHER_HEADER = {"hu": "Egyéb", "en": "Other"}
TYPE_ORDER = {type_: position for position, type_ in enumerate(TYPES)}
LANGUAGES = ("hu", "en")
# Section headers that are never mistaken for a card typo ("Armaments" ~ "Rearmament").
KNOWN_HEADERS = frozenset(
    fold(name)
    for names in [*TYPE_HEADERS.values(), OTHER_HEADER, *TYPES.values()]
    for name in names.values()
)


def _numeric_cost(card: dict) -> int | None:
    cost = card.get("credit_cost")
    return cost if isinstance(cost, int) and not isinstance(cost, bool) else None


def _merged(entries: Iterable[tuple[dict, int]]) -> list[tuple[dict, int]]:
    """(card, count) pairs merged by code; counts must be positive whole numbers."""
    cards: dict[str, dict] = {}
    counts: dict[str, int] = {}
    for card, count in entries:
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise ValueError(f"count for {card.get('code')!r} must be a positive int: {count!r}")
        cards.setdefault(card["code"], card)
        counts[card["code"]] = counts.get(card["code"], 0) + count
    return [(cards[code], count) for code, count in counts.items()]


def sort_entries(entries: Iterable[tuple[dict, int]]) -> list[tuple[dict, int]]:
    """Export order: by type in rulebook order (R 4.1), then credit cost (variable
    last), then name; entries with the same code are merged."""

    def key(entry):
        card = entry[0]
        cost = _numeric_cost(card)
        return (
            TYPE_ORDER.get(card.get("type"), len(TYPE_ORDER)),
            cost is None,
            cost or 0,
            fold(card["name"]),
            card["code"],
        )

    return sorted(_merged(entries), key=key)


def _text_name(card: dict, lang: str) -> str:
    """The name to write, or the code when the name would not read back as itself."""
    name = (card.get("name_en") if lang == "en" else None) or card["name"]
    if (
        not name
        or name != name.strip()
        or _COMMENT.search(name)
        or control_character(name)
        or _header_text(name) is not None
        or len(name) > MAX_LINE_LENGTH - 4
    ):
        return card["code"]
    return name


def export_text(entries: Iterable[tuple[dict, int]], lang: str = "hu") -> str:
    """The deck as text: `# Űrhajók (12)` / `# Ships (12)` sections in rulebook
    order, `3 Name` lines. `parse_decklist` reads it back to the same entries."""
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}")
    groups: dict[str | None, list[tuple[dict, int]]] = {}
    for card, count in sort_entries(entries):
        type_ = card.get("type") if card.get("type") in TYPE_HEADERS else None
        groups.setdefault(type_, []).append((card, count))
    blocks = []
    for type_, group in groups.items():
        header = (TYPE_HEADERS[type_] if type_ else OTHER_HEADER)[lang]
        lines = [f"# {header} ({sum(count for _, count in group)})"]
        lines += [f"{count} {_text_name(card, lang)}" for card, count in group]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n" if blocks else ""
