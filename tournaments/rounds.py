"""The Swiss rounds (R 18.2, R 18.7): forbidden pairs, pairing a round as a draft
(`swiss.pair_round`), pairing a draft again, publishing it, and a table's time extension.

A Swiss draft paired on a result that then changes is paired again when the result is
announced (`repair_after_result`, connected to `signals.result_confirmed` in apps.py)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from . import online, penalties, swiss
from .models import ForbiddenPair, Registration, Round, TableSet, Tournament
from .problems import Conflict
from .rules import MAX_EXTENSION, locked, log, require_staff
from .seating_sql import insert_tables
from .selectors import round_complete
from .signals import round_published
from .standings_query import collector_paused, standings_table


def _forbidden_pairs_open(t: Tournament):
    if t.status not in (Tournament.REGISTRATION, Tournament.RUNNING):
        raise Conflict("FORBIDDEN_PAIRS_CLOSED")


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
    t = locked(t)
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
    t = locked(pair.tournament)
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


def forbidden_pairs(t: Tournament) -> list[tuple[int, int]]:
    """The staff-forbidden pairs as (registration id, registration id), for the pairing."""
    return list(t.forbidden_pairs.values_list("player_a_id", "player_b_id"))


def _pairing(t: Tournament, number: int) -> swiss.Pairing:
    """The pairing of round `number` from the standings, the forbidden pairs and the
    round's stored seed: the same inputs always give the same pairing (R 18.7)."""
    with collector_paused():
        records = standings_table(t).records()
        return swiss.pair_round(records, forbidden=forbidden_pairs(t), seed=f"{t.seed}:{number}")


def _seat_pairing(t: Tournament, rnd: Round, pairing: swiss.Pairing):
    """The draft's matches: one per pair in table order, then the bye (2-0, confirmed)."""
    tables = [(i, a, b, None, None, TableSet.PENDING) for i, (a, b) in enumerate(pairing.pairs, 1)]
    if pairing.bye is not None:
        tables.append((len(tables) + 1, pairing.bye, None, 2, 0, TableSet.CONFIRMED))
    if connection.vendor == "postgresql":
        insert_tables(t, rnd, tables)
        return
    TableSet.objects.bulk_create(
        TableSet(
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
    t = locked(t)
    require_staff(staff, t)
    if t.status != Tournament.RUNNING:
        raise Conflict("NOT_SWISS_STAGE")
    last = t.rounds.order_by("-number").first()
    if last is not None and last.status == Round.DRAFT:
        return last, False
    if last is not None and not round_complete(last):
        raise Conflict("ROUND_UNFINISHED", n=last.number)
    number = (last.number if last else 0) + 1
    if number > t.planned_rounds():
        raise Conflict("ALL_ROUNDS_PLAYED")
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
    t = locked(rnd.tournament)
    require_staff(staff, t)
    rnd = Round.objects.select_for_update().filter(pk=rnd.pk, tournament=t).first()
    if rnd is None:
        raise Conflict("ROUND_GONE")
    if rnd.status != Round.DRAFT:
        raise Conflict("ROUND_PUBLISHED", n=rnd.number)
    if t.status != Tournament.RUNNING:
        raise Conflict("NOT_SWISS_STAGE")
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
    t = locked(rnd.tournament)
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
            raise Conflict("LAST_ROUND_BEFORE_LATE_ENTRY", n=rnd.number, names=", ".join(unseated))
    rnd.status = Round.PUBLISHED
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["status", "published_at"])
    log(t, staff, "publish", round=rnd.number)
    online.start_round(rnd)  # online events: game 1 of every match, on the site
    penalties.apply_pending_to(t, rnd.matches.all(), staff)
    transaction.on_commit(lambda: round_published.send(sender=Round, round=rnd))
    return rnd


@transaction.atomic
def extend_time(match: TableSet, staff, minutes) -> TableSet:
    """A judge gives one table extra minutes (MTR time extension: e.g. after a long
    ruling); the table's clock shows them, the round's does not change."""
    match = (
        TableSet.objects.select_for_update(of=("self",))
        .select_related("tournament", "round")
        .get(pk=match.pk)
    )
    require_staff(staff, match.tournament)
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 1:
        raise ValidationError({"minutes": [_("Give the extra minutes as a whole number.")]})
    if match.is_bye or match.round is None or match.round.status != Round.PUBLISHED:
        raise Conflict("EXTENSION_PUBLISHED_ONLY")
    if match.status == TableSet.CONFIRMED:
        raise Conflict("MATCH_OVER_NO_TIME")
    if match.extra_minutes + minutes > MAX_EXTENSION:
        raise ValidationError(
            {"minutes": [_("A table gets at most %(n)s extra minutes.") % {"n": MAX_EXTENSION}]}
        )
    match.extra_minutes += minutes
    match.save(update_fields=["extra_minutes", "updated"])
    log(match.tournament, staff, "extend_time", match=match, table=match.table, minutes=minutes)
    return match


def repair_after_result(sender, match: TableSet, staff=None, **kwargs):
    """`signals.result_confirmed` receiver: a Swiss draft paired on the old result of a
    match staff changed is paired again (idempotent: unchanged when nothing moved)."""
    if match.stage != "swiss" or staff is None or match.round_id is None:
        return
    draft = match.tournament.rounds.filter(status=Round.DRAFT, number__gt=match.round.number)
    draft = draft.first()
    if draft is not None:
        repair_round(draft, staff)
