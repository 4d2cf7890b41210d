"""Accent- and case-folding shared by the stored search columns and the query parser."""

import unicodedata


def fold(text: str) -> str:
    """`Űrcápa` -> `urcapa`: strip diacritics, casefold, collapse whitespace."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(stripped.casefold().split())
