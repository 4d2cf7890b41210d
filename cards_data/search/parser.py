"""The fielded search language (Scryfall-like): tokenizer and recursive-descent parser.

Grammar (terms are ANDed unless `or` stands between them; `or` binds loosest)::

    query    := [or_expr] EOF
    or_expr  := and_expr (("or" | "vagy") and_expr)*
    and_expr := unary ([("and" | "és")] unary)*
    unary    := "-"* primary                       odd number of dashes = negation
    primary  := "(" or_expr ")" | term
    term     := FIELD OP VALUE | WORD | "PHRASE"
    OP       := ":" | "=" | "!=" | "<" | "<=" | ">" | ">="
    VALUE    := WORD | "PHRASE"

`field:value` is one token (a field name immediately followed by an operator), so it
always wins over a bare word: `t:ship` never splits into `t` and `:ship`. Field names,
enumerated values and search words are folded (accents and case removed, see
normalize.fold), so `név:halalszarny`, `r:urcapa` and `Űrcápa` all work.

Enumerated fields (type, subtype, race, rarity, clan, keyword, edition) are resolved
here to catalogue identifiers, exactly, never as substrings: `rarity:common` never
means uncommon. Everything a query can get wrong is a QuerySyntaxError raised here,
with the offending position, so callers can validate with `parse()` alone; the
compiler (compiler.py) then turns the tree into ORM filters and never fails.

The value tables are built from engine.catalog (one home for every name); this
module uses nothing else from the project and nothing from Django but translation.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field, replace
from functools import cache

from django.utils.translation import gettext_noop

from cardgame.hungarian import articles

from .normalize import fold

MAX_QUERY_LENGTH = 1000
MAX_DEPTH = 20
MAX_NUMBER = 9999


# --------------------------------------------------------------------------- messages


def _(message: str) -> str:
    """gettext, if Django's settings are there (they are in the site and in the tests)."""
    try:
        from django.utils.translation import gettext

        return gettext(message)
    except Exception:  # settings not configured: a plain-Python caller gets English
        return message


class QuerySyntaxError(ValueError):
    """A malformed query.

    `message` is for people (translated; positions in it count from 1), `position` is the
    0-based offset of the offending part in the query and `length` its length, so a user
    interface can underline `query[position:position + length]`.
    """

    def __init__(self, message: str, position: int = 0, length: int = 1):
        super().__init__(message)
        self.message = message
        self.position = position
        self.length = max(length, 0)

    def __str__(self):
        return self.message


def _error(message: str, start: int, length: int = 1, **params) -> QuerySyntaxError:
    """A QuerySyntaxError from an already translated message; %(pos)s counts from 1."""
    params.setdefault("pos", start + 1)
    return QuerySyntaxError(articles(message % params), start, length)


# --------------------------------------------------------------------------- the tree


@dataclass(frozen=True)
class Node:
    """Base of the syntax tree. position/length locate the node in the query (not compared)."""

    position: int = field(default=0, compare=False, kw_only=True)
    length: int = field(default=0, compare=False, kw_only=True)


@dataclass(frozen=True)
class All(Node):
    """The empty query: every card."""


@dataclass(frozen=True)
class And(Node):
    children: tuple[Node, ...]


@dataclass(frozen=True)
class Or(Node):
    children: tuple[Node, ...]


@dataclass(frozen=True)
class Not(Node):
    child: Node


@dataclass(frozen=True)
class Text(Node):
    """Folded `value` contained in the name (either language), the rules text, or either.

    scope: "any" (a bare word or phrase), "name" or "text".
    """

    scope: str
    value: str


@dataclass(frozen=True)
class Enum(Node):
    """The card's `field` is exactly one of `values` (catalogue identifiers).

    field: "type", "subtype", "race", "rarity", "clan", "keyword" or "edition"; an empty
    identifier "" means "none" (a card without race or clan).
    """

    field: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class Number(Node):
    """A numeric comparison. value is an int, or the symbol "x" (cost, upgrade limit) or "?".

    field: "cost", "speed", "firepower", "armour", "bombardment", "size" or "upgrade_limit";
    op: "=", "!=", "<", "<=", ">", ">=" (":" is read as "=").
    """

    field: str
    op: str
    value: int | str


@dataclass(frozen=True)
class Code(Node):
    """The card code, compared case-insensitively and exactly."""

    value: str


# --------------------------------------------------------------------------- the fields

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


def _norm_value(text: str) -> str:
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
    return shown if _norm_value(hu) == _norm_value(ident) else f"{shown}/{ident}"


@cache
def vocabulary() -> Vocabulary:
    """The value tables, built once from engine.catalog."""
    from engine import catalog

    aliases: dict[str, dict[str, set[tuple[str, str]]]] = {}

    def add(field_key: str, alias: str, column: str, ident: str) -> None:
        key = _norm_value(alias)
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


# --------------------------------------------------------------------------- tokenizer

LPAREN, RPAREN, NEG, OR, AND, TERM = "(", ")", "-", "or", "and", "term"
OR_WORDS = ("or", "vagy")
AND_WORDS = ("and", "es")
OPEN_QUOTES = '"\u201e\u201c\u201d'  # " „ “ ”
CLOSE_QUOTES = '"\u201d\u201c'  # " ” “
OPERATOR_CHARS = ":=<>!"
FIELD_RE = re.compile(r"([^\W\d]\w*)(!=|<=|>=|<|>|=|:)")
NUMBER_RE = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class Token:
    kind: str
    start: int
    length: int
    node: Node | None = None
    text: str = ""


def _is_space(ch: str) -> bool:
    return ch.isspace() or unicodedata.category(ch) == "Cc"


def _ends_word(ch: str) -> bool:
    return _is_space(ch) or ch in "()" or ch in OPEN_QUOTES


def _dangling_dash(start: int) -> QuerySyntaxError:
    return _error(
        _(
            "'-' at position %(pos)s must be followed directly by the search term it "
            "excludes (e.g. -t:ship)."
        ),
        start,
    )


class _Tokenizer:
    def __init__(self, query: str):
        self.q = query
        self.n = len(query)

    def tokens(self) -> list[Token]:
        q, n = self.q, self.n
        out: list[Token] = []
        i = 0
        while i < n:
            ch = q[i]
            if _is_space(ch):
                i += 1
            elif ch in "()":
                out.append(Token(ch, i, 1))
                i += 1
            elif ch == "-":
                if i + 1 == n or _is_space(q[i + 1]):
                    raise _dangling_dash(i)
                out.append(Token(NEG, i, 1))
                i += 1
            elif ch in OPEN_QUOTES:
                value, end = self._quoted(i)
                folded = fold(value)
                if not folded:
                    raise _error(
                        _("Empty quotes at position %(pos)s: put words between them."), i, end - i
                    )
                out.append(Token(TERM, i, end - i, Text("any", folded, position=i, length=end - i)))
                i = end
            else:
                match = FIELD_RE.match(q, i)
                if match:
                    token = self._field_term(match)
                else:
                    token = self._word(i)
                out.append(token)
                i = token.start + token.length
        return out

    def _quoted(self, start: int) -> tuple[str, int]:
        """The text between the quote at `start` and its closing quote; end is after it."""
        for j in range(start + 1, self.n):
            if self.q[j] in CLOSE_QUOTES:
                return self.q[start + 1 : j], j + 1
        raise _error(
            _("Missing closing quote for the quote at position %(pos)s."), start, self.n - start
        )

    def _word(self, start: int) -> Token:
        j = start
        while j < self.n and not _ends_word(self.q[j]):
            j += 1
        word = self.q[start:j]
        folded = fold(word)
        if folded in OR_WORDS:
            return Token(OR, start, j - start, text=word)
        if folded in AND_WORDS:
            return Token(AND, start, j - start, text=word)
        if word[0] in OPERATOR_CHARS:
            raise _error(
                _(
                    "'%(word)s' at position %(pos)s: an operator needs a field name before it, "
                    "with no space (e.g. t:ship, cost<=3)."
                ),
                start,
                j - start,
                word=word,
            )
        if not folded:
            raise _error(
                _("Nothing to search for in '%(word)s' at position %(pos)s."),
                start,
                j - start,
                word=word,
            )
        return Token(TERM, start, j - start, Text("any", folded, position=start, length=j - start))

    def _field_term(self, match: re.Match) -> Token:
        start = match.start()
        name, op = match.group(1), match.group(2)
        fdef = FIELDS_BY_NAME.get(fold(name))
        if fdef is None:
            close = difflib.get_close_matches(fold(name), FIELDS_BY_NAME, n=1, cutoff=0.7)
            raise _error(
                _("Unknown field '%(field)s' at position %(pos)s.")
                + _did_you_mean(f"{close[0]}{op}" if close else "")
                + " "
                + _("Known fields: %(fields)s."),
                start,
                len(name),
                field=name,
                fields=known_fields_listing(),
            )
        vstart = match.end()
        if vstart < self.n and self.q[vstart] in OPEN_QUOTES:
            raw, end = self._quoted(vstart)
        else:
            end = vstart
            while end < self.n and not _ends_word(self.q[end]):
                end += 1
            raw = self.q[vstart:end]
        length = end - start
        term = self.q[start:end]
        if not fold(raw):
            raise _error(
                _(
                    "'%(term)s' at position %(pos)s needs a value, e.g. %(example)s (no space after "
                    "the operator; quote values with spaces)."
                ),
                start,
                length,
                term=f"{name}{op}",
                example=fdef.example,
            )
        if op != ":" and fdef.kind != NUMBER:
            numeric = ", ".join(f.names[0] for f in FIELD_DEFS if f.kind == NUMBER)
            hint = f"-{name}:{raw}" if op == "!=" else f"{name}:{raw}"
            raise _error(
                _(
                    "'%(op)s' does not work with the field '%(field)s' (position %(pos)s): write "
                    "%(hint)s instead. =, !=, <, <=, > and >= work only with numbers: %(numeric)s."
                ),
                match.start(2),
                len(op),
                op=op,
                field=name,
                hint=hint,
                numeric=numeric,
            )
        where = dict(position=start, length=length)
        if fdef.kind == TEXT:
            node: Node = Text(fdef.key, fold(raw), **where)
        elif fdef.kind == CODE:
            node = Code(fold(raw).upper(), **where)
        elif fdef.kind == NUMBER:
            node = self._number(fdef, op, raw, term, vstart, where)
        else:
            node = self._enum(fdef, name, raw, vstart, end - vstart, where)
        return Token(TERM, start, length, node)

    def _number(self, fdef, op, raw, term, vstart, where) -> Node:
        value = fold(raw)
        symbols = NUMBER_SYMBOLS.get(fdef.key, ())
        compare = "=" if op == ":" else op
        if value in symbols:
            if compare not in ("=", "!="):
                raise _error(
                    _(
                        "'%(op)s' needs a number: %(term)s at position %(pos)s "
                        "(%(symbol)s can only be matched with ':', '=' or '!=')."
                    ),
                    vstart,
                    len(raw),
                    op=op,
                    term=term,
                    symbol=raw,
                )
            return Number(fdef.key, compare, value, **where)
        if not NUMBER_RE.fullmatch(value):
            if symbols and compare in ("=", "!="):
                message = _("'%(op)s' needs a number or %(symbols)s: %(term)s at position %(pos)s.")
            else:
                message = _("'%(op)s' needs a number: %(term)s at position %(pos)s.")
            raise _error(message, vstart, len(raw), op=op, term=term, symbols=" / ".join(symbols))
        number = int(value)
        if number > MAX_NUMBER:
            raise _error(
                _("The number %(number)s at position %(pos)s is too large (at most %(max)s)."),
                vstart,
                len(raw),
                number=value,
                max=MAX_NUMBER,
            )
        return Number(fdef.key, compare, number, **where)

    def _enum(self, fdef, name, raw, vstart, vlength, where) -> Node:
        vocab = vocabulary()
        targets = vocab.aliases.get(fdef.key, {}).get(_norm_value(raw))
        if not targets:
            raise _error(
                _(UNKNOWN_VALUE_MESSAGES[fdef.key][0])
                + _did_you_mean(_suggest_value(fdef, name, raw))
                + " "
                + _(UNKNOWN_VALUE_MESSAGES[fdef.key][1]),
                vstart,
                vlength,
                value=raw,
                values=vocab.listing.get(fdef.key, ""),
            )
        by_column: dict[str, list[str]] = {}
        for column, ident in targets:
            by_column.setdefault(column, []).append(ident)
        nodes = [Enum(column, tuple(idents), **where) for column, idents in by_column.items()]
        return nodes[0] if len(nodes) == 1 else Or(tuple(nodes), **where)


def _did_you_mean(suggestion: str) -> str:
    if not suggestion:
        return ""
    # inserted now, escaped: the whole message is %-formatted once more by _error
    return " " + _("Did you mean %(suggestion)s?") % {"suggestion": suggestion.replace("%", "%%")}


def _suggest_value(fdef: FieldDef, name: str, raw: str) -> str:
    """`rarity:common` for `r:common`; `r:urcapa` for `r:urcpa`; "" if nothing is close."""
    vocab = vocabulary()
    value = _norm_value(raw)
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


# --------------------------------------------------------------------------- parser


class _Parser:
    def __init__(self, query: str, tokens: list[Token]):
        self.q = query
        self.tokens = tokens
        self.i = 0

    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def next(self) -> Token:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def parse(self) -> Node:
        if not self.tokens:
            return All()
        node = self.or_expr(0)
        token = self.peek()
        if token is not None:  # only a ')' can stop or_expr early
            raise _error(
                _("Unexpected ')' at position %(pos)s: there is no '(' to close."), token.start
            )
        return node

    def _needs_term_after(self, token: Token) -> None:
        after = self.peek()
        if after is None or after.kind in (OR, AND, RPAREN):
            raise _error(
                _("'%(word)s' at position %(pos)s needs a search term after it."),
                token.start,
                token.length,
                word=token.text or token.kind,
            )

    def or_expr(self, depth: int) -> Node:
        parts = [self.and_expr(depth)]
        while (token := self.peek()) is not None and token.kind == OR:
            self.next()
            self._needs_term_after(token)
            parts.append(self.and_expr(depth))
        return parts[0] if len(parts) == 1 else _span(Or, parts)

    def and_expr(self, depth: int) -> Node:
        parts = [self.unary(depth)]
        while (token := self.peek()) is not None and token.kind not in (OR, RPAREN):
            if token.kind == AND:
                self.next()
                self._needs_term_after(token)
            parts.append(self.unary(depth))
        return parts[0] if len(parts) == 1 else _span(And, parts)

    def unary(self, depth: int) -> Node:
        negations = []
        while (token := self.peek()) is not None and token.kind == NEG:
            negations.append(self.next())
        if negations:
            after = self.peek()
            if after is None or after.kind in (OR, AND, RPAREN):
                raise _dangling_dash(negations[-1].start)
        node = self.primary(depth)
        if len(negations) % 2:
            start = negations[0].start
            node = Not(node, position=start, length=node.position + node.length - start)
        return node

    def primary(self, depth: int) -> Node:
        token = self.peek()
        if token is None:  # defensive: callers check before descending
            raise _error(_("The query ends where a search term is missing."), len(self.q), 0)
        if token.kind in (OR, AND):
            raise _error(
                _("'%(word)s' at position %(pos)s needs a search term before it."),
                token.start,
                token.length,
                word=token.text,
            )
        if token.kind == RPAREN:
            raise _error(
                _("Unexpected ')' at position %(pos)s: there is no '(' to close."), token.start
            )
        if token.kind == LPAREN:
            if depth >= MAX_DEPTH:
                raise _error(
                    _("Too many nested parentheses at position %(pos)s (at most %(max)s levels)."),
                    token.start,
                    max=MAX_DEPTH,
                )
            self.next()
            after = self.peek()
            if after is not None and after.kind == RPAREN:
                raise _error(
                    _("Empty parentheses at position %(pos)s: put a search term inside."),
                    token.start,
                    after.start + 1 - token.start,
                )
            if after is None:
                raise _error(
                    _("Missing closing parenthesis for the '(' at position %(pos)s."),
                    token.start,
                    len(self.q) - token.start,
                )
            node = self.or_expr(depth + 1)
            close = self.peek()
            if close is None or close.kind != RPAREN:
                raise _error(
                    _("Missing closing parenthesis for the '(' at position %(pos)s."),
                    token.start,
                    len(self.q) - token.start,
                )
            self.next()
            return replace(node, position=token.start, length=close.start + 1 - token.start)
        self.next()
        return token.node


def _span(cls, parts: list[Node]) -> Node:
    start = parts[0].position
    end = parts[-1].position + parts[-1].length
    return cls(tuple(parts), position=start, length=end - start)


def parse(query: str | None) -> Node:
    """Parse a query into a tree; raise QuerySyntaxError if it is malformed.

    An empty or blank query gives All() (every card).
    """
    if query is None:
        query = ""
    if not isinstance(query, str):
        raise TypeError(f"query must be a string, not {type(query).__name__}")
    if len(query) > MAX_QUERY_LENGTH:
        raise _error(
            _("The query is too long (%(count)s characters; at most %(max)s)."),
            MAX_QUERY_LENGTH,
            len(query) - MAX_QUERY_LENGTH,
            count=len(query),
            max=MAX_QUERY_LENGTH,
        )
    cleaned = []
    for i, ch in enumerate(query):
        category = unicodedata.category(ch)
        if category == "Cs":  # a lone surrogate cannot be sent to a database
            raise _error(_("Invalid character at position %(pos)s."), i)
        # control characters (NUL, which PostgreSQL refuses, among them) are spaces, even
        # inside quotes; one for one, so positions stay those of the query as typed
        cleaned.append(" " if category == "Cc" else ch)
    query = "".join(cleaned)
    tokens = _Tokenizer(query).tokens()
    return _Parser(query, tokens).parse()
