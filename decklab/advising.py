"""Writes of deck advice (issue 39): start a run (within the account's daily budget),
play it (the task's body: propose, race, re-measure), cancel it, apply its recommendation
as a new version of the deck. The games and the racing rule are decklab.advice and
decklab.racing (pure); this module stores what they find."""

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from cardgame.params import BadNumber, whole_number
from cards_data import definitions
from decks import play
from decks.services import save_deck
from engine.deck import RULESETS as DECK_RULES

from . import advice_queue, metagame
from .advice_selectors import count
from .models import AdviceRun
from .services import LabRefused, check_deck, version_number

logger = logging.getLogger(__name__)

DEFAULT_BUDGET = 6000  # games of one run, all included: the deck's, the candidates', fresh
MIN_BUDGET = 3000
MAX_BUDGET = 20000
GAMES_PER_DAY = 40000  # per account, over the last 24 hours (settings.DECKLAB_ADVICE_GAMES_PER_DAY)
SOURCES = (AdviceRun.CATALOGUE, AdviceRun.COLLECTION)
# An active run saves its progress every few games (seconds apart, minutes on a saturated
# machine): one that saved nothing for this long has lost its worker (services.stalled_after).
STALL_SECONDS = 600


def games_per_day() -> int:
    return getattr(settings, "DECKLAB_ADVICE_GAMES_PER_DAY", GAMES_PER_DAY)


def games_used_today(user) -> int:
    """Games the account's runs of the last 24 hours took: a finished or stopped run its
    games played, an active one its whole budget (reserved when it started)."""
    since = timezone.now() - timedelta(days=1)
    runs = AdviceRun.objects.filter(owner=user, created__gte=since)
    active = runs.filter(status__in=[AdviceRun.QUEUED, AdviceRun.RUNNING])
    reserved = active.aggregate(n=Sum("budget"))["n"] or 0
    played = runs.exclude(pk__in=active).aggregate(n=Sum("games_played"))["n"] or 0
    return reserved + played


def budget_from(value) -> int:
    """A run's games asked for, all included (absent: the default), from a form or the API;
    ValueError with a sentence otherwise."""
    if value is None or value == "":
        return DEFAULT_BUDGET
    if isinstance(value, float) and value.is_integer():  # JSON's 6000.0
        value = int(value)
    try:
        return whole_number(value, "budget", low=MIN_BUDGET, high=MAX_BUDGET)
    except BadNumber:
        raise ValueError(
            _("The number of games must be a whole number between %(low)s and %(high)s.")
            % {"low": count(MIN_BUDGET), "high": count(MAX_BUDGET)}
        ) from None


def _check_budget(user, budget: int) -> None:
    left = games_per_day() - games_used_today(user)
    if budget > left:
        raise LabRefused(
            _(
                "Deck advice may play %(limit)s games a day per account and %(left)s are "
                "left today: ask for fewer games, or come back tomorrow."
            )
            % {"limit": count(games_per_day()), "left": count(max(0, left))},
            status=429,
            code="advice_budget",
        )


def _release_stalled(user) -> None:
    """Mark the owner's active runs that saved no progress for STALL_SECONDS failed: a
    worker killed mid-run takes the run with it (its task is acknowledged on receipt), and
    nothing else would ever let its owner ask again."""
    since = timezone.now() - timedelta(seconds=STALL_SECONDS)
    AdviceRun.objects.filter(
        owner=user, status__in=[AdviceRun.QUEUED, AdviceRun.RUNNING], progressed__lt=since
    ).update(
        status=AdviceRun.FAILED,
        finished=timezone.now(),
        error=_("The run stopped: no game finished for a long time (a worker was lost)."),
    )


def _check_no_active_advice(user) -> None:
    _release_stalled(user)
    if AdviceRun.objects.filter(
        owner=user, status__in=[AdviceRun.QUEUED, AdviceRun.RUNNING]
    ).exists():
        raise LabRefused(
            _("Deck advice is already working on one of your decks: wait or cancel it."),
            status=409,
            code="advice_in_progress",
        )


def start_advice(user, deck, *, source=AdviceRun.CATALOGUE, budget=DEFAULT_BUDGET) -> AdviceRun:
    if source not in SOURCES:
        raise ValueError(f"source must be one of {SOURCES}")
    if not MIN_BUDGET <= budget <= MAX_BUDGET:
        raise ValueError(f"budget must be between {MIN_BUDGET} and {MAX_BUDGET}")
    colony = play.frozen_entries(deck)
    check_deck(deck, colony)
    found = metagame.snapshot(definitions.card_dicts(), DECK_RULES[deck.ruleset])
    with transaction.atomic():
        _check_no_active_advice(user)
        _check_budget(user, budget)
        run = AdviceRun.objects.create(
            deck=deck,
            deck_version=version_number(deck),
            owner=user,
            ruleset=deck.ruleset,
            colony=colony,
            source=source,
            budget=budget,
            metagame=found,
        )
        transaction.on_commit(lambda: _queue(run.pk))
    return run


def _queue(run_id: int) -> None:
    """To the Celery workers; in the embedded default to the lab's background thread."""
    advice_queue.send("play_advice_run", [run_id])


def cancel(run: AdviceRun) -> bool:
    """Ask the run to stop (it does after the game in hand); True when it was active."""
    return bool(
        AdviceRun.objects.filter(
            pk=run.pk, status__in=[AdviceRun.QUEUED, AdviceRun.RUNNING]
        ).update(cancel_requested=True)
    )


# Applying -------------------------------------------------------------------------------


def apply(run: AdviceRun, user, comment: str) -> int:
    """The recommended deck as a new version of the deck, `comment` citing the evidence;
    returns the version's number. Only the owner, once, and only a gain that held up."""
    if run.owner_id != user.pk or run.deck.owner_id != user.pk:
        raise PermissionError("only the deck's owner may apply its advice")
    if run.status != AdviceRun.DONE or not (run.remeasured or {}).get("holds"):
        raise LabRefused(
            _("There is no recommendation that held up on fresh games to apply."),
            status=409,
            code="nothing_to_apply",
        )
    if run.applied_version:
        raise LabRefused(_("This advice is already applied."), status=409, code="applied")
    deck = run.deck
    with transaction.atomic():
        save_deck(
            user,
            deck=deck,
            name=deck.name,
            cards=run.remeasured["cards"],
            description=deck.description,
            ruleset=deck.ruleset,
            is_public=deck.is_public,
            comment=comment[:200],
        )
        run.applied_version = deck.latest_version.number
        run.save(update_fields=["applied_version"])
    return run.applied_version
