"""Judges' penalties (issue 14): warning, game loss, match loss, disqualification, each
for an infraction with a note, audit-logged (R 18.5: the judge is always right).

The effects follow the Magic: The Gathering Tournament Rules, as R 18.7 does for the
event's defaults (docs/rulings.md, "Penalties"):

- a warning changes nothing but the record;
- a game loss gives the player's opponent one game of their current match; when that
  game decides the match (best of one, or the opponent's second game) the match is
  confirmed with that score, otherwise the match goes on and its result must include it;
- a match loss confirms the current match as a loss (0-2 in games; 0-1 best of one;
  0-3 in a `play_all_three` playoff set), as a drop's concession is;
- a disqualification is a match loss of the current match and a drop through the one
  drop path (registration.drop); a disqualified player can never be re-activated.

"Current match": the player's unreported match of a published round or of the playoff
(online events: also one whose game waits for a judge). A game or match loss given when
there is none (between rounds, before the event, a bye) waits for their next match and
is applied when that match is published (`apply_pending`).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from matches.errors import MatchError
from matches.services import judge_decide

from . import online
from .models import Penalty, Registration, TableSet, Tournament
from .problems import GAME_REFUSED, Conflict
from .registration import drop
from .rules import games_needed, log, plays_all_three, require_staff, set_decided, set_where
from .selectors import open_match, rounds_paired
from .signals import announce_result

KINDS = dict(Penalty.KINDS)
INFRACTIONS = dict(Penalty.INFRACTIONS)
RESULT_KINDS = (Penalty.GAME_LOSS, Penalty.MATCH_LOSS)


def kind_label(code: str) -> str:
    """The penalty's name in the active language (an unknown code reads as itself)."""
    label = KINDS.get(code)
    return str(label) if label is not None else str(code or "–")


def infraction_label(code: str) -> str:
    label = INFRACTIONS.get(code)
    return str(label) if label is not None else str(code or "–")


def current_match(t: Tournament, reg: Registration) -> TableSet | None:
    """The match `reg` is playing now (see the module's docstring), or None."""
    statuses = [TableSet.PENDING, TableSet.NEEDS_JUDGE] if t.online else [TableSet.PENDING]
    return open_match(t, reg, statuses)


def _validate(kind, infraction, note) -> str:
    if kind not in KINDS:
        raise ValidationError(
            {"penalty": [_("Choose a warning, a game loss, a match loss or a disqualification.")]}
        )
    if infraction not in INFRACTIONS:
        raise ValidationError({"infraction": [_("Choose the infraction from the list.")]})
    note = note.strip() if isinstance(note, str) else ""
    if len(note) > Penalty.NOTE_MAX:
        raise ValidationError(
            {"note": [_("The note is at most %(n)s characters.") % {"n": Penalty.NOTE_MAX}]}
        )
    return note


@transaction.atomic
def give_penalty(reg: Registration, staff, kind: str, infraction: str, note: str = "") -> Penalty:
    """A judge (the organiser, a named judge) penalises a registered player.

    Refused: anyone else (PermissionDenied), bad input (ValidationError), a finished event,
    a disqualified player, or a game/match loss for a dropped player (Conflict)."""
    t = Tournament.objects.select_for_update().get(pk=reg.tournament_id)
    require_staff(staff, t)
    note = _validate(kind, infraction, note)
    reg = Registration.objects.select_for_update().select_related("player").get(pk=reg.pk)
    if t.status == Tournament.FINISHED:
        raise Conflict("EVENT_OVER_NO_PENALTY")
    if reg.disqualified:
        raise Conflict("ALREADY_DISQUALIFIED", name=reg.name)
    if reg.dropped and kind in RESULT_KINDS:
        raise Conflict("DROPPED_NO_MATCH", name=reg.name)
    penalty = Penalty.objects.create(
        tournament=t, registration=reg, kind=kind, infraction=infraction, note=note, given_by=staff
    )
    if kind == Penalty.DISQUALIFICATION:
        match = current_match(t, reg)
        if match is not None:
            _apply(penalty, match, staff, as_kind=Penalty.MATCH_LOSS)
        reg.disqualified = True
        reg.save(update_fields=["disqualified", "updated"])
    elif penalty.changes_result:
        match = current_match(t, reg)
        if match is not None:
            _apply(penalty, match, staff)
    _log(penalty, staff)
    if kind == Penalty.DISQUALIFICATION:
        t.refresh_from_db(fields=["status"])
        if t.status != Tournament.FINISHED:
            drop(reg, staff)  # the one drop path: logged, conceding what is open
        else:  # the match loss decided the final: nothing is left to drop from
            reg.dropped, reg.dropped_after_round = True, rounds_paired(t)
            reg.save(update_fields=["dropped", "dropped_after_round", "updated"])
    return penalty


def _log(penalty: Penalty, staff):
    match = penalty.match
    data = {
        "player": penalty.registration.name,
        "penalty": penalty.kind,
        "infraction": penalty.infraction,
        "note": penalty.note,
    }
    if match is not None:
        data.update(_where(match))
    elif penalty.changes_result:
        data["pending"] = True
    log(penalty.tournament, staff, "penalty", match=match, **data)


def _where(match: TableSet) -> dict:
    return {
        **set_where(match),
        "games_a": match.games_a,
        "games_b": match.games_b,
        "status": match.status,
    }


def _apply(penalty: Penalty, match: TableSet, staff, *, as_kind: str | None = None):
    """Change `match`'s result by the penalty (a game loss, or a match loss)."""
    kind = as_kind or penalty.kind
    match = (
        TableSet.objects.select_for_update(of=("self",))
        .select_related("tournament", "round", "player_a", "player_b")
        .get(pk=match.pk)
    )
    reg = penalty.registration
    opponent_is_a = match.player_b_id == reg.pk
    need = 3 if plays_all_three(match) else games_needed(match)
    if match.tournament.online:
        _apply_online(match, kind, opponent_is_a, need)
    else:
        if kind == Penalty.MATCH_LOSS:
            games_a, games_b = (need, 0) if opponent_is_a else (0, need)
        else:
            games_a, games_b = match.games_a or 0, match.games_b or 0
            if opponent_is_a:
                games_a += 1
            else:
                games_b += 1
        match.games_a, match.games_b = games_a, games_b
        if set_decided(match, games_a, games_b):
            match.status = TableSet.CONFIRMED
            match.judge_reason = "penalty"
        match.save()
    penalty.match = match
    penalty.applied = True
    penalty.save(update_fields=["match", "applied"])
    if match.status == TableSet.CONFIRMED:
        announce_result(match, staff)


def _apply_online(match: TableSet, kind: str, opponent_is_a: bool, need: int):
    """Online: a game loss is a judge's decision of the running game for the opponent
    (its result arrives as any game's does); a match loss confirms the set at once and
    ends the running game the same way."""
    if kind == Penalty.MATCH_LOSS:
        match.games_a, match.games_b = (need, 0) if opponent_is_a else (0, need)
        match.status = TableSet.CONFIRMED
        match.judge_reason = "penalty"
        match.save()
    og = online.current_game(match)
    if og is None or og.winner_id is not None:
        return
    game = og.game
    if game.status in ("active", "needs_judge"):
        try:
            judge_decide(game, 0 if opponent_is_a else 1, "penalty")
        except MatchError as exc:
            raise Conflict(GAME_REFUSED, detail=exc.detail) from exc


def apply_pending(match: TableSet, staff):
    """A match just published (a Swiss round) or created (a playoff set): apply the game
    and match losses its players were given while they had no match (MTR: the next one)."""
    if match.is_bye or match.status == TableSet.CONFIRMED:
        return
    pending = Penalty.objects.filter(
        registration_id__in=[match.player_a_id, match.player_b_id],
        kind__in=RESULT_KINDS,
        applied=False,
    ).select_related("registration", "tournament")
    for penalty in pending.order_by("id"):
        match.refresh_from_db()
        if match.status == TableSet.CONFIRMED:
            return  # decided by an earlier penalty: the rest waits for the next match
        if match.tournament.online and online.current_game(match) is None:
            return  # the set's first game starts after the play/draw choice
        _apply(penalty, match, staff)
        _log_applied(penalty, staff)


def apply_pending_to(t: Tournament, matches, staff):
    """`apply_pending` for each of `matches` (a round just published, playoff sets just
    created), after one query when the event has no pending loss at all."""
    if not t.penalties.filter(applied=False, kind__in=RESULT_KINDS).exists():
        return
    for match in matches:
        apply_pending(match, staff)


def _log_applied(penalty: Penalty, staff):
    data = {
        "player": penalty.registration.name,
        "penalty": penalty.kind,
        "infraction": penalty.infraction,
        **_where(penalty.match),
    }
    log(penalty.tournament, staff, "penalty_applied", match=penalty.match, **data)


def penalty_games(match: TableSet) -> tuple[int, int]:
    """Games of `match` already given by game-loss penalties: (to player a, to player b)."""
    given = list(
        Penalty.objects.filter(match=match, kind=Penalty.GAME_LOSS, applied=True).values_list(
            "registration_id", flat=True
        )
    )
    return given.count(match.player_b_id), given.count(match.player_a_id)
