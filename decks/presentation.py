"""What the deck pages show, in the reader's language: labels of races, types, subtypes and
rulesets, a deck's cards grouped by type, its statistics and charts (also the builder's),
the odds of drawing cards (R 10.4/10.5), race chips and export links. Pure reads: the views
(views_pages, views_builder) fetch, these shape."""

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from cardgame.language import current_language
from cards_data.models import Card
from cards_data.search import QuerySyntaxError, search_cards
from engine import catalog

from . import play
from .models import Deck
from .stats import (
    CURVE_TOP,
    NO_RACE,
    OPENING_HAND,
    VARIABLE_COST,
    deck_stats,
    p_at_least_one,
    p_at_least_one_with_mulligan,
    sample_hand,
)
from .textformat import TYPE_HEADERS


def race_label(race: str | None, lang: str | None = None) -> str:
    lang = lang or current_language()
    if not race or race == NO_RACE:
        with translation.override(lang):
            return gettext("No race")
    names = catalog.RACES.get(race)
    return names[lang] if names else race


def type_label(type_: str, lang: str | None = None, plural: bool = False) -> str:
    lang = lang or current_language()
    table = TYPE_HEADERS if plural else catalog.TYPES
    names = table.get(type_)
    if names:
        return names[lang]
    with translation.override(lang):
        return gettext("Other")


def subtype_label(subtype: str, lang: str | None = None) -> str:
    lang = lang or current_language()
    type_ = catalog.SUBTYPE_TYPE.get(subtype)
    names = catalog.SUBTYPES.get(type_, {}).get(subtype)
    return names[lang] if names else subtype


def ruleset_label(ruleset: str) -> str:
    return str(play.RULESET_LABELS.get(ruleset, ruleset))


def card_sort_key(card: Card):
    return (card.credit_cost is None, card.credit_cost or 0, card.display_name.casefold())


def grouped_entries(rows: list[tuple[Card, int]]) -> list[dict]:
    """(card, count) rows grouped by type in rulebook order (R 4.1), with subtotals."""
    lang = current_language()
    order = {type_: position for position, type_ in enumerate(catalog.TYPES)}
    groups: dict[str, list] = {}
    for card, count in sorted(rows, key=lambda row: card_sort_key(row[0])):
        groups.setdefault(card.type, []).append({"card": card, "count": count})
    return [
        {
            "type": type_,
            "label": type_label(type_, lang, plural=True),
            "rows": groups[type_],
            "total": sum(row["count"] for row in groups[type_]),
        }
        for type_ in sorted(groups, key=lambda t: order.get(t, len(order)))
    ]


def _bars(counts: dict[str, int], label) -> list[dict]:
    top = max(counts.values(), default=0) or 1
    return [
        {"key": key, "label": label(key), "count": n, "pct": round(100 * n / top, 1)}
        for key, n in counts.items()
        if n
    ]


def curve_chart(curve: dict[str, int]) -> dict:
    """An inline SVG column chart of the credit-cost curve (no JavaScript)."""
    top = max(curve.values(), default=0) or 1
    width, height, gap, base = 22, 100, 6, 118
    columns = []
    for position, (label, n) in enumerate(curve.items()):
        h = round(height * n / top, 1)
        x = position * (width + gap) + 4
        columns.append(
            {
                "label": label,
                "count": n,
                "x": x,
                "y": round(base - h, 1),
                "h": h,
                "mid": x + width / 2,
                "label_y": round(base - h - 3, 1),
            }
        )
    return {
        "columns": columns,
        "bar_width": width,
        "width": len(columns) * (width + gap) + 4,
        "base": base,
        "axis_y": base + 14,
    }


def deck_statistics(card_entries: list[tuple[dict, int]]) -> dict:
    lang = current_language()
    stats = deck_stats(card_entries)
    stats["curve_chart"] = curve_chart(stats["curve"])
    stats["type_bars"] = _bars(stats["types"], lambda t: type_label(t, lang))
    stats["subtype_bars"] = _bars(stats["subtypes"], lambda s: subtype_label(s, lang))
    stats["race_bars"] = _bars(stats["races"], lambda r: race_label(r, lang))
    stats["stat_rows"] = [
        {"key": key, "label": names[lang], "icon": names["icon"], "total": stats["ship_stats"][key]}
        for key, names in catalog.STATS.items()
    ]
    stats["variable_cost"] = VARIABLE_COST
    stats["curve_top"] = CURVE_TOP
    return stats


def _percent(fraction) -> float:
    return float(fraction) * 100


def odds(copies: int, total: int) -> dict | None:
    """R 10.4/10.5: P(at least one of `copies` in the opening 5), without and with the mulligan."""
    if total <= 0:
        return None
    hand = min(OPENING_HAND, total)
    copies = min(copies, total)
    first = p_at_least_one(copies, total, hand)
    mulligan = p_at_least_one_with_mulligan(copies, total, hand)
    return {
        "copies": copies,
        "opening": _percent(first),
        "opening_exact": f"{first.numerator}/{first.denominator}",
        "mulligan": _percent(mulligan),
        "mulligan_exact": f"{mulligan.numerator}/{mulligan.denominator}",
    }


def query_odds(query: str, entries: list[tuple[str, int]], total: int) -> dict:
    """Cards of the deck matching a card-search query (restricted to the deck's codes)."""
    counts = dict(entries)
    try:
        matched = search_cards(query, Card.objects.filter(code__in=list(counts)))
        codes = sorted(set(matched.values_list("code", flat=True)))
    except QuerySyntaxError as error:
        return {"query": query, "error": error.message}
    copies = sum(counts[code] for code in codes)
    return {"query": query, "codes": codes, "copies": copies, "odds": odds(copies, total)}


def opening_hand(card_entries: list[tuple[dict, int]], seed: str, cards: dict[str, Card]):
    return [cards[card["code"]] for card in sample_hand(card_entries, seed)]


def export_links(deck: Deck) -> list[dict]:
    url = reverse("deck-export", args=[deck.pk])
    return [
        {"label": gettext("Text (Hungarian)"), "url": f"{url}?format=text&lang=hu"},
        {"label": gettext("Text (English)"), "url": f"{url}?format=text&lang=en"},
        {"label": "JSON", "url": f"{url}?format=json"},
        {"label": gettext("Share code (JSON)"), "url": f"{url}?format=share"},
    ]


def race_chips(races) -> list[dict]:
    lang = current_language()
    order = list(catalog.RACES)
    ordered = sorted(races, key=lambda r: order.index(r) if r in order else len(order))
    return [{"race": race, "label": race_label(race, lang)} for race in ordered]
