"""A set's result (R 18.4, R 18.5): reported by a player and confirmed by the opponent,
entered by staff from the slip, or decided by a judge.

A confirmed result is announced (`signals.announce_result`); what depends on it (the
playoff's next sets, a Swiss draft paired on the old result) follows from there."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from . import online
from .models import OnlineGame, Registration, Round, TableSet
from .penalties import penalty_games
from .problems import Conflict, NotAllowed
from .rules import JUDGE_REASONS, check_score, log, require_staff, set_where
from .signals import announce_result, result_to_confirm


def check_penalty_games(match: TableSet, games_a: int, games_b: int):
    """A reported or entered result includes the games game-loss penalties gave
    (tournaments/penalties.py); a judge's ruling may still set any score (R 18.5)."""
    given_a, given_b = penalty_games(match)
    if games_a < given_a or games_b < given_b:
        message = _(
            "Game-loss penalties already gave %(a)s–%(b)s in this match: the result must "
            "include those games."
        )
        raise ValidationError({"games": [message % {"a": given_a, "b": given_b}]})


def _seat(match: TableSet, user) -> Registration:
    for reg in (match.player_a, match.player_b):
        if reg is not None and reg.player_id == user.id:
            return reg
    raise NotAllowed("NOT_IN_MATCH")


def _playable(match: TableSet):
    if match.is_bye:
        raise Conflict("BYE_NO_RESULT")
    if match.round is not None and match.round.status != Round.PUBLISHED:
        raise Conflict("ROUND_NOT_PUBLISHED")


@transaction.atomic
def report(match: TableSet, user, games_a: int, games_b: int, *, timed_out=False) -> TableSet:
    """One player reports; the opponent confirms. A timed-out game needs a judge (R 18.4)."""
    match = TableSet.objects.select_for_update().get(pk=match.pk)
    seat = _seat(match, user)
    _playable(match)
    online.require_offline(match)
    if match.status in (TableSet.CONFIRMED, TableSet.DISPUTED, TableSet.NEEDS_JUDGE):
        raise Conflict("RESULT_FINAL")
    if match.status == TableSet.REPORTED and match.reported_by_id != seat.pk:
        raise Conflict("OPPONENT_REPORTED")
    if timed_out:
        match.status = TableSet.NEEDS_JUDGE
        match.reported_by = seat
        match.save()
        return match
    check_score(match, games_a, games_b)
    check_penalty_games(match, games_a, games_b)
    first_report = match.status != TableSet.REPORTED
    match.games_a, match.games_b = games_a, games_b
    match.status = TableSet.REPORTED
    match.reported_by = seat
    match.save()
    if first_report:  # the opponent must confirm: told once (a corrected report is not news)
        transaction.on_commit(
            lambda: result_to_confirm.send(sender=TableSet, match=match, reporter=user)
        )
    return match


@transaction.atomic
def confirm(match: TableSet, user) -> TableSet:
    match = TableSet.objects.select_for_update().get(pk=match.pk)
    seat = _seat(match, user)
    if match.status != TableSet.REPORTED:
        raise Conflict("NOTHING_TO_CONFIRM")
    if match.reported_by_id == seat.pk:
        raise Conflict("OPPONENT_CONFIRMS")
    match.status = TableSet.CONFIRMED
    match.save()
    announce_result(match)
    return match


@transaction.atomic
def dispute(match: TableSet, user) -> TableSet:
    match = TableSet.objects.select_for_update().get(pk=match.pk)
    seat = _seat(match, user)
    if match.status != TableSet.REPORTED or match.reported_by_id == seat.pk:
        raise Conflict("NOTHING_TO_DISPUTE")
    match.status = TableSet.DISPUTED
    match.save()
    return match


@transaction.atomic
def enter_result(match: TableSet, staff, games_a: int, games_b: int) -> TableSet:
    """Staff enter a plain result from the match slip (not a judge ruling): the match
    must not be with a judge or already confirmed (changing those is `judge_result`)."""
    match = TableSet.objects.select_for_update().select_related("tournament").get(pk=match.pk)
    require_staff(staff, match.tournament)
    if match.is_bye:
        raise Conflict("BYE_NO_RESULT")
    _playable(match)
    online.require_offline(match)
    if match.status == TableSet.CONFIRMED:
        raise Conflict("ALREADY_CONFIRMED")
    if match.status in (TableSet.DISPUTED, TableSet.NEEDS_JUDGE):
        raise Conflict("WITH_A_JUDGE")
    check_score(match, games_a, games_b)
    check_penalty_games(match, games_a, games_b)
    match.games_a, match.games_b = games_a, games_b
    match.status = TableSet.CONFIRMED
    match.judge_reason = ""
    match.save()
    log(
        match.tournament,
        staff,
        "result_entered",
        match=match,
        **set_where(match),
        games_a=games_a,
        games_b=games_b,
    )
    announce_result(match, staff)
    return match


@transaction.atomic
def judge_result(match: TableSet, staff, games_a: int, games_b: int, reason: str) -> TableSet:
    """A judge decides or corrects any result without re-pairing published rounds
    (R 18.4, R 18.5). What depends on it and is not played yet is derived again (a
    draft round, the next playoff set, placings); where a later match was already
    played on the old result the correction is refused (`_require_correctable`)."""
    match = TableSet.objects.select_for_update().select_related("tournament").get(pk=match.pk)
    require_staff(staff, match.tournament)
    if reason not in JUDGE_REASONS:
        raise ValidationError({"reason": [_("The reason is time, ruling or correction.")]})
    if match.is_bye:
        raise Conflict("BYE_NOT_JUDGED")
    check_score(match, games_a, games_b)
    _require_correctable(match, games_a, games_b)
    before = {"games_a": match.games_a, "games_b": match.games_b, "status": match.status}
    match.games_a, match.games_b = games_a, games_b
    match.status = TableSet.CONFIRMED
    match.judge_reason = reason
    match.save()
    log(
        match.tournament,
        staff,
        "judge_result",
        match=match,
        reason=reason,
        **set_where(match),
        before=before,
        after={"games_a": games_a, "games_b": games_b},
    )
    announce_result(match, staff)
    return match


def _winner_changes(match: TableSet, games_a: int, games_b: int) -> bool:
    if match.status != TableSet.CONFIRMED or match.games_a is None or match.games_b is None:
        return False
    return (match.games_a > match.games_b) != (games_a > games_b)


def _require_correctable(match: TableSet, games_a: int, games_b: int):
    """Refuse a change whose consequences were already played (R 18.5: the judge decides)."""
    t = match.tournament
    if t.prizes.filter(awarded_to__isnull=False).exists():
        raise Conflict("PRIZES_AWARDED_RESULTS_FIXED")
    if match.stage == "swiss":
        if t.matches.filter(round__isnull=True).exists():
            raise Conflict("PLAYOFF_SEEDED_SWISS_FIXED")
        return
    if match.stage == "semi" and _winner_changes(match, games_a, games_b):
        later = t.matches.filter(stage__in=["final", "third"])
        played = (
            later.exclude(status=TableSet.PENDING).exists()
            or OnlineGame.objects.filter(match__in=later).exists()
        )
        if played:
            raise Conflict("SEMI_WINNER_FIXED")
