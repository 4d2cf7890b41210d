"""Reads of the tournaments app: what a user may see, and display rows."""

from django.db.models import F, Q
from django.utils.translation import gettext as _

from . import services
from .models import Match, Registration, Round, Tournament


def visible_rounds(t: Tournament, user):
    """Staff see drafts (R: pairing is a draft only staff see); others published rounds."""
    rounds = t.rounds.all()
    if not services.is_staff(user, t):
        rounds = rounds.filter(status=Round.PUBLISHED)
    return rounds


def visible_matches(user):
    """Matches of published rounds and playoff matches for everyone; drafts for staff."""
    matches = Match.objects.select_related(
        "tournament", "round", "player_a__player", "player_b__player"
    )
    public = Q(round__isnull=True) | Q(round__status=Round.PUBLISHED)
    if user.is_authenticated:
        if user.is_superuser:
            return matches
        staff = Q(tournament__organiser=user) | Q(tournament__judges=user)
        return matches.filter(public | staff).distinct()
    return matches.filter(public)


def my_registration(t: Tournament, user) -> Registration | None:
    if not user.is_authenticated:
        return None
    return t.registrations.filter(player=user).first()


def my_current_match(t: Tournament, user) -> Match | None:
    reg = my_registration(t, user)
    if reg is None:
        return None
    return (
        visible_matches(user)
        .filter(tournament=t)
        .filter(Q(player_a=reg) | Q(player_b=reg))
        .order_by(F("round__number").desc(nulls_first=True), "-id")  # the playoff is latest
        .first()
    )


def standings_rows(t: Tournament) -> list[dict]:
    """Standings as display dicts (names, percentages, explain), from standings.py."""
    regs = {r.pk: r for r in t.registrations.select_related("player")}
    rows = []
    for row in services.current_standings(t):
        rows.append(
            {
                "rank": row.rank,
                "registration": row.id,
                "player": regs[row.id].name,
                "points": row.points,
                "wins": row.wins,
                "losses": row.losses,
                "byes": row.byes,
                "missed": row.missed,
                "late_entry_round": regs[row.id].late_entry_round,
                "omw": f"{float(row.omw):.4f}",
                "gwp": f"{float(row.gwp):.4f}",
                "ogw": f"{float(row.ogw):.4f}",
                "dropped": row.dropped,
                "tied": row.tied,
                "explain": row.explain,
            }
        )
    return rows


def dashboard(t: Tournament) -> dict:
    rnd = t.rounds.order_by("-number").first()
    matches = rnd.matches.select_related("player_a__player", "player_b__player") if rnd else []
    stage_order = {"semi": 0, "final": 1, "third": 2}
    live = (
        sorted(
            t.matches.filter(round__isnull=True).select_related(
                "player_a__player", "player_b__player"
            ),
            key=lambda m: (stage_order.get(m.stage, 3), m.table),
        )
        if t.status != "running"
        else []
    )
    open_matches = [m for m in list(matches) + live if m.status != Match.CONFIRMED]
    for m in open_matches:  # online events: the game a judge must decide (R 18.4)
        m.game_to_judge = None
        if m.status == Match.NEEDS_JUDGE:
            m.game_to_judge = m.online_games.filter(winner=None).order_by("-number").first()
    return {
        "round": rnd,
        "deadline": running_clock(t),
        "stage": stage_label(t),
        "unreported": [m for m in open_matches if m.status in (Match.PENDING, Match.REPORTED)],
        "disputes": [m for m in open_matches if m.status in (Match.DISPUTED, Match.NEEDS_JUDGE)],
        "decided": [
            m for m in list(matches) + live if m.status == Match.CONFIRMED and not m.is_bye
        ],
        "complete": services.round_complete(rnd) if rnd else False,
    }


def stage_label(t: Tournament) -> str:
    """The event's current stage in words: registration, Swiss round n of N, playoff, done."""
    if t.status == Tournament.REGISTRATION:
        return _("Registration")
    if t.status == Tournament.PLAYOFF:
        return _("Playoff")
    if t.status == Tournament.FINISHED:
        return _("Finished")
    last = t.rounds.order_by("-number").first()
    total = t.planned_rounds()
    if last is None:
        return _("Swiss rounds: round 1 of %(total)s is being paired") % {"total": total}
    if last.status == Round.DRAFT:
        return _("Swiss round %(n)s of %(total)s (being paired)") % {
            "n": last.number,
            "total": total,
        }
    return _("Swiss round %(n)s of %(total)s") % {"n": last.number, "total": total}


def running_clock(t: Tournament):
    """The current Swiss round's deadline while it is being played, else None (a round
    that is complete, or a playoff, shows no clock)."""
    if t.status != Tournament.RUNNING:
        return None
    last = t.rounds.order_by("-number").first()
    if last is None or last.status != Round.PUBLISHED or services.round_complete(last):
        return None
    return services.round_deadline(last)
