"""The JSON format (`{"format": "kgk-deck", ...}`), read and written."""

import json
from collections.abc import Iterable

from ..play import RULESETS
from .collector import Collector
from .common import (
    JSON_FORMAT,
    JSON_VERSION,
    MAX_COUNT,
    MAX_LINE_LENGTH,
    MAX_LINES,
    ParseResult,
    control_character,
    document_error,
    echo,
    is_int,
    message,
)
from .index import CardIndex
from .text import sort_entries


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
        return document_error(problem, error.lineno, line)
    except RecursionError:
        return document_error(message("json_too_deep"))
    except ValueError as error:  # e.g. an integer beyond Python's digit limit
        return document_error(message("json_invalid", detail=echo(str(error))))
    if not isinstance(document, dict):
        return document_error(message("json_not_object", format=JSON_FORMAT))
    if document.get("format") != JSON_FORMAT:
        return document_error(message("json_wrong_format", format=JSON_FORMAT))
    version = document.get("version")
    if not is_int(version) or version != JSON_VERSION:
        shown = echo(json.dumps(version, ensure_ascii=False), 20)
        return document_error(message("json_wrong_version", version=shown, supported=JSON_VERSION))
    name = document.get("name", "")
    if name is None:
        name = ""
    if not isinstance(name, str) or len(name) > MAX_LINE_LENGTH or control_character(name):
        return document_error(message("json_bad_name", max=MAX_LINE_LENGTH))
    ruleset = document.get("ruleset")
    if ruleset is None:
        ruleset = "original"
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        return document_error(message("json_bad_ruleset", rulesets=", ".join(RULESETS)))
    cards = document.get("cards")
    if not isinstance(cards, list):
        return document_error(message("json_bad_cards"))
    if len(cards) > max_cards:
        return document_error(message("json_too_many_cards", count=len(cards), max=max_cards))
    collector = Collector("at_card")
    for position, entry in enumerate(cards, 1):
        _parse_json_entry(position, entry, index, collector)
    return collector.result({"name": name, "ruleset": ruleset})


def _parse_json_entry(position: int, entry, index: CardIndex, collector: Collector):
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
    if not is_int(count) or not 1 <= count <= MAX_COUNT:
        shown_count = echo(json.dumps(count, ensure_ascii=False), 20)
        problem = message("json_entry_bad_count", max=MAX_COUNT, count=shown_count)
        return collector.error(position, shown, problem)
    collector.add(position, shown, card, count)
