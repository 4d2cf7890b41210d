"""The fields of the search language and their values: names, aliases, messages.

The value tables are built from engine.catalog (one home for every name).
"""

import difflib
from dataclasses import dataclass
from functools import cache

from django.utils.translation import gettext_noop

from engine import catalog

from .normalize import fold

TEXT, ENUM, NUMBER, CODE = "text", "enum", "number", "code"


@dataclass(frozen=True)
class FieldDef:
    key: str  # canonical name, used in the tree
    kind: str
    names: tuple[str, ...]  # as written in the help; matched folded (accents, case ignored)
    example: str


FIELD_DEFS: tuple[FieldDef, ...] = (
    FieldDef("name", TEXT, ("name", "n", "név"), "name:halálszárny"),
    FieldDef("text", TEXT, ("text", "o", "szöveg"), 'text:"burst fire"'),
    FieldDef("type", ENUM, ("type", "t", "típus"), "t:ship"),
    FieldDef("subtype", ENUM, ("subtype", "st", "altípus"), "st:scout"),
    FieldDef("race", ENUM, ("race", "r", "faj"), "r:zarg"),
    FieldDef("rarity", ENUM, ("rarity", "rar", "ritkaság"), "rarity:rare"),
    FieldDef("clan", ENUM, ("clan", "klán"), "clan:galactic_trade"),
    FieldDef("edition", ENUM, ("edition", "e", "set", "kiadás"), "e:first"),
    FieldDef("cost", NUMBER, ("cost", "cr", "ár", "költség"), "cost<=3"),
    FieldDef("speed", NUMBER, ("speed", "spd", "sebesség"), "spd>=4"),
    FieldDef("firepower", NUMBER, ("firepower", "fp", "tűzerő"), "fp>2"),
    FieldDef("armour", NUMBER, ("armour", "arm", "armor", "páncél", "páncélzat"), "arm>=3"),
    FieldDef("bombardment", NUMBER, ("bombardment", "bmb", "bombázás"), "bmb>0"),
    FieldDef("size", NUMBER, ("size", "méret"), "size:2"),
    FieldDef(
        "upgrade_limit",
        NUMBER,
        ("upgrade_limit", "ul", "fejlesztés", "fejlesztési_limit"),
        "ul:x",
    ),
    FieldDef("keyword", ENUM, ("keyword", "kw", "képesség"), "kw:burst_fire"),
    FieldDef("code", CODE, ("code", "kód"), "code:KG1-001"),
)
FIELDS_BY_NAME: dict[str, FieldDef] = {fold(n): f for f in FIELD_DEFS for n in f.names}

# Which numeric fields accept which symbols besides numbers.
NUMBER_SYMBOLS = {"cost": ("x",), "upgrade_limit": ("x", "?")}

# A few short aliases on top of the catalogue's identifiers and names (values are identifiers).
EXTRA_ALIASES: dict[str, dict[str, str]] = {
    "rarity": {
        "c": "common",
        "u": "uncommon",
        "uc": "uncommon",
        "r": "rare",
        "ur": "ultra_rare",
        "ultra": "ultra_rare",
        # the Hungarian names of the rarity symbols of R 8.1 (the catalogue has the English)
        "hold": "common",
        "bolygo": "uncommon",
        "nap": "rare",
        "galaxis": "ultra_rare",
    },
    "type": {"hajo": "ship"},
    "edition": {"alapkiadas": "first", "alap": "first", "base": "first"},
}
# "none" for the fields a card may leave empty (stored as "").
NONE_WORDS = ("none", "nincs")
NONE_FIELDS = ("race", "clan")

# (what is wrong, what is valid) for an unknown value of each enumerated field
UNKNOWN_VALUE_MESSAGES = {
    "type": (
        gettext_noop("Unknown type '%(value)s' at position %(pos)s."),
        gettext_noop("Types (subtypes): %(values)s."),
    ),
    "subtype": (
        gettext_noop("Unknown subtype '%(value)s' at position %(pos)s."),
        gettext_noop("Subtypes: %(values)s."),
    ),
    "race": (
        gettext_noop("Unknown race '%(value)s' at position %(pos)s."),
        gettext_noop("Races: %(values)s."),
    ),
    "rarity": (
        gettext_noop("Unknown rarity '%(value)s' at position %(pos)s."),
        gettext_noop("Rarities: %(values)s."),
    ),
    "clan": (
        gettext_noop("Unknown clan '%(value)s' at position %(pos)s."),
        gettext_noop("Clans: %(values)s."),
    ),
    "keyword": (
        gettext_noop("Unknown keyword '%(value)s' at position %(pos)s."),
        gettext_noop("Keywords: %(values)s."),
    ),
    "edition": (
        gettext_noop("Unknown edition '%(value)s' at position %(pos)s."),
        gettext_noop("Editions: %(values)s."),
    ),
}


def norm_value(text: str) -> str:
    """Fold an enumerated value: `Space_Shark`, `space-shark`, `"Space Shark"` -> `space shark`."""
    return fold(text.replace("_", " ").replace("-", " "))


@dataclass(frozen=True)
class Vocabulary:
    # field key -> folded alias -> ((column, identifier), ...)
    aliases: dict[str, dict[str, tuple[tuple[str, str], ...]]]
    # field key -> human list of the valid values, for messages
    listing: dict[str, str]


def _display(hu: str, ident: str) -> str:
    """How a value is shown in messages: its Hungarian name, then the identifier if different."""
    shown = hu.lower()
    if " " in shown:
        shown = f'"{shown}"'
    return shown if norm_value(hu) == norm_value(ident) else f"{shown}/{ident}"


@cache
def vocabulary() -> Vocabulary:
    """The value tables, built once from engine.catalog."""
    aliases: dict[str, dict[str, set[tuple[str, str]]]] = {}

    def add(field_key: str, alias: str, column: str, ident: str) -> None:
        key = norm_value(alias)
        if not key:
            return
        table = aliases.setdefault(field_key, {})
        for variant in {key, key.replace(" ", "")}:
            table.setdefault(variant, set()).add((column, ident))

    def add_table(field_key: str, column: str, table: dict) -> None:
        for ident, names in table.items():
            add(field_key, ident, column, ident)
            # names in both languages; the rarity symbol (moon...); the code prefix (KG1)
            for attribute in ("hu", "en", "symbol", "prefix"):
                if isinstance(names, dict) and isinstance(names.get(attribute), str):
                    add(field_key, names[attribute], column, ident)

    listing: dict[str, str] = {}

    def listing_of(table: dict) -> list[str]:
        return [_display((names or {}).get("hu") or ident, ident) for ident, names in table.items()]

    add_table("race", "race", catalog.RACES)
    add_table("rarity", "rarity", catalog.RARITIES)
    add_table("clan", "clan", catalog.CLANS)
    add_table("keyword", "keyword", catalog.KEYWORDS)
    add_table("edition", "edition", catalog.EDITIONS)
    add_table("type", "type", catalog.TYPES)
    for subtypes in catalog.SUBTYPES.values():
        add_table("type", "subtype", subtypes)
        add_table("subtype", "subtype", subtypes)
    for field_key, extra in EXTRA_ALIASES.items():
        for alias, ident in extra.items():
            if field_key != "edition" or ident in catalog.EDITIONS:
                add(field_key, alias, field_key, ident)
    for field_key in NONE_FIELDS:
        for word in NONE_WORDS:
            add(field_key, word, field_key, "")

    for key, table in (
        ("race", catalog.RACES),
        ("rarity", catalog.RARITIES),
        ("clan", catalog.CLANS),
        ("keyword", catalog.KEYWORDS),
        ("edition", catalog.EDITIONS),
    ):
        listing[key] = ", ".join(listing_of(table))
    for key in NONE_FIELDS:
        listing[key] += ", none/nincs"
    listing["subtype"] = ", ".join(
        item for subtypes in catalog.SUBTYPES.values() for item in listing_of(subtypes)
    )
    listing["type"] = "; ".join(
        f"{_display(names.get('hu') or ident, ident)} "
        f"({', '.join(listing_of(catalog.SUBTYPES.get(ident, {})))})"
        for ident, names in catalog.TYPES.items()
    )
    frozen = {
        key: {alias: tuple(sorted(targets)) for alias, targets in table.items()}
        for key, table in aliases.items()
    }
    return Vocabulary(frozen, listing)


def known_fields_listing() -> str:
    return ", ".join("/".join(f.names) for f in FIELD_DEFS)


def suggest_value(fdef: FieldDef, name: str, raw: str) -> str:
    """`rarity:common` for `r:common`; `r:urcapa` for `r:urcpa`; "" if nothing is close."""
    vocab = vocabulary()
    value = norm_value(raw)
    for other in FIELD_DEFS:
        if (
            other.kind == ENUM
            and other.key != fdef.key
            and value in vocab.aliases.get(other.key, {})
        ):
            return _quoted_term(other.names[0], value)
    close = difflib.get_close_matches(value, vocab.aliases.get(fdef.key, {}), n=1, cutoff=0.75)
    return _quoted_term(name, close[0]) if close else ""


def _quoted_term(name: str, value: str) -> str:
    return f'{name}:"{value}"' if " " in value else f"{name}:{value}"
