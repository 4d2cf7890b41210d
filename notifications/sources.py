"""From what happened (the signals of matches and tournaments, the decklist sweep) to whom
it is told: each function here names the people, the kind, the link and the sentence's
context, and calls `services.notify` once per person."""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from matches.models import Match
from social.selectors import followers_of
from tournaments.models import Registration, Round, TableSet, Tournament

from .kinds import (
    CHALLENGE,
    DECKLIST_DEADLINE,
    FRIEND_TABLE,
    RESULT_TO_CONFIRM,
    ROUND_PUBLISHED,
    YOUR_TURN,
)
from .models import Notification
from .services import notify

DECKLIST_WARNING = timedelta(hours=24)


def challenge_sent(match: Match, challenger, challenged) -> None:
    notify(
        challenged,
        CHALLENGE,
        actor=challenger,
        url=reverse("matches:lobby"),
        challenger=challenger.get_username(),
        match_id=match.pk,
    )


def table_opened(match_id: int, owner_id: int) -> None:
    """Everyone who follows the owner (less those either of them blocked: `notify`)."""
    match = Match.objects.get(pk=match_id)
    owner = get_user_model().objects.get(pk=owner_id)
    followers = get_user_model().objects.filter(pk__in=followers_of(owner.pk), is_active=True)
    for follower in followers:
        notify(
            follower,
            FRIEND_TABLE,
            actor=owner,
            url=reverse("matches:lobby"),
            owner=owner.get_username(),
            seats=match.seat_count,
            match_id=match.pk,
        )


def turn_waiting(match: Match, user, deadline) -> None:
    """A game over days waits for `user` (the game itself acts: no actor to block)."""
    others = [s for s in match.seats.select_related("user") if s.user_id != user.pk]
    notify(
        user,
        YOUR_TURN,
        url=reverse("matches:game", args=[match.pk]),
        people=[s.user.get_username() for s in others if s.user_id and not s.bot],
        bots=[s.bot for s in others if s.bot],
        deadline=deadline.isoformat() if deadline else None,
        match_id=match.pk,
    )


def round_published(round_id: int) -> None:
    """Each player of the round: their table and opponent (or their bye). Once per round
    and person (`key`), however often the task runs."""
    rnd = Round.objects.select_related("tournament").get(pk=round_id)
    url = reverse("tournaments:pairings", args=[rnd.tournament_id, rnd.number])
    tables = TableSet.objects.filter(round=rnd).select_related(
        "player_a__player", "player_b__player"
    )
    for table in tables:
        pairs = [(table.player_a, table.player_b), (table.player_b, table.player_a)]
        for me, other in pairs:
            if me is None:
                continue
            notify(
                me.player,
                ROUND_PUBLISHED,
                url=url,
                key=f"round:{rnd.pk}",
                tournament=rnd.tournament.name,
                round=rnd.number,
                table=table.table,
                opponent=other.name if other is not None else "",
            )


def result_to_confirm(match: TableSet, reporter) -> None:
    """The reporter's opponent must confirm (R 18.5): told with the score as reported."""
    match = TableSet.objects.select_related(
        "tournament", "player_a__player", "player_b__player"
    ).get(pk=match.pk)
    if match.player_b is None:
        return
    reporter_is_a = match.player_a.player_id == reporter.pk
    other = match.player_b if reporter_is_a else match.player_a
    theirs, yours = (
        (match.games_a, match.games_b) if reporter_is_a else (match.games_b, match.games_a)
    )
    notify(
        other.player,
        RESULT_TO_CONFIRM,
        actor=reporter,
        url=reverse("tournaments:detail", args=[match.tournament_id]),
        tournament=match.tournament.name,
        reporter=reporter.get_username(),
        theirs=theirs,
        yours=yours,
        match_id=match.pk,
    )


def decklist_deadlines(now=None) -> int:
    """Warn every registered player (not dropped) of an event whose decklist deadline is
    within the next 24 h, once per event and person (`key`); how many were warned.

    Registration here freezes a decklist (tournaments/registration.py), so nobody is
    registered without one: the warning tells which deck is registered and that it can
    still be changed until the deadline."""
    now = now or timezone.now()
    events = Tournament.objects.filter(
        status=Tournament.REGISTRATION,
        decklist_deadline__gt=now,
        decklist_deadline__lte=now + DECKLIST_WARNING,
    )
    warned = 0
    for event in events:
        key = f"decklist:{event.pk}"
        told = Notification.objects.filter(key=key).values("user_id")
        entries = (
            Registration.objects.filter(tournament=event, dropped=False)
            .exclude(player_id__in=told)
            .select_related("player")
        )
        for entry in entries:
            sent = notify(
                entry.player,
                DECKLIST_DEADLINE,
                url=reverse("tournaments:detail", args=[event.pk]),
                key=key,
                tournament=event.name,
                deadline=event.decklist_deadline.isoformat(),
                deck=entry.deck_name,
            )
            warned += sent is not None
    return warned
