"""The syntax tree of a search query: what parser.py builds and compiler.py reads."""

from dataclasses import dataclass, field


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
