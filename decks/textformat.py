"""Colony (deck) lists in and out: plain text, JSON and share codes.

Pure Python (no Django, no database), like `engine`, so that the views, the API,
scripts and tests all read and write decks the same way. Nothing here decides
legality (R 9): a parsed list is handed to `engine.deck.check_deck`. The only
bound enforced here is input sanity: one line may not ask for more copies of a
card than a whole colony holds (R 9.1, 45), which also keeps share codes small.

Readers never raise on bad content. They return a `ParseResult` whose `errors`
say, line by line, what could not be read: nothing is silently dropped (every
non-blank, non-comment line is an entry or an error). `DecklistError` is raised
only where there is no text to speak of yet (`decode_upload`) or by the writers
when given impossible input.

Every user-facing message is in `MESSAGES` (English, %-style named parameters),
so the web layer can wrap them in gettext in one place.
"""

import base64
import codecs
import difflib
import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.utils.translation import gettext, gettext_noop

from cardgame.hungarian import articles
from cards_data.search.normalize import fold
from engine.catalog import TYPES
from engine.deck import DECK_SIZE

from .play import RULESETS

MAX_LINES = 1000
MAX_LINE_LENGTH = 200  # characters of a card line (comments excluded)
MAX_COUNT = DECK_SIZE  # sanity bound per card: no more copies than a whole colony (R 9.1)
MAX_UPLOAD_BYTES = 1_000_000
MAX_SHARE_CODE_LENGTH = 4000
SUGGESTIONS = 3  # "did you mean" names per unknown card
SUGGESTION_CUTOFF = 0.6  # difflib's default similarity
HEADER_TYPO_CUTOFF = 0.8  # a "header" this close to a card name is reported as a typo
# difflib look-ups per list (~1 ms each): bounds the time a list of junk lines costs.
# Past it, unknown cards get no suggestions and header-shaped lines are reported.
SUGGESTION_BUDGET = 200

JSON_FORMAT = "kgk-deck"
JSON_VERSION = 1
SHARE_CODE_VERSION = "1"

# --------------------------------------------------------------------------- messages

# English source strings, %-formatted with named parameters, translated by message().
MESSAGES = {
    "at_line": gettext_noop("Line %(line_no)d: %(problem)s"),
    "at_card": gettext_noop('Card %(line_no)d in "cards": %(problem)s'),
    "at_share": gettext_noop("Card %(line_no)d of the share code: %(problem)s"),
    "too_many_lines": gettext_noop(
        "The list has %(count)d lines; at most %(max)d are allowed. Nothing was imported."
    ),
    "control_character": gettext_noop(
        "contains the control character %(char)s at column %(column)d. Remove it (it is often invisible)."
    ),
    "line_too_long": gettext_noop(
        "is %(length)d characters long; a card line may have at most %(max)d."
    ),
    "unparsable": gettext_noop(
        'cannot read "%(text)s". Write a count and a card name or code, e.g. "3 Cobra Flash" or "3 KG1-214".'
    ),
    "unknown_card": gettext_noop('unknown card "%(name)s".'),
    "did_you_mean": gettext_noop("Did you mean: %(names)s?"),
    "count_out_of_range": gettext_noop(
        'the count %(count)s for "%(name)s" must be between 1 and %(max)d.'
    ),
    "total_too_high": gettext_noop(
        '"%(name)s" now adds up to %(total)d copies in this list; at most %(max)d are possible.'
    ),
    "header_names_card": gettext_noop(
        '"%(text)s" looks like a section header but names a card. Write card lines as "%(example)s".'
    ),
    "upload_too_large": gettext_noop("The file is %(size)d bytes; at most %(max)d are allowed."),
    "upload_utf16": gettext_noop("The file is UTF-16 text. Save it as UTF-8 and upload it again."),
    "upload_not_utf8": gettext_noop(
        "The file is not UTF-8 text: byte 0x%(byte)02X at offset %(offset)d (line %(line)d) is invalid. Save it as UTF-8 and upload it again."
    ),
    "json_syntax": gettext_noop(
        "Line %(line_no)d: not valid JSON: %(detail)s (column %(column)d)."
    ),
    "json_too_deep": gettext_noop("The JSON is nested too deeply."),
    "json_invalid": gettext_noop("The JSON cannot be read: %(detail)s."),
    "json_not_object": gettext_noop(
        "The JSON must be an object with a \"format\" of '%(format)s'."
    ),
    "json_wrong_format": gettext_noop("The JSON is not a deck: \"format\" must be '%(format)s'."),
    "json_wrong_version": gettext_noop(
        "Unsupported deck format version %(version)s; this site reads version %(supported)d."
    ),
    "json_bad_name": gettext_noop('"name" must be a text of at most %(max)d characters.'),
    "json_bad_ruleset": gettext_noop('"ruleset" must be one of %(rulesets)s.'),
    "json_bad_cards": gettext_noop('"cards" must be a list.'),
    "json_too_many_cards": gettext_noop(
        "The deck lists %(count)d cards; at most %(max)d are allowed. Nothing was imported."
    ),
    "json_entry_not_object": gettext_noop(
        'each card must be an object with "code", "count" and "name".'
    ),
    "json_entry_no_reference": gettext_noop('a card needs a "code" or a "name".'),
    "json_entry_bad_count": gettext_noop(
        '"count" must be a whole number from 1 to %(max)d, not %(count)s.'
    ),
    "share_empty": gettext_noop("The share code is empty."),
    "share_too_long": gettext_noop(
        "The share code is %(length)d characters long; at most %(max)d are allowed."
    ),
    "share_version": gettext_noop(
        "This is not a share code this site can read: it should start with '%(expected)s', not '%(version)s'. (It may come from a newer version of the site.)"
    ),
    "share_bad_character": gettext_noop(
        "The share code contains an invalid character '%(char)s' at position %(position)d."
    ),
    "share_corrupt": gettext_noop(
        "The share code is damaged (%(detail)s). Was it copied completely?"
    ),
    "share_unknown_card": gettext_noop('unknown card code "%(code)s".'),
}


def message(key: str, **params) -> str:
    """The user-facing text for `key`, in the active language."""
    return articles(gettext(MESSAGES[key]) % params)


class DecklistError(ValueError):
    """Input that cannot be read at all; `str(error)` is usable as-is in a 400 response."""

    def __init__(self, text: str, *, offset: int | None = None):
        super().__init__(text)
        self.message = text
        self.offset = offset


@dataclass(frozen=True)
class LineError:
    """One line (text), one card entry (JSON, `line_no` = its position in "cards")
    or the whole input (`line_no` = 0) that could not be read."""

    line_no: int
    line: str
    message: str
    suggestions: tuple[str, ...] = ()
    # the message without its "Did you mean: ...?" sentence, for a page that shows the
    # suggestions as buttons (the API sends both; no script parses a sentence)
    problem: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.message


@dataclass
class ParseResult:
    """`entries`: (card code, count) pairs, merged, in order of first appearance."""

    entries: list[tuple[str, int]] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)
    meta: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors


# --------------------------------------------------------------------------- card index


def _loose_key(text: str) -> str:
    """`Mamut I` ~ `Mamut I.`, `Queens Barge` ~ `Queen's Barge`: folding without punctuation."""
    folded = re.sub(r"['\u2019\u02bc`\u00b4]", "", fold(text))  # apostrophes join
    return " ".join(re.sub(r"[\W_]+", " ", folded).split())


class CardIndex:
    """Resolves what a user wrote to a card: a code (`kg1-214`), a Hungarian name or
    an English name, accent-, case- and whitespace-insensitively (`fold`).

    Exact folded matches are tried in that order (a Hungarian name beats another
    card's equal English name); then, if unambiguous, the same without punctuation.
    When several printings share a name (R 9.2 counts them as one card), the name
    resolves to the first one given; codes always pick the exact printing.
    """

    def __init__(self, cards: Iterable[dict]):
        self.cards: list[dict] = list(cards)
        self._by_code: dict[str, dict] = {}
        self._by_name: dict[str, dict] = {}
        self._display: dict[str, str] = {}  # folded name -> name as printed, in its language
        loose: dict[str, dict] = {}
        loose_names: dict[str, set[str]] = {}
        for card in self.cards:
            key = fold(card["code"])
            if key in self._by_code:
                raise ValueError(f"duplicate card code {card['code']!r}")
            self._by_code[key] = card
        for name_field in ("name", "name_en"):  # Hungarian first
            for card in self.cards:
                name = card.get(name_field)
                if not name:
                    continue
                key = fold(name)
                self._by_name.setdefault(key, card)
                self._display.setdefault(key, name)
                lkey = _loose_key(name)
                loose.setdefault(lkey, card)
                loose_names.setdefault(lkey, set()).add(fold(card["name"]))
        self._loose = {k: card for k, card in loose.items() if len(loose_names[k]) == 1}
        self._choices = list(self._display)
        self._suggestions: dict[str, tuple[str, ...]] = {}

    def __len__(self) -> int:
        return len(self.cards)

    def get(self, code: str) -> dict | None:
        """The card with this code (case-insensitive), or None."""
        return self._by_code.get(fold(code))

    def resolve(self, reference: str) -> dict | None:
        """The card a code or name refers to, or None."""
        key = fold(reference)
        if not key:
            return None
        card = self._by_code.get(key) or self._by_name.get(key)
        if card is None:
            card = self._loose.get(_loose_key(reference))
        return card

    def suggest(self, reference: str, n: int = SUGGESTIONS, cutoff: float = SUGGESTION_CUTOFF):
        """The `n` names closest to `reference` (difflib on folded names), each shown in
        the language it matched."""
        key = fold(reference)
        cache_key = f"{n}|{cutoff}|{key}"
        if cache_key not in self._suggestions:
            close = difflib.get_close_matches(key, self._choices, n=n, cutoff=cutoff)
            self._suggestions[cache_key] = tuple(self._display[k] for k in close)
        return self._suggestions[cache_key]


# --------------------------------------------------------------------------- text format

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_COMMENT = re.compile(r"#|//")
_COUNT_FIRST_X = re.compile(r"([+-]?[0-9]+)\s*[xX×]\s+(\S.*)")  # 3x Name, 3 x Name
_COUNT_FIRST = re.compile(r"([+-]?[0-9]+)\s+(\S.*)")  # 3 Name
_COUNT_LAST = re.compile(r"(.*\S)\s+[xX×]\s*([+-]?[0-9]+)")  # Name x3
_HEADER_COUNT = re.compile(r"(.*?)\s*\(\s*([0-9]+)\s*\)")  # Ships (12)
_ALLOWED_NONPRINTABLE = {"Zs", "Co", "Cn"}  # spaces, private use, unassigned
SHOWN_LENGTH = 80


def _shown(text: str, length: int = SHOWN_LENGTH) -> str:
    """User input as echoed in a message: no control characters, not too long."""
    if not text.isprintable():
        text = "".join(
            ch
            if ch.isprintable() or unicodedata.category(ch) in _ALLOWED_NONPRINTABLE
            else "\ufffd"
            for ch in text
        )
    return text if len(text) <= length else text[: length - 1] + "…"


def _control_character(line: str) -> tuple[int, str] | None:
    """(1-based column, "U+0000") of the first control/format character, if any."""
    if line.isprintable():
        return None
    for column, ch in enumerate(line, 1):
        if ch == "\t" or ch == " ":
            continue
        if not ch.isprintable() and unicodedata.category(ch) not in _ALLOWED_NONPRINTABLE:
            return column, f"U+{ord(ch):04X}"
    return None


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


def _count(count_text: str | None) -> int | None:
    """The count a line asks for, or None if out of range (1..MAX_COUNT)."""
    if count_text is None:
        return 1
    digits = count_text.lstrip("+-").lstrip("0")
    if count_text.startswith("-") or len(digits) > 3:
        return None
    value = int(digits or "0")
    return value if 1 <= value <= MAX_COUNT else None


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


class _Collector:
    """Merges entries by code (summing counts) and gathers errors."""

    def __init__(self, where: str = "at_line"):
        self.where = where
        self.counts: dict[str, int] = {}
        self.errors: list[LineError] = []
        self.budget = SUGGESTION_BUDGET

    def suggest(self, index: CardIndex, name: str, cutoff: float = SUGGESTION_CUTOFF):
        """index.suggest within the budget; None once it is spent."""
        if self.budget <= 0:
            return None
        self.budget -= 1
        return index.suggest(name, cutoff=cutoff)

    def error(self, line_no: int, line: str, problem: str, suggestions=()):
        text = message(self.where, line_no=line_no, problem=problem)
        full = text
        if suggestions:
            full += " " + message("did_you_mean", names=", ".join(suggestions))
        self.errors.append(
            LineError(line_no, _shown(line, MAX_LINE_LENGTH), full, tuple(suggestions), text)
        )

    def add(self, line_no: int, line: str, card: dict, count: int):
        code = card["code"]
        total = self.counts.get(code, 0) + count
        if total > MAX_COUNT:
            problem = message("total_too_high", name=card["name"], total=total, max=MAX_COUNT)
            self.error(line_no, line, problem)
            return
        self.counts[code] = total

    def unknown(self, line_no: int, line: str, name: str, index: CardIndex):
        problem = message("unknown_card", name=_shown(name))
        self.error(line_no, line, problem, self.suggest(index, name) or ())

    def result(self, meta: dict | None = None) -> ParseResult:
        return ParseResult(list(self.counts.items()), self.errors, meta or {})


def parse_decklist(text: str, index: CardIndex, max_lines: int = MAX_LINES) -> ParseResult:
    """Read a pasted or uploaded deck list.

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
    collector = _Collector()
    if len(lines) > max_lines:
        problem = message("too_many_lines", count=len(lines), max=max_lines)
        collector.errors.append(LineError(max_lines + 1, "", problem))
        return collector.result()
    for line_no, line in enumerate(lines, 1):
        _parse_line(line_no, line, index, collector)
    return collector.result()


def _parse_line(line_no: int, line: str, index: CardIndex, collector: _Collector):
    bad = _control_character(line)
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
            return collector.error(line_no, line, message("unparsable", text=_shown(body)))
        return collector.unknown(line_no, line, reading.name, index)
    count = _count(reading.count_text)
    if count is None:
        problem = message(
            "count_out_of_range",
            count=_shown(reading.count_text, 10),
            name=reading.card["name"],
            max=MAX_COUNT,
        )
        return collector.error(line_no, line, problem)
    collector.add(line_no, line, reading.card, count)


def _header_line(
    header: str, header_count, index: CardIndex, collector: _Collector, line_no: int, line: str
):
    """A line shaped like a section header is skipped only if it names no card.

    One that names a card (`Cobra Flash (3)`, `3 Cobra Flash:`) is an error, as is
    one that starts with a count or is within a typo of a card name (reported as an
    unknown card); it is never silently read as a card line or dropped.
    """
    if not any(ch.isalpha() for ch in header):
        return collector.error(line_no, line, message("unparsable", text=_shown(line.strip())))
    reading = _read(header, index)
    if reading.card is not None:
        count = reading.count_text or header_count or "1"
        example = f"{count.lstrip('+')} {reading.name}"
        problem = message("header_names_card", text=_shown(header), example=_shown(example))
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
        or _control_character(name)
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


# --------------------------------------------------------------------------- JSON format


def export_json(entries: Iterable[tuple[dict, int]], meta: dict | None = None) -> str:
    """`{"format": "kgk-deck", "version": 1, "name", "ruleset", "cards": [{"code",
    "count", "name"}]}`; the code identifies the printing, the name is for people."""
    meta = meta or {}
    document = {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "name": meta.get("name", ""),
        "ruleset": meta.get("ruleset", "original"),
        "cards": [
            {"code": card["code"], "count": count, "name": card["name"]}
            for card, count in sort_entries(entries)
        ],
    }
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def _document_error(problem: str, line_no: int = 0, line: str = "") -> ParseResult:
    return ParseResult([], [LineError(line_no, _shown(line, MAX_LINE_LENGTH), problem)])


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_json(text: str, index: CardIndex, max_cards: int = MAX_LINES) -> ParseResult:
    """Read `export_json` output. Per card the code wins over the name (lossless
    across printings); the name is used only when there is no code or the code is
    unknown here. `meta` gets "name" and "ruleset"."""
    if not isinstance(text, str):
        raise TypeError("parse_json reads text: decode uploads with decode_upload first")
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        lines = error.doc.splitlines() or [""]
        line = lines[min(error.lineno, len(lines)) - 1]
        problem = message("json_syntax", line_no=error.lineno, detail=error.msg, column=error.colno)
        return _document_error(problem, error.lineno, line)
    except RecursionError:
        return _document_error(message("json_too_deep"))
    except ValueError as error:  # e.g. an integer beyond Python's digit limit
        return _document_error(message("json_invalid", detail=_shown(str(error))))
    if not isinstance(document, dict):
        return _document_error(message("json_not_object", format=JSON_FORMAT))
    if document.get("format") != JSON_FORMAT:
        return _document_error(message("json_wrong_format", format=JSON_FORMAT))
    version = document.get("version")
    if not _is_int(version) or version != JSON_VERSION:
        shown = _shown(json.dumps(version, ensure_ascii=False), 20)
        return _document_error(message("json_wrong_version", version=shown, supported=JSON_VERSION))
    name = document.get("name", "")
    if name is None:
        name = ""
    if not isinstance(name, str) or len(name) > MAX_LINE_LENGTH or _control_character(name):
        return _document_error(message("json_bad_name", max=MAX_LINE_LENGTH))
    ruleset = document.get("ruleset")
    if ruleset is None:
        ruleset = "original"
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        return _document_error(message("json_bad_ruleset", rulesets=", ".join(RULESETS)))
    cards = document.get("cards")
    if not isinstance(cards, list):
        return _document_error(message("json_bad_cards"))
    if len(cards) > max_cards:
        return _document_error(message("json_too_many_cards", count=len(cards), max=max_cards))
    collector = _Collector("at_card")
    for position, entry in enumerate(cards, 1):
        _parse_json_entry(position, entry, index, collector)
    return collector.result({"name": name, "ruleset": ruleset})


def _parse_json_entry(position: int, entry, index: CardIndex, collector: _Collector):
    try:
        shown = json.dumps(entry, ensure_ascii=False)
    except (RecursionError, ValueError):
        shown = "…"
    if not isinstance(entry, dict):
        return collector.error(position, shown, message("json_entry_not_object"))
    code, name, count = entry.get("code"), entry.get("name"), entry.get("count")
    code = code if isinstance(code, str) and code.strip() else None
    name = name if isinstance(name, str) and name.strip() else None
    if code is None and name is None:
        return collector.error(position, shown, message("json_entry_no_reference"))
    card = (index.get(code) if code else None) or (index.resolve(name) if name else None)
    if card is None:
        return collector.unknown(position, shown, name or code, index)
    if not _is_int(count) or not 1 <= count <= MAX_COUNT:
        shown_count = _shown(json.dumps(count, ensure_ascii=False), 20)
        problem = message("json_entry_bad_count", max=MAX_COUNT, count=shown_count)
        return collector.error(position, shown, problem)
    collector.add(position, shown, card, count)


# --------------------------------------------------------------------------- share codes
#
# "1" + base64url (no padding) of:
#   per edition prefix, sorted:  u8 length, ASCII prefix ("KG1"),
#                                varint number of count groups,
#                                per count, ascending: varint count, varint n,
#                                    n varints: gap to the previous card number - 1
#                                    (numbers ascending; the first gap is from -1)
#   2 bytes: BLAKE2b-16 digest of everything before (catches typos and truncation)
# Card codes are "<prefix>-<number>", number zero-padded to 3 digits (R 8.3).

_CARD_CODE = re.compile(r"([A-Z][A-Z0-9]{0,15})-([0-9]{3,7})")
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")
_CHECKSUM_BYTES = 2
_MAX_VARINT_BYTES = 4


def _split_code(code: str) -> tuple[str, int]:
    match = _CARD_CODE.fullmatch(code)
    if not match or f"{match.group(1)}-{int(match.group(2)):03d}" != code:
        raise DecklistError(f"cannot put card code {code!r} in a share code")
    return match.group(1), int(match.group(2))


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _checksum(payload: bytes) -> bytes:
    return hashlib.blake2b(payload, digest_size=_CHECKSUM_BYTES).digest()


def encode_share_code(entries: Iterable[tuple[dict | str, int]]) -> str:
    """A short URL-safe code for a deck given as (card or code, count) pairs.

    The same deck always gives the same code, whatever the order of its entries.
    """
    editions: dict[str, dict[int, int]] = {}
    for card, count in entries:
        code = card["code"] if isinstance(card, dict) else card
        if not _is_int(count) or not 1 <= count <= MAX_COUNT:
            raise DecklistError(f"count for {code!r} must be 1 to {MAX_COUNT}: {count!r}")
        prefix, number = _split_code(code)
        numbers = editions.setdefault(prefix, {})
        numbers[number] = numbers.get(number, 0) + count
        if numbers[number] > MAX_COUNT:
            raise DecklistError(f"more than {MAX_COUNT} copies of {code!r}")
    payload = bytearray()
    for prefix in sorted(editions):
        payload += bytes([len(prefix)]) + prefix.encode("ascii")
        by_count: dict[int, list[int]] = {}
        for number, count in editions[prefix].items():
            by_count.setdefault(count, []).append(number)
        payload += _varint(len(by_count))
        for count in sorted(by_count):
            numbers = sorted(by_count[count])
            payload += _varint(count) + _varint(len(numbers))
            previous = -1
            for number in numbers:
                payload += _varint(number - previous - 1)
                previous = number
    payload += _checksum(bytes(payload))
    return SHARE_CODE_VERSION + base64.urlsafe_b64encode(bytes(payload)).rstrip(b"=").decode()


class _Corrupt(Exception):
    pass


class _Reader:
    def __init__(self, data: bytes):
        self.data, self.position = data, 0

    def byte(self) -> int:
        if self.position >= len(self.data):
            raise _Corrupt("it ends too early")
        self.position += 1
        return self.data[self.position - 1]

    def varint(self) -> int:
        value = 0
        for shift in range(0, 7 * _MAX_VARINT_BYTES, 7):
            byte = self.byte()
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
        raise _Corrupt("a number is too long")

    def text(self, length: int) -> str:
        if self.position + length > len(self.data):
            raise _Corrupt("it ends too early")
        chunk = self.data[self.position : self.position + length]
        self.position += length
        return chunk.decode("ascii", errors="replace")


def _decode_share_payload(payload: bytes, max_cards: int) -> list[tuple[str, int]]:
    reader = _Reader(payload)
    entries: list[tuple[str, int]] = []
    seen_prefixes: set[str] = set()
    while reader.position < len(payload):
        prefix = reader.text(reader.byte())
        if not re.fullmatch(r"[A-Z][A-Z0-9]{0,15}", prefix) or prefix in seen_prefixes:
            raise _Corrupt("bad edition prefix")
        seen_prefixes.add(prefix)
        numbers: dict[int, int] = {}
        for _ in range(reader.varint()):
            count = reader.varint()
            if not 1 <= count <= MAX_COUNT:
                raise _Corrupt(f"a card count of {count}")
            previous = -1
            for _ in range(reader.varint()):
                number = previous + 1 + reader.varint()
                if number in numbers:
                    raise _Corrupt("a card is listed twice")
                numbers[number] = count
                previous = number
                if len(entries) + len(numbers) > max_cards:
                    raise _Corrupt("too many cards")
        entries += [(f"{prefix}-{number:03d}", numbers[number]) for number in sorted(numbers)]
    return entries


def decode_share_code(code: str, index: CardIndex, max_cards: int = MAX_LINES) -> ParseResult:
    """Read `encode_share_code` output. A damaged code gives one error (line 0);
    codes of cards not in `index` give one error each (numbered in code order)."""
    text = code.strip() if isinstance(code, str) else ""
    if not text:
        return _document_error(message("share_empty"))
    if len(text) > MAX_SHARE_CODE_LENGTH:
        return _document_error(
            message("share_too_long", length=len(text), max=MAX_SHARE_CODE_LENGTH)
        )
    if text[0] != SHARE_CODE_VERSION:
        problem = message("share_version", expected=SHARE_CODE_VERSION, version=_shown(text[0]))
        return _document_error(problem)
    body = text[1:].rstrip("=")
    if not _BASE64URL.fullmatch(body):
        position = next(i for i, ch in enumerate(body) if not _BASE64URL.fullmatch(ch))
        problem = message("share_bad_character", char=_shown(body[position]), position=position + 2)
        return _document_error(problem)
    if len(body) % 4 == 1:
        return _document_error(message("share_corrupt", detail="its length is impossible"))
    raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    payload, checksum = raw[:-_CHECKSUM_BYTES], raw[-_CHECKSUM_BYTES:]
    if len(raw) < _CHECKSUM_BYTES or _checksum(payload) != checksum:
        return _document_error(message("share_corrupt", detail="the checksum does not match"))
    try:
        decoded = _decode_share_payload(payload, max_cards)
    except _Corrupt as error:
        return _document_error(message("share_corrupt", detail=str(error)))
    collector = _Collector("at_share")
    for position, (card_code, count) in enumerate(decoded, 1):
        card = index.get(card_code)
        if card is None:
            collector.error(position, card_code, message("share_unknown_card", code=card_code))
        else:
            collector.add(position, card_code, card, count)
    return collector.result()


# --------------------------------------------------------------------------- uploads


def decode_upload(data: bytes, max_bytes: int = MAX_UPLOAD_BYTES) -> str:
    """The text of an uploaded deck file: UTF-8, with or without a byte-order mark."""
    data = bytes(data)
    if len(data) > max_bytes:
        raise DecklistError(message("upload_too_large", size=len(data), max=max_bytes))
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise DecklistError(message("upload_utf16"), offset=0)
    start = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        return data[start:].decode("utf-8")
    except UnicodeDecodeError as error:
        offset = start + error.start
        line = data.count(b"\n", 0, offset) + 1
        text = message("upload_not_utf8", byte=data[offset], offset=offset, line=line)
        raise DecklistError(text, offset=offset) from None
