"""The ratings pages: the leaderboard of a season and a person's rating settings (opt-in)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from cardgame.params import BadNumber, record_id

from . import presentation, selectors, services, skill
from .models import Season


def leaderboard(request):
    """A season's leaderboard (the current one unless ?season=<id> chooses another)."""
    all_seasons = selectors.seasons()
    current = selectors.current_season()
    season, error, status = _chosen_season(request.GET.get("season"), all_seasons, current)
    established, provisional = selectors.leaderboard(season) if season else ([], [])
    me = request.user if request.user.is_authenticated else None
    context = {
        "season": season,
        "seasons": all_seasons,
        "current": current,
        "established": [_row(r) for r in established],
        "provisional": [_row(r) for r in provisional],
        "levels": presentation.levels_table(),
        "provisional_games": skill.PROVISIONAL_GAMES,
        "opted_in": selectors.is_opted_in(me),
        "error": error,
    }
    return render(request, "ratings/leaderboard.html", context, status=status)


def _chosen_season(value, all_seasons, current) -> tuple[Season | None, str | None, int]:
    """(season, error sentence, status) for the ?season= of the leaderboard (`current`, the
    season running today, unless it chooses another)."""
    fallback = current or (all_seasons[0] if all_seasons else None)
    if value in (None, ""):
        return fallback, None, 200
    try:
        pk = record_id(value, _("season"))
    except BadNumber as exc:
        return fallback, exc.message, 400
    chosen = next((s for s in all_seasons if s.pk == pk), None)
    if chosen is None:
        return fallback, _("There is no such season; choose one from the list."), 404
    return chosen, None, 200


def _row(rating) -> dict:
    return {"user": rating.user, **presentation.describe(rating)}


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def settings(request):
    """Whether the signed-in person takes part in ratings (default: no)."""
    status, error = 200, None
    if request.method == "POST":
        choice = request.POST.get("opted_in", "0")
        if choice not in ("0", "1"):
            status, error = 400, _("Choose whether you take part in ratings: yes or no.")
        else:
            services.set_opt_in(request.user, choice == "1")
            if choice == "1":
                messages.success(request, _("You take part in ratings: your rated games count."))
            else:
                messages.success(request, _("You no longer take part in ratings."))
            return redirect("ratings:settings")
    context = {"opted_in": selectors.is_opted_in(request.user), "error": error}
    return render(request, "ratings/settings.html", context, status=status)
