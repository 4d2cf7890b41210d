"""Deck lab pages: the lab of a deck (start a run) and a run's live progress and chart."""

from django.contrib.auth.views import redirect_to_login
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from cardgame.limits import LabRunThrottle
from decks import play
from decks.selectors import visible_decks

from . import services
from .api import BadInput, parse_games
from .reference import reference_decks
from .selectors import opponent_label, run_results, visible_runs

DEFAULT_GAMES = 200


def _lab_context(request, deck, games, error=None):
    problems = play.problems(deck, deck.ruleset)
    lang = "hu" if (request.LANGUAGE_CODE or "hu").startswith("hu") else "en"
    return {
        "deck": deck,
        "games": games,
        "error": error,
        "problems": problems,
        "max_games": services.MAX_GAMES,
        "opponents": [opponent_label(ref, lang) for ref in reference_decks()],
        "runs": visible_runs(request.user).filter(deck=deck)[:10],
    }


@require_http_methods(["GET", "HEAD", "POST"])
def deck_lab(request, deck_pk):
    deck = get_object_or_404(visible_decks(request.user), pk=deck_pk)
    if request.method != "POST":
        return render(request, "decklab/lab.html", _lab_context(request, deck, DEFAULT_GAMES))
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raw = request.POST.get("games", "")
    throttle = LabRunThrottle()
    if not throttle.allow_request(request, None):
        wait = _("You started many runs lately: try again in %(minutes)d minutes.") % {
            "minutes": max(1, round((throttle.wait() or 60) / 60))
        }
        return render(
            request, "decklab/lab.html", _lab_context(request, deck, raw, wait), status=429
        )
    try:
        games = parse_games(raw)
        run = services.start_run(request.user, deck, games)
    except BadInput as error:
        return render(
            request, "decklab/lab.html", _lab_context(request, deck, raw, error), status=400
        )
    except services.LabRefused as error:
        context = _lab_context(request, deck, raw, error.message)
        return render(request, "decklab/lab.html", context, status=error.status)
    return redirect("decklab:run", pk=run.pk)


def run_page(request, pk):
    run = get_object_or_404(visible_runs(request.user), pk=pk)
    template = "decklab/_results.html" if request.GET.get("fragment") else "decklab/run.html"
    return render(request, template, {"run": run, "r": run_results(run)})
