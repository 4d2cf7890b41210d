"""The rules every tournament write shares (R 18): its errors, who may act, the audit log,
the event's limits and what a set's score must be.

Errors: `django.core.exceptions.ValidationError` for bad input (API: 400), and the
refusals of problems.py, each with a code and its sentence: `Conflict` for an action not
allowed in the tournament's current state (API: 409), `NotAllowed` (a PermissionDenied)
for someone who may not act (API: 403).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from .models import AuditEntry, TableSet, Tournament
from .problems import NotAllowed

TOURNAMENT_RULESET = "original"  # R 9.6, R 18.1


class DeckNotLegal(ValidationError):
    """The deck breaks R 9 under the original ruleset (R 9.6); `problems` as in R 9.7."""

    def __init__(self, problems):
        sentences = " ".join(p["message"] for p in problems)
        super().__init__(
            {
                "deck": [
                    _("The deck is not legal under the original rules: %(problems)s")
                    % {"problems": sentences}
                ]
            }
        )
        self.problems = problems


def is_staff(user, tournament: Tournament) -> bool:
    """The organiser, a named judge, or a site superuser."""
    if not user or not user.is_authenticated:
        return False
    if user.is_superuser or tournament.organiser_id == user.id:
        return True
    return tournament.judges.filter(pk=user.pk).exists()


def require_staff(user, tournament: Tournament):
    if not is_staff(user, tournament):
        raise NotAllowed("STAFF_ONLY")


def log(tournament, actor, action, match=None, **data):
    return AuditEntry.objects.create(
        tournament=tournament, actor=actor, action=action, match=match, data=data
    )


def set_where(match: TableSet) -> dict:
    """Where a set is played, as the audit log records it: table, stage, round, players."""
    return {
        "table": match.table,
        "stage": match.stage,
        "round": match.round.number if match.round_id else None,
        "player_a": match.player_a.name,
        "player_b": match.player_b.name,
    }


def locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


FIRST_YEAR, LAST_YEAR = 2000, 2100
"""An event's date and decklist deadline fall in these years (issue 35: a date in year
852 rendered as a date-time no RFC 3339 reader accepts, with a local-mean-time offset)."""


def date_out_of_range(value) -> str | None:
    """The sentence for a date or date-time outside FIRST_YEAR..LAST_YEAR, else None."""
    if value is None or FIRST_YEAR <= value.year <= LAST_YEAR:
        return None
    return _("Choose a date between the years %(first)s and %(last)s.") % {
        "first": FIRST_YEAR,
        "last": LAST_YEAR,
    }


def games_needed(match: TableSet) -> int:
    """Games to win the match: best-of-three for the playoff (R 18.3), else the format."""
    if match.stage != "swiss" or match.tournament.match_format == "bo3":
        return 2
    return 1


def plays_all_three(match: TableSet) -> bool:
    """R 18.3.4 `play_all_three`: a playoff set plays its third game even at 2-0."""
    return match.stage != "swiss" and match.tournament.play_all_three


def set_decided(match: TableSet, games_a: int, games_b: int) -> bool:
    """A set is over at the games needed (R 18.3.4); with `play_all_three` a playoff set
    plays its third game even at 2-0."""
    if plays_all_three(match):
        return games_a + games_b == 3
    return max(games_a, games_b) >= games_needed(match)


def check_score(match: TableSet, games_a, games_b):
    """A finished match: the winner has exactly the games needed; never a draw (R 18.4).
    With `play_all_three` a playoff set is three games: 3-0 or 2-1 (R 18.3.4)."""
    for value in (games_a, games_b):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValidationError({"games": [_("Game counts are whole numbers, 0 or more.")]})
    if games_a == games_b:
        raise ValidationError({"games": [_("KGK has no draws: one player must win.")]})
    if plays_all_three(match):
        if games_a + games_b != 3:
            message = _(
                "Impossible score %(a)s-%(b)s: every playoff set plays all three games, "
                "so 3-0 or 2-1."
            )
            raise ValidationError({"games": [message % {"a": games_a, "b": games_b}]})
        return
    need = games_needed(match)
    high, low = max(games_a, games_b), min(games_a, games_b)
    if high != need or low >= need:
        fmt = _("best of one: 1-0") if need == 1 else _("best of three: 2-0 or 2-1")
        message = _("Impossible score %(a)s-%(b)s (%(format)s).")
        raise ValidationError({"games": [message % {"a": games_a, "b": games_b, "format": fmt}]})


JUDGE_REASONS = ("time", "ruling", "correction")  # R 18.4, R 18.5


MAX_EXTENSION = 30  # minutes a table may get in all
