"""Deck advice pages (issue 39): "Improve this deck" (start a run), a run's live proposals
with their evidence, cancel, and apply the recommendation as a new version of the deck."""

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from cardgame.language import current_language
from cards_data.definitions import card_dicts
from decks import play
from decks.selectors import visible_decks
from engine.deck import RULESETS as DECK_RULES

from . import advising, metagame
from .advice_selectors import advice_results, count, evidence_comment, visible_advice
from .models import AdviceRun
from .reference import reference_decks
from .selectors import opponent_label


def _form_context(request, deck, *, budget=advising.DEFAULT_BUDGET, source="", error=None):
    lang = current_language()
    return {
        "deck": deck,
        "budget": budget,
        "source": source or AdviceRun.CATALOGUE,
        "min_budget": advising.MIN_BUDGET,
        "max_budget": advising.MAX_BUDGET,
        "limits": {
            "low": count(advising.MIN_BUDGET),
            "high": count(advising.MAX_BUDGET),
            "per_day": count(advising.games_per_day()),
            "used": count(_used_today(request.user)),
        },
        "error": error,
        "problems": play.problems(deck, deck.ruleset),
        "opponents": [opponent_label(ref, lang) for ref in _gauntlet_now(deck)],
        "runs": _with_counts(visible_advice(request.user).filter(deck=deck)[:10]),
    }


def _gauntlet_now(deck) -> list[dict]:
    """The opponents a run started now would play: the metagame's archetypes, or the
    reference colonies (decklab.metagame)."""
    found = metagame.snapshot(card_dicts(), DECK_RULES.get(deck.ruleset, DECK_RULES["original"]))
    return found.get("gauntlet") or list(reference_decks())


def _with_counts(runs) -> list[AdviceRun]:
    runs = list(runs)
    for run in runs:
        run.played_text = count(run.games_played)
    return runs


def _used_today(user) -> int:
    return advising.games_used_today(user) if user.is_authenticated else 0


@require_http_methods(["GET", "HEAD", "POST"])
def deck_advice(request, deck_pk):
    deck = get_object_or_404(visible_decks(request.user), pk=deck_pk)
    if request.method != "POST":
        return render(request, "decklab/advice.html", _form_context(request, deck))
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raw = request.POST.get("budget", "")
    source = request.POST.get("source") or AdviceRun.CATALOGUE
    try:
        if source not in advising.SOURCES:
            raise ValueError(_("Choose where the new cards may come from."))
        run = advising.start_advice(
            request.user, deck, source=source, budget=advising.budget_from(raw)
        )
    except ValueError as error:
        context = _form_context(request, deck, budget=raw, source=source, error=str(error))
        return render(request, "decklab/advice.html", context, status=400)
    except advising.LabRefused as error:
        context = _form_context(request, deck, budget=raw, source=source, error=error.message)
        return render(request, "decklab/advice.html", context, status=error.status)
    return redirect("decklab:advice-run", pk=run.pk)


def advice_run(request, pk):
    run = get_object_or_404(visible_advice(request.user), pk=pk)
    template = "decklab/_advice.html" if request.GET.get("fragment") else "decklab/advice_run.html"
    return render(request, template, {"run": run, "a": advice_results(run)})


@require_POST
@login_required
def cancel_advice(request, pk):
    run = get_object_or_404(visible_advice(request.user), pk=pk, owner=request.user)
    advising.cancel(run)
    return redirect("decklab:advice-run", pk=run.pk)


@require_POST
@login_required
def apply_advice(request, pk):
    run = get_object_or_404(visible_advice(request.user), pk=pk, owner=request.user)
    a = advice_results(run)
    comment = evidence_comment(run)
    try:
        advising.apply(run, request.user, comment)
    except advising.LabRefused as error:
        context = {"run": run, "a": a, "error": error.message}
        return render(request, "decklab/advice_run.html", context, status=error.status)
    return redirect("decks:detail", run.deck_id)
