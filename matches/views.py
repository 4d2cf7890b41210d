"""Pages of online play: the lobby, the game page and the replay page.

Thin: the lobby's forms call matches.services (the same code as the API); the game and
replay pages render a skeleton and the state the viewer may see (selectors.match_payload,
the one projection), and static/matches/*.js keeps them current over the WebSocket, with
HTTP resync and polling as fallbacks.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.views.decorators.http import require_http_methods

from cardgame import bots
from cardgame.params import SMALLINT_MAX, BadNumber, optional_whole_number
from cards_data.definitions import card_dicts
from cards_data.models import Card
from cards_data.templatetags.kgk import rules_parts
from decks import play
from decks.models import Deck
from social.presence import record_seen
from social.selectors import blocked_ids

from . import clocks, presentation, selectors, services, spectators
from .errors import BadRequest, MatchError, NotFound
from .models import Match
from .presentation import client_strings


def deck_rows(user) -> list[dict]:
    """The user's decks with their R 9 problems under each playable ruleset."""
    rows = []
    for deck in Deck.objects.filter(owner=user).prefetch_related("entries__card"):
        entries = [(e.card.code, e.count) for e in deck.entries.all()]
        known = card_dicts(code for code, _count in entries)  # once, for every ruleset
        per_ruleset = [
            {
                "ruleset": ruleset,
                "label": label,
                "problems": [p["message"] for p in play.problems(entries, ruleset, known)],
            }
            for ruleset, label in play.ruleset_choices(playable_only=True)
        ]
        legal = any(r["ruleset"] == deck.ruleset and not r["problems"] for r in per_ruleset)
        rows.append({"deck": deck, "rulesets": per_ruleset, "legal": legal})
    return rows


def preselected_deck(rows) -> int | None:
    """The deck the lobby offers first: the newest legal one (rows are newest first), else
    the newest (issue 34: a newer illegal deck was pre-selected over a legal one)."""
    legal = [row for row in rows if row["legal"]]
    chosen = (legal or rows or [None])[0]
    return chosen["deck"].pk if chosen else None


def _lobby_lists(user):
    matches = list(selectors.my_matches(user))
    bot_names = bots.names()
    items = [(m, _lobby_item(m, user, bot_names)) for m in matches]
    avoid = blocked_ids(user.pk)  # issue 37: nobody's open game with someone blocked either way
    return {
        "invitations": [i for m, i in items if m.status == Match.INVITED and i["you"] == 1],
        "sent": [
            i
            for m, i in items
            if m.status in (Match.INVITED, Match.OPEN) and i["you"] == 0 and not m.multiplayer
        ],
        # open tables (R 17.1) you sit at: the host starts or cancels, a guest may leave
        "tables": [
            i for m, i in items if m.status == Match.OPEN and m.multiplayer and i["you"] is not None
        ],
        "open": [
            i
            for m, i in items
            if m.status == Match.OPEN
            and i["you"] is None
            and not avoid & {s.user_id for s in m.seats.all()}
        ],
        "active": [i for m, i in items if m.status in (Match.ACTIVE, Match.NEEDS_JUDGE)],
        "finished": [i for m, i in items if m.status == Match.FINISHED and i["you"] is not None],
    }


def _lobby_item(match, user, bot_names) -> dict:
    """A lobby line: the players by the names a person reads (a bot's in this language, not
    its code) and when the game started (or was offered), instead of its number."""
    item = _with_label(selectors.list_item(match, user))
    players = [
        {**p, "name": presentation.seat_name(p, bot_names)} if p["bot"] else p
        for p in item["players"]
    ]
    when = match.started or match.created
    return {**item, "players": players, "when": when, "rated": match.rated}


def _with_label(item: dict) -> dict:
    return {**item, "ruleset_label": play.RULESET_LABELS.get(item["ruleset"], item["ruleset"])}


def _lobby_number(request, name, **bounds):
    """A lobby form's number (cardgame.params), None when empty; a bad one is a 400."""
    try:
        return optional_whole_number(request.POST.get(name), name, **bounds)
    except BadNumber as exc:
        raise BadRequest(f"BAD_{name.upper()}", exc.message) from None


def _deck_from_post(request):
    deck_id = _lobby_number(request, "deck", low=1)
    if deck_id is None:
        return None
    return Deck.objects.filter(pk=deck_id, owner=request.user).first()


# the two-player forms, then a table's (R 17.1): open, join, leave, start
LOBBY_ACTIONS = (
    "bot",
    "challenge",
    "accept",
    "decline",
    "cancel",
    "table",
    "join",
    "leave",
    "start",
)


def _lobby_post(request) -> Match | None:
    action = request.POST.get("action", "")
    bot = request.POST.get("bot", "")
    if action.startswith("bot-"):  # the lobby's two bot buttons (no script: a CSP is coming)
        action, bot = "bot", action.removeprefix("bot-")
    if action not in LOBBY_ACTIONS:
        raise BadRequest("BAD_LOBBY_ACTION")
    deck = _deck_from_post(request)
    ruleset = request.POST.get("ruleset") or "original"
    # the people's clock (the form's choice); a game against a bot is untimed (its default)
    time_control = request.POST.get("time_control") or None
    # issue 37: "Rated game" (offered by ratings' lobby tag to those who opted in) applies to
    # the games with people; a bot game is never rated, whatever the box says
    rated = request.POST.get("rated") == "1"
    if action == "bot":
        return services.challenge(request.user, deck, bot=bot, ruleset=ruleset)
    if action == "challenge":
        name = request.POST.get("opponent", "").strip()
        opponent = get_user_model().objects.filter(username=name).first() if name else None
        if name and opponent is None:
            raise NotFound("NO_SUCH_USER", words={"name": name})
        return services.challenge(
            request.user,
            deck,
            opponent=opponent,
            ruleset=ruleset,
            time_control=time_control,
            rated=rated,
        )
    if action == "table":
        seats = _lobby_number(request, "seats", high=SMALLINT_MAX) or 0
        services.open_table(
            request.user,
            deck,
            seats=seats,
            ruleset=ruleset,
            time_control=time_control,
            rated=rated,
        )
        return None  # back to the lobby: the table waits there for its players
    match = selectors.get_match(request.POST.get("match", ""))
    if action == "accept":
        return services.accept(match, request.user, deck)
    if action == "join":
        services.join_table(match, request.user, deck)
        return None
    if action == "leave":
        services.leave_table(match, request.user)
        return None
    if action == "start":
        return services.start_table(match, request.user, bot=bot)
    services.decline(match, request.user)  # decline or cancel: the same service
    return None


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def lobby(request):
    error, status = None, 200
    record_seen(request.user)  # a page people keep open while looking for a game (issue 37)
    if request.method == "POST":
        try:
            match = _lobby_post(request)
        except MatchError as exc:
            # the API's sentence (matches/messages.py); a colony's problems are its words
            error, status = exc.detail, exc.status
        else:
            if match is None:
                return redirect("matches:lobby")
            return redirect("matches:game", pk=match.pk)
    decks = deck_rows(request.user)
    context = {
        "decks": decks,
        "preselected_deck": preselected_deck(decks),
        "rulesets": play.ruleset_choices(playable_only=True),
        "error": error,
        # a GET may fill the form in too: a player page's "Challenge" names the opponent
        "posted": request.POST if request.method == "POST" else request.GET,
        "table_bots": bots.bot_choices(),
        "time_controls": clocks.choices(),
        "default_time_control": clocks.PEOPLE_DEFAULT,
        **_lobby_lists(request.user),
        "your_move": _your_move(request.user),
    }
    return render(request, "matches/lobby.html", context, status=status)


def _your_move(user) -> list[dict]:
    """The lobby's "Your move" (issue 37): the games awaiting this person's decision, each
    with its time left in words ("2 days 3 hours left"); an untimed game (against a bot)
    says "untimed" once, not again as "no time limit"."""
    bot_names = bots.names()
    now = timezone.now()
    return [
        {
            **_lobby_item(m, user, bot_names),
            "left": clocks.time_left(m.decision_deadline, now) if m.decision_deadline else "",
        }
        for m in selectors.awaiting_me(user)
    ]


LIVE_SHOWN = 50  # games on the live list


@require_http_methods(["GET", "HEAD"])
def live(request):
    """Games being played now with a person at the table (issue 37), the most watched first,
    then the newest: who plays, the ruleset, the clock, since when, how many watch, and a
    link to watch (the game page, which gives a spectator the spectator's projection). Open
    to everybody; it shows nothing of any position, so no hidden card can be on it."""
    record_seen(request.user)
    games = selectors.live_games()
    watching = spectators.counts(m.pk for m in games)
    bot_names = bots.names()
    fresh = timezone.now() - timezone.timedelta(minutes=1)
    rows = [
        {
            **_lobby_item(m, request.user, bot_names),
            "spectators": watching.get(m.pk, 0),
            "just_started": m.started is not None and m.started > fresh,  # not "for 0 minutes"
        }
        for m in games
    ]
    rows.sort(key=lambda row: -row["spectators"])  # stable: newest first among equals
    return render(request, "matches/live.html", {"games": rows[:LIVE_SHOWN]})


def game(request, pk):
    match = _match_or_404(pk)
    viewer = selectors.viewer_seat(match, request.user)
    context = {
        "match": match,
        "payload": selectors.match_payload(match, viewer),
        "urls": _urls(match),
        "strings": client_strings(),
        "rematch": _rematch(match, viewer),
        "clock": clocks.describe(match),
        "timed": not clocks.is_untimed(match),
        "challenge": _waiting_challenge(match, viewer),
        "event": _tournament_event(match),
    }
    return render(request, "matches/game.html", context)


def _tournament_event(match):
    """The event a tournament game belongs to (issue 35: its end screen links back). Read
    through the reverse relation the tournaments app declares (tournament_game), in one
    query, so matches imports nothing from the app above it."""
    linked = (
        Match.objects.select_related("tournament_game__match__tournament")
        .filter(pk=match.pk)
        .first()
    )
    online = getattr(linked, "tournament_game", None) if linked else None
    return online.match.tournament if online else None


def _waiting_challenge(match, viewer):
    """A two-player challenge not yet accepted, as its page says it: whom it waits for (the
    named player, or anyone), and whether this viewer sent it (and may withdraw it)."""
    if match.multiplayer or match.status not in (Match.INVITED, Match.OPEN):
        return None
    invited = match.seats.filter(seat=1).select_related("user").first()
    name = invited.user.get_username() if invited and invited.user_id else None
    return {"invited": name, "sent": viewer == 0, "for_you": viewer == 1}


def _rematch(match, viewer):
    """The lobby form's fields for another game against the same bot with the same deck."""
    if viewer is None or match.multiplayer:
        return None
    seats = {s.seat: s for s in match.seats.all()}
    mine, other = seats.get(viewer), seats.get(1 - viewer)
    if mine is None or other is None or not other.bot or mine.deck_id is None:
        return None
    return {"deck": mine.deck_id, "bot": other.bot, "ruleset": match.ruleset}


def replay(request, pk):
    match = _match_or_404(pk)
    viewer = selectors.viewer_seat(match, request.user)
    seat = request.GET.get("seat")
    seats = [str(s) for s in range(match.seat_count)]
    seat = int(seat) if seat in seats else (viewer if viewer is not None else 0)
    context = {
        "match": match,
        "seat": seat,
        "urls": _urls(match),
        "strings": client_strings(),
        "finished": match.status == Match.FINISHED,
        "players": selectors.players_of(match.seats.all()),
        "viewer": viewer,
    }
    bot_names = bots.names()
    context["seat_names"] = [
        (p["seat"], presentation.seat_name(p, bot_names) if p["bot"] else p["name"])
        for p in context["players"]
    ]
    return render(request, "matches/replay.html", context)


def _match_or_404(pk) -> Match:
    try:
        return selectors.get_match(pk)
    except MatchError as exc:
        raise Http404(exc.detail) from exc


def _urls(match) -> dict:
    return {
        "state": reverse("matches-detail", args=[match.pk]),
        "events": reverse("matches-events", args=[match.pk]),
        "actions": reverse("matches-actions", args=[match.pk]),
        "concede": reverse("matches-concede", args=[match.pk]),
        "replay_api": reverse("matches-replay", args=[match.pk]),
        "ws": f"/ws/matches/{match.pk}/?lang={translation.get_language()}",
        "game": reverse("matches:game", args=[match.pk]),
        "replay": reverse("matches:replay", args=[match.pk]),
        "lobby": reverse("matches:lobby"),
        "faces": reverse("matches:faces"),
    }


MAX_FACES = 60


@require_http_methods(["GET", "HEAD"])
def faces(request):
    """GET ?codes=A,B: the catalogue faces of those cards (public data, no game state), in
    the request's language: the card page's own face (HTML) and the printed values the
    table compares current stats with. The table asks for the codes it has seen."""
    codes = [c for c in request.GET.get("codes", "").split(",") if c][:MAX_FACES]
    cards = Card.objects.filter(code__in=codes).prefetch_related("keywords")
    out = {}
    for card in cards:
        out[card.code] = {
            "name": card.display_name,
            "cost": card.cost_display,
            "printed": {
                "speed": card.speed,
                "firepower": card.firepower,
                "armour": card.armour,
                "bombardment": card.bombardment,
            },
            "upgrade_limit": card.upgrade_limit,
            "text": card.text,
            "text_parts": rules_parts(card.text),  # R 2.4 tokens as icons, as on the card page
            "html": render_to_string("cards_data/_card_face.html", {"card": card}, request),
        }
    response = JsonResponse({"faces": out})
    response["Cache-Control"] = "private, max-age=3600"
    return response
