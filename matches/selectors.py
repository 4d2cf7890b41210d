"""Reads of the matches app. Game state leaves the server ONLY through engine.view:
`view(state, viewer)` and `view_events(events, viewer)`; the viewer is decided here from the
logged-in user's seat, never from anything the client claims.
"""

from collections import Counter

from django.db.models import Exists, F, OuterRef, Q, Subquery

from cardgame.params import record_id
from engine import values as V
from engine.assist import suggestion
from engine.flow import Event
from engine.game import apply, legal_actions, pending
from engine.serialize import load
from engine.view import view, view_event

from . import clocks
from .assist import AUTO_PREFIX, assisting, taken_note
from .errors import Conflict, NotFound
from .messages import rejection
from .models import ActionRequest, Match, MatchEvent, Seat
from .positions import current_state, initial_state
from .presentation import action_label


def get_match(match_id, *, with_state=True, seat_of=None) -> Match:
    """The match, or NotFound. with_state=False leaves out the engine state's snapshot
    (~21 kB), which a request that only stores an action never reads. `seat_of`: a user
    whose seat `viewer_seat` will ask for, read with the match in the same query (a move's
    POST and a socket's connect each saved a round trip and a query of their own)."""
    matches = Match.objects.all() if with_state else Match.objects.defer("snapshot")
    known = seat_of is not None and seat_of.is_authenticated
    if known:
        seats = Seat.objects.filter(match=OuterRef("pk"), user=seat_of.pk).order_by("seat")
        matches = matches.annotate(known_seat=Subquery(seats.values("seat")[:1]))
    try:
        match = matches.get(pk=record_id(match_id, "match"))  # BadNumber: a ValueError
    except (Match.DoesNotExist, TypeError, ValueError):
        raise NotFound("NO_SUCH_MATCH", words={"match": match_id}) from None
    if known:
        match.known_seats = {seat_of.pk: match.known_seat}
    return match


def viewer_seat(match: Match, user) -> int | None:
    """The user's seat, or None for a spectator (anonymous users are spectators)."""
    if user is None or not user.is_authenticated:
        return None
    known = getattr(match, "known_seats", None)
    if known is not None and user.pk in known:
        return known[user.pk]
    for seat, user_id in match.seats.order_by("seat").values_list("seat", "user_id"):
        if user_id == user.pk:
            return seat
    return None


def my_matches(user):
    """The user's own matches and everybody's open challenges, newest first."""
    mine = Q(seats__user=user) if user.is_authenticated else Q(pk__in=[])
    return (
        Match.objects.filter(mine | Q(status=Match.OPEN))
        .distinct()
        .prefetch_related("seats__user")
        .order_by("-created")[:100]
    )


def awaiting_me(user, limit=50):
    """The person's active games (over days and others) whose awaited decision is theirs,
    the soonest deadline first (issue 37: the lobby's "Your move"). A seat a bot plays on
    for them (they left the table) is not theirs to move."""
    if not user.is_authenticated:
        return Match.objects.none()
    return (
        Match.objects.filter(
            status=Match.ACTIVE,
            seats__user=user,
            seats__seat=F("deciding_seat"),
            seats__stand_in="",
        )
        .prefetch_related("seats__user")
        .order_by(F("decision_deadline").asc(nulls_last=True), "-updated")[:limit]
    )


def list_item(match: Match, user) -> dict:
    seats = list(match.seats.all())
    return {
        "id": match.pk,
        "status": match.status,
        "ruleset": match.ruleset,
        "you": next(
            (s.seat for s in seats if user.is_authenticated and s.user_id == user.pk), None
        ),
        "players": players_of(seats),
        "seat_count": match.seat_count,
        "result": _result(match),
        "created": match.created.isoformat(),
        "time_control": match.time_control,
        "clock": clocks.describe(match),  # "standard (10 min + 15 s a turn)", in words
    }


def players_of(seats) -> list[dict]:
    """The seats as the pages show them, in seat order. Bots of one kind at one table get
    a number ("bot_number", 1, 2... in seat order): at a table of three, two heuristic bots
    could not be told apart in the log, the strips or the attack buttons (issue 34)."""
    players = sorted((_player(s) for s in seats), key=lambda p: p["seat"])
    kinds = Counter(p["bot"] for p in players if p["bot"])
    counted: Counter = Counter()
    for p in players:
        if p["bot"] and kinds[p["bot"]] > 1:
            counted[p["bot"]] += 1
            p["bot_number"] = counted[p["bot"]]
    return players


def list_item_player(seat) -> dict:
    """A seat as the pages show it: {seat, name, bot}."""
    return _player(seat)


def _player(seat) -> dict:
    name = seat.display_name if (seat.user_id or seat.bot) else None
    return {
        "seat": seat.seat,
        "name": name,
        "bot": seat.bot or None,
        # a bot plays on for a player who left a multiplayer table (services._stand_in)
        "stand_in": bool(seat.stand_in),
    }


def _result(match: Match):
    if match.status == Match.FINISHED:
        result = {
            "winner_seat": match.winner_seat,
            "reason": match.result,
            "detail": match.result_reason,
        }
        if match.multiplayer:  # every seat, best first (R 17.1.6); two players: the winner
            result["ranking"] = list(match.ranking)
        return result
    if match.status == Match.NEEDS_JUDGE:
        return {"winner_seat": None, "reason": "needs_judge", "detail": match.result_reason}
    return None


def match_payload(match: Match, viewer: int | None, state=None, seats=None) -> dict:
    """GET /api/matches/<id>/ for this viewer (a seat or None = spectator)."""
    if seats is None:
        seats = list(match.seats.select_related("user").order_by("seat"))
    if state is None:
        state = current_state(match)  # None before the game starts
    seen = None
    legal = []
    suggested = []
    if state is not None:
        seen = view(state, viewer)
        seen.pop("actions", None)  # legal_actions below is the one list
        if match.status != Match.ACTIVE:
            seen["pending"] = None
        elif viewer is not None and viewer == match.deciding_seat:
            names = _names(seen)  # once per payload, not once per action
            decision = seen["pending"]["decision"] if seen["pending"] else None
            legal = [
                labelled(a.to_dict(), names, decision, cost_now(state, viewer, a))
                for a in legal_actions(state)
            ]
            if assisting():  # the heuristic bot's answer for this seat (engine.assist)
                suggested = [a.id for a in suggestion(state, match.version)]
    untimed = clocks.is_untimed(match)
    return {
        "id": match.pk,
        "status": match.status,
        "ruleset": match.ruleset,
        "version": match.version,
        "seq": match.seq,
        "you": viewer,
        "players": players_of(seats),
        "seat_count": match.seat_count,
        "clocks": {
            # null in an untimed game: that player's clock never runs (matches/clocks.py)
            # as stored when the decision started (the same for a socket's push and a GET, and
            # cacheable per version); the page counts the decider's down from
            # decision_started, so a page opened hours later shows what is really left
            "bank": [None if untimed else round(s.time_bank, 1) for s in seats],
            "decision_started": _iso(match.decision_started),
            "time_control": match.time_control,
            "timed": not untimed,
            "increment": clocks.increment(match.time_control),
            "decision_deadline": _iso(match.decision_deadline),
            "deciding_seat": match.deciding_seat,
            "decision_limit": match.decision_limit,
            "game_deadline": _iso(match.game_deadline),
        },
        "pending": seen["pending"] if seen else None,
        "legal_actions": legal,
        # a combat decision: the suggested answer, [first action id, the same seat's next
        # picks of this decision...]; one click sends them in turn (static/matches/game.js)
        "suggestion": suggested,
        "view": seen,
        "result": _result(match),
    }


def _iso(moment):
    return moment.isoformat() if moment else None


def cost_now(state, seat: int, action) -> int | None:
    """What a play (M4) or pay (M5) takes now: the card's credit cost with every cost
    modifier in force (R 19.6, engine.values.card_cost); None for other actions and for a
    cost that depends on a target chosen later (R 21.3)."""
    if action.kind not in ("play", "pay"):
        return None
    card = state.cards.get(action.get("card"))
    if card is None or not isinstance(state.defs[card.code]["credit_cost"], int):
        return None
    return V.card_cost(state, seat, card)


def labelled(action: dict, names: dict, decision: str | None = None, cost=None) -> dict:
    """{id, kind, label_en, label_hu, params[, cost]}: the action in words
    (matches.presentation), its cards named and placed as this viewer's view shows them
    (`names` = _names(view)); `cost`: what a play or pay takes now (cost_now), in the
    labels too, so the page shows it and computes nothing."""
    params = {k: v for k, v in action.items() if k not in ("id", "kind")}
    out = {
        "id": action["id"],
        "kind": action["kind"],
        "label_en": action_label(action, decision, names, "en", cost),
        "label_hu": action_label(action, decision, names, "hu", cost),
        "params": params,
    }
    if cost is not None:
        out["cost"] = cost
    return out


_BRANCHES = (dict, list)


def _names(seen: dict) -> dict:
    """card id -> {name, name_en, zone} for every card this viewer's view shows face up."""
    found = {}
    # Depth first in the view's own order (a card met twice keeps what its last place says),
    # on a list instead of the call stack: a push walks ~100 nodes for the deciding seat,
    # and a call per node was most of this function's time.
    stack = [seen]
    while stack:
        node = stack.pop()
        if type(node) is dict:
            ident = node.get("id")
            if type(ident) is int and "name" in node:
                found[ident] = {
                    "name": node["name"],
                    "name_en": node.get("name_en"),
                    "zone": node.get("zone"),
                }
            stack.extend([v for v in reversed(node.values()) if type(v) in _BRANCHES])
        else:
            stack.extend([v for v in reversed(node) if type(v) in _BRANCHES])
    # the seats' names: a table's actions name a player (an attack's target, R 17.1.2;
    # "the opponent" chosen, R 17.1.3)
    found["players"] = [p["name"] for p in seen.get("players", [])]
    return found


def events_after(match: Match, viewer: int | None, after: int) -> list[dict]:
    rows = MatchEvent.objects.filter(match=match, seq__gt=after).order_by("seq")
    return [project_event(row.seq, row.version, Event.from_dict(row.data), viewer) for row in rows]


def project_event(seq, version, event: Event, viewer) -> dict:
    return {"seq": seq, "version": version, **view_event(event, viewer)}


def request_status(match: Match, request_id, seat: int) -> dict:
    """One of the viewer's OWN requests. Another seat's (a person's, a bot's, the clock's)
    is "not found" like a missing one: its message and action id would say what that
    player tried, which their opponent must not learn (R 16)."""
    try:
        request_pk = record_id(request_id, "request")  # BadNumber: a ValueError
        request = ActionRequest.objects.get(match=match, seat=seat, pk=request_pk)
    except (ActionRequest.DoesNotExist, TypeError, ValueError):
        raise NotFound("NO_SUCH_REQUEST", words={"request": request_id}) from None
    return request_payload(request)


def client_request(match: Match, user, client_action_id) -> ActionRequest | None:
    """The user's own stored request with this client id, if any."""
    seat = viewer_seat(match, user)
    if seat is None or not isinstance(client_action_id, str):
        return None
    return ActionRequest.objects.filter(
        match=match, seat=seat, origin=ActionRequest.CLIENT, client_action_id=client_action_id
    ).first()


def request_payload(request: ActionRequest) -> dict:
    return {
        "id": request.pk,
        "client_action_id": request.client_action_id,
        "status": request.status,
        "code": request.code,
        "message": rejection(request.code, request.message) if request.code else request.message,
        "applied_version": request.applied_version,
    }


def applied_actions(match: Match, explanations=False) -> list[tuple]:
    """(seat, action id) of every applied request, in the order the engine applied them;
    with `explanations`, (seat, action id, the search bot's stored explanation or None)."""
    fields = ("seat", "action", "explanation") if explanations else ("seat", "action")
    return list(
        match.requests.filter(status=ActionRequest.APPLIED)
        .order_by("applied_version")
        .values_list(*fields)
    )


def sees_explanations(match: Match, user) -> bool:
    """Whether `user` may read the search bots' explanations of this match (docs/rulings.md
    "The search bot's explanations"): only once the game is over, and only a player of it
    (a person who held a seat); never a spectator, never while the game runs (the bot's
    options name cards from its hand and its estimates come from its view of the game)."""
    return match.status == Match.FINISHED and viewer_seat(match, user) is not None


def explained(state, seat: int, stored: list) -> list[dict]:
    """The stored explanation of a decision of `seat` in `state` (before its move), in words:
    [{action, label_en, label_hu, playouts, win_rate (per cent or None), chosen}]. The options
    are named as that seat's own view named them (the bot's decision, from what it saw)."""
    seen = view(state, seat)
    names = _names(seen)
    decision = seen["pending"]["decision"] if seen.get("pending") else None
    legal = {a.id: a.to_dict() for a in legal_actions(state)}
    out = []
    for rank, (action_id, playouts, win_rate) in enumerate(stored):
        action = legal.get(action_id)
        words = labelled(action, names, decision) if action else None
        out.append(
            {
                "action": action_id,
                "label_en": words["label_en"] if words else None,
                "label_hu": words["label_hu"] if words else None,
                "playouts": playouts,
                "win_rate": None if win_rate is None else round(100 * win_rate, 1),
                "chosen": rank == 0,
            }
        )
    return out


def replay(match: Match, seat: int, explanations=False) -> dict:
    """Every step of a finished game, re-played from (colonies, seed, actions), as `seat` saw it.

    An unfinished game has no replay for anybody: it would show a seat's hidden cards.
    `explanations` (the caller checked `sees_explanations`): each search-bot decision's step
    carries the bot's top three options with their estimated win rates.
    """
    if match.status != Match.FINISHED or not match.snapshot:
        raise Conflict("NOT_FINISHED", status=match.status)
    events = []
    state = initial_state(match, load(match.snapshot), events)
    taken = set(  # decisions taken for a person: the log's note comes with them (issue 34)
        match.requests.filter(
            status=ActionRequest.APPLIED, client_action_id__startswith=AUTO_PREFIX
        ).values_list("applied_version", flat=True)
    )
    seq = len(events)
    initial_view = _without_actions(view(state, seat))
    initial_events = [{"seq": i, **view_event(e, seat)} for i, e in enumerate(events, 1)]
    steps = []
    for version, row in enumerate(applied_actions(match, explanations), start=1):
        by, action = row[0], row[1]
        thinking = explained(state, by, row[2]) if explanations and row[2] else None
        decision = pending(state).decision if version in taken else None
        made = apply(state, action)
        if decision is not None:
            made = [taken_note(by, decision, bool(made)), *made]
        projected = [view_event(e, seat) for e in made]
        step = {
            "version": version,
            "seq": seq + len(projected),
            "by": by,
            # The other seat's action ids stay out: only the events say what they did.
            "action": action if by == seat else None,
            "events": [{"seq": seq + i, **e} for i, e in enumerate(projected, 1)],
            "view": _without_actions(view(state, seat)),
        }
        if thinking is not None:
            step["explanation"] = thinking
        steps.append(step)
        seq += len(projected)
    return {
        "id": match.pk,
        "seat": seat,
        "initial_view": initial_view,
        "initial_events": initial_events,
        "steps": steps,
        "explanations": bool(explanations),
        "result": _result(match),
    }


def _without_actions(seen: dict) -> dict:
    seen.pop("actions", None)
    return seen


LIVE_SCAN = 200  # the newest games in play the live list looks at (then most watched first)


def live_games(limit: int = LIVE_SCAN) -> list[Match]:
    """Games being played now (ACTIVE) with at least one person seated, newest first, their
    seats and users read with them and without the engine's snapshot (issue 37: the live
    list). Nothing of a position is read here: the list shows who, what and since when."""
    people = Seat.objects.filter(match=OuterRef("pk"), user__isnull=False)
    return list(
        Match.objects.filter(status=Match.ACTIVE)
        .filter(Exists(people))
        .defer("snapshot", "legal_ids", "engine_options")
        .prefetch_related("seats__user")
        .order_by("-started", "-pk")[:limit]
    )


def games_of_people(user_ids) -> list[Match]:
    """Open challenges and tables created by, and games being played by, `user_ids` (the
    friends page: what a friend has open to join or is playing to watch), newest first."""
    ids = list(user_ids)
    if not ids:
        return []
    created = Q(status=Match.OPEN, created_by_id__in=ids)
    playing = Q(status=Match.ACTIVE, seats__user_id__in=ids)
    return list(
        Match.objects.filter(created | playing)
        .distinct()
        .defer("snapshot", "legal_ids", "engine_options")
        .prefetch_related("seats__user")
        .order_by("-created")[:100]
    )
