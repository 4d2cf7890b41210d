"""Reads of the tournaments app: what a user may see, where an event stands, and display
rows. No write lives here, and nothing here imports one."""

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.db.models import F, Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from cardgame.hungarian import articles

from .models import Penalty, Prize, Registration, Round, TableSet, Tournament
from .problems import sentence
from .ranking import cut_order, draw_key, final_order, placings, playoff_size
from .rules import is_staff
from .standings import FLOOR
from .standings_query import current_standings


def visible_rounds(t: Tournament, user):
    """Staff see drafts (R: pairing is a draft only staff see); others published rounds."""
    rounds = t.rounds.all()
    if not is_staff(user, t):
        rounds = rounds.filter(status=Round.PUBLISHED)
    return rounds


def visible_matches(user):
    """Matches of published rounds and playoff matches for everyone; drafts for staff."""
    matches = TableSet.objects.select_related(
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


def my_current_match(t: Tournament, user) -> TableSet | None:
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


# ------------------------------------------------------------ where the event stands


def rounds_paired(t: Tournament) -> int:
    last = t.rounds.order_by("-number").first()
    return last.number if last else 0


def late_entry_open(t: Tournament) -> bool:
    """Whether a late entrant can still play a Swiss round (issue 35): during the Swiss
    rounds, while a round is still to be paired, or the last one is a draft that can be
    paired again with them (`repair_round`; `publish_round` insists on it)."""
    if t.status != Tournament.RUNNING:
        return False
    last = t.rounds.order_by("-number").first()
    if last is None or last.status == Round.DRAFT:
        return True
    return last.number < t.planned_rounds()


def open_match(t: Tournament, reg: Registration, statuses=(TableSet.PENDING,)) -> TableSet | None:
    """The unplayed set `reg` sits in now, a published Swiss round's or the playoff's, in
    one of `statuses` (a drop concedes a pending one; a penalty also reaches one whose
    game on the site waits for a judge)."""
    return (
        t.matches.filter(
            Q(player_a=reg) | Q(player_b=reg), status__in=statuses, player_b__isnull=False
        )
        .exclude(round__status=Round.DRAFT)
        .select_related("tournament", "round", "player_a", "player_b")
        .order_by("-id")
        .first()
    )


def late_entry_closed_code(t: Tournament) -> str:
    """Why a late entry is not possible now: the refusal's code (problems.py)."""
    if t.status == Tournament.REGISTRATION:
        return "NOT_STARTED_REGISTER"
    if t.status == Tournament.RUNNING:
        return "LATE_ENTRY_CLOSED"
    return "LATE_ENTRY_SWISS_ONLY"


def late_entry_closed_text(t: Tournament) -> str:
    """Why a late entry is not possible now, in a sentence a person can act on."""
    return sentence(late_entry_closed_code(t))


def round_complete(rnd: Round) -> bool:
    return (
        rnd.status == Round.PUBLISHED
        and not rnd.matches.exclude(status=TableSet.CONFIRMED).exists()
    )


def swiss_finished(t: Tournament) -> bool:
    last = t.rounds.order_by("-number").first()
    return last is not None and last.number >= t.planned_rounds() and round_complete(last)


def match_deadline(match: TableSet):
    """The table's end of time: the round's, plus the table's extension."""
    if match.round is None:
        return None
    deadline = round_deadline(match.round)
    if deadline is None:
        return None
    return deadline + timezone.timedelta(minutes=match.extra_minutes)


def round_deadline(rnd: Round):
    if rnd.published_at is None:
        return None
    return rnd.published_at + timezone.timedelta(minutes=rnd.tournament.game_minutes)


# --------------------------------------------------------------------- display


def standings_rows(t: Tournament) -> list[dict]:
    """Standings as display dicts (names, percentages, explain), from standings.py."""
    regs = {r.pk: r for r in t.registrations.select_related("player")}
    rows = []
    for row in current_standings(t):
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
                "disqualified": regs[row.id].disqualified,
                "tied": row.tied,
                "explain": row.explain,
            }
        )
    return rows


# ------------------------------------------------------- standings for people


def tiebreaker_names() -> dict[str, str]:
    """The tiebreakers' abbreviations in the page's language (Hungarian ones chosen in
    docs/rulings.md, "Tiebreakers in Hungarian"); the API and the CSV's values keep their
    keys (omw, gwp, ogw)."""
    return {
        "mwp": _("MW%"),
        "omw": _("OMW%"),
        "gwp": _("GW%"),
        "ogw": _("OGW%"),
    }


def tiebreaker_legend() -> list[tuple[str, str]]:
    names = tiebreaker_names()
    return [
        (names["mwp"], _("match-win percentage: match points / (3 × rounds played)")),
        (names["omw"], _("the mean of the opponents’ match-win percentages")),
        (names["gwp"], _("game-win percentage: games won / games played")),
        (names["ogw"], _("the mean of the opponents’ game-win percentages")),
    ]


def percent(x) -> str:
    """An exact fraction (or its 4-decimal text) as the site writes numbers: 0,3300 in
    Hungarian, 0.3300 in English (four decimals, rounded half up)."""
    if isinstance(x, Fraction):
        value = Decimal(x.numerator) / Decimal(x.denominator)
    else:
        value = Decimal(str(x))
    value = value.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
    return formats.number_format(value, 4)


def _sort_key(t: Tournament, row):
    key = (-row.points, -row.omw, -row.gwp, -row.ogw)
    return (*key, draw_key(t, row.id) if t.cut_tie_draw else row.rank)


def _explain(row, by_id: dict, names: dict, labels: dict) -> list[tuple[str, str]]:
    """How a row's figures were computed, in the page's language with player names."""
    played = row.wins + row.losses
    points = _("3 × %(wins)s match wins = %(points)s") % {"wins": row.wins, "points": row.points}
    if row.byes:
        points += " " + _("(byes: %(n)s)") % {"n": row.byes}
    if row.missed:
        points += " " + _("(missed rounds, each a loss: %(n)s)") % {"n": row.missed}
    out = [(_("Points"), points)]

    def share(num: int, den: int, text: str) -> str:
        raw = Fraction(num, den)
        if raw < FLOOR:  # raised to the floor (R 18.7)
            return f"{text} = {percent(raw)} → {percent(FLOOR)} " + _("(the floor)")
        return f"{text} = {percent(raw)}"

    if played:
        out.append((labels["mwp"], share(row.points, 3 * played, f"{row.points} / (3 × {played})")))
    games = row.game_wins + row.game_losses
    if games:
        out.append((labels["gwp"], share(row.game_wins, games, f"{row.game_wins} / {games}")))
    for key, own in (("omw", "mwp"), ("ogw", "gwp")):
        if row.opponents:
            parts = ", ".join(
                f"{names[o]} {percent(getattr(by_id[o], own))}" for o in row.opponents
            )
            text = _("mean of %(list)s = %(value)s") % {
                "list": parts,
                "value": percent(getattr(row, key)),
            }
        else:
            text = _("no opponents yet: %(floor)s (the floor)") % {"floor": percent("0.33")}
        out.append((labels[key], text))
    return out


def standings_page(t: Tournament) -> dict:
    """The standings as the page shows them (issue 35): figures in the site's number
    format, the tiebreakers under their names in the page's language, players equal on
    every tiebreaker in the order the cut uses (the event's draw), and the cut line with
    a sentence for each tie at it saying which tiebreaker decided it."""
    regs = {r.pk: r for r in t.registrations.select_related("player")}
    names = {pk: r.name for pk, r in regs.items()}
    labels = tiebreaker_names()
    table = current_standings(t)
    by_id = {row.id: row for row in table}
    ordered = sorted(table, key=lambda row: _sort_key(t, row))
    cut = standings_cut(t, names, labels)
    rows = []
    for position, row in enumerate(ordered, 1):
        reg = regs[row.id]
        rows.append(
            {
                "rank": position,
                "registration": row.id,
                "player": reg.name,
                "points": row.points,
                "wins": row.wins,
                "losses": row.losses,
                "missed": row.missed,
                "omw": percent(row.omw),
                "gwp": percent(row.gwp),
                "ogw": percent(row.ogw),
                "dropped": row.dropped,
                "disqualified": reg.disqualified,
                "no_match": not row.opponents and not row.dropped,
                "cut_after": cut is not None and row.id == cut["last_id"],
                "explain": _explain(row, by_id, names, labels),
            }
        )
    return {"rows": rows, "cut": cut, "labels": labels, "legend": tiebreaker_legend()}


def standings_cut(t: Tournament, names: dict, labels: dict) -> dict | None:
    """Where the playoff cut falls (the top four, or a final of the top two), who is the
    last player above it, and for each player on the same points just below it the
    tiebreaker that decided (None before the start, after a Swiss-only finish, or when
    everybody who may play goes through)."""
    if t.status == Tournament.REGISTRATION or not t.rounds.filter(status=Round.PUBLISHED):
        return None
    playoff = t.matches.filter(round__isnull=True).exists()
    if t.status == Tournament.FINISHED and not playoff:
        return None
    order = cut_order(t)
    size = playoff_size(len(order))
    if not size or len(order) <= size:
        return None
    last = order[size - 1]
    ties = []
    for below in order[size:]:
        if below.points != last.points:
            break
        ties.append(_tie_sentence(t, last, below, names, labels))
    if size == 4:
        title = _("Playoff cut: the top four go through")
    else:
        title = _("Playoff cut: a final of the top two")
    return {"size": size, "last_id": last.id, "title": title, "ties": ties}


def _tie_sentence(t: Tournament, above, below, names: dict, labels: dict) -> str:
    """Which tiebreaker put `above` over the cut and `below` under it (equal points)."""
    for key in ("omw", "gwp", "ogw"):
        a, b = getattr(above, key), getattr(below, key)
        if a != b:
            return articles(
                _(
                    "%(above)s and %(below)s have %(points)s points each; %(name)s decided: "
                    "%(above)s %(a)s, %(below)s %(b)s."
                )
                % {
                    "above": names[above.id],
                    "below": names[below.id],
                    "points": above.points,
                    "name": labels[key],
                    "a": percent(a),
                    "b": percent(b),
                }
            )
    if t.cut_tie_draw:
        how = _("a draw seeded with the event’s seed decided")
    else:
        how = _("the registration order decided")
    return _(
        "%(above)s and %(below)s are equal on points, %(omw)s, %(gwp)s and %(ogw)s: %(how)s "
        "(%(above)s above the cut)."
    ) % {
        "above": names[above.id],
        "below": names[below.id],
        "omw": labels["omw"],
        "gwp": labels["gwp"],
        "ogw": labels["ogw"],
        "how": how,
    }


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
    open_matches = [m for m in list(matches) + live if m.status != TableSet.CONFIRMED]
    for m in open_matches:  # online events: the game a judge must decide (R 18.4)
        m.game_to_judge = None
        if m.status == TableSet.NEEDS_JUDGE:
            m.game_to_judge = m.online_games.filter(winner=None).order_by("-number").first()
    return {
        "round": rnd,
        "deadline": running_clock(t),
        "stage": stage_label(t),
        "unreported": [
            m for m in open_matches if m.status in (TableSet.PENDING, TableSet.REPORTED)
        ],
        "disputes": [
            m for m in open_matches if m.status in (TableSet.DISPUTED, TableSet.NEEDS_JUDGE)
        ],
        "decided": [
            m for m in list(matches) + live if m.status == TableSet.CONFIRMED and not m.is_bye
        ],
        "complete": round_complete(rnd) if rnd else False,
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
    if last is None or last.status != Round.PUBLISHED or round_complete(last):
        return None
    return round_deadline(last)


def penalty_effect(penalty: Penalty) -> str:
    """What a penalty did to a result, in words (tournaments/penalties.py)."""
    if penalty.kind == Penalty.WARNING:
        return _("no effect on the result")
    match = penalty.match
    if match is None:
        if penalty.kind == Penalty.DISQUALIFICATION:
            return _("dropped from the event")
        return _("applies to their next match")
    if match.round_id:
        where = _("round %(round)s, table %(table)s") % {
            "round": match.round.number,
            "table": match.table,
        }
    else:
        where = match.get_stage_display()
    score = "–" if match.games_a is None else f"{match.games_a}–{match.games_b}"
    text = _("%(where)s: %(a)s v %(b)s, %(score)s") % {
        "where": where,
        "a": match.player_a.name,
        "b": match.player_b.name if match.player_b_id else "–",
        "score": score,
    }
    if match.status != TableSet.CONFIRMED:
        text += " " + _("(the match goes on)")
    return text


def penalty_rows(t: Tournament, registration: Registration | None = None) -> list[dict]:
    """The event's penalties (or one player's), newest first, for the pages."""
    penalties = t.penalties.select_related(
        "registration__player",
        "given_by",
        "match__round",
        "match__player_a__player",
        "match__player_b__player",
    ).order_by("-id")
    if registration is not None:
        penalties = penalties.filter(registration=registration)
    return [
        {
            "id": p.pk,
            "player": p.registration.name,
            "username": p.registration.player.get_username(),
            "penalty": p.get_kind_display(),
            "kind": p.kind,
            "infraction": p.get_infraction_display(),
            "note": p.note,
            "effect": penalty_effect(p),
            "given_by": p.given_by.get_username(),
            "created": p.created,
        }
        for p in penalties
    ]


# ------------------------------------------------------------ a player's history


def decklist_visible(t: Tournament, reg: Registration, user) -> bool:
    """A registered decklist (R 9.6, frozen) is for staff during the event and public
    once it is finished; its player always sees their own (docs/rulings.md)."""
    if t.status == Tournament.FINISHED or is_staff(user, t):
        return True
    return bool(user and user.is_authenticated and reg.player_id == user.id)


def final_places(t: Tournament) -> dict[int, int]:
    """Registration id -> final place of a finished event: the placings (R 18.6), then
    the other playoff semi-finalist, then the active players in the final Swiss order.
    A dropped (or disqualified) player does not place (docs/rulings.md)."""
    if t.status != Tournament.FINISHED:
        return {}
    order = [reg.pk for reg in placings(t)]
    semis = t.matches.filter(stage="semi", status=TableSet.CONFIRMED).select_related(
        "player_a", "player_b"
    )
    losers = [m.player_b if m.games_a > m.games_b else m.player_a for m in semis]
    for reg in sorted(losers, key=lambda r: r.playoff_seed or 99):
        if reg.pk not in order and not reg.dropped:
            order.append(reg.pk)
    for row in final_order(t):
        if row.id not in order:
            order.append(row.id)
    return {pk: place for place, pk in enumerate(order, 1)}


def _record(t: Tournament, reg: Registration) -> tuple[int, int]:
    """Match wins and losses: the Swiss standings' (byes and missed rounds included,
    R 18.7) and the playoff sets'."""
    wins = losses = 0
    if t.status != Tournament.REGISTRATION:
        row = next((r for r in current_standings(t) if r.id == reg.pk), None)
        if row is not None:
            wins, losses = row.wins, row.losses
    playoff = t.matches.filter(round__isnull=True, status=TableSet.CONFIRMED).filter(
        Q(player_a=reg) | Q(player_b=reg)
    )
    for m in playoff.only("player_a_id", "games_a", "games_b"):
        if (m.games_a > m.games_b) == (m.player_a_id == reg.pk):
            wins += 1
        else:
            losses += 1
    return wins, losses


def event_history(player, viewer, limit: int = 200) -> list[dict]:
    """Every event `player` entered, newest first: date, event, record W-L-D (KGK has
    no draws, R 18.4), final place or current stage, the decklist when `viewer` may
    see it, and prizes (R 18.6)."""
    regs = (
        Registration.objects.filter(player=player)
        .select_related("tournament")
        .order_by("-tournament__date", "-tournament_id")[:limit]
    )
    prizes: dict[int, list] = {}
    for prize in Prize.objects.filter(awarded_to__player=player).select_related("card"):
        prizes.setdefault(prize.awarded_to_id, []).append(prize)
    own = bool(viewer and viewer.is_authenticated and viewer.pk == player.pk)
    rows = []
    for reg in regs:
        t = reg.tournament
        wins, losses = _record(t, reg)
        finished = t.status == Tournament.FINISHED and not reg.disqualified
        place = final_places(t).get(reg.pk) if finished else None
        if reg.disqualified:
            stage = _("disqualified")
        elif reg.dropped:
            stage = _("dropped")
        elif t.status == Tournament.FINISHED:
            stage = _("Finished")
        else:
            stage = stage_label(t)
        rows.append(
            {
                "tournament": t,
                "registration": reg,
                "wins": wins,
                "losses": losses,
                "draws": 0,
                "place": place,
                "stage": stage,
                "finished": t.status == Tournament.FINISHED,
                "decklist_visible": decklist_visible(t, reg, viewer),
                "prizes": prizes.get(reg.pk, []),
                "penalties": penalty_rows(t, reg) if own else [],
            }
        )
    return rows
