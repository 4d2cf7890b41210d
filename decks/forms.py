"""Forms of the deck pages (import, collection, compare). The builder uses the API."""

import re

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .models import RULESET_CHOICES
from .selectors import card_index
from .textformat import MAX_LINES, MAX_UPLOAD_BYTES

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


# "3 Cobra Flash", "3x Cobra Flash", "0 KG1-214", "Cobra Flash x3"
_COUNT_FIRST = re.compile(r"([0-9]+)\s*(?:[xX×]\s+|\s+)(\S.*)")
_COUNT_LAST = re.compile(r"(.*\S)\s+[xX×]\s*([0-9]+)")
MAX_OWNED = 999


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
        """(code, count) pairs; every line that cannot be read is named at once."""
        index = card_index()
        lines = self.cleaned_data["lines"].splitlines()
        if len(lines) > MAX_LINES:
            raise forms.ValidationError(
                gettext("The list has %(count)d lines; at most %(max)d are allowed.")
                % {"count": len(lines), "max": MAX_LINES}
            )
        counts: dict[str, int] = {}
        errors = []
        for line_no, line in enumerate(lines, 1):
            body = re.split(r"#|//", line, maxsplit=1)[0].strip()
            if not body:
                continue
            match = _COUNT_FIRST.fullmatch(body)
            count_text, name = match.groups() if match else (None, body)
            if not match:
                last = _COUNT_LAST.fullmatch(body)
                if last:
                    name, count_text = last.groups()
            card = index.resolve(name)
            if card is None:
                problem = gettext("Line %(line)d: unknown card “%(name)s”.") % {
                    "line": line_no,
                    "name": name[:80],
                }
                suggestions = index.suggest(name) if len(errors) < 50 else ()
                if suggestions:
                    problem += " " + gettext("Did you mean: %(names)s?") % {
                        "names": ", ".join(suggestions)
                    }
                errors.append(problem)
                continue
            if count_text is None:
                errors.append(
                    gettext("Line %(line)d: write how many you own, e.g. “2 %(name)s”.")
                    % {"line": line_no, "name": card["name"]}
                )
                continue
            count = int(count_text) if len(count_text) <= 4 else MAX_OWNED + 1
            total = counts.get(card["code"], 0) + count
            if total > MAX_OWNED:
                errors.append(
                    gettext("Line %(line)d: at most %(max)d copies of a card.")
                    % {"line": line_no, "max": MAX_OWNED}
                )
                continue
            counts[card["code"]] = total
        if errors:
            raise forms.ValidationError(errors)
        if not counts:
            raise forms.ValidationError(gettext("No cards were found in the list."))
        return list(counts.items())


class CompareForm(forms.Form):
    a = forms.IntegerField(label=_("Deck A"), min_value=1)
    b = forms.IntegerField(label=_("Deck B"), min_value=1)

    def set_choices(self, choices: list[tuple[int, str]]) -> None:
        """Offer visible decks in menus; any visible deck's number is still accepted."""
        options = [("", "—")] + choices
        for name in ("a", "b"):
            self.fields[name].widget = forms.Select(choices=options)
