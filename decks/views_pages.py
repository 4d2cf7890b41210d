"""Deck pages other than the builder: list, detail (stats, odds, sample hand), versions,
compare, print sheet, import and collection.

Views stay thin: reads are decks.selectors and the few helpers below, what a page shows
(labels, groups, charts, odds) is decks.presentation; writes go through decks.services;
legality is always engine.deck.check_deck's answer (R 9) through services.validate_entries.
"""

import secrets
from datetime import date
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Count, OuterRef, Prefetch, Subquery
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import floatformat
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from cardgame.language import current_language
from cardgame.params import BadNumber, whole_number
from cards_data.definitions import card_dicts, card_dicts_of
from cards_data.models import Card
from engine import catalog
from engine.deck import DECK_SIZE

from . import services
from .boosters import open_booster
from .forms import CollectionForm, CompareForm, ImportForm, detect_format
from .models import CollectionEntry, Deck, DeckCard, DeckVersion
from .presentation import (
    card_sort_key,
    deck_statistics,
    export_links,
    grouped_entries,
    odds,
    opening_hand,
    query_odds,
    race_chips,
    race_label,
    ruleset_label,
)
from .selectors import card_index, has_race, search_decks, visible_decks
from .stats import NO_RACE
from .textformat import (
    MAX_UPLOAD_BYTES,
    DecklistError,
    decode_share_code,
    decode_upload,
    encode_share_code,
    message,
    parse_decklist,
    parse_json,
)

DECKS_PER_PAGE = 20
MAX_SEED_LENGTH = 64
COMPARE_CHOICES = 200  # decks offered in the compare form's menus

# --------------------------------------------------------------------------- reads


def visible_deck_or_404(user, pk) -> Deck:
    """The deck if this user may see it (public or theirs); otherwise 404, never 403."""
    return get_object_or_404(visible_decks(user), pk=pk)


def deck_entries(deck: Deck) -> list[tuple[str, int]]:
    return [(entry.card.code, entry.count) for entry in deck.entries.all()]


def version_number(deck: Deck) -> int:
    return max((v.number for v in deck.versions.all()), default=0)


def cards_by_code(codes) -> dict[str, Card]:
    return {card.code: card for card in Card.objects.filter(code__in=list(set(codes)))}


def _seed(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    return value[:MAX_SEED_LENGTH] if value else None


def _query_string(params: dict, **changes) -> str:
    """A list URL's query with some parameters changed; a changed filter resets the page."""
    merged = {**params, **changes}
    return "?" + urlencode({k: v for k, v in merged.items() if v not in (None, "") and k != "page"})


# --------------------------------------------------------------------------- deck list


@require_http_methods(["GET", "HEAD"])
def deck_list(request):
    user = request.user
    decks = visible_decks(user).prefetch_related(None).select_related("owner")
    mine = user.is_authenticated and request.GET.get("mine") == "1"
    if mine:
        decks = decks.filter(owner=user)
    race = request.GET.get("race", "")
    if race in catalog.RACES:
        decks = decks.filter(has_race(race))
    else:
        race = ""
    legal = request.GET.get("legal", "")
    if legal in ("yes", "no"):
        decks = decks.filter(is_legal=legal == "yes")
    else:
        legal = ""
    query = request.GET.get("q", "")
    decks, error = search_decks(decks, query)
    page = Paginator(decks.order_by("-updated", "-pk"), DECKS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    params = {"q": query, "race": race, "legal": legal, "mine": "1" if mine else ""}
    lang = current_language()
    rows = [{"deck": deck, "races": race_chips(deck.race_list)} for deck in page]
    context = {
        "page": page,
        "rows": rows,
        "query": query,
        "error": error,
        "mine": mine,
        "race": race,
        "legal": legal,
        "race_links": [
            {
                "race": key,
                "label": names[lang],
                "url": _query_string(params, race=key),
                "active": key == race,
            }
            for key, names in catalog.RACES.items()
        ],
        "all_races_url": _query_string(params, race=""),
        "legal_links": [
            {"value": "", "label": gettext("All"), "url": _query_string(params, legal="")},
            {"value": "yes", "label": gettext("Legal"), "url": _query_string(params, legal="yes")},
            {
                "value": "no",
                "label": gettext("Not legal"),
                "url": _query_string(params, legal="no"),
            },
        ],
        "mine_url": _query_string(params, mine="" if mine else "1"),
        "page_query": urlencode({k: v for k, v in params.items() if v}),
    }
    return render(request, "decks/deck_list.html", context, status=400 if error else 200)


# --------------------------------------------------------------------------- deck detail


def detail_deck_or_404(user, pk) -> Deck:
    """The deck for its page in two queries: the deck with its owner and the number of its
    latest version, then its entries with their cards. (visible_decks also prefetches every
    version, card lists and all, which this page would read only for the highest number.)"""
    latest = DeckVersion.objects.filter(deck=OuterRef("pk")).order_by("-number").values("number")
    decks = (
        visible_decks(user)
        .prefetch_related(None)
        .prefetch_related(Prefetch("entries", queryset=DeckCard.objects.select_related("card")))
        .annotate(latest_number=Subquery(latest[:1]))
    )
    return get_object_or_404(decks, pk=pk)


def odds_rows(cards: dict[str, Card], entries: list[tuple[str, int]], total: int) -> list[dict]:
    """The draw-odds table (R 10.4/10.5), most copies first. A deck holds a handful of
    different counts: the odds are computed once per count, and their percentages formatted
    here once per count rather than by a template filter on every row."""
    by_count = {}
    for count in {count for _, count in entries}:
        chance = odds(count, total)
        if chance:
            chance["opening_text"] = floatformat(chance["opening"], 1)
            chance["mulligan_text"] = floatformat(chance["mulligan"], 1)
        by_count[count] = chance
    ordered = sorted(entries, key=lambda e: (-e[1], card_sort_key(cards[e[0]])))
    return [
        {"card": cards[code], "count": count, "odds": by_count[count]} for code, count in ordered
    ]


@require_http_methods(["GET", "HEAD"])
def deck_detail(request, pk):
    deck = detail_deck_or_404(request.user, pk)
    rows = [(entry.card, entry.count) for entry in deck.entries.all()]
    entries = [(card.code, count) for card, count in rows]
    cards = {card.code: card for card, _ in rows}
    dicts = card_dicts_of(cards.values())
    card_entries = [(dicts[code], count) for code, count in entries]
    total = sum(count for _, count in entries)
    problems = services.validate_entries(entries, deck.ruleset, dicts)
    match = request.GET.get("match", "").strip()
    seed = _seed(request.GET.get("hand"))
    context = {
        "deck": deck,
        "is_owner": request.user.is_authenticated and deck.owner_id == request.user.id,
        "version": deck.latest_number or 0,
        "total": total,
        "deck_size": DECK_SIZE,
        "groups": grouped_entries(rows),
        "problems": problems,
        "legal": not problems,
        "ruleset_label": ruleset_label(deck.ruleset),
        "races": race_chips(deck.race_list),
        "stats": deck_statistics(card_entries),
        "card_odds": odds_rows(cards, entries, total),
        "match": query_odds(match, entries, total) if match else None,
        "match_query": match,
        "hand": opening_hand(card_entries, seed, cards) if seed else None,
        "hand_seed": seed,
        "next_seed": secrets.token_hex(4),
        "export_links": export_links(deck),
        "share_code": encode_share_code(entries) if entries else "",
    }
    return render(request, "decks/deck_detail.html", context)


# --------------------------------------------------------------------------- versions


def _int_param(value):
    try:
        return whole_number(value, "version")  # cardgame.params: the site's one reader
    except BadNumber:
        return None


def version_diff_rows(changes: list[dict]) -> list[dict]:
    cards = cards_by_code(change["code"] for change in changes)
    return [
        {**change, "card": cards.get(change["code"]), "amount": abs(change["change"])}
        for change in changes
    ]


@require_http_methods(["GET", "HEAD"])
def versions(request, pk):
    """History, and the changes between any two versions (`?from=&to=`; 0 is the empty deck)."""
    deck = visible_deck_or_404(request.user, pk)
    history = sorted(deck.versions.all(), key=lambda v: -v.number)
    by_number = {v.number: v for v in history}
    rows = [{"version": v, "count": sum(count for _, count in v.cards)} for v in history]
    latest = history[0].number if history else 0
    errors = []
    raw_from, raw_to = request.GET.get("from", ""), request.GET.get("to", "")
    to_number = _int_param(raw_to) if raw_to else latest
    from_number = _int_param(raw_from) if raw_from else max((to_number or 0) - 1, 0)
    for raw, number in ((raw_from, from_number), (raw_to, to_number)):
        if number is None:
            errors.append(gettext("“%(value)s” is not a version number.") % {"value": raw[:20]})
        elif number != 0 and number not in by_number:
            errors.append(
                gettext("This deck has no version %(number)s (it has 1–%(latest)s).")
                % {"number": number, "latest": latest}
            )
    diff = None
    if not errors and to_number:
        before = by_number[from_number].cards if from_number else []
        changes = services.diff_entries(before, by_number[to_number].cards)
        diff = {
            "from": by_number.get(from_number),
            "to": by_number[to_number],
            "rows": version_diff_rows(changes),
            "added": sum(c["change"] for c in changes if c["change"] > 0),
            "removed": -sum(c["change"] for c in changes if c["change"] < 0),
        }
    context = {
        "deck": deck,
        "rows": rows,
        "diff": diff,
        "errors": errors,
        "from_number": from_number,
        "to_number": to_number,
    }
    return render(request, "decks/versions.html", context, status=400 if errors else 200)


# --------------------------------------------------------------------------- compare


def compare_choices(user, *extra: Deck) -> list[tuple[int, str]]:
    decks = list(
        visible_decks(user)
        .prefetch_related(None)
        .order_by("-updated", "-pk")
        .values_list("pk", "name", "owner__username")[:COMPARE_CHOICES]
    )
    seen = {pk for pk, _, _ in decks}
    decks += [(d.pk, d.name, d.owner.username) for d in extra if d and d.pk not in seen]
    return [(pk, f"{name} — {owner} (#{pk})") for pk, name, owner in decks]


@require_http_methods(["GET", "HEAD"])
def compare(request):
    user = request.user
    form = CompareForm(request.GET or None)
    deck_a = deck_b = diff = None
    status = 200
    if request.GET:
        if form.is_valid():
            deck_a = visible_deck_or_404(user, form.cleaned_data["a"])
            deck_b = visible_deck_or_404(user, form.cleaned_data["b"])
            entries_a, entries_b = deck_entries(deck_a), deck_entries(deck_b)
            changes = services.diff_entries(entries_a, entries_b)
            shared = sum(min(dict(entries_a).get(c, 0), n) for c, n in entries_b)
            diff = {"rows": version_diff_rows(changes), "shared": shared}
        else:
            status = 400
    form.set_choices(compare_choices(user, deck_a, deck_b))
    context = {
        "form": form,
        "a": deck_a,
        "b": deck_b,
        "diff": diff,
        "a_races": race_chips(deck_a.race_list) if deck_a else [],
        "b_races": race_chips(deck_b.race_list) if deck_b else [],
    }
    return render(request, "decks/compare.html", context, status=status)


# --------------------------------------------------------------------------- print


@require_http_methods(["GET", "HEAD"])
def print_decklist(request, pk):
    deck = visible_deck_or_404(request.user, pk)
    rows = [(entry.card, entry.count) for entry in deck.entries.all()]
    context = {
        "deck": deck,
        "groups": grouped_entries(rows),
        "total": sum(count for _, count in rows),
        "deck_size": DECK_SIZE,
        "today": date.today(),
        "ruleset_label": ruleset_label(deck.ruleset),
        "races": race_chips(deck.race_list),
        "version": version_number(deck),
    }
    return render(request, "decks/print.html", context)


# --------------------------------------------------------------------------- import


READERS = {"text": parse_decklist, "json": parse_json, "share": decode_share_code}


def read_upload(upload) -> str:
    """The text of an uploaded file; DecklistError with a clear message otherwise."""
    if upload.size is not None and upload.size > MAX_UPLOAD_BYTES:
        raise DecklistError(message("upload_too_large", size=upload.size, max=MAX_UPLOAD_BYTES))
    return decode_upload(upload.read(MAX_UPLOAD_BYTES + 1))


def read_decklist(text: str, fmt: str):
    """(format used, textformat.ParseResult)."""
    fmt = detect_format(text) if fmt == "auto" else fmt
    return fmt, READERS[fmt](text.strip() if fmt == "share" else text, card_index())


def parsed_rows(entries: list[tuple[str, int]]) -> list[dict]:
    cards = cards_by_code(code for code, _ in entries)
    return [{"card": cards.get(code), "code": code, "count": count} for code, count in entries]


@require_http_methods(["GET", "HEAD", "POST"])
def import_page(request):
    if request.method != "POST":
        return render(request, "decks/import.html", {"form": ImportForm()})
    form = ImportForm(request.POST, request.FILES)
    context = {"form": form, "submitted": True}
    if not form.is_valid():
        return render(request, "decks/import.html", context, status=400)
    data = form.cleaned_data
    upload = data.get("file")
    try:
        text = read_upload(upload) if upload else data["text"]
    except DecklistError as error:
        context["fatal"] = error.message
        return render(request, "decks/import.html", context, status=400)
    if not text.strip():
        context["fatal"] = gettext("The file is empty.")
        return render(request, "decks/import.html", context, status=400)
    fmt, result = read_decklist(text, data["format"])
    entries = result.entries
    context.update(format_used=fmt, line_errors=result.errors, rows=parsed_rows(entries))
    context["total"] = sum(count for _, count in entries)
    if not result.ok:
        return render(request, "decks/import.html", context, status=400)
    if not entries:
        context["fatal"] = gettext("No cards were found in the list.")
        return render(request, "decks/import.html", context, status=400)
    ruleset = data.get("ruleset") or result.meta.get("ruleset") or "original"
    problems = services.validate_entries(entries, ruleset)
    context.update(problems=problems, legal=not problems, ruleset=ruleset)
    if request.user.is_authenticated and request.POST.get("action") != "check":
        name = (
            data.get("name")
            or result.meta.get("name")
            or (upload.name.rsplit(".", 1)[0][:100] if upload else "")
            or gettext("Imported deck")
        )
        try:
            deck = services.save_deck(
                request.user,
                name=name,
                cards=entries,
                ruleset=ruleset,
                is_public=data.get("is_public", False),
                comment=gettext("Imported"),
            )
        except ValidationError as error:
            context["fatal"] = " ".join(error.messages)
            return render(request, "decks/import.html", context, status=400)
        messages.success(request, gettext("The deck was imported."))
        return redirect(deck)
    return render(request, "decks/import.html", context)


# --------------------------------------------------------------------------- collection


def collection_summary(user) -> dict:
    lang = current_language()
    owned = list(
        CollectionEntry.objects.filter(owner=user)
        .select_related("card")
        .order_by("card__race", "card__code")
    )
    by_rarity = {key: {"cards": 0, "copies": 0} for key in catalog.RARITIES}
    owned_per_race: dict[str, int] = {}
    for entry in owned:
        bucket = by_rarity.setdefault(entry.card.rarity, {"cards": 0, "copies": 0})
        bucket["cards"] += 1
        bucket["copies"] += entry.count
        owned_per_race[entry.card.race or NO_RACE] = (
            owned_per_race.get(entry.card.race or NO_RACE, 0) + 1
        )
    in_set = {
        (row["race"] or NO_RACE): row["n"]
        for row in Card.objects.order_by().values("race").annotate(n=Count("id"))
    }
    completion = [
        {
            "race": race,
            "label": race_label(race, lang),
            "owned": owned_per_race.get(race, 0),
            "total": n,
            "pct": round(100 * owned_per_race.get(race, 0) / n, 1) if n else 0,
        }
        for race, n in sorted(
            in_set.items(),
            key=lambda kv: list(catalog.RACES).index(kv[0]) if kv[0] in catalog.RACES else 99,
        )
    ]
    return {
        "entries": owned,
        "rarities": [
            {"rarity": key, "label": catalog.RARITIES.get(key, {}).get(lang, key), **counts}
            for key, counts in by_rarity.items()
        ],
        "distinct": len(owned),
        "copies": sum(entry.count for entry in owned),
        "set_size": sum(in_set.values()),
        "completion": completion,
    }


def open_a_booster(user) -> list[str]:
    """R 8.1: 15 cards by the 30:10:3 frequencies (never an ultra-rare), added to the collection."""
    pack = open_booster(list(card_dicts().values()), secrets.token_hex(8))
    services.add_to_collection(user, [card["code"] for card in pack])
    return [card["code"] for card in pack]


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def collection_page(request):
    form = CollectionForm()
    status = 200
    if request.method == "POST":
        if request.POST.get("action") == "booster":
            try:
                request.session["opened_booster"] = open_a_booster(request.user)
            except ValidationError as error:
                messages.error(request, " ".join(error.messages))
            return redirect("decks:collection")
        form = CollectionForm(request.POST)
        if form.is_valid():
            try:
                services.set_collection(
                    request.user, form.cleaned_data["lines"], replace=form.cleaned_data["replace"]
                )
            except ValidationError as error:
                form.add_error("lines", error)
            else:
                messages.success(request, gettext("Your collection was updated."))
                return redirect("decks:collection")
        status = 400
    opened_codes = request.session.pop("opened_booster", None)
    opened = None
    if opened_codes:
        cards = cards_by_code(opened_codes)
        opened = [cards[code] for code in opened_codes if code in cards]
    context = {"form": form, "opened": opened, **collection_summary(request.user)}
    return render(request, "decks/collection.html", context, status=status)
