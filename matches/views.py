"""Pages of online play: the lobby, the game page and the replay page.

Thin: the lobby's forms call matches.services (the same code as the API); the game and
replay pages render a skeleton and the state the viewer may see (selectors.match_payload,
the one projection), and static/matches/*.js keeps them current over the WebSocket, with
HTTP resync and polling as fallbacks.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from cards_data.selectors import card_dicts
from decks.models import RULESET_CHOICES, Deck
from decks.services import validate_entries
from decks.views_pages import problem_message

from . import selectors, services
from .errors import BadRequest, MatchError, NotFound
from .models import Match

PLAYABLE_RULESETS = ("original", "max4", "free")  # simplified combat: not in the engine yet
RULESET_LABELS = dict(RULESET_CHOICES)


def error_message(error: MatchError) -> str:
    """A person's sentence for a service error, in the page's language."""
    messages = {
        "DECK_NOT_LEGAL": _("This deck is not legal for the chosen ruleset; the problems:"),
        "SELF_CHALLENGE": _("You cannot play against yourself."),
        "NO_SUCH_USER": _("There is no user with that name."),
        "NOT_INVITED": _("This challenge was sent to somebody else."),
        "NOT_OPEN": _("This challenge is no longer open."),
        "NO_DECK": _("Choose one of your decks."),
        "NO_SUCH_DECK": _("Choose one of your decks."),
        "NOT_YOUR_DECK": _("You can only play with one of your own decks."),
        "UNKNOWN_BOT": _("Choose the random or the heuristic bot."),
        "RULESET_NOT_PLAYABLE": _("This ruleset cannot be played online yet."),
        "UNKNOWN_RULESET": _("Choose one of the rulesets in the list."),
        "NOT_A_PLAYER": _("Only the two players can do that."),
    }
    return messages.get(error.code, error.detail)


def deck_rows(user) -> list[dict]:
    """The user's decks with their R 9 problems under each playable ruleset."""
    rows = []
    for deck in Deck.objects.filter(owner=user).prefetch_related("entries__card"):
        entries = [(e.card.code, e.count) for e in deck.entries.all()]
        known = card_dicts(code for code, _count in entries)  # once, for every ruleset
        per_ruleset = [
            {
                "ruleset": ruleset,
                "label": RULESET_LABELS[ruleset],
                "problems": [problem_message(p) for p in validate_entries(entries, ruleset, known)],
            }
            for ruleset in PLAYABLE_RULESETS
        ]
        legal = any(r["ruleset"] == deck.ruleset and not r["problems"] for r in per_ruleset)
        rows.append({"deck": deck, "rulesets": per_ruleset, "legal": legal})
    return rows


def _lobby_lists(user):
    matches = list(selectors.my_matches(user))
    items = [(m, _with_label(selectors.list_item(m, user))) for m in matches]
    return {
        "invitations": [i for m, i in items if m.status == Match.INVITED and i["you"] == 1],
        "sent": [i for m, i in items if m.status in (Match.INVITED, Match.OPEN) and i["you"] == 0],
        "open": [i for m, i in items if m.status == Match.OPEN and i["you"] is None],
        "active": [i for m, i in items if m.status in (Match.ACTIVE, Match.NEEDS_JUDGE)],
        "finished": [i for m, i in items if m.status == Match.FINISHED and i["you"] is not None],
    }


def _with_label(item: dict) -> dict:
    return {**item, "ruleset_label": RULESET_LABELS.get(item["ruleset"], item["ruleset"])}


def _deck_from_post(request):
    value = request.POST.get("deck", "")
    return (
        Deck.objects.filter(pk=int(value), owner=request.user).first() if value.isdigit() else None
    )


def _lobby_post(request) -> Match | None:
    action = request.POST.get("action", "")
    if action not in ("bot", "challenge", "accept", "decline", "cancel"):
        raise BadRequest("BAD_ACTION", _("Unknown lobby action."))
    deck = _deck_from_post(request)
    ruleset = request.POST.get("ruleset") or "original"
    if action == "bot":
        return services.challenge(
            request.user, deck, bot=request.POST.get("bot", ""), ruleset=ruleset
        )
    if action == "challenge":
        name = request.POST.get("opponent", "").strip()
        opponent = get_user_model().objects.filter(username=name).first() if name else None
        if name and opponent is None:
            raise NotFound("NO_SUCH_USER", f"There is no user {name!r}.")
        return services.challenge(request.user, deck, opponent=opponent, ruleset=ruleset)
    match = selectors.get_match(request.POST.get("match", ""))
    if action == "accept":
        return services.accept(match, request.user, deck)
    services.decline(match, request.user)  # decline or cancel: the same service
    return None


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def lobby(request):
    error, problems, status = None, [], 200
    if request.method == "POST":
        try:
            match = _lobby_post(request)
        except MatchError as exc:
            error, status = error_message(exc), exc.status
            problems = [problem_message(p) for p in exc.extra.get("problems", [])]
        else:
            if match is None:
                return redirect("matches:lobby")
            return redirect("matches:game", pk=match.pk)
    context = {
        "decks": deck_rows(request.user),
        "error": error,
        "problems": problems,
        "posted": request.POST,
        **_lobby_lists(request.user),
    }
    return render(request, "matches/lobby.html", context, status=status)


def game(request, pk):
    match = _match_or_404(pk)
    viewer = selectors.viewer_seat(match, request.user)
    context = {
        "match": match,
        "payload": selectors.match_payload(match, viewer),
        "urls": _urls(match),
        "strings": client_strings(),
    }
    return render(request, "matches/game.html", context)


def replay(request, pk):
    match = _match_or_404(pk)
    viewer = selectors.viewer_seat(match, request.user)
    seat = request.GET.get("seat")
    seat = int(seat) if seat in ("0", "1") else (viewer if viewer is not None else 0)
    context = {
        "match": match,
        "seat": seat,
        "urls": _urls(match),
        "strings": client_strings(),
        "finished": match.status == Match.FINISHED,
    }
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
        "ws": f"/ws/matches/{match.pk}/",
        "game": reverse("matches:game", args=[match.pk]),
        "replay": reverse("matches:replay", args=[match.pk]),
        "lobby": reverse("matches:lobby"),
    }


def client_strings() -> dict:
    """Every word the game page's script shows, in the request's language."""
    return {
        "zones": {
            "colony": _("Colony"),
            "centre": _("Centre"),
            "credits": _("Credits"),
            "surface": _("Surface"),
            "canteen": _("Canteen"),
            "hangar": _("Hangar"),
            "trash": _("Trash"),
            "wasteland": _("Wasteland"),
            "chain": _("Chain"),
        },
        "phases": {
            "setup": _("Setup"),
            "start": _("Start phase"),
            "main": _("Main phase"),
            "combat": _("Combat"),
            "end": _("End phase"),
            "over": _("Game over"),
        },
        "decisions": {
            "mulligan": _("keep the opening hand or take a mulligan"),
            "cut": _("cut the colony"),
            "main": _("main phase: play, pay, attack or end the turn"),
            "respond": _("interrupt window: respond or pass"),
            "attackers": _("choose attackers"),
            "defenders": _("choose defenders"),
            "bombers": _("choose bombers"),
            "target": _("choose a target"),
            "fire": _("fire or pass"),
            "board": _("board crew onto ships"),
            "return_fire": _("return fire or hold fire"),
            "search": _("search the colony"),
            "payments": _("pay or finish"),
            "discard": _("discard down to the limit"),
        },
        "steps": {
            "declare": _("declaration"),
            "board": _("boarding"),
            "defend": _("defence"),
            "fire": _("firing"),
            "bombard": _("bombardment"),
            "disarm": _("disarm"),
        },
        "ui": {
            "you": _("you"),
            "spectator": _("You are watching as a spectator."),
            "your_turn": _("Your decision"),
            "waiting": _("Waiting for %(name)s"),
            "turn": _("Turn %(n)s"),
            "active": _("%(name)s's turn"),
            "face_down": _("face-down card"),
            "unpaid": _("unpaid"),
            "used": _("used"),
            "active_card": _("active"),
            "damage": _("damage"),
            "upgrades": _("upgrades"),
            "no_actions": _("Nothing to do until the other player decides."),
            "won": _("You won!"),
            "lost": _("You lost."),
            "winner": _("%(name)s won."),
            "reason": {
                "colony": _("the colony ran out (R 15)"),
                "concede": _("conceded"),
                "timeout": _("out of time"),
                "judge": _("judge decision"),
                "turn_limit": _("turn limit"),
                "needs_judge": _("time is up: a judge decides (R 18.4)"),
            },
            "concede_confirm": _("Concede this game?"),
            "sent": _("Sent…"),
            "live": _("live"),
            "polling": _("reconnecting (updates by polling)"),
            "resynced": _("resynced"),
            "bank": _("time bank"),
            "decision_left": _("this decision"),
            "stale": _("The game moved on; here is the current position."),
            "not_started": _("The game starts when the challenge is accepted."),
            "aborted": _("This challenge was declined or withdrawn."),
            "more": _("more"),
            "combat": _("Combat"),
            "attacker": _("attacker"),
            "defender": _("defender"),
            "target": _("target"),
            "attackers": _("attackers"),
            "defenders": _("defenders"),
            "bombers": _("bombers"),
            "step": _("step"),
            "speed": _("speed"),
            "firepower": _("firepower"),
            "armour": _("armour"),
            "bombardment": _("bombardment"),
            "pass_key": _("P: pass / done"),
            "end_key": _("E: end turn"),
            "empty": _("empty"),
        },
        "errors": {
            "NOT_YOUR_DECISION": _("It is not your decision now."),
            "ILLEGAL_ACTION": _("That action is not legal now; choose one of the buttons."),
            "GAME_NOT_ACTIVE": _("This game is over."),
            "NOT_A_PLAYER": _("Only the two players can do that."),
            "NOT_LOGGED_IN": _("Log in to play."),
            "MALFORMED_ACTION": _("The action could not be read; reload the page."),
        },
        "events": {
            "turn": _("Turn %(turn)s: %(player)s"),
            "credits": _("%(player)s: %(change)s credits (now %(credits)s)"),
            "pass": _("%(player)s passes"),
            "keep": _("%(player)s keeps the hand"),
            "mulligan": _("%(player)s takes a mulligan"),
            "starting_player": _("%(player)s starts"),
            "move": _("%(card)s: %(from)s → %(to)s"),
            "play": _("%(player)s plays %(card)s"),
            "announce": _("%(player)s plays %(code)s"),
            "resolve": _("%(code)s resolves"),
            "upgrades": _("%(card)s: %(upgrades)s upgrades"),
            "end_phase": _("%(player)s: end phase"),
            "end_turn": _("%(player)s ends the turn"),
            "pay": _("%(player)s pays %(cost)s for %(card)s"),
            "paid": _("%(card)s is paid"),
            "activate": _("%(player)s uses %(card)s"),
            "rotate": _("%(card)s becomes %(to)s"),
            "repair": _("%(card)s is repaired"),
            "attack": _("%(player)s attacks: %(target)s"),
            "designate": _("%(player)s: %(ship)s is %(role)s"),
            "firing_step": _("Firing step"),
            "fire": _("%(shooter)s fires at %(target)s"),
            "damage": _("%(card)s takes %(amount)s damage"),
            "no_bombardment": _("No bombardment"),
            "combat_end": _("Combat ends"),
            "end_combat": _("Combat ends"),
            "board": _("%(card)s boards %(ship)s"),
            "no_defence": _("%(player)s does not defend"),
            "no_attackers": _("No attackers"),
            "bombard": _("Bombardment of %(total)s on the %(target)s"),
            "bombard_success": _("The bombardment hits the %(target)s"),
            "disembark": _("%(card)s returns to the canteen"),
            "return_fire": _("%(ship)s returns fire"),
            "hold_fire": _("Fire held"),
            "reveal": _("%(player)s looks at a hidden card"),
            "shuffle": _("%(player)s shuffles the colony"),
            "cut": _("%(by)s cuts %(player)s's colony"),
            "cost_modifier": _("%(player)s: cost change %(amount)s"),
            "game_over": _("Game over: %(winner)s wins (%(reason)s)"),
            "stealth": _("Stealth"),
            "heavy_weapons": _("Heavy weapons"),
            "ordnance": _("Ordnance"),
            "burst_fire": _("Burst fire"),
            "lost_target": _("The target is gone"),
            "neutralized": _("%(code)s is neutralized"),
            "decline": _("%(player)s declines"),
            "control": _("%(card)s changes control"),
            "mode": _("Mode chosen"),
            "reorder": _("Cards reordered"),
            "copy_event": _("The event is copied"),
            "draw": _("%(player)s draws a card"),
        },
    }
