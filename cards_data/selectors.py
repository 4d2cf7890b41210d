"""Read models for the catalogue pages (HackSoft style: queries here, views stay thin)."""

import re
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.db.models import Count, Q

from .models import Card

RULINGS_PATH = Path(settings.BASE_DIR) / "docs" / "rulings.md"


def facet_counts(queryset, field: str) -> dict[str, int]:
    rows = queryset.order_by().values(field).annotate(n=Count("id"))
    return {row[field]: row["n"] for row in rows if row[field]}


def related_cards(card: Card, limit: int = 6):
    """Same race and subtype first, then cards sharing a keyword.

    The keyword holders are a subquery, not a join: a join repeats a card once per shared
    keyword and needed a DISTINCT over every column of the row. Only the card faces show
    these cards, and a face reads neither the keywords nor the edition: no prefetch, no
    join. `card.keywords.all()` is read as the caller loaded it (prefetched on the page)."""
    similar = Q(race=card.race, subtype=card.subtype)
    keyword_ids = [keyword.id for keyword in card.keywords.all()]
    if keyword_ids:
        holders = Card.keywords.through.objects.filter(keyword_id__in=keyword_ids)
        similar |= Q(id__in=holders.values("card_id"))
    return (
        Card.objects.filter(similar)
        .exclude(pk=card.pk)
        .order_by("subtype", "credit_cost", "code")[:limit]
    )


# Only this section of docs/rulings.md reaches the card pages: the rest are our design
# notes (in English, naming files and fields), not rulings written for players.
PLAYER_RULINGS_HEADING = "Card rulings for players"
_CARD_HEADING = re.compile(r"^###\s+(KG\d+-\d+)\b")
_LANG_PARAGRAPH = re.compile(r"^(hu|en):\s*", re.IGNORECASE)


@lru_cache(maxsize=1)
def _rulings_paragraphs(mtime: float) -> dict[tuple[str, str], list[str]]:
    """(card code, language) -> Markdown paragraphs of docs/rulings.md's player section.

    The section holds one `### KG1-xxx Name` heading per card and under it paragraphs
    that start with `hu:` or `en:`; anything else in the file is ignored."""
    rulings: dict[tuple[str, str], list[str]] = {}
    in_section, code = False, None
    for block in re.split(r"\n\s*\n", RULINGS_PATH.read_text(encoding="utf-8")):
        block = block.strip()
        if block.startswith(("# ", "## ")):
            in_section = block.splitlines()[0].lstrip("# ").strip() == PLAYER_RULINGS_HEADING
            code = None
            continue
        if not in_section:
            continue
        heading = _CARD_HEADING.match(block)
        if heading:
            code = heading.group(1)
            block = "\n".join(block.splitlines()[1:]).strip()
        marked = _LANG_PARAGRAPH.match(block)
        if code and marked:
            lang = marked.group(1).lower()
            rulings.setdefault((code, lang), []).append(block[marked.end() :].strip())
    return rulings


def rulings_for(card: Card, lang: str = "en") -> list[str]:
    """The card's rulings written for players, in the page's language (Markdown)."""
    if not RULINGS_PATH.exists():
        return []
    rulings = _rulings_paragraphs(RULINGS_PATH.stat().st_mtime)
    return list(rulings.get((card.code, "hu" if lang == "hu" else "en"), []))
