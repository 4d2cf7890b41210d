""" "Did you mean": when a bare word finds nothing or very little, the field query it
probably meant (a race, type or clan name in either language suggests r:, t: or clan:)."""

from engine import catalog

from .search.normalize import fold

FEW_RESULTS = 3
FIELD_TABLES = (("r", catalog.RACES), ("t", catalog.TYPES), ("clan", catalog.CLANS))


def _names(ident: str, names: dict) -> set[str]:
    return {fold(ident), fold(ident.replace("_", " ")), fold(names["hu"]), fold(names["en"])}


def suggestions(query: str, found: int) -> list[str]:
    """Field queries for a bare race, type or clan name that found at most FEW_RESULTS."""
    query = (query or "").strip()
    if not query or found > FEW_RESULTS or ":" in query:
        return []
    wanted = fold(query)
    return [
        f"{prefix}:{ident}"
        for prefix, table in FIELD_TABLES
        for ident, names in table.items()
        if wanted in _names(ident, names)
    ]
