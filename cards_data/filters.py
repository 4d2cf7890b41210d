"""One FilterSet for the card list page and the API: the facets plus `q` in the search language."""

from contextlib import suppress

import django_filters
from django import forms
from django.core.exceptions import EmptyResultSet
from django.utils.translation import gettext_lazy as _
from django_filters.rest_framework import DjangoFilterBackend

from engine import catalog

from .models import Card
from .search import QuerySyntaxError, parse, search_cards

SORTS = {
    "code": ("code",),
    "name": ("name", "code"),
    "name_en": ("name_en", "code"),
    "cost": ("credit_cost", "code"),
    "-cost": ("-credit_cost", "code"),
    "race": ("race", "code"),
    "type": ("type", "subtype", "code"),
    "rarity": ("rarity", "code"),
    "speed": ("-speed", "code"),
    "firepower": ("-firepower", "code"),
    "armour": ("-armour", "code"),
    "bombardment": ("-bombardment", "code"),
}
SORT_LABELS = {
    "code": _("Code"),
    "name": _("Hungarian name"),
    "name_en": _("English name"),
    "cost": _("Cost, lowest first"),
    "-cost": _("Cost, highest first"),
    "race": _("Race"),
    "type": _("Type"),
    "rarity": _("Rarity"),
    "speed": _("Speed"),
    "firepower": _("Firepower"),
    "armour": _("Armour"),
    "bombardment": _("Bombardment"),
}


def validate_query(value):
    """Reject a malformed query at form validation, so pages and the API answer 400 with the message."""
    try:
        parse(value)
    except QuerySyntaxError as exc:
        raise forms.ValidationError(exc.message) from exc


def _choices(table):
    return [(key, key) for key in table]


def _all_subtypes():
    return [(sub, sub) for subs in catalog.SUBTYPES.values() for sub in subs]


class CardFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(
        method="filter_query", label=_("Search"), max_length=1000, validators=[validate_query]
    )
    race = django_filters.MultipleChoiceFilter(
        choices=_choices(catalog.RACES), label=_("Race"), distinct=False
    )
    type = django_filters.MultipleChoiceFilter(
        choices=_choices(catalog.TYPES), label=_("Type"), distinct=False
    )
    subtype = django_filters.MultipleChoiceFilter(
        choices=_all_subtypes(), label=_("Subtype"), distinct=False
    )
    rarity = django_filters.MultipleChoiceFilter(
        choices=_choices(catalog.RARITIES), label=_("Rarity"), distinct=False
    )
    clan = django_filters.MultipleChoiceFilter(
        choices=_choices(catalog.CLANS), label=_("Clan"), distinct=False
    )
    keyword = django_filters.MultipleChoiceFilter(
        choices=_choices(catalog.KEYWORDS), label=_("Keyword"), method="filter_keyword"
    )
    edition = django_filters.CharFilter(field_name="edition__code", label=_("Edition"))
    credit_cost = django_filters.RangeFilter(label=_("Credit cost"))
    speed = django_filters.RangeFilter(label=_("Speed"))
    firepower = django_filters.RangeFilter(label=_("Firepower"))
    armour = django_filters.RangeFilter(label=_("Armour"))
    bombardment = django_filters.RangeFilter(label=_("Bombardment"))
    sort = django_filters.ChoiceFilter(
        choices=list(SORT_LABELS.items()), method="filter_sort", label=_("Sort"), empty_label=None
    )

    class Meta:
        model = Card
        fields = []

    def filter_query(self, queryset, name, value):
        return search_cards(value, queryset)

    def filter_keyword(self, queryset, name, values):
        """Any of the chosen ship abilities; a subquery, so no DISTINCT over the whole row."""
        if not values:
            return queryset
        holders = Card.keywords.through.objects.filter(keyword__slug__in=values).values("card_id")
        return queryset.filter(id__in=holders)

    def filter_sort(self, queryset, name, value):
        return queryset.order_by(*SORTS.get(value, SORTS["code"]))


class ShapeCachedFilterBackend(DjangoFilterBackend):
    """The API's filter backend: each query shape's filtered queryset is built once.

    Building a FilterSet (deep copies of its filters and of its form's fields), validating
    it and compiling the search language took about a quarter of a search request's CPU
    (issue 40), and the queryset it yields depends on the parameters only, never on the
    data: it stays unevaluated here and every request gets a clone, whose SQL runs against
    the catalogue as it is then. An invalid shape is built every time (its 400's messages
    speak the request's language); `page` is not part of a shape.
    """

    MAX_SHAPES = 2048  # past it the memo starts again empty (bounded memory, no LRU book-keeping)
    _querysets: dict = {}

    def filter_queryset(self, request, queryset, view):
        shape = (type(view), query_shape(request.query_params))
        cached = self._querysets.get(shape)
        if cached is None:
            # Compiled once here: the first compilation of a subquery (the keyword
            # filters') sets up its aliases, which must not happen in two threads at once.
            cached = _compiled(super().filter_queryset(request, queryset, view))
            if len(self._querysets) >= self.MAX_SHAPES:
                self._querysets.clear()
            self._querysets[shape] = cached
        return cached.all()


class PageShapes:
    """The card list page's FilterSets, one per valid query shape, as the API's backend
    keeps its querysets (issue 40): a valid shape's FilterSet is built and validated once
    and kept, with its filtered queryset unevaluated; each request gets that FilterSet (its
    bound form re-displays the inputs, which are the shape's) and a clone of the queryset.
    The form's labels and choices are lazy, so they render in each request's language. An
    invalid shape is built every time: its errors speak the request's language."""

    MAX_SHAPES = 128  # each keeps a bound form too, ~85 KiB: ~11 MB at most per process
    _kept: dict = {}

    @classmethod
    def filter(cls, data, queryset):
        """(the FilterSet, a clone of its filtered queryset or None when the input is bad);
        `queryset` is read when a shape is first built: every caller passes the same one."""
        shape = query_shape(data)
        kept = cls._kept.get(shape)
        if kept is None:
            card_filter = CardFilter(data, queryset=queryset)
            if not card_filter.is_valid():
                return card_filter, None
            kept = (card_filter, _compiled(card_filter.qs))
            if len(cls._kept) >= cls.MAX_SHAPES:
                cls._kept.clear()
            cls._kept[shape] = kept
        card_filter, cards = kept
        return card_filter, cards.all()


def _compiled(queryset):
    """`queryset`, compiled once before it is shared (see ShapeCachedFilterBackend)."""
    with suppress(EmptyResultSet):
        queryset.query.sql_with_params()
    return queryset


def query_shape(params) -> tuple:
    """The filter parameters of a request's query string (a QueryDict), hashable."""
    return tuple(sorted((key, tuple(values)) for key, values in params.lists() if key != "page"))
