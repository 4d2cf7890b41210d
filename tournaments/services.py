"""Writes of the tournaments app (R 18): every rule about who may do what, when.

Errors: `django.core.exceptions.ValidationError` for bad input (API: 400),
`Conflict` for an action not allowed in the current state (API: 409),
`PermissionDenied` for someone who may not act (API: 403).
Pairing is tournaments.swiss.pair_round; standings are tournaments.standings.standings.
"""

from __future__ import annotations

import hashlib
from itertools import compress

from django.contrib.postgres.aggregates import ArrayAgg
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import BooleanField, ExpressionWrapper, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from cardgame.hungarian import articles
from decks import play
from decks.models import Deck

# The collector off while standings or a pairing are made: they allocate hundreds of thousands
# of lists and tuples that live until the work is done, and the collections they set off were
# half the CPU of pairing 16,384 players (bench/RESULTS.md, issue 14). One home: the engine's.
from engine.collector import collector_paused

from . import online, swiss
from . import standings as standings_mod
from .models import (
    AuditEntry,
    ForbiddenPair,
    Match,
    OnlineGame,
    Prize,
    Registration,
    Round,
    Tournament,
)

TOURNAMENT_RULESET = "original"  # R 9.6, R 18.1


class Conflict(Exception):
    """The action is not allowed in the tournament's current state (HTTP 409)."""


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


# ------------------------------------------------------------------------ helpers


def is_staff(user, tournament: Tournament) -> bool:
    """The organiser, a named judge, or a site superuser."""
    if not user or not user.is_authenticated:
        return False
    if user.is_superuser or tournament.organiser_id == user.id:
        return True
    return tournament.judges.filter(pk=user.pk).exists()


def require_staff(user, tournament: Tournament):
    if not is_staff(user, tournament):
        raise PermissionDenied(_("Only the organiser and the judges may do this."))


def log(tournament, actor, action, match=None, **data):
    return AuditEntry.objects.create(
        tournament=tournament, actor=actor, action=action, match=match, data=data
    )


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


# --------------------------------------------------------------------- creating


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


@transaction.atomic
def create_tournament(organiser, *, name, date, judges=(), **fields) -> Tournament:
    if not name or not str(name).strip():
        raise ValidationError({"name": [_("A tournament needs a name.")]})
    for field, value in (("date", date), ("decklist_deadline", fields.get("decklist_deadline"))):
        problem = date_out_of_range(value)
        if problem:
            raise ValidationError({field: [problem]})
    fmt = fields.get("match_format", "bo1")
    if fmt not in ("bo1", "bo3"):
        raise ValidationError({"match_format": [_("Choose bo1 or bo3.")]})
    rounds = fields.get("swiss_rounds")
    if rounds is not None and not 1 <= rounds <= 20:
        raise ValidationError({"swiss_rounds": [_("Between 1 and 20 Swiss rounds.")]})
    t = Tournament.objects.create(organiser=organiser, name=str(name).strip(), date=date, **fields)
    if judges:
        t.judges.set(judges)
    log(t, organiser, "create", name=t.name)
    return t


# ----------------------------------------------------------------- registration


def frozen_decklist(deck: Deck) -> tuple[list[list], int | None]:
    """The deck's latest version as [[code, count], ...] (a copy, R 9.6)."""
    version = deck.latest_version
    if version is None:
        return [], None
    return [list(e) for e in version.cards], version.number


def _check_deck(player, deck: Deck) -> list[list]:
    if deck.owner_id != player.id:
        raise PermissionDenied(_("You can register only with your own deck."))
    cards, _version = frozen_decklist(deck)
    try:
        play.colony(cards, TOURNAMENT_RULESET)
    except play.DeckNotPlayable as error:
        raise DeckNotLegal(error.problems) from error
    return cards


def _deadline_passed(t: Tournament) -> bool:
    return t.decklist_deadline is not None and timezone.now() > t.decklist_deadline


@transaction.atomic
def register(t: Tournament, player, deck: Deck) -> Registration:
    """Register (or replace the decklist of) `player` with a copy of `deck` (R 9.6).

    Allowed while registration is open and before the decklist deadline; a late
    entry once the event runs is `late_entry` (staff only).
    """
    t = _locked(t)
    if t.status != Tournament.REGISTRATION:
        raise Conflict(_("Registration is closed: the event has started."))
    if _deadline_passed(t):
        raise Conflict(_("The decklist deadline has passed."))
    cards = _check_deck(player, deck)
    version = deck.latest_version
    if Registration.objects.filter(tournament=t, player=player, disqualified=True).exists():
        raise Conflict(_("You were disqualified from this event."))
    reg, created = Registration.objects.get_or_create(
        tournament=t,
        player=player,
        defaults=dict(deck=deck, deck_name=deck.name, deck_version=version.number, cards=cards),
    )
    if not created:
        reg.deck, reg.deck_name, reg.deck_version, reg.cards = (
            deck,
            deck.name,
            version.number,
            cards,
        )
        reg.dropped = False
        reg.save()
    return reg


@transaction.atomic
def unregister(reg: Registration, user):
    t = _locked(reg.tournament)
    if reg.player_id != user.id and not is_staff(user, t):
        raise PermissionDenied(_("You can withdraw only your own registration."))
    if t.status != Tournament.REGISTRATION:
        raise Conflict(_("The event has started: drop instead."))
    reg.delete()


@transaction.atomic
def check_in(reg: Registration, user) -> Registration:
    """The player checks in, or staff check them in at the door (audit-logged).

    Serialised with `start` on the tournament's row (issue 35): the status is read again
    under the lock, so a check-in either happens before the start and counts, or comes
    after it and is refused (409); it is never answered "checked in" for a player the
    start has just dropped as a no-show. The caller's `reg` may be stale: it is re-read."""
    t = _locked(reg.tournament)
    staff = is_staff(user, t)
    if reg.player_id != user.id and not staff:
        raise PermissionDenied(_("You can check in only yourself."))
    if t.status != Tournament.REGISTRATION:
        if reg.player_id != user.id:
            raise Conflict(_("Check-in is closed: the event has started."))
        raise Conflict(
            _(
                "Check-in is closed: the event has started without you. Ask the organiser "
                "or a judge about a late entry."
            )
        )
    reg = Registration.objects.select_for_update().get(pk=reg.pk)
    if reg.checked_in:
        return reg
    reg.checked_in = True
    reg.save(update_fields=["checked_in", "updated"])
    if reg.player_id != user.id:
        log(t, user, "check_in", player=reg.name)
    return reg


@transaction.atomic
def check_in_many(t: Tournament, staff, reg_ids) -> int:
    """Staff check in every listed player present at the door; returns how many were new."""
    t = _locked(t)
    require_staff(staff, t)
    if t.status != Tournament.REGISTRATION:
        raise Conflict(_("Check-in is closed: the event has started."))
    regs = list(
        t.registrations.filter(pk__in=list(reg_ids), checked_in=False).select_related("player")
    )
    if not regs:
        return 0
    t.registrations.filter(pk__in=[r.pk for r in regs]).update(
        checked_in=True, updated=timezone.now()
    )
    log(t, staff, "check_in_many", players=sorted(r.name for r in regs))
    return len(regs)


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


def late_entry_closed_text(t: Tournament) -> str:
    """Why a late entry is not possible now, in a sentence a person can act on."""
    if t.status == Tournament.REGISTRATION:
        return _("The event has not started: register the player as usual.")
    if t.status == Tournament.RUNNING:
        return _(
            "Late entry is closed: every Swiss round has been paired and published, so a "
            "late entrant would play no round."
        )
    return _("Late entry is possible only during the Swiss rounds.")


@transaction.atomic
def late_entry(t: Tournament, staff, player, deck: Deck) -> Registration:
    """Staff add a player after the start: rounds already paired count as losses.

    Only while a Swiss round is still to be paired (`late_entry_open`): after the last
    one a late entrant would play nothing and, at 0 points, could still be seeded into
    the playoff (issue 35)."""
    t = _locked(t)
    require_staff(staff, t)
    if not late_entry_open(t):
        raise Conflict(late_entry_closed_text(t))
    cards = _check_deck(player, deck)
    if Registration.objects.filter(tournament=t, player=player).exists():
        raise Conflict(_("This player is already registered."))
    first = rounds_paired(t) + 1
    reg = Registration.objects.create(
        tournament=t,
        player=player,
        deck=deck,
        deck_name=deck.name,
        deck_version=deck.latest_version.number,
        cards=cards,
        checked_in=True,
        late_entry_round=first,
    )
    log(t, staff, "late_entry", player=player.get_username(), first_round=first)
    return reg


@transaction.atomic
def drop(reg: Registration, user) -> Registration:
    """A player drops (or staff drop them): not paired in later rounds, kept in the standings.

    The same rules whatever the path (page, API, staff): an unplayed match of a published
    round or of the playoff is conceded at once, a match loss (R 18.4 has no draws;
    docs/rulings.md "Drops"); a match already reported stays with the players and judges.
    Online matches are left to a judge (their game is running on the site).
    """
    t = _locked(reg.tournament)
    reg = Registration.objects.select_for_update().get(pk=reg.pk)
    staff = is_staff(user, t)
    if reg.player_id != user.id and not staff:
        raise PermissionDenied(_("You can drop only yourself."))
    if t.status == Tournament.FINISHED:
        raise Conflict(_("The event is over: there is nothing to drop from."))
    if reg.dropped:
        return reg
    reg.dropped = True
    reg.dropped_after_round = rounds_paired(t)
    reg.save(update_fields=["dropped", "dropped_after_round", "updated"])
    if staff and reg.player_id != user.id:
        log(t, user, "drop", player=reg.name)
    conceded = _concede_open_match(t, reg, user)
    if conceded is not None:
        after_result(conceded)
    return reg


def open_match(t: Tournament, reg: Registration) -> Match | None:
    """The unplayed match `reg` sits in now: a published Swiss round's, or a playoff set."""
    return (
        t.matches.filter(
            Q(player_a=reg) | Q(player_b=reg), status=Match.PENDING, player_b__isnull=False
        )
        .exclude(round__status=Round.DRAFT)
        .select_related("player_a", "player_b", "tournament")
        .order_by("-id")
        .first()
    )


def _concede_open_match(t: Tournament, reg: Registration, actor) -> Match | None:
    if t.online:
        return None
    match = open_match(t, reg)
    if match is None:
        return None
    need = 3 if plays_all_three(match) else games_needed(match)
    loser_is_a = match.player_a_id == reg.pk
    match.games_a, match.games_b = (0, need) if loser_is_a else (need, 0)
    match.status = Match.CONFIRMED
    match.judge_reason = "drop"
    match.save()
    log(t, actor, "drop_concession", match=match, player=reg.name, table=match.table)
    return match


@transaction.atomic
def reactivate(reg: Registration, staff) -> Registration:
    """Staff bring a dropped player back: only during the Swiss rounds (in the playoff a
    dropped player stays out). The rounds missed while dropped are losses, as for a late
    entrant (R 18.7 standings, `late_entry_losses`; current_standings)."""
    t = _locked(reg.tournament)
    require_staff(staff, t)
    if t.status in (Tournament.PLAYOFF, Tournament.FINISHED):
        raise Conflict(
            _("Re-activation is possible only before the playoff: a dropped player stays out.")
        )
    reg = Registration.objects.select_for_update().get(pk=reg.pk)
    if reg.disqualified:
        raise Conflict(
            _("%(name)s was disqualified: a disqualified player cannot be re-activated.")
            % {"name": reg.name}
        )
    if not reg.dropped:
        return reg
    reg.dropped = False
    reg.dropped_after_round = None
    reg.save(update_fields=["dropped", "dropped_after_round", "updated"])
    log(t, staff, "reactivate", player=reg.name)
    return reg


@transaction.atomic
def start(t: Tournament, staff) -> Tournament:
    """Lock registration (decklists frozen for good); players not checked in are dropped."""
    t = _locked(t)
    require_staff(staff, t)
    if t.status != Tournament.REGISTRATION:
        raise Conflict(_("The event has already started."))
    no_show = list(
        t.registrations.filter(checked_in=False).values_list("player__username", flat=True)
    )
    t.registrations.filter(checked_in=False).update(dropped=True, dropped_after_round=0)
    if t.registrations.filter(dropped=False).count() < 2:
        raise Conflict(_("At least two checked-in players are needed to start."))
    t.status = Tournament.RUNNING
    t.started_at = timezone.now()
    # The number of rounds is fixed at the start (R 18.7), so later drops do not change it.
    t.swiss_rounds = t.planned_rounds()
    t.save(update_fields=["status", "started_at", "swiss_rounds"])
    log(t, staff, "start", no_show=no_show, players=t.registrations.filter(dropped=False).count())
    return t


# ------------------------------------------------------------- forbidden pairs


def _forbidden_pairs_open(t: Tournament):
    if t.status not in (Tournament.REGISTRATION, Tournament.RUNNING):
        raise Conflict(_("Forbidden pairs can be changed only before the playoff."))


@transaction.atomic
def forbid_pair(
    t: Tournament, staff, reg_a: Registration | None, reg_b: Registration | None, reason
) -> tuple[ForbiddenPair, bool]:
    """Staff forbid two registered players to meet in the Swiss rounds (with a reason).

    The pairing avoids the pair whenever a pairing without it exists (swiss.py, F tier)
    and warns staff when none does. Idempotent: forbidding a pair again returns the
    stored one (changed=False). An existing draft is not re-paired (see repair_round).
    Returns (pair, created).
    """
    t = _locked(t)
    require_staff(staff, t)
    _forbidden_pairs_open(t)
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason:
        raise ValidationError({"reason": [_("Give a reason for forbidding this pair.")]})
    if len(reason) > ForbiddenPair.REASON_MAX:
        raise ValidationError(
            {
                "reason": [
                    _("The reason is at most %(n)s characters.") % {"n": ForbiddenPair.REASON_MAX}
                ]
            }
        )
    for reg in (reg_a, reg_b):
        if reg is None or reg.tournament_id != t.pk:
            raise ValidationError(
                {"players": [_("Both players must be registered for this tournament.")]}
            )
    if reg_a.pk == reg_b.pk:
        raise ValidationError({"players": [_("Choose two different players.")]})
    low, high = sorted((reg_a, reg_b), key=lambda reg: reg.pk)
    existing = ForbiddenPair.objects.filter(tournament=t, player_a=low, player_b=high).first()
    if existing is not None:
        return existing, False
    pair = ForbiddenPair.objects.create(
        tournament=t, player_a=low, player_b=high, reason=reason, created_by=staff
    )
    log(t, staff, "forbid_pair", players=[low.name, high.name], reason=reason)
    return pair, True


@transaction.atomic
def allow_pair(pair: ForbiddenPair, staff):
    """Staff remove a forbidden pair (audit-logged with the reason it had)."""
    t = _locked(pair.tournament)
    require_staff(staff, t)
    _forbidden_pairs_open(t)
    log(
        t,
        staff,
        "allow_pair",
        players=[pair.player_a.name, pair.player_b.name],
        reason=pair.reason,
    )
    pair.delete()


# ---------------------------------------------------------------------- rounds


def current_standings(t: Tournament) -> list[standings_mod.Row]:
    """R 18.7 standings from every confirmed Swiss result (byes count 2-0).

    One rule for every missed round, whatever the path (late entry, re-activation):
    an active player who was not seated in a published round gets a match loss, 0-2,
    without an opponent (MTR practice; standings.py `Match.missed_round`): it counts
    for their points, MW% and GW%, not for OMW%/OGW%. A dropped player's rounds after
    their drop are not losses (they left). With the event's `late_entry_losses` off,
    only the rounds played count (rulings.md). Three queries, linear in the matches.
    """
    with collector_paused():
        return _standings_table(t).rows()


def _standings_table(t: Tournament) -> standings_mod.Table:
    """`current_standings` in integer form (`standings.tabulate_columns`): the pairing
    takes its records from it without making a `Row` per player. Three queries whatever
    the number of rounds: the registrations, the published rounds, and their matches.
    On PostgreSQL the matches come as one row per round holding one array per column
    (`array_agg`): no Python object per match but the integers themselves, and no
    cursor round trips (bench/RESULTS.md, issue 14); elsewhere as plain tuples."""
    regs = list(t.registrations.values_list("pk", "dropped", "dropped_after_round"))
    rounds = dict(t.rounds.filter(status=Round.PUBLISHED).values_list("pk", "number"))
    matches = Match.objects.filter(round_id__in=list(rounds), stage="swiss").order_by()
    fields = ("player_a_id", "player_b_id", "games_a", "games_b")
    if connection.vendor == "postgresql":
        confirmed = ExpressionWrapper(Q(status=Match.CONFIRMED), output_field=BooleanField())
        blocks = list(
            matches.values("round_id")
            .annotate(**{f"{f}s": ArrayAgg(f) for f in fields}, ok=ArrayAgg(confirmed))
            .values_list("round_id", *(f"{f}s" for f in fields), "ok")
        )
    else:
        by_round: dict[int, list] = {}
        for round_id, *row in matches.values_list("round_id", *fields, "status"):
            by_round.setdefault(round_id, []).append(row)
        blocks = []
        for round_id, rows in by_round.items():
            a, b, games_a, games_b, status = zip(*rows, strict=True)
            blocks.append(
                (round_id, a, b, games_a, games_b, [x == Match.CONFIRMED for x in status])
            )
    return standings_mod.tabulate_columns(
        [pk for pk, _dropped, _after in regs],
        *_result_columns(t, regs, rounds, blocks),
        dropped=[dropped for _pk, dropped, _after in regs],
    )


def _result_columns(t: Tournament, regs, rounds: dict, blocks) -> tuple[list, ...]:
    """The results for `standings.tabulate_columns`: six columns (round, a, b, games_a,
    games_b, missed), from one block a round (round id, then the round's matches as
    columns a, b, games_a, games_b and whether each is confirmed). Only confirmed matches
    are results; with `late_entry_losses`, every active player seated in none of a
    published round's matches missed it (a dropped player, only up to their drop)."""
    number_of, a_col, b_col, ga_col, gb_col = [], [], [], [], []
    late = t.late_entry_losses
    seated: dict[int, set] = {}  # players seated (any status), per round id
    for round_id, a, b, games_a, games_b, ok in blocks:
        if late:
            seated[round_id] = seats = set(a)
            seats.update(b)
        if not all(ok):
            a, b, games_a, games_b = (list(compress(x, ok)) for x in (a, b, games_a, games_b))
        number_of += [rounds[round_id]] * len(a)
        a_col += a
        b_col += b
        ga_col += games_a
        gb_col += games_b
    missed = [False] * len(a_col)
    if late:
        every = {pk for pk, _dropped, _after in regs}
        left = {pk: after or 0 for pk, dropped, after in regs if dropped}
        for round_id, number in sorted(rounds.items(), key=lambda item: item[1]):
            for pk in sorted(every - seated.get(round_id, set())):
                if pk in left and number > left[pk]:
                    continue  # not a loss: they had left
                number_of.append(number)
                a_col.append(pk)
                b_col.append(None)
                ga_col.append(None)
                gb_col.append(None)
                missed.append(True)
    return number_of, a_col, b_col, ga_col, gb_col, missed


def round_complete(rnd: Round) -> bool:
    return (
        rnd.status == Round.PUBLISHED and not rnd.matches.exclude(status=Match.CONFIRMED).exists()
    )


def forbidden_pairs(t: Tournament) -> list[tuple[int, int]]:
    """The staff-forbidden pairs as (registration id, registration id), for the pairing."""
    return list(t.forbidden_pairs.values_list("player_a_id", "player_b_id"))


def _pairing(t: Tournament, number: int) -> swiss.Pairing:
    """The pairing of round `number` from the standings, the forbidden pairs and the
    round's stored seed: the same inputs always give the same pairing (R 18.7)."""
    with collector_paused():
        records = _standings_table(t).records()
        return swiss.pair_round(records, forbidden=forbidden_pairs(t), seed=f"{t.seed}:{number}")


def _seat_pairing(t: Tournament, rnd: Round, pairing: swiss.Pairing):
    """The draft's matches: one per pair in table order, then the bye (2-0, confirmed)."""
    tables = [(i, a, b, None, None, Match.PENDING) for i, (a, b) in enumerate(pairing.pairs, 1)]
    if pairing.bye is not None:
        tables.append((len(tables) + 1, pairing.bye, None, 2, 0, Match.CONFIRMED))
    if connection.vendor == "postgresql":
        _insert_tables(t, rnd, tables)
        return
    Match.objects.bulk_create(
        Match(
            tournament=t,
            round=rnd,
            table=table,
            player_a_id=a,
            player_b_id=b,
            games_a=games_a,
            games_b=games_b,
            status=status,
        )
        for table, a, b, games_a, games_b, status in tables
    )


_TABLE_FIELDS = ("table", "player_a", "player_b", "games_a", "games_b", "status")
"""The columns that differ between a draft's matches, in the order of `tables`' tuples."""


def _insert_tables(t: Tournament, rnd: Round, tables: list[tuple]):
    """PostgreSQL: the draft's matches in one INSERT ... SELECT FROM unnest(arrays), one
    array per column of `_TABLE_FIELDS`. At 4,096 players this took a fifth of
    `bulk_create`'s time (bench/RESULTS.md, issue 14): bulk_create prepares every field of
    every instance in Python and sends some 30,000 parameters; this sends six arrays.
    Every other column gets the value `Match(...)` would save (its default, `auto_now`),
    read from the model, so a field added later is filled as bulk_create would fill it
    (tests/tournaments/test_app_services.py compares the rows)."""
    template = Match(tournament=t, round=rnd, table=0, player_a_id=0)
    quote = connection.ops.quote_name
    columns, select, params = [], [], []
    for f in Match._meta.concrete_fields:
        if f.primary_key or f.name in _TABLE_FIELDS:
            continue
        columns.append(quote(f.column))
        select.append(f"CAST(%s AS {f.cast_db_type(connection)})")
        params.append(f.get_db_prep_save(f.pre_save(template, add=True), connection))
    arrays = []
    for k, name in enumerate(_TABLE_FIELDS):
        f = Match._meta.get_field(name)
        columns.append(quote(f.column))
        select.append(f"x.c{k}")
        arrays.append(f"CAST(%s AS {f.cast_db_type(connection)}[])")
    params.extend(_array_text(column) for column in zip(*tables, strict=True))
    names = ", ".join(f"c{k}" for k in range(len(_TABLE_FIELDS)))
    # every name and type in this text comes from the model's metadata; the values are
    # parameters
    table = quote(Match._meta.db_table)
    into, values, unnest = ", ".join(columns), ", ".join(select), ", ".join(arrays)
    sql = f"INSERT INTO {table} ({into}) SELECT {values} FROM unnest({unnest}) AS x({names})"  # nosec B608
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _array_text(values) -> str:
    """A PostgreSQL array literal ('{1,2,NULL}', strings double-quoted) of ints, strings
    and Nones, sent as one text parameter: psycopg's client-side binding dumps a Python
    list element by element in Python (bench/RESULTS.md, issue 14)."""
    if set(map(type, values)) <= {int}:
        return "{" + ",".join(map(str, values)) + "}"
    out = []
    for v in values:
        if v is None:
            out.append("NULL")
        elif isinstance(v, bool):
            out.append("true" if v else "false")
        elif isinstance(v, int):
            out.append(str(v))
        else:
            out.append('"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"')
    return "{" + ",".join(out) + "}"


def pair_next_round(t: Tournament, staff) -> Round:
    """Pair the next Swiss round as a draft (R 18.2, R 18.7); idempotent.

    The tournament row is locked (select_for_update) and (tournament, number) is unique,
    so running this twice never creates two rounds: an unpublished draft is returned as is.
    Staff-forbidden pairs are avoided whenever a pairing without them exists.
    """
    return pair_round(t, staff)[0]


@transaction.atomic
def pair_round(t: Tournament, staff) -> tuple[Round, bool]:
    """`pair_next_round`, and whether THIS call created the round (False: the draft was
    there already, or another request paired it while this one waited for the lock)."""
    t = _locked(t)
    require_staff(staff, t)
    if t.status != Tournament.RUNNING:
        raise Conflict(_("Rounds are paired only during the Swiss stage."))
    last = t.rounds.order_by("-number").first()
    if last is not None and last.status == Round.DRAFT:
        return last, False
    if last is not None and not round_complete(last):
        raise Conflict(
            articles(_("Round %(n)s still has unfinished matches.") % {"n": last.number})
        )
    number = (last.number if last else 0) + 1
    if number > t.planned_rounds():
        raise Conflict(_("All Swiss rounds have been played."))
    pairing = _pairing(t, number)
    seed = f"{t.seed}:{number}"
    try:
        with transaction.atomic():
            rnd = Round.objects.create(
                tournament=t,
                number=number,
                seed=seed,
                warnings=pairing.warnings,
                notes={str(k): v for k, v in pairing.notes.items()},
            )
    except IntegrityError:  # another process won the race
        return t.rounds.get(number=number), False
    _seat_pairing(t, rnd, pairing)
    log(t, staff, "pair", round=number, seed=seed, warnings=pairing.warnings)
    return rnd, True


def _seating(rnd: Round) -> list[list]:
    """The round's tables as [[registration id, registration id or None], ...]."""
    return [
        list(pair)
        for pair in rnd.matches.order_by("table").values_list("player_a_id", "player_b_id")
    ]


@transaction.atomic
def repair_round(rnd: Round, staff) -> tuple[Round, bool]:
    """Discard a draft pairing and pair the round again (staff; drafts only).

    Uses the round's stored seed with the current standings, drops, re-activations,
    late entries and forbidden pairs, so it is idempotent: when nothing changed since
    the draft was paired, the draft is kept as it is (returns changed=False, no audit
    entry). A player entered late while the draft existed plays this round (their
    `late_entry_round` becomes its number). Returns (round, changed).
    """
    t = _locked(rnd.tournament)
    require_staff(staff, t)
    rnd = Round.objects.select_for_update().filter(pk=rnd.pk, tournament=t).first()
    if rnd is None:
        raise Conflict(_("This round no longer exists."))
    if rnd.status != Round.DRAFT:
        raise Conflict(
            articles(
                _("Round %(n)s is published: its pairing can no longer be changed.")
                % {"n": rnd.number}
            )
        )
    if t.status != Tournament.RUNNING:
        raise Conflict(_("Rounds are paired only during the Swiss stage."))
    late = list(
        t.registrations.filter(late_entry_round__gt=rnd.number, dropped=False).values_list(
            "pk", flat=True
        )
    )
    if late:
        Registration.objects.filter(pk__in=late).update(late_entry_round=rnd.number)
    pairing = _pairing(t, rnd.number)
    before = _seating(rnd)
    after = [list(pair) for pair in pairing.pairs]
    if pairing.bye is not None:
        after.append([pairing.bye, None])
    if before == after:
        return rnd, False
    rnd.matches.all().delete()
    _seat_pairing(t, rnd, pairing)
    seated = {reg_id for pair in after for reg_id in pair if reg_id is not None}
    # players who dropped after this draft was paired are no longer in it
    t.registrations.filter(dropped=True, dropped_after_round=rnd.number).exclude(
        pk__in=seated
    ).update(dropped_after_round=rnd.number - 1)
    rnd.warnings = pairing.warnings
    rnd.notes = {str(k): v for k, v in pairing.notes.items()}
    rnd.save(update_fields=["warnings", "notes"])
    names = dict(t.registrations.values_list("pk", "player__username"))

    def named(seating):
        return [[names.get(a), names.get(b)] for a, b in seating]

    log(
        t,
        staff,
        "repair",
        round=rnd.number,
        seed=rnd.seed,
        before=named(before),
        after=named(after),
        late_entries=[names.get(pk) for pk in late],
        warnings=pairing.warnings,
    )
    return rnd, True


@transaction.atomic
def publish_round(rnd: Round, staff) -> Round:
    """Publish the draft: players see their tables and the round clock starts."""
    t = _locked(rnd.tournament)
    require_staff(staff, t)
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    if rnd.status == Round.PUBLISHED:
        return rnd
    if rnd.number >= t.planned_rounds():
        # a late entrant who came after this draft was paired would play no round at all
        unseated = list(
            t.registrations.filter(late_entry_round__gt=rnd.number, dropped=False)
            .exclude(pk__in=[reg_id for pair in _seating(rnd) for reg_id in pair if reg_id])
            .values_list("player__username", flat=True)
        )
        if unseated:
            raise Conflict(
                articles(
                    _(
                        "Round %(n)s is the last Swiss round and was paired before the late "
                        "entry of %(names)s: pair it again first, so that they play it."
                    )
                    % {"n": rnd.number, "names": ", ".join(unseated)}
                )
            )
    rnd.status = Round.PUBLISHED
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["status", "published_at"])
    log(t, staff, "publish", round=rnd.number)
    online.start_round(rnd)  # online events: game 1 of every match, on the site
    _apply_pending_penalties(t, rnd.matches.all(), staff)
    return rnd


def _apply_pending_penalties(t: Tournament, matches, staff):
    """Game and match losses given while a player had no match apply to their next one
    (tournaments/penalties.py)."""
    from . import penalties

    if not t.penalties.filter(applied=False, kind__in=penalties.RESULT_KINDS).exists():
        return
    for match in matches:
        penalties.apply_pending(match, staff)


MAX_EXTENSION = 30  # minutes a table may get in all


@transaction.atomic
def extend_time(match: Match, staff, minutes) -> Match:
    """A judge gives one table extra minutes (MTR time extension: e.g. after a long
    ruling); the table's clock shows them, the round's does not change."""
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("tournament", "round")
        .get(pk=match.pk)
    )
    require_staff(staff, match.tournament)
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 1:
        raise ValidationError({"minutes": [_("Give the extra minutes as a whole number.")]})
    if match.is_bye or match.round is None or match.round.status != Round.PUBLISHED:
        raise Conflict(_("Only a table of a published Swiss round gets a time extension."))
    if match.status == Match.CONFIRMED:
        raise Conflict(_("This match is over: it needs no more time."))
    if match.extra_minutes + minutes > MAX_EXTENSION:
        raise ValidationError(
            {"minutes": [_("A table gets at most %(n)s extra minutes.") % {"n": MAX_EXTENSION}]}
        )
    match.extra_minutes += minutes
    match.save(update_fields=["extra_minutes", "updated"])
    log(match.tournament, staff, "extend_time", match=match, table=match.table, minutes=minutes)
    return match


def match_deadline(match: Match):
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


# --------------------------------------------------------------------- results


def games_needed(match: Match) -> int:
    """Games to win the match: best-of-three for the playoff (R 18.3), else the format."""
    if match.stage != "swiss" or match.tournament.match_format == "bo3":
        return 2
    return 1


def plays_all_three(match: Match) -> bool:
    """R 18.3.4 `play_all_three`: a playoff set plays its third game even at 2-0."""
    return match.stage != "swiss" and match.tournament.play_all_three


def check_score(match: Match, games_a, games_b):
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


def check_penalty_games(match: Match, games_a: int, games_b: int):
    """A reported or entered result includes the games game-loss penalties gave
    (tournaments/penalties.py); a judge's ruling may still set any score (R 18.5)."""
    from .penalties import penalty_games

    given_a, given_b = penalty_games(match)
    if games_a < given_a or games_b < given_b:
        message = _(
            "Game-loss penalties already gave %(a)s–%(b)s in this match: the result must "
            "include those games."
        )
        raise ValidationError({"games": [message % {"a": given_a, "b": given_b}]})


def _seat(match: Match, user) -> Registration:
    for reg in (match.player_a, match.player_b):
        if reg is not None and reg.player_id == user.id:
            return reg
    raise PermissionDenied(_("You are not playing in this match."))


def _playable(match: Match):
    if match.is_bye:
        raise Conflict(_("A bye needs no result."))
    if match.round is not None and match.round.status != Round.PUBLISHED:
        raise Conflict(_("This round is not published yet."))


@transaction.atomic
def report(match: Match, user, games_a: int, games_b: int, *, timed_out=False) -> Match:
    """One player reports; the opponent confirms. A timed-out game needs a judge (R 18.4)."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    seat = _seat(match, user)
    _playable(match)
    online.require_offline(match)
    if match.status in (Match.CONFIRMED, Match.DISPUTED, Match.NEEDS_JUDGE):
        raise Conflict(_("This result is final or with a judge; ask a judge to change it."))
    if match.status == Match.REPORTED and match.reported_by_id != seat.pk:
        raise Conflict(_("Your opponent has reported: confirm or dispute their result."))
    if timed_out:
        match.status = Match.NEEDS_JUDGE
        match.reported_by = seat
        match.save()
        return match
    check_score(match, games_a, games_b)
    check_penalty_games(match, games_a, games_b)
    match.games_a, match.games_b = games_a, games_b
    match.status = Match.REPORTED
    match.reported_by = seat
    match.save()
    return match


@transaction.atomic
def confirm(match: Match, user) -> Match:
    match = Match.objects.select_for_update().get(pk=match.pk)
    seat = _seat(match, user)
    if match.status != Match.REPORTED:
        raise Conflict(_("There is no reported result to confirm."))
    if match.reported_by_id == seat.pk:
        raise Conflict(_("Your opponent must confirm the result you reported."))
    match.status = Match.CONFIRMED
    match.save()
    after_result(match)
    return match


@transaction.atomic
def dispute(match: Match, user) -> Match:
    match = Match.objects.select_for_update().get(pk=match.pk)
    seat = _seat(match, user)
    if match.status != Match.REPORTED or match.reported_by_id == seat.pk:
        raise Conflict(_("Only a result your opponent reported can be disputed."))
    match.status = Match.DISPUTED
    match.save()
    return match


JUDGE_REASONS = ("time", "ruling", "correction")  # R 18.4, R 18.5


@transaction.atomic
def enter_result(match: Match, staff, games_a: int, games_b: int) -> Match:
    """Staff enter a plain result from the match slip (not a judge ruling): the match
    must not be with a judge or already confirmed (changing those is `judge_result`)."""
    match = Match.objects.select_for_update().select_related("tournament").get(pk=match.pk)
    require_staff(staff, match.tournament)
    if match.is_bye:
        raise Conflict(_("A bye needs no result."))
    _playable(match)
    online.require_offline(match)
    if match.status == Match.CONFIRMED:
        raise Conflict(
            _("This match already has a confirmed result: changing it is a judge ruling.")
        )
    if match.status in (Match.DISPUTED, Match.NEEDS_JUDGE):
        raise Conflict(_("This match is with a judge: enter a judge ruling with its reason."))
    check_score(match, games_a, games_b)
    check_penalty_games(match, games_a, games_b)
    match.games_a, match.games_b = games_a, games_b
    match.status = Match.CONFIRMED
    match.judge_reason = ""
    match.save()
    log(
        match.tournament,
        staff,
        "result_entered",
        match=match,
        table=match.table,
        stage=match.stage,
        round=match.round.number if match.round_id else None,
        player_a=match.player_a.name,
        player_b=match.player_b.name,
        games_a=games_a,
        games_b=games_b,
    )
    after_result(match, staff)
    return match


@transaction.atomic
def judge_result(match: Match, staff, games_a: int, games_b: int, reason: str) -> Match:
    """A judge decides or corrects any result without re-pairing published rounds
    (R 18.4, R 18.5). What depends on it and is not played yet is derived again (a
    draft round, the next playoff set, placings); where a later match was already
    played on the old result the correction is refused (`_require_correctable`)."""
    match = Match.objects.select_for_update().select_related("tournament").get(pk=match.pk)
    require_staff(staff, match.tournament)
    if reason not in JUDGE_REASONS:
        raise ValidationError({"reason": [_("The reason is time, ruling or correction.")]})
    if match.is_bye:
        raise Conflict(_("A bye has no result to judge."))
    check_score(match, games_a, games_b)
    _require_correctable(match, games_a, games_b)
    before = {"games_a": match.games_a, "games_b": match.games_b, "status": match.status}
    match.games_a, match.games_b = games_a, games_b
    match.status = Match.CONFIRMED
    match.judge_reason = reason
    match.save()
    log(
        match.tournament,
        staff,
        "judge_result",
        match=match,
        reason=reason,
        table=match.table,
        stage=match.stage,
        round=match.round.number if match.round_id else None,
        player_a=match.player_a.name,
        player_b=match.player_b.name,
        before=before,
        after={"games_a": games_a, "games_b": games_b},
    )
    after_result(match, staff)
    return match


def _winner_changes(match: Match, games_a: int, games_b: int) -> bool:
    if match.status != Match.CONFIRMED or match.games_a is None or match.games_b is None:
        return False
    return (match.games_a > match.games_b) != (games_a > games_b)


def _require_correctable(match: Match, games_a: int, games_b: int):
    """Refuse a change whose consequences were already played (R 18.5: the judge decides)."""
    t = match.tournament
    if t.prizes.filter(awarded_to__isnull=False).exists():
        raise Conflict(
            _(
                "The prizes have been awarded on the current results, so results can no "
                "longer change here; the judge decides."
            )
        )
    if match.stage == "swiss":
        if t.matches.filter(round__isnull=True).exists():
            raise Conflict(
                _(
                    "The playoff was seeded from the Swiss results and has started: a Swiss "
                    "result can no longer change; the judge decides."
                )
            )
        return
    if match.stage == "semi" and _winner_changes(match, games_a, games_b):
        later = t.matches.filter(stage__in=["final", "third"])
        played = (
            later.exclude(status=Match.PENDING).exists()
            or OnlineGame.objects.filter(match__in=later).exists()
        )
        if played:
            raise Conflict(
                _(
                    "The final or the third-place match has already been played on this "
                    "semi-final's old result, so its winner can no longer change; the judge "
                    "decides."
                )
            )


def after_result(match: Match, staff=None):
    """What depends on a result: the playoff's next sets, or a Swiss draft paired on it."""
    if match.stage != "swiss":
        advance_playoff(match.tournament)
        return
    if staff is None or match.round_id is None:
        return
    draft = match.tournament.rounds.filter(status=Round.DRAFT, number__gt=match.round.number)
    draft = draft.first()
    if draft is not None:  # paired on the old result: pair it again (idempotent)
        repair_round(draft, staff)


# --------------------------------------------------------------------- playoff


def swiss_finished(t: Tournament) -> bool:
    last = t.rounds.order_by("-number").first()
    return last is not None and last.number >= t.planned_rounds() and round_complete(last)


def _draw_key(t: Tournament, reg_id) -> str:
    return hashlib.sha256(f"{t.seed}:cut:{reg_id}".encode()).hexdigest()


def final_order(t: Tournament) -> list[standings_mod.Row]:
    """The active players' standings in the order the cut and Swiss placings use.

    Players equal on points, OMW%, GW% and OGW% are ordered by a draw seeded with the
    event's seed (docs/rulings.md "Ties at the cut"; `cut_tie_draw` off: registration
    order, as the standings page lists them)."""
    rows = [row for row in current_standings(t) if not row.dropped]
    if t.cut_tie_draw:
        rows.sort(key=lambda r: (-r.points, -r.omw, -r.gwp, -r.ogw, _draw_key(t, r.id)))
    return rows


def cut_order(t: Tournament) -> list[standings_mod.Row]:
    """`final_order` less the players who have met no opponent (a late entrant with
    missed rounds or a bye only): they never enter the playoff (issue 35;
    docs/rulings.md "Ties at the cut")."""
    return [row for row in final_order(t) if row.opponents]


def playoff_size(active: int) -> int:
    """Top four (R 18.3); with only two or three active players, a final of the top two."""
    return 4 if active >= 4 else 2 if active >= 2 else 0


@transaction.atomic
def start_playoff(t: Tournament, staff) -> list[Match]:
    """The playoff from the final Swiss standings (R 18.3.1): 1 v 4 and 2 v 3 in
    best-of-three sets; with two or three active players, a final of the top two (the
    third keeps 3rd place). Returns the first sets."""
    t = _locked(t)
    require_staff(staff, t)
    if t.status == Tournament.PLAYOFF:
        first = "semi" if t.matches.filter(stage="semi").exists() else "final"
        return list(t.matches.filter(stage=first))
    if t.status != Tournament.RUNNING or not swiss_finished(t):
        raise Conflict(_("The playoff starts after the last Swiss round is complete."))
    order = cut_order(t)
    size = playoff_size(len(order))
    if not size:
        raise Conflict(
            _("Fewer than two active players remain: finish the event after the Swiss rounds.")
        )
    seeded = [row.id for row in order[: min(len(order), 4)]]
    for seed, reg_id in enumerate(seeded, 1):
        Registration.objects.filter(pk=reg_id).update(playoff_seed=seed)
    top = seeded[:size]
    if size == 4:
        pairs = [("semi", 1, top[0], top[3]), ("semi", 2, top[1], top[2])]
    else:
        pairs = [("final", 1, top[0], top[1])]
    sets = [
        Match.objects.create(tournament=t, stage=stage, table=table, player_a_id=a, player_b_id=b)
        for stage, table, a, b in pairs
    ]
    t.status = Tournament.PLAYOFF
    t.save(update_fields=["status"])
    names = dict(t.registrations.values_list("pk", "player__username"))
    log(t, staff, "start_playoff", size=size, seeds=[names[pk] for pk in seeded])
    for playoff_set in sets:
        online.start_playoff_match(playoff_set)
    _apply_pending_penalties(t, sets, staff)
    return sets


@transaction.atomic
def finish_swiss(t: Tournament, staff) -> Tournament:
    """End the event after the Swiss rounds, without a playoff (the organiser's choice,
    or fewer than four active players): the placings are the final standings."""
    t = _locked(t)
    require_staff(staff, t)
    if t.status != Tournament.RUNNING or not swiss_finished(t):
        raise Conflict(_("The event can finish after the last Swiss round is complete."))
    t.status = Tournament.FINISHED
    t.save(update_fields=["status"])
    log(t, staff, "finish_swiss", placings=[reg.name for reg in placings(t)])
    return t


def _by_seed(regs):
    return sorted(regs, key=lambda r: r.playoff_seed or 99)


def _set_playoff_match(t: Tournament, stage: str, table: int, pair: list[Registration]):
    """Create the set, or give an unplayed one the players the semi-finals now say."""
    existing = t.matches.filter(stage=stage).first()
    if existing is None:
        created = Match.objects.create(
            tournament=t, stage=stage, table=table, player_a=pair[0], player_b=pair[1]
        )
        online.start_playoff_match(created)
        _apply_pending_penalties(t, [created], t.organiser)
        return
    if (existing.player_a_id, existing.player_b_id) == (pair[0].pk, pair[1].pk):
        return
    if existing.status != Match.PENDING or existing.online_games.exists():
        return  # played already: _require_correctable refused the change before this
    existing.player_a, existing.player_b = pair
    existing.first_player = None
    existing.save()


def advance_playoff(t: Tournament):
    """Semi-finals done: final and third-place match (R 18.3.2-3), derived again after a
    correction while unplayed; every set done: finished.

    The tournament row is locked so that two semi-finals finishing at once in two
    workers create exactly one final."""
    t = _locked(t)
    semis = list(t.matches.filter(stage="semi").select_related("player_a", "player_b"))
    if semis:
        if len(semis) != 2 or any(m.status != Match.CONFIRMED for m in semis):
            return
        winners = _by_seed([m.winner for m in semis])
        losers = _by_seed([m.player_b if m.winner == m.player_a else m.player_a for m in semis])
        _set_playoff_match(t, "final", 1, winners)
        if t.play_third_place:
            _set_playoff_match(t, "third", 2, losers)
    sets = t.matches.filter(stage__in=["final", "third"])
    if t.status == Tournament.PLAYOFF and not sets.exclude(status=Match.CONFIRMED).exists():
        if sets.exists():
            t.status = Tournament.FINISHED
            t.save(update_fields=["status"])


def placings(t: Tournament) -> list[Registration]:
    """1st, 2nd, 3rd (R 18.6): from the final (3rd: the third-place winner, else the
    higher-seeded semi-final loser, else seed 3 of a top-two playoff); after a Swiss-only
    finish, the final standings' active players. Fewer players, fewer places; a
    disqualified player has none."""
    final = (
        t.matches.filter(stage="final", status=Match.CONFIRMED)
        .select_related("player_a__player", "player_b__player")
        .first()
    )
    if final is None:
        if t.status != Tournament.FINISHED or t.matches.filter(round__isnull=True).exists():
            return []
        regs = {r.pk: r for r in t.registrations.select_related("player")}
        return [regs[row.id] for row in final_order(t)[:3]]
    first = final.winner
    second = final.player_b if first == final.player_a else final.player_a
    third_match = t.matches.filter(stage="third", status=Match.CONFIRMED).first()
    semis = list(t.matches.filter(stage="semi").select_related("player_a", "player_b"))
    if third_match is not None:
        third = third_match.winner
    elif semis:
        third = _by_seed([m.player_b if m.winner == m.player_a else m.player_a for m in semis])[0]
    else:
        third = t.registrations.filter(playoff_seed=3).select_related("player").first()
    # a disqualified player is left out and those below move up (MTR; rulings "Penalties")
    return [reg for reg in (first, second, third) if reg is not None and not reg.disqualified]


def decided_placings(t: Tournament) -> list[Registration]:
    """Every place the playoff decided (issue 35: a top four decides four): the placings
    (R 18.6), then the other semi-final loser (4th). A Swiss-only finish: the placings."""
    placed = placings(t)
    if not placed:
        return []
    semis = t.matches.filter(stage="semi", status=Match.CONFIRMED).select_related(
        "player_a__player", "player_b__player"
    )
    losers = _by_seed([m.player_b if m.winner == m.player_a else m.player_a for m in semis])
    ids = {reg.pk for reg in placed}
    for reg in losers:
        if reg.pk not in ids and not reg.disqualified:
            placed.append(reg)
            ids.add(reg.pk)
    return placed


@transaction.atomic
def choose_first(match: Match, user, choice: str) -> Match:
    """The higher seed chooses to play or draw first in game 1 (R 18.7)."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.stage == "swiss":
        raise Conflict(_("Play or draw is chosen only in the playoff."))
    higher = _by_seed([match.player_a, match.player_b])[0]
    if higher.player_id != user.id:
        raise PermissionDenied(_("The higher seed chooses to play or draw."))
    if choice not in ("play", "draw"):
        raise ValidationError({"choice": [_("Choose play or draw.")]})
    if match.status != Match.PENDING or match.first_player_id:
        raise Conflict(_("The choice is already made."))
    lower = match.player_b if higher == match.player_a else match.player_a
    match.first_player = higher if choice == "play" else lower
    match.save()
    online.start_playoff_match(match)  # online events: game 1 starts now
    _apply_pending_penalties(match.tournament, [match], match.tournament.organiser)
    return match


@transaction.atomic
def award_prizes(t: Tournament, staff, cards_by_place: dict) -> list[Prize]:
    """Ultra-rare cards to the top three (R 8.1.2, R 18.6), added to their collections."""
    from cards_data.models import Card
    from decks.services import add_to_collection

    t = _locked(t)
    require_staff(staff, t)
    if t.status != Tournament.FINISHED:
        raise Conflict(_("Prizes are awarded when the event is finished."))
    if t.prizes.filter(awarded_to__isnull=False).exists():
        raise Conflict(_("The prizes have already been awarded."))
    placed = placings(t)
    if sorted(cards_by_place) != list(range(1, len(placed) + 1)):
        raise ValidationError(
            {"cards": [_("Name one card for each place from 1 to %(n)s.") % {"n": len(placed)}]}
        )
    cards = {}
    for place, code in cards_by_place.items():
        card = Card.objects.filter(code=str(code).upper()).first()
        if card is None:
            raise ValidationError({"cards": [_("Unknown card code %(code)s.") % {"code": code}]})
        if card.rarity != "ultra_rare":
            raise ValidationError(
                {
                    "cards": [
                        articles(_("%(code)s is not an ultra-rare card.") % {"code": card.code})
                    ]
                }
            )
        cards[place] = card
    prizes = []
    for place, reg in enumerate(placed, 1):
        card = cards[place]
        add_to_collection(reg.player, [card.code])
        prizes.append(
            Prize.objects.create(
                tournament=t, place=place, card=card, awarded_to=reg, awarded_at=timezone.now()
            )
        )
    log(
        t,
        staff,
        "award_prizes",
        prizes=[[p.place, p.awarded_to.name, p.card.code, p.card.name] for p in prizes],
    )
    return prizes
