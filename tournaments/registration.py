"""Entering an event (R 9.6, R 18.2): creating it, registering with a frozen decklist,
check-in, late entry, drops and re-activation, and the start that locks registration."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from decks import play
from decks.models import Deck

from .models import Registration, TableSet, Tournament
from .problems import Conflict, NotAllowed
from .rules import (
    TOURNAMENT_RULESET,
    DeckNotLegal,
    date_out_of_range,
    games_needed,
    is_staff,
    locked,
    log,
    plays_all_three,
    require_staff,
)
from .selectors import late_entry_closed_code, late_entry_open, open_match, rounds_paired
from .signals import announce_result


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


def frozen_decklist(deck: Deck) -> tuple[list[list], int | None]:
    """The deck's latest version as [[code, count], ...] (a copy, R 9.6)."""
    version = deck.latest_version
    if version is None:
        return [], None
    return [list(e) for e in version.cards], version.number


def _check_deck(player, deck: Deck) -> list[list]:
    if deck.owner_id != player.id:
        raise NotAllowed("NOT_YOUR_DECK")
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
    t = locked(t)
    if t.status != Tournament.REGISTRATION:
        raise Conflict("REGISTRATION_CLOSED")
    if _deadline_passed(t):
        raise Conflict("DECKLIST_DEADLINE_PASSED")
    cards = _check_deck(player, deck)
    version = deck.latest_version
    if Registration.objects.filter(tournament=t, player=player, disqualified=True).exists():
        raise Conflict("DISQUALIFIED")
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
    t = locked(reg.tournament)
    if reg.player_id != user.id and not is_staff(user, t):
        raise NotAllowed("NOT_YOUR_REGISTRATION")
    if t.status != Tournament.REGISTRATION:
        raise Conflict("STARTED_DROP_INSTEAD")
    reg.delete()


@transaction.atomic
def check_in(reg: Registration, user) -> Registration:
    """The player checks in, or staff check them in at the door (audit-logged).

    Serialised with `start` on the tournament's row (issue 35): the status is read again
    under the lock, so a check-in either happens before the start and counts, or comes
    after it and is refused (409); it is never answered "checked in" for a player the
    start has just dropped as a no-show. The caller's `reg` may be stale: it is re-read."""
    t = locked(reg.tournament)
    staff = is_staff(user, t)
    if reg.player_id != user.id and not staff:
        raise NotAllowed("CHECK_IN_ONLY_YOURSELF")
    if t.status != Tournament.REGISTRATION:
        if reg.player_id != user.id:
            raise Conflict("CHECK_IN_CLOSED")
        raise Conflict("CHECK_IN_CLOSED_WITHOUT_YOU")
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
    t = locked(t)
    require_staff(staff, t)
    if t.status != Tournament.REGISTRATION:
        raise Conflict("CHECK_IN_CLOSED")
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


@transaction.atomic
def late_entry(t: Tournament, staff, player, deck: Deck) -> Registration:
    """Staff add a player after the start: rounds already paired count as losses.

    Only while a Swiss round is still to be paired (`late_entry_open`): after the last
    one a late entrant would play nothing and, at 0 points, could still be seeded into
    the playoff (issue 35)."""
    t = locked(t)
    require_staff(staff, t)
    if not late_entry_open(t):
        raise Conflict(late_entry_closed_code(t))
    cards = _check_deck(player, deck)
    if Registration.objects.filter(tournament=t, player=player).exists():
        raise Conflict("ALREADY_REGISTERED")
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
    t = locked(reg.tournament)
    reg = Registration.objects.select_for_update().get(pk=reg.pk)
    staff = is_staff(user, t)
    if reg.player_id != user.id and not staff:
        raise NotAllowed("DROP_ONLY_YOURSELF")
    if t.status == Tournament.FINISHED:
        raise Conflict("EVENT_OVER_NO_DROP")
    if reg.dropped:
        return reg
    reg.dropped = True
    reg.dropped_after_round = rounds_paired(t)
    reg.save(update_fields=["dropped", "dropped_after_round", "updated"])
    if staff and reg.player_id != user.id:
        log(t, user, "drop", player=reg.name)
    conceded = _concede_open_match(t, reg, user)
    if conceded is not None:
        announce_result(conceded)
    return reg


def _concede_open_match(t: Tournament, reg: Registration, actor) -> TableSet | None:
    if t.online:
        return None
    match = open_match(t, reg)
    if match is None:
        return None
    need = 3 if plays_all_three(match) else games_needed(match)
    loser_is_a = match.player_a_id == reg.pk
    match.games_a, match.games_b = (0, need) if loser_is_a else (need, 0)
    match.status = TableSet.CONFIRMED
    match.judge_reason = "drop"
    match.save()
    log(t, actor, "drop_concession", match=match, player=reg.name, table=match.table)
    return match


@transaction.atomic
def reactivate(reg: Registration, staff) -> Registration:
    """Staff bring a dropped player back: only during the Swiss rounds (in the playoff a
    dropped player stays out). The rounds missed while dropped are losses, as for a late
    entrant (R 18.7 standings, `late_entry_losses`; current_standings)."""
    t = locked(reg.tournament)
    require_staff(staff, t)
    if t.status in (Tournament.PLAYOFF, Tournament.FINISHED):
        raise Conflict("REACTIVATE_BEFORE_PLAYOFF")
    reg = Registration.objects.select_for_update().get(pk=reg.pk)
    if reg.disqualified:
        raise Conflict("REACTIVATE_DISQUALIFIED", name=reg.name)
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
    t = locked(t)
    require_staff(staff, t)
    if t.status != Tournament.REGISTRATION:
        raise Conflict("ALREADY_STARTED")
    no_show = list(
        t.registrations.filter(checked_in=False).values_list("player__username", flat=True)
    )
    t.registrations.filter(checked_in=False).update(dropped=True, dropped_after_round=0)
    if t.registrations.filter(dropped=False).count() < 2:
        raise Conflict("TOO_FEW_TO_START")
    t.status = Tournament.RUNNING
    t.started_at = timezone.now()
    # The number of rounds is fixed at the start (R 18.7), so later drops do not change it.
    t.swiss_rounds = t.planned_rounds()
    t.save(update_fields=["status", "started_at", "swiss_rounds"])
    log(t, staff, "start", no_show=no_show, players=t.registrations.filter(dropped=False).count())
    return t
