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

The pieces: tree.py (the nodes), errors.py (QuerySyntaxError), fields.py (the field
table and the value vocabulary, built from engine.catalog), tokenizer.py (tokens and
`field:value` terms); this module is the recursive-descent parser and `parse`.
"""

import unicodedata
from dataclasses import replace

from .errors import _, syntax_error
from .tokenizer import AND, LPAREN, NEG, OR, RPAREN, Token, Tokenizer, dangling_dash
from .tree import All, And, Node, Not, Or

MAX_QUERY_LENGTH = 1000
MAX_DEPTH = 20


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
            raise syntax_error(
                _("Unexpected ')' at position %(pos)s: there is no '(' to close."), token.start
            )
        return node

    def _needs_term_after(self, token: Token) -> None:
        after = self.peek()
        if after is None or after.kind in (OR, AND, RPAREN):
            raise syntax_error(
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
                raise dangling_dash(negations[-1].start)
        node = self.primary(depth)
        if len(negations) % 2:
            start = negations[0].start
            node = Not(node, position=start, length=node.position + node.length - start)
        return node

    def primary(self, depth: int) -> Node:
        token = self.peek()
        if token is None:  # defensive: callers check before descending
            raise syntax_error(_("The query ends where a search term is missing."), len(self.q), 0)
        if token.kind in (OR, AND):
            raise syntax_error(
                _("'%(word)s' at position %(pos)s needs a search term before it."),
                token.start,
                token.length,
                word=token.text,
            )
        if token.kind == RPAREN:
            raise syntax_error(
                _("Unexpected ')' at position %(pos)s: there is no '(' to close."), token.start
            )
        if token.kind == LPAREN:
            if depth >= MAX_DEPTH:
                raise syntax_error(
                    _("Too many nested parentheses at position %(pos)s (at most %(max)s levels)."),
                    token.start,
                    max=MAX_DEPTH,
                )
            self.next()
            after = self.peek()
            if after is not None and after.kind == RPAREN:
                raise syntax_error(
                    _("Empty parentheses at position %(pos)s: put a search term inside."),
                    token.start,
                    after.start + 1 - token.start,
                )
            if after is None:
                raise syntax_error(
                    _("Missing closing parenthesis for the '(' at position %(pos)s."),
                    token.start,
                    len(self.q) - token.start,
                )
            node = self.or_expr(depth + 1)
            close = self.peek()
            if close is None or close.kind != RPAREN:
                raise syntax_error(
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
        raise syntax_error(
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
            raise syntax_error(_("Invalid character at position %(pos)s."), i)
        # control characters (NUL, which PostgreSQL refuses, among them) are spaces, even
        # inside quotes; one for one, so positions stay those of the query as typed
        cleaned.append(" " if category == "Cc" else ch)
    query = "".join(cleaned)
    tokens = Tokenizer(query).tokens()
    return _Parser(query, tokens).parse()
