"""Forms of the tournament pages (the API takes JSON; these take HTML form posts)."""

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from .models import ForbiddenPair, Penalty, Registration, Tournament
from .rules import date_out_of_range


class TournamentForm(forms.ModelForm):
    judge_names = forms.CharField(
        label=_("Judges"),
        required=False,
        help_text=_("User names, separated by commas."),
    )

    class Meta:
        model = Tournament
        fields = [
            "name",
            "date",
            "place",
            "online",
            "swiss_rounds",
            *Tournament.PLAY_SETTINGS,
        ]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}),
            "decklist_deadline": forms.DateTimeInput(attrs={"type": "datetime-local"}),
        }
        # The page's words, not the models' help texts (written for engineers and the admin:
        # rule numbers, docs/rulings.md, in English only)
        help_texts = {
            "swiss_rounds": _("Empty: ceil(log2(players))."),
            # (a word joiner in "2–0": the score never breaks across lines)
            "play_all_three": _("The third game of a playoff set is played even at 2–\u20600."),
            "late_entry_losses": _(
                "On: a round missed by entering late counts as a 0–\u20602 loss in MW% and GW%. "
                "Off: only the rounds played count."
            ),
        }

    def clean_judge_names(self):
        names = [n.strip() for n in self.cleaned_data["judge_names"].split(",") if n.strip()]
        users = list(get_user_model().objects.filter(username__in=names))
        missing = sorted(set(names) - {u.username for u in users})
        if missing:
            raise forms.ValidationError(
                _("Unknown user: %(names)s") % {"names": ", ".join(missing)}
            )
        return users

    def clean_date(self):
        value = self.cleaned_data["date"]
        problem = date_out_of_range(value)
        if problem:
            raise forms.ValidationError(problem)
        return value

    def clean_decklist_deadline(self):
        value = self.cleaned_data["decklist_deadline"]
        problem = date_out_of_range(value)
        if problem:
            raise forms.ValidationError(problem)
        return value

    def clean_game_minutes(self):
        value = self.cleaned_data["game_minutes"]
        if not 10 <= value <= 180:
            raise forms.ValidationError(_("Between 10 and 180 minutes."))
        return value


class ResultForm(forms.Form):
    games_a = forms.IntegerField(min_value=0, max_value=3, required=False, initial=0)
    games_b = forms.IntegerField(min_value=0, max_value=3, required=False, initial=0)
    timed_out = forms.BooleanField(required=False)


class JudgeForm(forms.Form):
    games_a = forms.IntegerField(min_value=0, max_value=3)
    games_b = forms.IntegerField(min_value=0, max_value=3)
    reason = forms.ChoiceField(
        choices=[("time", _("Time")), ("ruling", _("Ruling")), ("correction", _("Correction"))]
    )


class RegistrationChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return obj.name


class ForbiddenPairForm(forms.Form):
    """Staff: two registered players who must not meet in the Swiss rounds, and why."""

    player_a = RegistrationChoiceField(
        queryset=Registration.objects.none(), label=_("Player"), empty_label=None
    )
    player_b = RegistrationChoiceField(
        queryset=Registration.objects.none(), label=_("must not meet"), empty_label=None
    )
    reason = forms.CharField(label=_("Reason"), max_length=ForbiddenPair.REASON_MAX, strip=True)

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        regs = tournament.registrations.select_related("player").order_by("player__username")
        self.fields["player_a"].queryset = regs
        self.fields["player_b"].queryset = regs

    def clean(self):
        data = super().clean()
        a, b = data.get("player_a"), data.get("player_b")
        if a is not None and b is not None and a.pk == b.pk:
            raise forms.ValidationError(_("Choose two different players."))
        return data


class PenaltyForm(forms.Form):
    """Staff: a penalty for a registered player (tournaments/penalties.py)."""

    player = RegistrationChoiceField(
        queryset=Registration.objects.none(), label=_("Player"), empty_label=_("Choose a player")
    )
    penalty = forms.ChoiceField(label=_("Penalty"), choices=Penalty.KINDS)
    infraction = forms.ChoiceField(
        label=_("Infraction"), choices=[("", _("Choose the infraction")), *Penalty.INFRACTIONS]
    )
    note = forms.CharField(
        label=_("Note"),
        required=False,
        max_length=Penalty.NOTE_MAX,
        strip=True,
        widget=forms.TextInput(attrs={"placeholder": _("what happened, briefly")}),
    )

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        regs = tournament.registrations.filter(disqualified=False).select_related("player")
        self.fields["player"].queryset = regs.order_by("player__username")
