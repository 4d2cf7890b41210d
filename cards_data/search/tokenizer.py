"""The tokenizer of the search language: words, phrases, parentheses, `-` and
`field:value` terms (resolved here to tree nodes, so a bad value is reported where
it is written)."""

import difflib
import re
import unicodedata
from dataclasses import dataclass

from .errors import QuerySyntaxError, _, syntax_error
from .fields import (
    CODE,
    FIELD_DEFS,
    FIELDS_BY_NAME,
    NUMBER,
    NUMBER_SYMBOLS,
    TEXT,
    UNKNOWN_VALUE_MESSAGES,
    known_fields_listing,
    norm_value,
    suggest_value,
    vocabulary,
)
from .normalize import fold
from .tree import Code, Enum, Node, Number, Or, Text

MAX_NUMBER = 9999

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


def dangling_dash(start: int) -> QuerySyntaxError:
    return syntax_error(
        _(
            "'-' at position %(pos)s must be followed directly by the search term it "
            "excludes (e.g. -t:ship)."
        ),
        start,
    )


class Tokenizer:
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
                    raise dangling_dash(i)
                out.append(Token(NEG, i, 1))
                i += 1
            elif ch in OPEN_QUOTES:
                value, end = self._quoted(i)
                folded = fold(value)
                if not folded:
                    raise syntax_error(
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
        raise syntax_error(
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
            raise syntax_error(
                _(
                    "'%(word)s' at position %(pos)s: an operator needs a field name before it, "
                    "with no space (e.g. t:ship, cost<=3)."
                ),
                start,
                j - start,
                word=word,
            )
        if not folded:
            raise syntax_error(
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
            raise syntax_error(
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
            raise syntax_error(
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
            raise syntax_error(
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
                raise syntax_error(
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
            raise syntax_error(
                message, vstart, len(raw), op=op, term=term, symbols=" / ".join(symbols)
            )
        number = int(value)
        if number > MAX_NUMBER:
            raise syntax_error(
                _("The number %(number)s at position %(pos)s is too large (at most %(max)s)."),
                vstart,
                len(raw),
                number=value,
                max=MAX_NUMBER,
            )
        return Number(fdef.key, compare, number, **where)

    def _enum(self, fdef, name, raw, vstart, vlength, where) -> Node:
        vocab = vocabulary()
        targets = vocab.aliases.get(fdef.key, {}).get(norm_value(raw))
        if not targets:
            raise syntax_error(
                _(UNKNOWN_VALUE_MESSAGES[fdef.key][0])
                + _did_you_mean(suggest_value(fdef, name, raw))
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
