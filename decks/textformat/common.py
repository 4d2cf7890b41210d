"""What every deck-list format shares: limits, messages, results, the echo of user
input, and the decoding of uploads.

Every user-facing message is in `MESSAGES` (English, %-style named parameters),
so the web layer can wrap them in gettext in one place.
"""

import codecs
import unicodedata
from dataclasses import dataclass, field

from django.utils.translation import gettext, gettext_noop

from cardgame.hungarian import articles
from engine.deck import DECK_SIZE

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
    "owned_count_out_of_range": gettext_noop(
        'the count %(count)s for "%(name)s" must be between %(min)d and %(max)d.'
    ),
    "count_missing": gettext_noop('write how many you own, e.g. "2 %(name)s".'),
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


_ALLOWED_NONPRINTABLE = {"Zs", "Co", "Cn"}  # spaces, private use, unassigned
SHOWN_LENGTH = 80


def echo(text: str, length: int = SHOWN_LENGTH) -> str:
    """User input as echoed in a message: no control characters, not too long."""
    if not text.isprintable():
        text = "".join(
            ch
            if ch.isprintable() or unicodedata.category(ch) in _ALLOWED_NONPRINTABLE
            else "\ufffd"
            for ch in text
        )
    return text if len(text) <= length else text[: length - 1] + "…"


def control_character(line: str) -> tuple[int, str] | None:
    """(1-based column, "U+0000") of the first control/format character, if any."""
    if line.isprintable():
        return None
    for column, ch in enumerate(line, 1):
        if ch == "\t" or ch == " ":
            continue
        if not ch.isprintable() and unicodedata.category(ch) not in _ALLOWED_NONPRINTABLE:
            return column, f"U+{ord(ch):04X}"
    return None


def document_error(problem: str, line_no: int = 0, line: str = "") -> ParseResult:
    return ParseResult([], [LineError(line_no, echo(line, MAX_LINE_LENGTH), problem)])


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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
