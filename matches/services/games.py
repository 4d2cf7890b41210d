"""Creating and starting games: a match between users or bots (R 10), a challenge to a user
or an open one, accepting, declining or cancelling it.
"""

import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.bots import BOTS
from engine.game import new_game
from social.selectors import blocked_between, blocked_ids

from .. import clocks
from ..colonies import check_colony, colony_defs, deck_colony, engine_ruleset
from ..errors import BadRequest, Conflict, Forbidden, Unprocessable
from ..models import Match, Seat
from ..signals import challenge_sent, table_opened
from . import commit


def create_match(
    *,
    players,
    colonies,
    ruleset="original",
    bots=(None, None),
    decks=(None, None),
    starting_player=None,
    seed=None,
    game_time_limit=None,
    casual=True,
    engine_options=None,
    time_control=None,
    rated=False,
) -> Match:
    """An `active` match between two to six users or bots, the engine game set up (R 10;
    three or more: a multiplayer table, R 17.1, casual only). `time_control`: a name of
    clocks.TIME_CONTROLS; by default untimed when at most one seat is a person (a game
    against bots), `standard` between people, `tournament` (R 18.4) when not casual.
    `rated` (issue 37, quick play's rated queue): people only, all opted in to ratings."""
    players, bots, decks = list(players), list(bots), list(decks)
    count = len(players)
    if not Match.MIN_SEATS <= count <= Match.MAX_SEATS or not (
        len(colonies) == len(bots) == len(decks) == count
    ):
        raise BadRequest("BAD_PLAYERS")
    if count > 2 and not casual:
        raise BadRequest("BAD_PLAYERS")
    for seat in range(count):
        if (players[seat] is None) == (not bots[seat]):
            raise BadRequest("BAD_PLAYERS")
        if bots[seat]:
            check_bot(bots[seat])
    if rated and any(bots):
        raise BadRequest("RATED_WITH_BOT")
    if rated:
        refuse_not_rated(players)
    engine_ruleset(ruleset, engine_options)  # refuse an unplayable ruleset before writing
    if not casual:
        time_control = clocks.TOURNAMENT  # R 18.4: the game's hour, never a named control
    elif time_control is None:
        people = sum(p is not None for p in players)
        time_control = clocks.BOT_DEFAULT if people <= 1 else clocks.PEOPLE_DEFAULT
    else:
        time_control = check_time_control(time_control)
    with transaction.atomic():
        match = Match.objects.create(
            status=Match.ACTIVE,
            ruleset=ruleset,
            engine_options=engine_options or {},
            seed=secrets.randbits(62) if seed is None else seed,
            starting_player=starting_player,
            casual=casual,
            rated=bool(rated),
            seat_count=count,
            game_time_limit=game_time_limit,
            time_control=time_control,
            decision_limit=clocks.decision_limit(casual, time_control),
            created_by=next((p for p in players if p is not None), None),
        )
        seats = [
            Seat.objects.create(
                match=match,
                seat=i,
                user=players[i],
                bot=bots[i] or "",
                deck=decks[i],
                colony=check_colony(colonies[i], i),
                time_bank=clocks.initial_bank(game_time_limit, time_control),
            )
            for i in range(count)
        ]
        start_game(match, seats)
    return match


def start_game(match: Match, seats: list[Seat]) -> None:
    """Set up the engine game (R 10, R 17.1) for a locked/new match whose seats all have
    colonies."""
    ruleset = engine_ruleset(match.ruleset, match.engine_options)
    names = tuple(s.display_name for s in seats)
    events = []
    try:
        state = new_game(
            [colony_defs(s.colony) for s in seats],
            match.seed,
            ruleset,
            names=names,
            starting_player=match.starting_player,
            events=events,
        )
    except ValueError as exc:  # the engine's own R 9 check of every colony
        raise Unprocessable("COLONY_NOT_LEGAL") from exc
    now = timezone.now()
    match.status = Match.ACTIVE
    match.started = now
    if match.game_time_limit:
        match.game_deadline = now + timezone.timedelta(seconds=match.game_time_limit)
    for seat in seats:
        seat.time_bank = clocks.initial_bank(match.game_time_limit, match.time_control)
    clocks.add_increment(match, seats, events)  # a turn that starts at once (none: mulligans)
    for seat in seats:
        seat.save(update_fields=["time_bank"])
    new_events = commit.append_events(match, events)
    commit.store_position(match, seats, state, now, snapshot=True)  # version 0: the first snapshot
    match.save()
    commit.after_commit(match, state, new_events, seats=seats)


def check_time_control(name) -> str:
    """A time control's name (clocks.TIME_CONTROLS), or BadRequest saying which exist."""
    if isinstance(name, str) and name in clocks.TIME_CONTROLS:
        return name
    words = {"name": repr(name) if isinstance(name, str) else _("(not a name)")}
    raise BadRequest(
        "UNKNOWN_TIME_CONTROL", words={**words, "known": ", ".join(clocks.TIME_CONTROLS)}
    )


def check_bot(bot) -> str:
    """A bot's name (engine.bots.BOTS), or UNKNOWN_BOT naming the bots there are."""
    if isinstance(bot, str) and bot in BOTS:
        return bot
    name = bot if isinstance(bot, str) else _("(not a name)")
    raise BadRequest("UNKNOWN_BOT", words={"bot": name, "known": ", ".join(sorted(BOTS))})


def challenge(
    user, deck, *, opponent=None, bot=None, ruleset="original", time_control=None, rated=False
) -> Match:
    """Invite `opponent`, post an open challenge (neither), or play `bot` at once. The time
    control (clocks.TIME_CONTROLS) defaults to untimed against a bot, standard otherwise.
    `rated` (issue 37): a game between people who all opted in to ratings, never a bot."""
    require_user(user)
    if time_control is not None:
        time_control = check_time_control(time_control)
    if opponent is not None and bot:
        raise BadRequest("BAD_CHALLENGE")
    if opponent is not None and opponent.pk == user.pk:
        raise Unprocessable("SELF_CHALLENGE")
    if opponent is not None and blocked_between(user.pk, opponent.pk):
        raise Forbidden("BLOCKED")  # issue 37: a blocked pair never meets, either way
    if rated and bot:
        raise BadRequest("RATED_WITH_BOT")
    if rated:
        refuse_not_rated([user, opponent])
    colony = own_deck_colony(user, deck, ruleset)
    if bot:
        return create_match(
            players=(user, None),
            colonies=(colony, bot_colony(colony)),
            ruleset=ruleset,
            bots=(None, bot),
            decks=(deck, None),
            time_control=time_control,
        )
    engine_ruleset(ruleset)
    time_control = time_control or clocks.PEOPLE_DEFAULT
    with transaction.atomic():
        match = Match.objects.create(
            status=Match.INVITED if opponent is not None else Match.OPEN,
            ruleset=ruleset,
            seed=secrets.randbits(62),
            created_by=user,
            time_control=time_control,
            decision_limit=clocks.decision_limit(True, time_control),
            rated=bool(rated),
        )
        Seat.objects.create(match=match, seat=0, user=user, deck=deck, colony=colony)
        Seat.objects.create(match=match, seat=1, user=opponent)
    announce_challenge(match, user, opponent)
    return match


def announce_challenge(match: Match, user, opponent) -> None:
    """After the commit: a named challenge to its person, an open one to whoever listens
    (issue 37: notifications; matches knows nothing of them)."""
    if opponent is not None:
        transaction.on_commit(
            lambda: challenge_sent.send(
                sender=Match, match=match, challenger=user, challenged=opponent
            )
        )
    else:
        transaction.on_commit(lambda: table_opened.send(sender=Match, match=match, owner=user))


def bot_colony(colony: list[str]) -> list[str]:
    """A bot plays a mirror of the challenger's colony (always legal for the same ruleset)."""
    return list(colony)


def accept(match: Match, user, deck) -> Match:
    require_user(user)
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        seats = list(match.seats.select_related("user").order_by("seat"))
        if match.status == Match.INVITED:
            if seats[1].user_id != user.pk:
                raise Forbidden("NOT_INVITED")
        elif match.status == Match.OPEN:
            if seats[0].user_id == user.pk:
                raise Unprocessable("SELF_CHALLENGE")
        else:
            raise Conflict("NOT_OPEN")
        if match.multiplayer:
            raise Conflict("A_TABLE")
        refuse_blocked(user, seats)
        if match.rated:
            refuse_not_rated([user])
        seats[1].colony = own_deck_colony(user, deck, match.ruleset)
        seats[1].user, seats[1].deck = user, deck
        seats[1].save()
        start_game(match, seats)
    return match


def decline(match: Match, user) -> Match:
    """The invited player says no; the challenger may withdraw (cancel) the same way."""
    require_user(user)
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.status not in (Match.INVITED, Match.OPEN):
            raise Conflict("NOT_OPEN")
        seat_users = set(match.seats.values_list("user_id", flat=True))
        if user.pk not in seat_users:
            raise Forbidden("NOT_A_PLAYER")
        if match.multiplayer and match.created_by_id != user.pk:
            raise Forbidden("NOT_THE_HOST")
        match.status = Match.ABORTED
        match.finished = timezone.now()
        match.save(update_fields=["status", "finished", "updated"])
    return match


cancel = decline


def refuse_blocked(user, seats) -> None:
    """Forbidden BLOCKED when `user` blocks, or is blocked by, a person seated already
    (issue 37: a blocked pair neither accepts each other's challenge nor shares a table)."""
    seated = {s.user_id for s in seats if s.user_id is not None and s.user_id != user.pk}
    if seated and seated & blocked_ids(user.pk):
        raise Forbidden("BLOCKED")


def refuse_not_rated(users) -> None:
    """Forbidden RATED_NOT_OPTED_IN unless every person of `users` (None: a seat still open)
    takes part in ratings (issue 37). Read through the reverse relation the ratings app
    declares (ratings.OptIn.user, related_name `rating_opt_in`), so matches imports nothing
    from the app above it; the ratings app checks again when it rates the game."""
    ids = {u.pk for u in users if u is not None}
    opted = get_user_model().objects.filter(pk__in=ids, rating_opt_in__isnull=False)
    if opted.count() != len(ids):
        raise Forbidden("RATED_NOT_OPTED_IN")


def own_deck_colony(user, deck, ruleset: str) -> list[str]:
    if deck is None:
        raise BadRequest("NO_DECK")
    if deck.owner_id != user.pk:
        raise Forbidden("NOT_YOUR_DECK")
    return deck_colony(deck, ruleset)


def require_user(user):
    if user is None or not user.is_authenticated:
        raise Forbidden("NOT_LOGGED_IN")
