"""Deck lab pages: the lab of a deck (start a run) and a run's live progress and chart."""

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import formats
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from cardgame.language import current_language
from cardgame.limits import LabRunThrottle
from decks import play
from decks.selectors import visible_decks

from . import services
from .api import BadInput, parse_bot, parse_games
from .models import LabRun
from .reference import reference_decks
from .selectors import marked_out_of_date, opponent_label, run_results, visible_runs

DEFAULT_GAMES = 200


def units() -> dict:
    """The templates of an expected run time (lab-form.js fills them in as the form changes)."""
    return {
        "s": _("about %(n)d s"),
        "min": _("about %(n)d min"),
        "h": _("about %(n)s h"),
        "decimal": formats.get_format("DECIMAL_SEPARATOR"),
    }


def duration(seconds: float) -> str:
    """An expected run time in words: seconds under two minutes, minutes under two hours."""
    words = units()
    if seconds < 120:
        return words["s"] % {"n": max(1, round(seconds))}
    if seconds < 7200:
        return words["min"] % {"n": round(seconds / 60)}
    return words["h"] % {"n": formats.number_format(round(seconds / 3600, 1), 1)}


def _bots(bot, games):
    """The bot choices with what the page needs to estimate a run's time before it starts."""
    return [
        {
            "key": key,
            "label": label,
            "selected": key == bot,
            "max_games": services.max_games(key),
            "chunk": services.CHUNK_GAMES_BY_BOT[key],
            "per_game": services.SECONDS_PER_GAME[key],
        }
        for key, label in LabRun.BOT_CHOICES
    ]


def _estimate(bot, games):
    """The expected time of the chosen run, in words (None while the input is not a number
    in range: the page then shows no estimate)."""
    try:
        games = parse_games(games, bot)
    except BadInput:
        return None
    return duration(services.expected_seconds(bot, games))


def _lab_context(request, deck, games, error=None, bot=services.DEFAULT_BOT):
    problems = play.problems(deck, deck.ruleset)
    lang = current_language()
    if bot not in services.BOTS:
        bot = services.DEFAULT_BOT
    return {
        "deck": deck,
        "games": games,
        "bot": bot,
        "bots": _bots(bot, games),
        "estimate": _estimate(bot, games),
        "workers": settings.DECKLAB_WORKERS,
        "units": units(),
        "error": error,
        "problems": problems,
        "max_games": services.max_games(bot),
        "opponents": [opponent_label(ref, lang) for ref in reference_decks()],
        "runs": marked_out_of_date(visible_runs(request.user).filter(deck=deck)[:10]),
    }


@require_http_methods(["GET", "HEAD", "POST"])
def deck_lab(request, deck_pk):
    deck = get_object_or_404(visible_decks(request.user), pk=deck_pk)
    if request.method != "POST":  # ?bot=&games= preset the form (and its estimate)
        games = request.GET.get("games", DEFAULT_GAMES)
        context = _lab_context(request, deck, games, bot=request.GET.get("bot", ""))
        return render(request, "decklab/lab.html", context)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raw = request.POST.get("games", "")
    raw_bot = request.POST.get("bot", "")
    throttle = LabRunThrottle()
    if not throttle.allow_request(request, None):
        wait = _("You started many runs lately: try again in %(minutes)d minutes.") % {
            "minutes": max(1, round((throttle.wait() or 60) / 60))
        }
        context = _lab_context(request, deck, raw, wait, raw_bot)
        return render(request, "decklab/lab.html", context, status=429)
    try:
        bot = parse_bot(raw_bot)
        games = parse_games(raw, bot)
        run = services.start_run(request.user, deck, games, bot)
    except BadInput as error:
        context = _lab_context(request, deck, raw, error, raw_bot)
        return render(request, "decklab/lab.html", context, status=400)
    except services.LabRefused as error:
        context = _lab_context(request, deck, raw, error.message, raw_bot)
        return render(request, "decklab/lab.html", context, status=error.status)
    return redirect("decklab:run", pk=run.pk)


def run_page(request, pk):
    run = get_object_or_404(visible_runs(request.user), pk=pk)
    template = "decklab/_results.html" if request.GET.get("fragment") else "decklab/run.html"
    return render(request, template, {"run": run, "r": run_results(run)})
