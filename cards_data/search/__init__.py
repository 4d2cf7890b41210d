"""The card search language: `t:ship r:zarg cost<=3`, used by the search box, the deck
builder's filter and the API alike. Syntax: templates/cards_data/_search_syntax.html.
"""

from .compiler import compile_query
from .errors import QuerySyntaxError
from .normalize import fold
from .parser import parse
from .tree import All

__all__ = ["QuerySyntaxError", "compile_query", "fold", "parse", "search_cards"]


def search_cards(query: str | None, queryset=None):
    """The cards of `queryset` (default: every card) matching `query`.

    An empty or blank query gives the whole queryset; a malformed one raises
    QuerySyntaxError (the only exception a query string can cause).
    """
    if queryset is None:
        # here, not at the top: parsing works without Django's settings, the models do not
        from cards_data.models import Card

        queryset = Card.objects.all()
    node = parse(query)
    if isinstance(node, All):
        return queryset
    return queryset.filter(compile_query(node))
