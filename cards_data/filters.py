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
            cached = super().filter_queryset(request, queryset, view)
            # Compiled once here: the first compilation of a subquery (the keyword
            # filters') sets up its aliases, which must not happen in two threads at once.
            with suppress(EmptyResultSet):
                cached.query.sql_with_params()
            if len(self._querysets) >= self.MAX_SHAPES:
                self._querysets.clear()
            self._querysets[shape] = cached
        return cached.all()


def query_shape(params) -> tuple:
    """The filter parameters of a request's query string (a QueryDict), hashable."""
    return tuple(sorted((key, tuple(values)) for key, values in params.lists() if key != "page"))
