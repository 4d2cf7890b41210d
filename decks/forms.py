"""Forms of the deck pages (import, collection, compare). The builder uses the API."""

import re

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .models import RULESET_CHOICES
from .selectors import card_index
from .services import MAX_COPIES_OWNED
from .textformat import MAX_UPLOAD_BYTES, CountRule, parse_decklist

FORMAT_CHOICES = [
    ("auto", _("Recognise automatically")),
    ("text", _("Text list")),
    ("json", _("JSON")),
    ("share", _("Share code")),
]
_SHARE_CODE = re.compile(r"1[A-Za-z0-9_-]+=*")


def detect_format(text: str) -> str:
    """ "json" for an object, "share" for one share-code token, otherwise "text"."""
    stripped = text.strip()
    if stripped.startswith("{"):
        return "json"
    if _SHARE_CODE.fullmatch(stripped):
        return "share"
    return "text"


class ImportForm(forms.Form):
    text = forms.CharField(
        label=_("Deck list, JSON or share code"),
        required=False,
        strip=False,
        max_length=MAX_UPLOAD_BYTES,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
    )
    file = forms.FileField(label=_("…or upload a file"), required=False)
    format = forms.ChoiceField(label=_("Format"), choices=FORMAT_CHOICES, initial="auto")
    name = forms.CharField(label=_("Deck name"), max_length=100, required=False)
    ruleset = forms.ChoiceField(
        label=_("Ruleset"),
        choices=[("", _("As in the list (default: original)"))] + RULESET_CHOICES,
        required=False,
    )
    is_public = forms.BooleanField(label=_("Public"), required=False)

    def clean(self):
        data = super().clean()
        if not data.get("file") and not (data.get("text") or "").strip():
            raise forms.ValidationError(_("Paste a deck list or upload a file."))
        return data


# What a collection line may say: how many you own, from 0 (removes the card) to the
# most a collection keeps; the count is required ("Cobra Flash" alone says nothing).
OWNED_COUNTS = CountRule(
    0, MAX_COPIES_OWNED, required=True, out_of_range="owned_count_out_of_range"
)


class CollectionForm(forms.Form):
    lines = forms.CharField(
        label=_("Cards you own"),
        help_text=_(
            "One card per line, by name (Hungarian or English) or code: “3 Cobra Flash”, "
            "“2 KG1-001”. The count is how many you own; 0 removes the card."
        ),
        max_length=100_000,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
    )
    replace = forms.BooleanField(
        label=_("Replace my whole collection with this list"), required=False
    )

    def clean_lines(self) -> list[tuple[str, int]]:
        """(code, count) pairs, read with the deck lists' grammar (decks.textformat);
        every line that cannot be read is named at once."""
        result = parse_decklist(self.cleaned_data["lines"], card_index(), counts=OWNED_COUNTS)
        if result.errors:
            raise forms.ValidationError([error.message for error in result.errors])
        if not result.entries:
            raise forms.ValidationError(gettext("No cards were found in the list."))
        return result.entries


class CompareForm(forms.Form):
    a = forms.IntegerField(label=_("Deck A"), min_value=1)
    b = forms.IntegerField(label=_("Deck B"), min_value=1)

    def set_choices(self, choices: list[tuple[int, str]]) -> None:
        """Offer visible decks in menus; any visible deck's number is still accepted."""
        options = [("", "—")] + choices
        for name in ("a", "b"):
            self.fields[name].widget = forms.Select(choices=options)
