"""Multiplayer tables (R 17.1): open, join, leave, start."""

import secrets

from django.db import transaction

from .. import clocks
from ..errors import BadRequest, Conflict, Forbidden, Unprocessable
from ..models import Match, Seat
from ..signals import table_opened
from . import games

TABLE_BOT = "heuristic"  # fills the empty seats when the host starts; stands in for leavers


def open_table(
    user, deck, *, seats: int, ruleset="original", time_control=None, rated=False
) -> Match:
    """An open table for `seats` (3-6) colonies: the host takes seat 0 with a legal deck,
    the others join (`join_table`), the host starts it (`start_table`), bots fill the rest.
    Its time control (default standard) is the people's; the host alone with bots when it
    starts plays untimed, as against a bot. A `rated` table (issue 37) seats only people
    who opted in to ratings and starts only when every seat is taken."""
    games.require_user(user)
    if rated:
        games.refuse_not_rated([user])
    time_control = games.check_time_control(time_control or clocks.PEOPLE_DEFAULT)
    if isinstance(seats, bool) or not isinstance(seats, int) or not 3 <= seats <= Match.MAX_SEATS:
        raise BadRequest("BAD_SEATS")
    colony = games.own_deck_colony(user, deck, ruleset)
    with transaction.atomic():
        match = Match.objects.create(
            status=Match.OPEN,
            ruleset=ruleset,
            seed=secrets.randbits(62),
            created_by=user,
            seat_count=seats,
            time_control=time_control,
            decision_limit=clocks.decision_limit(True, time_control),
            rated=bool(rated),
        )
        Seat.objects.create(match=match, seat=0, user=user, deck=deck, colony=colony)
        Seat.objects.bulk_create([Seat(match=match, seat=i) for i in range(1, seats)])
    transaction.on_commit(lambda: table_opened.send(sender=Match, match=match, owner=user))
    return match


def _open_table(match: Match) -> tuple[Match, list[Seat]]:
    """The table locked, with its seats; Conflict unless it is an open multiplayer table."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    if not match.multiplayer:
        raise Conflict("NOT_A_TABLE")
    if match.status != Match.OPEN:
        raise Conflict("NOT_OPEN")
    return match, list(match.seats.select_related("user").order_by("seat"))


def join_table(match: Match, user, deck) -> Match:
    """Take the first empty seat of an open table with one of your legal decks (R 9)."""
    games.require_user(user)
    with transaction.atomic():
        match, seats = _open_table(match)
        if any(s.user_id == user.pk for s in seats):
            raise Conflict("ALREADY_SEATED")
        games.refuse_blocked(user, seats)
        if match.rated:
            games.refuse_not_rated([user])
        free = next((s for s in seats if s.user_id is None and not s.bot), None)
        if free is None:
            raise Conflict("TABLE_FULL")
        free.colony = games.own_deck_colony(user, deck, match.ruleset)
        free.user, free.deck = user, deck
        free.save(update_fields=["user", "deck", "colony"])
    return match


def leave_table(match: Match, user) -> Match:
    """A guest leaves a table before it starts (the host cancels it instead)."""
    games.require_user(user)
    with transaction.atomic():
        match, seats = _open_table(match)
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise Forbidden("NOT_A_PLAYER")
        if mine.seat == 0:
            raise Unprocessable("HOST_LEAVES")
        mine.user, mine.deck, mine.colony = None, None, []
        mine.save(update_fields=["user", "deck", "colony"])
    return match


def start_table(match: Match, user, bot: str | None = None) -> Match:
    """The host starts the table: each empty seat gets a bot (`bot`, the heuristic one by
    default; the host chooses it when starting) playing a mirror of the host's colony (as a
    bot opponent does), and the game is set up (R 10, R 17.1.1)."""
    games.require_user(user)
    bot = bot or TABLE_BOT
    games.check_bot(bot)
    with transaction.atomic():
        match, seats = _open_table(match)
        if seats[0].user_id != user.pk:
            raise Forbidden("NOT_THE_HOST")
        if match.rated and any(s.user_id is None for s in seats):
            raise Conflict("RATED_TABLE_NOT_FULL")  # a bot seat is never rated
        for seat in seats:
            if seat.user_id is None and not seat.bot:
                seat.bot, seat.colony = bot, games.bot_colony(seats[0].colony)
                seat.save(update_fields=["bot", "colony"])
        if sum(s.user_id is not None for s in seats) == 1:  # the host alone with bots
            match.time_control = clocks.BOT_DEFAULT
            match.decision_limit = clocks.decision_limit(True, match.time_control)
        games.start_game(match, seats)
    return match
