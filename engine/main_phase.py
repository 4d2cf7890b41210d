"""A main-phase action checked and done (R 11.3.1, M1-M9): ``check_main`` says why an
action is not allowed now (a reason code), ``do_main`` applies a legal one. The legal ones
are listed by engine.main_actions."""

from . import announce as A
from . import combat as C
from . import ops
from . import resolve as R
from . import table as T
from . import values as V
from .actions import Action
from .combat_base import pay_card
from .flow import (
    ask,
    emit,
    event,
    push,
)
from .main_actions import (
    DRAW_COST,
    MAX_BOUGHT_UPGRADES,
    SEARCH_COST,
    SEARCH_DEPTH,
    UPGRADE_COST,
    WASTELAND_DRAW_COLONY,
    WASTELAND_DRAW_COST,
    _bases_changed,
    _pay_reason,
)
from .state import (
    GameState,
    get_card,
    next_seat,
)


def _own_centre(state: GameState, seat: int, cid):
    card = get_card(state, cid)
    if card is None or card.zone != "centre" or card.owner != seat:
        return None
    return card


def _own_in_play(state: GameState, seat: int, cid, zone=None):
    card = get_card(state, cid)
    if card is None or card.zone not in ("surface", "canteen", "hangar") or card.controller != seat:
        return None
    if zone is not None and card.zone != zone:
        return None
    return card


def check_main(state: GameState, seat: int, action: Action, statics=None) -> str | None:
    """Why a main-phase action is not allowed (None = allowed). `statics`: the current
    ``V.static_abilities(state)`` if the caller has them."""
    kind = action.kind
    player = state.players[seat]
    credits = player.credits
    if kind == "end_turn":
        return None
    if kind == "place":  # M1, R 6.10 / AMB-39
        card = _own_centre(state, seat, action.get("card"))
        if card is None:
            return "NOT_IN_CENTRE"
        to = action.get("to")
        slot = {"surface": "base", "canteen": "crew", "ship": "armament"}[to]
        if V.ctype(state, card) != slot and to not in state.ruleset.bluff_slots:
            return "BLUFF_NOT_ALLOWED"
        if to == "ship":
            ship = _own_in_play(state, seat, action.get("ship"), "hangar")
            if ship is None or ship.attached_to is not None:
                return "NOT_YOUR_SHIP"
            if V.capacity_left(state, ship) <= 0:
                return "SHIP_FULL"  # R 4.2.4
        return None
    if kind == "play":  # M4
        card = _own_centre(state, seat, action.get("card"))
        if card is None:
            return "NOT_IN_CENTRE"
        d = state.defs[card.code]
        t = d["type"]
        if t in ("base", "crew", "armament"):
            return "PLAY_FACE_DOWN"  # R 6.8.3 / AMB-02: these enter face down (M1)
        if t == "ship":
            if V.card_cost(state, seat, card, statics=statics) > credits:
                return "INSUFFICIENT_CREDITS"
            if state.ruleset.hangar_limit_on_play and (
                V.hangar_total(state, seat) + V.hangar_size(state, card)
                > state.ruleset.hangar_limit
            ):
                return "HANGAR_FULL"
            return None
        if t == "interrupt" and d["subtype"] not in R.WINDOW_SUBTYPES["main"]:
            return "WRONG_PHASE"  # R 4.7.3
        if not A.can_play_card(state, seat, card):
            if isinstance(d["credit_cost"], int) and V.card_cost(state, seat, card) > credits:
                return "INSUFFICIENT_CREDITS"
            return "NO_TARGET"
        return None
    if kind == "pay":  # M5
        card = _own_in_play(state, seat, action.get("card"))
        if card is None:
            return "NOT_YOUR_CARD"
        return _pay_reason(state, seat, card, credits, statics)
    if kind == "upgrade":  # M6
        card = _own_in_play(state, seat, action.get("card"), "surface")
        if card is None:
            return "NOT_YOUR_BASE"
        if card.bought >= MAX_BOUGHT_UPGRADES:
            return "UPGRADE_LIMIT_PER_TURN"
        if V.action_cost(state, seat, "upgrade", UPGRADE_COST, statics) > credits:
            return "INSUFFICIENT_CREDITS"
        return None
    if kind == "cash":  # M3 / AMB-47
        a = _own_in_play(state, seat, action.get("a"), "surface")
        b = _own_in_play(state, seat, action.get("b"), "surface")
        if a is None or b is None:
            return "NOT_YOUR_BASE"
        if a.id > b.id:
            return "NOT_CANONICAL"  # a <= b
        if (a is b and a.upgrades < 2) or (a is not b and (a.upgrades < 1 or b.upgrades < 1)):
            return "NOT_ENOUGH_UPGRADES"
        return None
    if kind == "draw":  # M7 / AMB-55
        if not player.colony:
            return "COLONY_EMPTY"
        if V.action_cost(state, seat, "draw", DRAW_COST, statics) > credits:
            return "INSUFFICIENT_CREDITS"
        return None
    if kind == "search":  # M8 / AMB-46
        if not player.colony:
            return "COLONY_EMPTY"
        if SEARCH_COST > credits:
            return "INSUFFICIENT_CREDITS"
        return None
    if kind == "wasteland_draw":  # M9
        if len(player.colony) > WASTELAND_DRAW_COLONY:
            return "COLONY_TOO_LARGE"
        if not player.wasteland:
            return "WASTELAND_EMPTY"
        if WASTELAND_DRAW_COST > credits:
            return "INSUFFICIENT_CREDITS"
        return None
    if kind == "attack":  # M2
        if T.first_turn(state, seat):
            return "FIRST_TURN_NO_ATTACK"  # R 10.7, R 17.1.4
        if not any(state.cards[c].orientation == "active" for c in player.hangar):
            return "NO_ACTIVE_SHIP"  # AMB-50
        defender = _defender(state, seat, action)
        if defender is None:
            return "NOT_A_NEIGHBOUR"  # R 17.1.2
        target = action.get("target")
        if target in ("crew", "base"):
            card = get_card(state, action.get("card"))
            zone = "canteen" if target == "crew" else "surface"
            if card is None or card.zone != zone or card.controller != defender:
                return "BAD_TARGET"
        if V.attack_surcharge(state, seat, statics, defender) > credits:
            return "INSUFFICIENT_CREDITS"  # AMB-35
        return None
    if kind == "activate":
        card = _own_in_play(state, seat, action.get("card"))
        if card is None:
            return "NOT_YOUR_CARD"
        abilities = V.abilities(state, card)
        index = action.get("ability")
        if not (0 <= index < len(abilities)) or abilities[index]["trigger"] != "activated":
            return "NO_SUCH_ABILITY"
        if not A.can_activate(state, seat, card, index):
            return "CANNOT_ACTIVATE"
        return None
    return "NOT_A_MAIN_PHASE_ACTION"


def _defender(state: GameState, seat: int, action: Action) -> int | None:
    """Whom an attack action attacks: the other player of a two-player game (no `player`
    parameter); at a multiplayer table the neighbour it names (R 17.1.2), else None."""
    named = action.get("player")
    if state.table is None:
        return state.other(seat) if named is None else None
    return named if named in T.defenders(state, seat) else None


def do_main(
    state: GameState, frame: dict, seat: int, action: Action, ev: list, statics=None
) -> None:
    """Apply a legal main-phase action. `statics`: ``V.static_abilities(state)`` of the
    state as it is now, if known (used only before the first change)."""
    kind = action.kind
    player = state.players[seat]
    if kind == "end_turn":  # R 1.8
        emit(ev, "end_phase", player=seat)
        frame["step"] = "end_hand"
        return
    # the ids read as ints: compiled, `card` is then a typed list item with native attributes
    # (upgrade and cash are the commonest decisions, ~40 % of a random game's)
    cid: int
    if kind == "place":
        cid = action.get("card")
        card = state.cards[cid]
        to = action.get("to")
        if to == "ship":
            ship = state.cards[action.get("ship")]
            ops.relocate(state, card, "hangar", ev, "place", seat=seat, ship=ship, slot="armament")
        else:
            slot = "base" if to == "surface" else "crew"
            ops.relocate(state, card, to, ev, "place", seat=seat, slot=slot)
        return
    if kind == "play":
        cid = action.get("card")
        card = state.cards[cid]
        d = state.defs[card.code]
        if d["type"] == "ship":  # R 4.2.1: face up, paid at once
            cost = V.card_cost(state, seat, card, statics=statics)
            ops.spend(state, seat, cost, ev, "ship")
            V.consume_next(state, seat, d, "card")
            card = ops.relocate(
                state, card, "hangar", ev, "play", face_up=True, seat=seat, slot="ship"
            )
            card.paid = True
            state.card_epoch += 1
            emit(ev, "play", player=seat, card=ops.pub(state, card), type="ship", cost=cost)
            ops.push_trigger(state, card, "on_play")
            return
        base = len(state.chain)
        R.open_window(state, next_seat(state, seat), "main", base)  # the others respond (R 12.3)
        A.start_card(state, seat, card, ev)
        return
    if kind == "pay":
        pay_card(state, seat, state.cards[action.get("card")], ev, statics=statics, scope="main")
        return
    if kind == "upgrade":
        cid = action.get("card")
        card = state.cards[cid]
        cost = UPGRADE_COST  # as main_actions: the modifiers only where some may apply
        if statics is not None or state.cost_mods or "upgrade" in V.state_info(state).cost_actions:
            cost = V.action_cost(state, seat, "upgrade", UPGRADE_COST, statics)
        ops.spend(state, seat, cost, ev, "upgrade")
        V.consume_next(state, seat, None, "upgrade")
        card.upgrades += 1
        card.bought += 1
        _bases_changed(state, seat, card)
        event(ev, "upgrades", {"card": ops.pub(state, card), "upgrades": card.upgrades})
        return
    if kind == "cash":
        aid: int = action.get("a")
        bid: int = action.get("b")
        a, b = state.cards[aid], state.cards[bid]
        a.upgrades -= 1
        b.upgrades -= 1
        _bases_changed(state, seat, a, b)
        ops.gain(state, seat, 1, ev, "upgrades removed")
        event(ev, "upgrades", {"card": ops.pub(state, a), "upgrades": a.upgrades})
        if b is not a:  # (a, a): one base with two upgrades, one event
            event(ev, "upgrades", {"card": ops.pub(state, b), "upgrades": b.upgrades})
        return
    if kind == "draw":
        ops.spend(state, seat, V.action_cost(state, seat, "draw", DRAW_COST, statics), ev, "draw")
        V.consume_next(state, seat, None, "draw")
        ops.draw(state, seat, 1, ev)
        return
    if kind == "search":
        ops.spend(state, seat, SEARCH_COST, ev, "search")
        top = player.colony[:SEARCH_DEPTH]
        ops.reveal(state, ev, top, seat, "colony_top", player=seat)
        push(state, {"kind": "search", "player": seat})
        ask(state, seat, "search", top, "pick", n=1)
        return
    if kind == "wasteland_draw":
        ops.spend(state, seat, WASTELAND_DRAW_COST, ev, "wasteland draw")
        ops.relocate(state, state.cards[player.wasteland[0]], "centre", ev, "wasteland draw")
        return
    if kind == "attack":
        defender = _defender(state, seat, action)
        C.declare_attack(
            state, seat, action.get("target"), action.get("card"), ev, statics, defender
        )
        return
    if kind == "activate":
        R.open_window(state, next_seat(state, seat), "main", len(state.chain))
        A.start_ability(state, seat, state.cards[action.get("card")], action.get("ability"), ev)
        return
    raise AssertionError(kind)  # pragma: no cover
