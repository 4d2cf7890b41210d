"""The executors of card effects (R 12; the effect vocabulary of engine.effects): every
primitive of ``engine.effects.EFFECTS`` has one here (``EXEC``), and the two ``python``
escape-hatch functions are registered in ``PYTHON``. Each executor runs one effect of an
``effects`` frame (engine.resolve), choosing its targets as it resolves."""

from typing import Final

from . import ops
from . import values as V
from .announce import neutralize_payment
from .flow import (
    answer,
    ask,
    clear_answers,
    emit,
    push,
)
from .state import (
    IN_PLAY,
    GameState,
    clockwise,
    get_card,
    mark,
)

# --- helpers ------------------------------------------------------------------------


def _src(state: GameState, ctx):
    return get_card(state, ctx["src"]) if ctx.get("src") is not None else None


def _opp(state: GameState, ctx) -> int:
    """ "The opponent" of the card or ability resolving: the other seat of a two-player
    game, the neighbour its user chose at a multiplayer table (R 17.1.3: Announce or the
    effects frame asks before anything names one)."""
    opp = ctx.get("opp")
    if opp is not None:
        return opp
    return state.other(ctx["ctrl"])


def _seats(state: GameState, ctx, player):
    ctrl = ctx["ctrl"]
    if player in (None, "you"):
        return [ctrl]
    if player == "opponent":
        return [_opp(state, ctx)]
    return list(clockwise(state, ctrl))  # "each": the card's player first (R 1.5)


def alive(state: GameState, cid) -> bool:
    card = get_card(state, cid)
    return card is not None and (card.zone in IN_PLAY or card.zone == "chain")


def resolve_targets(state: GameState, frame: dict, eff, path):
    """Target ids for `eff` now, or None after asking a player (re-run later)."""
    ctx = frame["ctx"]
    spec = eff["target"]
    kind = spec["kind"]
    source = _src(state, ctx)
    if kind == "self":
        return [source.id] if source is not None and source.zone in IN_PLAY else []
    if kind == "carrier":
        if source is None or source.attached_to is None:
            return []
        return [source.attached_to]
    ctrl = ctx["ctrl"]
    sid = ctx.get("src")
    count = spec.get("count", 1)
    opp = ctx.get("opp")
    if count == "all":
        return V.candidates(state, spec, ctrl, sid, targeted=False, opp=opp)
    legal = V.candidates(state, spec, ctrl, sid, targeted=True, opp=opp)
    pre = ctx["targets"].get(path)
    if pre is not None:
        return [cid for cid in pre if cid in legal]  # R 1.6: lost targets drop out
    picked = answer(frame, "t")
    if picked is not None:
        return [cid for cid in picked if cid in legal]
    n = min(count, len(legal))
    if n == 0:
        return []
    if n == len(legal):
        return legal
    chooser = ctrl if spec.get("chooser", "you") == "you" else _opp(state, ctx)
    ask(
        state,
        chooser,
        "target",
        legal,
        "t",
        n=n,
        info={"effect": eff["effect"], "card": ctx["code"]},
    )
    return None


def amount(state: GameState, ctx, value):
    return V.amount_value(state, value, ctx["ctrl"], _src(state, ctx), ctx.get("opp"))


# --- the executors --------------------------------------------------------------------
# Each returns True when the effect is finished, False after asking a player.

EXEC: Final[dict] = {}


def _registrar(table: dict):
    """A decorator factory that files each function under its name in `table`."""

    def register_as(name):
        def deco(fn):
            table[name] = fn
            return fn

        return deco

    return register_as


executor = _registrar(EXEC)


def on_targets(name):
    """Files under `name` an executor that acts on the cards its effect targets: once the
    targets are known (None: a player was asked to choose them, and the effect runs again
    with the answer), `act` does its work on their ids and the effect is finished."""

    def deco(act):
        def run(state: GameState, frame: dict, eff, path, ev: list):
            ids = resolve_targets(state, frame, eff, path)
            if ids is None:
                return False
            act(state, frame, eff, ids, ev)
            return True

        EXEC[name] = run
        return act

    return deco


@on_targets("modify_stat")
def _modify_stat(state: GameState, frame: dict, eff, ids: list, ev: list) -> None:
    n = amount(state, frame["ctx"], eff["amount"])
    for cid in ids:
        card = state.cards[cid]
        card.mods.append([eff["stat"], n, eff["duration"], None])
        mark(state, card)
        state.armour_epoch += 1
        emit(
            ev,
            "modify",
            card=ops.pub(state, card),
            stat=eff["stat"],
            amount=n,
            duration=eff["duration"],
        )
    ops.check_state(state, ev)


@on_targets("grant_keyword")
def _grant_keyword(state: GameState, frame: dict, eff, ids: list, ev: list) -> None:
    for cid in ids:
        card = state.cards[cid]
        card.grants.append([eff["keyword"], eff["duration"]])
        mark(state, card)
        emit(
            ev, "grant", card=ops.pub(state, card), keyword=eff["keyword"], duration=eff["duration"]
        )


def _for_each_player(apply_one):
    """An executor that applies `amount` to each player the effect names (R 1.5 order)."""

    def run(state: GameState, frame: dict, eff, path, ev: list):
        ctx = frame["ctx"]
        n = amount(state, ctx, eff["amount"])
        for seat in _seats(state, ctx, eff.get("player")):
            apply_one(state, seat, n, ev, ctx)
        return True

    return run


executor("gain_credits")(
    _for_each_player(
        lambda state, seat, n, ev, ctx: ops.gain(state, seat, n, ev, ctx["code"] or "")
    )
)
executor("lose_credits")(
    _for_each_player(
        lambda state, seat, n, ev, ctx: ops.lose(state, seat, n, ev, ctx["code"] or "")
    )
)
executor("draw")(
    _for_each_player(lambda state, seat, n, ev, ctx: ops.draw(state, seat, n, ev, "effect"))
)
executor("discard_from_colony")(
    _for_each_player(lambda state, seat, n, ev, ctx: ops.discard_top(state, seat, n, ev, "effect"))
)


@executor("discard_from_centre")
def _discard_from_centre(state: GameState, frame: dict, eff, path, ev: list):
    ctx = frame["ctx"]
    n = amount(state, ctx, eff["amount"])
    seats = _seats(state, ctx, eff.get("player"))
    step = frame.setdefault("sub", 0)
    while step < len(seats):
        seat = seats[step]
        centre = state.players[seat].centre
        picked = answer(frame, f"d{step}")
        k = min(n, len(centre))
        if picked is None and k > 0:
            chooser_kind = eff.get("chooser", "owner")
            if chooser_kind == "random":
                pool = list(centre)
                picked = []
                for _ in range(k):
                    picked.append(pool.pop(state.rng.below(len(pool))))
            else:
                chooser = seat if chooser_kind == "owner" else ctx["ctrl"]
                if chooser != seat:  # the chooser looks at the other centre (R 16.4)
                    ops.reveal(state, ev, centre, chooser, "centre", player=seat)
                if k == len(centre):  # nothing to choose
                    picked = list(centre)
                else:
                    ask(state, chooser, "discard", list(centre), f"d{step}", n=k)
                    return False
        for cid in picked or ():
            card = get_card(state, cid)
            if card is not None and card.zone == "centre":
                ops.relocate(state, card, "wasteland", ev, "discard")
        step += 1
        frame["sub"] = step
    frame.pop("sub", None)
    return True


@executor("return_to_colony")
def _return_to_colony(state: GameState, frame: dict, eff, path, ev: list):
    ctx = frame["ctx"]
    pile_name = eff["from"]
    pile = state.players[ctx["ctrl"]].zone(pile_name)
    n = min(amount(state, ctx, eff["amount"]), len(pile))
    if n == 0:
        return True
    picked = answer(frame, "r")
    if picked is None:
        if n == len(pile):
            picked = list(pile)
        else:
            ask(state, ctx["ctrl"], "return_to_colony", list(pile), "r", n=n)
            return False
    for cid in picked:
        ops.relocate(state, state.cards[cid], "colony", ev, "return_to_colony", bottom=True)
    return True


@executor("peek")
def _peek(state: GameState, frame: dict, eff, path, ev: list):
    """R 16.4: a transient look, shown only to the looking player."""
    ctx = frame["ctx"]
    me = ctx["ctrl"]
    zone = eff["zone"]
    if zone == "face_down":
        ids = resolve_targets(state, frame, eff, path)
        if ids is None:
            return False
        hidden = [c for c in ids if not ops.public(state.cards[c])]
        if hidden:
            ops.reveal(state, ev, hidden, me, "face_down")
        return True
    seat = me if eff.get("player", "you") == "you" else _opp(state, ctx)
    player = state.players[seat]
    if zone == "centre":
        ops.reveal(state, ev, player.centre, me, "centre", player=seat)
        return True
    # colony_top
    n = min(amount(state, ctx, eff.get("amount", 1)), len(player.colony))
    top = player.colony[:n]
    if "looked" not in frame:
        frame["looked"] = True
        ops.reveal(state, ev, top, me, "colony_top", player=seat)
    if eff.get("reorder") and n > 1:
        order = answer(frame, "o")
        if order is None:
            ask(state, me, "order_top", top, "o", n=n - 1, info={"first_is_top": True})
            return False
        rest = [c for c in top if c not in order]
        player.colony[:n] = order + rest
        emit(ev, "reorder", player=seat, cards=n)
    frame.pop("looked", None)
    return True


@executor("search_colony")
def _search_colony(state: GameState, frame: dict, eff, path, ev: list):
    """Like M8 (R 11.3.1) with a filter; then the colony is shuffled and cut."""
    ctx = frame["ctx"]
    me = ctx["ctrl"]
    player = state.players[me]
    picked = answer(frame, "s")
    if picked is None:
        top = player.colony[: eff["depth"]]
        ops.reveal(state, ev, top, me, "colony_top", player=me)
        options = [
            c
            for c in top
            if V.def_matches(state, state.defs[state.cards[c].code], eff.get("filter"))
        ]
        if options:
            ask(state, me, "search", options, "s", n=eff.get("amount", 1), minimum=0)
            return False
        picked = []
    for cid in picked:
        ops.relocate(state, state.cards[cid], "centre", ev, "search")
    clear_answers(frame)
    ops.shuffle_colony(state, me, ev)
    return True


@on_targets("destroy")
def _destroy(state: GameState, frame: dict, eff, ids: list, ev: list) -> None:
    for cid in ids:
        card = get_card(state, cid)
        if card is not None:
            ops.destroy(state, card, ev, frame["ctx"]["code"] or "destroy")


@on_targets("deal_damage")
def _deal_damage(state: GameState, frame: dict, eff, ids: list, ev: list) -> None:
    n = amount(state, frame["ctx"], eff["amount"])
    for cid in ids:
        card = get_card(state, cid)
        if card is not None:
            ops.deal_damage(state, card, n, ev, frame["ctx"]["code"] or "effect")
    ops.check_state(state, ev)


@on_targets("repair_damage")
def _repair_damage(state: GameState, frame: dict, eff, ids: list, ev: list) -> None:
    for cid in ids:
        card = state.cards[cid]
        if eff["amount"] == "all":
            card.damage = 0
        else:
            card.damage = max(0, card.damage - amount(state, frame["ctx"], eff["amount"]))
        state.armour_epoch += 1
        emit(ev, "repair", card=ops.pub(state, card), damage=card.damage)


@on_targets("neutralize")
def _neutralize(state: GameState, frame: dict, eff, ids: list, ev: list) -> None:
    """R 12.5: the card leaves the chain without effect; its credits are lost."""
    for cid in ids:
        card = get_card(state, cid)
        if card is not None and card.zone == "chain":
            ops.relocate(state, card, "trash", ev, "neutralized", face_up=True)
        elif card is not None:
            neutralize_payment(state, cid, ev)


def _set_upgrades(state: GameState, card, upgrades: int, ev: list) -> None:
    card.upgrades = upgrades
    state.upgrade_epoch += 1
    emit(ev, "upgrades", card=ops.pub(state, card), upgrades=upgrades)


@on_targets("add_upgrades")
def _add_upgrades(state: GameState, frame: dict, eff, ids: list, ev: list) -> None:
    n = amount(state, frame["ctx"], eff["amount"])
    for cid in ids:
        card = state.cards[cid]
        _set_upgrades(state, card, card.upgrades + n, ev)  # R 4.5.2: not among the 2 a turn


@on_targets("remove_upgrades")
def _remove_upgrades(state: GameState, frame: dict, eff, ids: list, ev: list) -> None:
    n = amount(state, frame["ctx"], eff["amount"])
    for cid in ids:
        card = state.cards[cid]
        _set_upgrades(state, card, max(0, card.upgrades - n), ev)


@on_targets("rotate")
def _rotate(state: GameState, frame: dict, eff, ids: list, ev: list) -> None:
    for cid in ids:
        ops.rotate(state, state.cards[cid], eff["to"], ev, frame["ctx"]["code"] or "effect")


@executor("return_to_centre")
def _return_to_centre(state: GameState, frame: dict, eff, path, ev: list):
    ctx = frame["ctx"]
    if eff.get("from") == "trash":
        picked = answer(frame, "t")
        if picked is None:
            options = V.candidates(state, eff["target"], ctx["ctrl"], ctx.get("src"), pile="trash")
            if not options:
                return True
            if len(options) > 1:
                ask(state, ctx["ctrl"], "return_to_centre", options, "t", n=1)
                return False
            picked = options
        for cid in picked:
            ops.relocate(state, state.cards[cid], "centre", ev, "return_to_centre")
        return True
    ids = resolve_targets(state, frame, eff, path)
    if ids is None:
        return False
    for cid in ids:
        card = state.cards[cid]
        ops.leave_with_attachments(state, card, ev, "returned")  # AMB-37
        ops.leave_combat(state, card)
        ops.relocate(state, card, "centre", ev, "return_to_centre")
    return True


@executor("attack_surcharge")
def _attack_surcharge(state: GameState, frame: dict, eff, path, ev: list):
    return True  # static only (engine.values.attack_surcharge)


@executor("cost_modifier")
def _cost_modifier(state: GameState, frame: dict, eff, path, ev: list):
    ctx = frame["ctx"]
    if eff["duration"] == "while_in_play":
        return True  # static: engine.values
    seat = ctx["ctrl"] if eff.get("player", "you") == "you" else _opp(state, ctx)
    mod = {
        "player": seat,
        "amount": eff["amount"],
        "filter": eff.get("filter"),
        "action": eff.get("action", "card"),
        "duration": eff["duration"],
    }
    state.cost_mods.append(mod)
    emit(ev, "cost_modifier", **mod)
    return True


@executor("end_combat")
def _end_combat(state: GameState, frame: dict, eff, path, ev: list):
    if state.combat is not None:
        state.combat["ended"] = True
        emit(ev, "end_combat")
    return True


@executor("choose_one")
def _choose_one(state: GameState, frame: dict, eff, path, ev: list):
    ctx = frame["ctx"]
    mode = ctx["modes"].get(path)
    if mode is None:
        picked = answer(frame, "m")
        if picked is None:
            ask(
                state,
                ctx["ctrl"],
                "mode",
                list(range(len(eff["options"]))),
                "m",
                info={"card": ctx["code"]},
            )
            return False
        mode = picked[0]
    emit(ev, "mode", card=ctx["code"], mode=mode)
    sub = dict(ctx, path=f"{path}.{mode}.")
    push(state, {"kind": "effects", "effects": eff["options"][mode], "i": 0, "ctx": sub})
    return True


@executor("python")
def _python(state: GameState, frame: dict, eff, path, ev: list):
    return PYTHON[eff["function"]](state, frame, eff, path, ev)


# --- registered Python functions (effects.PYTHON_FUNCTIONS) ---------------------------

PYTHON: Final[dict] = {}
python_function = _registrar(PYTHON)


@python_function("gain_control_of_ship")
def _gain_control(state: GameState, frame: dict, eff, path, ev: list):
    """Elmekontroll, Eltérítés: an enemy ship costing <= 6 (with attachments) is yours
    until the end of the turn (R 19.4); then it returns to its controller."""
    ctx = frame["ctx"]
    me = ctx["ctrl"]
    spec = {"kind": "ship", "owner": "opponent", "filter": {"cost_max": 6}}
    fake = {"effect": "python", "target": spec}
    ids = resolve_targets(state, frame, fake, path)
    if ids is None:
        return False
    for cid in ids:
        ship = state.cards[cid]
        old = ship.controller
        if old == me:
            continue
        ops.leave_combat(state, ship)
        state.players[old].hangar.remove(cid)
        state.players[me].hangar.append(cid)
        ship.controller = me
        for aid in ship.attachments:
            state.cards[aid].controller = me
        state.control.append([cid, old])
        emit(ev, "control", card=ops.pub(state, ship), controller=me)
    return True


def copyable_events(state: GameState, seat: int):
    out = []
    for cid in state.players[seat].trash:
        d = state.defs[state.cards[cid].code]
        if d["type"] != "event":
            continue
        if any(
            e.get("effect") == "python" and e.get("function") == "copy_event"
            for a in d.get("abilities") or ()
            for e in a["effects"]
        ):
            continue  # a copy of a copy could loop forever
        out.append(cid)
    return out


@python_function("copy_event")
def _copy_event(state: GameState, frame: dict, eff, path, ev: list):
    """Történelem ismétlése: carry out an event of your trash as if just played; it stays
    there. Its targets are chosen as it resolves."""
    ctx = frame["ctx"]
    me = ctx["ctrl"]
    picked = answer(frame, "c")
    if picked is None:
        options = copyable_events(state, me)
        if not options:
            return True
        if len(options) > 1:
            ask(state, me, "copy_event", options, "c", n=1)
            return False
        picked = options
    card = state.cards[picked[0]]
    emit(ev, "copy_event", card=ops.pub(state, card))
    abilities = [a for a in V.abilities(state, card) if a["trigger"] == "on_play"]
    for ability in abilities[::-1]:
        if V.condition_ok(state, ability.get("condition"), card, me):
            push(state, ops.effects_frame(ability["effects"], card, me))
    return True
