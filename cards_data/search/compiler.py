"""Syntax tree (tree.py, built by parser.py) -> django.db.models.Q over Card.

Only parameterised ORM lookups, never SQL text. Text terms compare the folded stored
columns (search_name, search_text) with folded query values through `__contains`, so
SQLite and PostgreSQL give the same answers. Keywords are matched through a subquery
on the many-to-many table: no join multiplies rows (no `distinct()` needed) and
`kw:a kw:b` means "has both", not "one keyword row that is both".

Every tree that parse() returns compiles: all the checking is done by the parser.
"""

from __future__ import annotations

from functools import reduce
from operator import and_, or_

from django.db.models import Q

from .tree import All, And, Code, Enum, Node, Not, Number, Or, Text

NUMBER_COLUMNS = {
    "cost": "credit_cost",
    "speed": "speed",
    "firepower": "firepower",
    "armour": "armour",
    "bombardment": "bombardment",
    "size": "size",
    "upgrade_limit": "upgrade_limit_value",
}
COMPARISONS = {"<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}
TEXT_COLUMNS = {"name": ("search_name",), "text": ("search_text",)}
TEXT_COLUMNS["any"] = TEXT_COLUMNS["name"] + TEXT_COLUMNS["text"]
ENUM_COLUMNS = {
    "type": "type",
    "subtype": "subtype",
    "race": "race",
    "rarity": "rarity",
    "clan": "clan",
    "edition": "edition__code",
}


def compile_query(node: Node) -> Q:
    """The Q object selecting the cards that match `node`."""
    if isinstance(node, All):
        return Q()
    if isinstance(node, And):
        return reduce(and_, (compile_query(child) for child in node.children))
    if isinstance(node, Or):
        return reduce(or_, (compile_query(child) for child in node.children))
    if isinstance(node, Not):
        return ~compile_query(node.child)
    if isinstance(node, Text):
        return reduce(
            or_, (Q(**{f"{col}__contains": node.value}) for col in TEXT_COLUMNS[node.scope])
        )
    if isinstance(node, Enum):
        return _enum(node)
    if isinstance(node, Number):
        return _number(node)
    if isinstance(node, Code):
        return Q(code__iexact=node.value)
    raise TypeError(f"not a search tree node: {node!r}")


def _one_of(column: str, values: tuple[str, ...]) -> Q:
    if len(values) == 1:
        return Q(**{column: values[0]})
    return Q(**{f"{column}__in": sorted(values)})


def _enum(node: Enum) -> Q:
    if node.field == "keyword":
        # here, not at the top: parsing works without Django's settings, the models do not
        from cards_data.models import Card

        through = Card.keywords.through.objects.filter(keyword__slug__in=sorted(node.values))
        return Q(pk__in=through.values("card_id"))
    return _one_of(ENUM_COLUMNS[node.field], node.values)


def _number(node: Number) -> Q:
    column = NUMBER_COLUMNS[node.field]
    value = node.value
    if value == "x":  # a variable value: cost X, upgrade limit X
        if node.field == "cost":
            symbol = Q(credit_cost__isnull=True) & ~Q(cost_kind="")
        else:
            symbol = Q(upgrade_limit__in=["X", "x"])
        return symbol if node.op == "=" else _has_other_value(node.field) & ~symbol
    if value == "?":  # only the upgrade limit of traps
        symbol = Q(upgrade_limit="?")
        return symbol if node.op == "=" else _has_other_value(node.field) & ~symbol
    if node.op == "=":
        return Q(**{column: value})
    if node.op == "!=":
        # a comparison: cards without the value (NULL) are not "different from 3"
        return Q(**{f"{column}__lt": value}) | Q(**{f"{column}__gt": value})
    return Q(**{f"{column}__{COMPARISONS[node.op]}": value})


def _has_other_value(field: str) -> Q:
    """Cards that have some value in the field (for `cost!=x`, `ul!=?`)."""
    if field == "cost":
        return Q(credit_cost__isnull=False) | ~Q(cost_kind="")
    return ~Q(upgrade_limit="")
