"""One FilterSet for the card list page and the API: the facets plus `q` in the search language."""

import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _

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
