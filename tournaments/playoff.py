"""The playoff (R 18.3, R 18.6, R 18.7): seeding it from the final Swiss standings, the
higher seed's play-or-draw choice, the final and third-place sets as the semi-finals end,
the end of the event, and the prizes.

A playoff set's confirmed result advances the playoff (`advance_after_result`, connected
to `signals.result_confirmed` in apps.py)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardgame.hungarian import articles
from cards_data.models import Card
from decks.services import add_to_collection

from . import online, penalties
from .models import Prize, Registration, TableSet, Tournament
from .problems import Conflict, NotAllowed
from .ranking import by_seed, cut_order, placings, playoff_size
from .rules import locked, log, require_staff
from .selectors import swiss_finished


@transaction.atomic
def start_playoff(t: Tournament, staff) -> list[TableSet]:
    """The playoff from the final Swiss standings (R 18.3.1): 1 v 4 and 2 v 3 in
    best-of-three sets; with two or three active players, a final of the top two (the
    third keeps 3rd place). Returns the first sets."""
    t = locked(t)
    require_staff(staff, t)
    if t.status == Tournament.PLAYOFF:
        first = "semi" if t.matches.filter(stage="semi").exists() else "final"
        return list(t.matches.filter(stage=first))
    if t.status != Tournament.RUNNING or not swiss_finished(t):
        raise Conflict("PLAYOFF_AFTER_SWISS")
    order = cut_order(t)
    size = playoff_size(len(order))
    if not size:
        raise Conflict("TOO_FEW_FOR_PLAYOFF")
    seeded = [row.id for row in order[: min(len(order), 4)]]
    for seed, reg_id in enumerate(seeded, 1):
        Registration.objects.filter(pk=reg_id).update(playoff_seed=seed)
    top = seeded[:size]
    if size == 4:
        pairs = [("semi", 1, top[0], top[3]), ("semi", 2, top[1], top[2])]
    else:
        pairs = [("final", 1, top[0], top[1])]
    sets = [
        TableSet.objects.create(
            tournament=t, stage=stage, table=table, player_a_id=a, player_b_id=b
        )
        for stage, table, a, b in pairs
    ]
    t.status = Tournament.PLAYOFF
    t.save(update_fields=["status"])
    names = dict(t.registrations.values_list("pk", "player__username"))
    log(t, staff, "start_playoff", size=size, seeds=[names[pk] for pk in seeded])
    for playoff_set in sets:
        online.start_playoff_match(playoff_set)
    penalties.apply_pending_to(t, sets, staff)
    return sets


@transaction.atomic
def finish_swiss(t: Tournament, staff) -> Tournament:
    """End the event after the Swiss rounds, without a playoff (the organiser's choice,
    or fewer than four active players): the placings are the final standings."""
    t = locked(t)
    require_staff(staff, t)
    if t.status != Tournament.RUNNING or not swiss_finished(t):
        raise Conflict("FINISH_AFTER_SWISS")
    t.status = Tournament.FINISHED
    t.save(update_fields=["status"])
    log(t, staff, "finish_swiss", placings=[reg.name for reg in placings(t)])
    return t


def _set_playoff_match(t: Tournament, stage: str, table: int, pair: list[Registration]):
    """Create the set, or give an unplayed one the players the semi-finals now say."""
    existing = t.matches.filter(stage=stage).first()
    if existing is None:
        created = TableSet.objects.create(
            tournament=t, stage=stage, table=table, player_a=pair[0], player_b=pair[1]
        )
        online.start_playoff_match(created)
        penalties.apply_pending_to(t, [created], t.organiser)
        return
    if (existing.player_a_id, existing.player_b_id) == (pair[0].pk, pair[1].pk):
        return
    if existing.status != TableSet.PENDING or existing.online_games.exists():
        return  # played already: _require_correctable refused the change before this
    existing.player_a, existing.player_b = pair
    existing.first_player = None
    existing.save()


def advance_playoff(t: Tournament):
    """Semi-finals done: final and third-place match (R 18.3.2-3), derived again after a
    correction while unplayed; every set done: finished.

    The tournament row is locked so that two semi-finals finishing at once in two
    workers create exactly one final."""
    t = locked(t)
    semis = list(t.matches.filter(stage="semi").select_related("player_a", "player_b"))
    if semis:
        if len(semis) != 2 or any(m.status != TableSet.CONFIRMED for m in semis):
            return
        winners = by_seed([m.winner for m in semis])
        losers = by_seed([m.player_b if m.winner == m.player_a else m.player_a for m in semis])
        _set_playoff_match(t, "final", 1, winners)
        if t.play_third_place:
            _set_playoff_match(t, "third", 2, losers)
    sets = t.matches.filter(stage__in=["final", "third"])
    if t.status == Tournament.PLAYOFF and not sets.exclude(status=TableSet.CONFIRMED).exists():
        if sets.exists():
            t.status = Tournament.FINISHED
            t.save(update_fields=["status"])


@transaction.atomic
def choose_first(match: TableSet, user, choice: str) -> TableSet:
    """The higher seed chooses to play or draw first in game 1 (R 18.7)."""
    match = TableSet.objects.select_for_update().get(pk=match.pk)
    if match.stage == "swiss":
        raise Conflict("CHOICE_PLAYOFF_ONLY")
    higher = by_seed([match.player_a, match.player_b])[0]
    if higher.player_id != user.id:
        raise NotAllowed("NOT_HIGHER_SEED")
    if choice not in ("play", "draw"):
        raise ValidationError({"choice": [_("Choose play or draw.")]})
    if match.status != TableSet.PENDING or match.first_player_id:
        raise Conflict("CHOICE_MADE")
    lower = match.player_b if higher == match.player_a else match.player_a
    match.first_player = higher if choice == "play" else lower
    match.save()
    online.start_playoff_match(match)  # online events: game 1 starts now
    penalties.apply_pending_to(match.tournament, [match], match.tournament.organiser)
    return match


@transaction.atomic
def award_prizes(t: Tournament, staff, cards_by_place: dict) -> list[Prize]:
    """Ultra-rare cards to the top three (R 8.1.2, R 18.6), added to their collections."""
    t = locked(t)
    require_staff(staff, t)
    if t.status != Tournament.FINISHED:
        raise Conflict("PRIZES_WHEN_FINISHED")
    if t.prizes.filter(awarded_to__isnull=False).exists():
        raise Conflict("PRIZES_AWARDED")
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


def advance_after_result(sender, match: TableSet, **kwargs):
    """`signals.result_confirmed` receiver: a playoff set's result advances the playoff."""
    if match.stage != "swiss":
        advance_playoff(match.tournament)
