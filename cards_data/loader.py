"""Read, validate and upsert the card set files (cards_data/sets/<edition>/*.json).

Every file is checked against cards_data/schema/card.schema.json and the effect
vocabulary before the database is touched; one broken file refuses the whole load,
naming the file, the card code and the field. The upsert runs in one transaction,
so the database keeps its previous state on any error.
"""

import copy
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction
from jsonschema import Draft202012Validator

from cards_data.cardtext import card_text
from cards_data.search.normalize import fold
from engine import catalog
from engine.effects import validate_ability

from . import stamp
from .definitions import definition
from .models import Card, Edition, Keyword

SETS_DIR = Path(__file__).resolve().parent / "sets"
SCHEMA_PATH = Path(__file__).resolve().parent / "schema" / "card.schema.json"


@dataclass
class Problem:
    file: str
    code: str | None
    field: str | None
    message: str

    def __str__(self):
        where = [self.file]
        if self.code:
            where.append(f"card {self.code}")
        if self.field:
            where.append(f"field {self.field}")
        return f"{': '.join(where)}: {self.message}"


class CardDataError(Exception):
    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass
class LoadReport:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: int = 0
    stale: list[str] = field(default_factory=list)


def set_files(directory: Path = SETS_DIR) -> list[Path]:
    return sorted(Path(directory).glob("*/*.json"))


def _schema_validator():
    return Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def _read_json(path: Path, problems: list[Problem]):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        problems.append(Problem(path.name, None, None, f"not UTF-8 text ({exc.reason})"))
    except json.JSONDecodeError as exc:
        problems.append(
            Problem(
                path.name,
                None,
                None,
                f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}",
            )
        )
    return None


def _schema_problems(path: Path, data, validator) -> list[Problem]:
    problems = []
    for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        route = list(error.absolute_path)
        code = None
        if len(route) >= 2 and route[0] == "cards" and isinstance(route[1], int):
            card = data["cards"][route[1]]
            code = card.get("code") if isinstance(card, dict) else None
            code = code or f"#{route[1] + 1}"
            route = route[2:]
        field_name = ".".join(str(part) for part in route) or None
        problems.append(Problem(path.name, code, field_name, error.message))
    return problems


def _ability_problems(path: Path, card: dict) -> list[Problem]:
    problems = []
    for index, ability in enumerate(card.get("abilities", [])):
        for message in validate_ability(ability, card):
            problems.append(Problem(path.name, card["code"], f"abilities.{index}", message))
    return problems


# The last set files read and validated: {(directory, each file's name and digest): cards}.
_READ: dict[tuple, list[dict]] = {}


def read_cards(directory: Path = SETS_DIR) -> list[dict]:
    """Every card of every set file, validated; raises CardDataError listing every problem.

    Files read before with the same contents are not validated again (a copy of the cards
    read then is returned): the schema check was half of a load, and the tests load the
    catalogue some five hundred times a pass."""
    key = (str(Path(directory).resolve()),) + tuple(
        (path.name, hashlib.sha256(path.read_bytes()).hexdigest()) for path in set_files(directory)
    )
    if key not in _READ:
        _READ.clear()
        _READ[key] = _read_and_validate(directory)
    return copy.deepcopy(_READ[key])


def _read_and_validate(directory: Path) -> list[dict]:
    validator = _schema_validator()
    problems: list[Problem] = []
    cards: list[dict] = []
    paths = set_files(directory)
    if not paths:
        raise CardDataError([Problem(str(directory), None, None, "no set files found")])
    for path in paths:
        data = _read_json(path, problems)
        if data is None:
            continue
        file_problems = _schema_problems(path, data, validator)
        if not file_problems:
            for card in data["cards"]:
                file_problems += _ability_problems(path, card)
        problems += file_problems
        if not file_problems:
            cards += [
                dict(card, edition=card.get("edition", data["edition"]), _file=path.name)
                for card in data["cards"]
            ]
    problems += _duplicate_problems(cards)
    if problems:
        raise CardDataError(problems)
    return cards


def _duplicate_problems(cards: list[dict]) -> list[Problem]:
    problems = []
    seen_codes: dict[str, str] = {}
    seen_names: dict[str, str] = {}
    for card in cards:
        code, name = card["code"], card["name"]
        if code in seen_codes:
            problems.append(
                Problem(card["_file"], code, "code", f"duplicate code, also in {seen_codes[code]}")
            )
        if name in seen_names and seen_names[name] != code:
            problems.append(
                Problem(
                    card["_file"],
                    code,
                    "name",
                    f"name {name!r} already used by {seen_names[name]} (R 9.2 counts copies by name)",
                )
            )
        seen_codes.setdefault(code, card["_file"])
        seen_names.setdefault(name, code)
    return problems


def card_fields(card: dict) -> dict:
    """The model's column values for one card dict of a set file."""
    cost = card["credit_cost"]
    bonus = card.get("bonus") or {}
    is_base = card["type"] == "base"
    upgrade_limit = card.get("upgrade_limit")
    text = card_text(card)
    flavor_hu, flavor_en = card.get("flavor_hu", ""), card.get("flavor_en", "")
    return {
        "name": card["name"],
        "name_en": card["name_en"],
        "race": card.get("race") or "",
        "type": card["type"],
        "subtype": card["subtype"],
        "rarity": card["rarity"],
        "clan": card.get("clan") or "",
        "credit_cost": cost if isinstance(cost, int) else None,
        "cost_kind": "" if isinstance(cost, int) else cost["kind"],
        "speed": card.get("speed"),
        "firepower": card.get("firepower"),
        "armour": card.get("armour", 0) if is_base else card.get("armour"),
        "bombardment": card.get("bombardment"),
        "size": catalog.SHIP_SIZE.get(card["subtype"]) if card["type"] == "ship" else None,
        "hangar_size": card.get("hangar_size"),
        "upgrade_limit": "" if upgrade_limit is None else str(upgrade_limit),
        "upgrade_limit_value": upgrade_limit if isinstance(upgrade_limit, int) else None,
        "bonus_speed": bonus.get("speed"),
        "bonus_firepower": bonus.get("firepower"),
        "bonus_armour": bonus.get("armour"),
        "bonus_bombardment": bonus.get("bombardment"),
        "abilities": card.get("abilities", []),
        "definition": definition(card),
        "text_hu": text.hu,
        "text_en": text.en,
        "flavor_hu": flavor_hu,
        "flavor_en": flavor_en,
        "search_name": fold(f"{card['name']} {card['name_en']}"),
        "search_text": fold(f"{text.hu} {text.en} {flavor_hu} {flavor_en}"),
        "source_file": card["_file"],
    }


def _sync_reference_tables() -> tuple[dict, dict]:
    editions = {}
    for code, names in catalog.EDITIONS.items():
        editions[code], _ = Edition.objects.update_or_create(
            code=code,
            defaults={"name_hu": names["hu"], "name_en": names["en"], "prefix": names["prefix"]},
        )
    keywords = {}
    for slug, names in catalog.KEYWORDS.items():
        keywords[slug], _ = Keyword.objects.update_or_create(
            slug=slug, defaults={"name_hu": names["hu"], "name_en": names["en"]}
        )
    return editions, keywords


def _current_state(card: Card) -> tuple[dict, set]:
    values = {name: getattr(card, name) for name in card_fields_names()}
    values["edition_id"] = card.edition_id
    return values, {k.slug for k in card.keywords.all()}


def card_fields_names() -> list[str]:
    return [f.name for f in Card._meta.concrete_fields if f.name not in ("id", "code", "edition")]


@transaction.atomic
def load_cards(directory: Path = SETS_DIR) -> LoadReport:
    """Upsert every card; idempotent (a second run changes nothing and reports no updates)."""
    cards = read_cards(directory)
    editions, keywords = _sync_reference_tables()
    existing = {c.code: c for c in Card.objects.prefetch_related("keywords")}
    report = LoadReport()
    new_cards = []
    for data in cards:
        values = card_fields(data)
        values["edition_id"] = editions[data["edition"]].id
        wanted_keywords = set(data.get("keywords", []))
        card = existing.get(data["code"])
        if card is None:
            new_cards.append((Card(code=data["code"], **values), wanted_keywords))
            report.created.append(data["code"])
            continue
        if _current_state(card) == (values, wanted_keywords):
            report.unchanged += 1
            continue
        for name, value in values.items():
            setattr(card, name, value)
        card.save()
        card.keywords.set([keywords[k] for k in wanted_keywords])
        report.updated.append(card.code)
    _create(new_cards, keywords)
    stamp.bump()  # the bulk INSERTs send no signals; the saves above bumped it already
    loaded = {c["code"] for c in cards}
    report.stale = sorted(code for code in existing if code not in loaded)
    return report


def _create(new_cards: list[tuple[Card, set]], keywords: dict) -> None:
    """The new cards in one INSERT and their keywords in another, where each card took an
    INSERT and the keywords' read and INSERT of its own (the whole set on an empty database)."""
    Card.objects.bulk_create([card for card, _slugs in new_cards])
    link = Card.keywords.through
    link.objects.bulk_create(
        [
            link(card_id=card.pk, keyword_id=keywords[slug].pk)
            for card, slugs in new_cards
            for slug in sorted(slugs)
        ]
    )
