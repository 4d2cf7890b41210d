"""Card effects, the chain and response windows (R 12; effect vocabulary of engine.effects).

- ``effects`` frames execute a card's structured effects in order, asking the
  right player whenever a choice is needed (one decision per pick).
- ``announce`` frames put an event, an interrupt or an activated ability on the
  chain: mode and targets are chosen when it is played (R 1.6 needs a target
  that can be lost), then its cost is paid at that moment (R 12.2.1).
- ``window`` frames let the players alternately add interrupts (or use
  abilities) or pass; two passes in a row resolve the chain last in, first out
  (R 12.2.2); after a non-empty chain resolved, a new window opens (AMB-13).

Every primitive of ``engine.effects.EFFECTS`` has an executor here; the two
``python`` escape-hatch functions are registered in ``PYTHON``.
"""

from typing import Final

from . import ops
from . import table as T
from . import values as V
from .actions import PASS, Action
from .flow import (
    Handler,
    answer,
    ask,
    clear_answers,
    emit,
    event,
    pop,
    push,
    register,
    wait,
)
from .state import (
    IN_PLAY,
    CardInstance,
    GameState,
    clockwise,
    get_card,
    in_play_list,
    live_seats,
    mark,
    marked_cards,
    new_id,
    next_seat,
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


def targeted(eff: dict) -> bool:
    """Is this effect's target chosen when the card is played (and so can be lost)?"""
    spec = eff.get("target")
    if not isinstance(spec, dict):
        return False
    if spec["kind"] in ("self", "carrier"):
        return False
    if spec.get("count", 1) == "all" or spec.get("chooser", "you") != "you":
        return False
    if eff["effect"] == "return_to_centre" and eff.get("from") == "trash":
        return False
    return True


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


def executor(name):
    def deco(fn):
        EXEC[name] = fn
        return fn

    return deco


@executor("modify_stat")
def _modify_stat(state: GameState, frame: dict, eff, path, ev: list):
    ids = resolve_targets(state, frame, eff, path)
    if ids is None:
        return False
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
    return True


@executor("grant_keyword")
def _grant_keyword(state: GameState, frame: dict, eff, path, ev: list):
    ids = resolve_targets(state, frame, eff, path)
    if ids is None:
        return False
    for cid in ids:
        card = state.cards[cid]
        card.grants.append([eff["keyword"], eff["duration"]])
        mark(state, card)
        emit(
            ev, "grant", card=ops.pub(state, card), keyword=eff["keyword"], duration=eff["duration"]
        )
    return True


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


@executor("destroy")
def _destroy(state: GameState, frame: dict, eff, path, ev: list):
    ids = resolve_targets(state, frame, eff, path)
    if ids is None:
        return False
    for cid in ids:
        card = get_card(state, cid)
        if card is not None:
            ops.destroy(state, card, ev, frame["ctx"]["code"] or "destroy")
    return True


@executor("deal_damage")
def _deal_damage(state: GameState, frame: dict, eff, path, ev: list):
    ids = resolve_targets(state, frame, eff, path)
    if ids is None:
        return False
    n = amount(state, frame["ctx"], eff["amount"])
    for cid in ids:
        card = get_card(state, cid)
        if card is not None:
            ops.deal_damage(state, card, n, ev, frame["ctx"]["code"] or "effect")
    ops.check_state(state, ev)
    return True


@executor("repair_damage")
def _repair_damage(state: GameState, frame: dict, eff, path, ev: list):
    ids = resolve_targets(state, frame, eff, path)
    if ids is None:
        return False
    for cid in ids:
        card = state.cards[cid]
        if eff["amount"] == "all":
            card.damage = 0
        else:
            card.damage = max(0, card.damage - amount(state, frame["ctx"], eff["amount"]))
        state.armour_epoch += 1
        emit(ev, "repair", card=ops.pub(state, card), damage=card.damage)
    return True


@executor("neutralize")
def _neutralize(state: GameState, frame: dict, eff, path, ev: list):
    """R 12.5: the card leaves the chain without effect; its credits are lost."""
    ids = resolve_targets(state, frame, eff, path)
    if ids is None:
        return False
    for cid in ids:
        card = get_card(state, cid)
        if card is not None and card.zone == "chain":
            ops.relocate(state, card, "trash", ev, "neutralized", face_up=True)
        elif card is not None:
            neutralize_payment(state, cid, ev)
    return True


@executor("add_upgrades")
def _add_upgrades(state: GameState, frame: dict, eff, path, ev: list):
    ids = resolve_targets(state, frame, eff, path)
    if ids is None:
        return False
    n = amount(state, frame["ctx"], eff["amount"])
    for cid in ids:
        card = state.cards[cid]
        card.upgrades += n  # R 4.5.2: effects do not count toward the 2 per turn
        state.upgrade_epoch += 1
        emit(ev, "upgrades", card=ops.pub(state, card), upgrades=card.upgrades)
    return True


@executor("remove_upgrades")
def _remove_upgrades(state: GameState, frame: dict, eff, path, ev: list):
    ids = resolve_targets(state, frame, eff, path)
    if ids is None:
        return False
    n = amount(state, frame["ctx"], eff["amount"])
    for cid in ids:
        card = state.cards[cid]
        card.upgrades = max(0, card.upgrades - n)
        state.upgrade_epoch += 1
        emit(ev, "upgrades", card=ops.pub(state, card), upgrades=card.upgrades)
    return True


@executor("rotate")
def _rotate(state: GameState, frame: dict, eff, path, ev: list):
    ids = resolve_targets(state, frame, eff, path)
    if ids is None:
        return False
    for cid in ids:
        ops.rotate(state, state.cards[cid], eff["to"], ev, frame["ctx"]["code"] or "effect")
    return True


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
        _leave_combat(state, card)
        ops.relocate(state, card, "centre", ev, "return_to_centre")
    return True


def _leave_combat(state: GameState, card: CardInstance):
    combat = state.combat
    if combat is not None:
        for key in ("attackers", "defenders", "bombers"):
            if card.id in combat[key]:
                combat[key].remove(card.id)


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


def python_function(name):
    def deco(fn):
        PYTHON[name] = fn
        return fn

    return deco


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
        _leave_combat(state, ship)
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


# --- the effects frame ----------------------------------------------------------------


class Effects(Handler):
    kind = "effects"

    def run(self, state: GameState, frame: dict, ev: list):
        if frame["i"] >= len(frame["effects"]):
            pop(state, frame)
            ops.check_state(state, ev)
            return
        if state.table is not None and frame["i"] == 0 and not self._opponent_known(state, frame):
            return
        eff = frame["effects"][frame["i"]]
        path = frame["ctx"]["path"] + str(frame["i"])
        if EXEC[eff["effect"]](state, frame, eff, path, ev):
            frame["i"] += 1
            clear_answers(frame)

    @staticmethod
    def _opponent_known(state: GameState, frame: dict) -> bool:
        """R 17.1.3 for abilities that trigger (their targets are chosen as they resolve):
        before the first effect, the card's user chooses which neighbour "the opponent" is.
        False after asking."""
        ctx = frame["ctx"]
        if "opp" in ctx or not T.mentions_opponent(frame["effects"]):
            return True
        picked = answer(frame, "opp")
        if picked is not None:
            clear_answers(frame)
            ctx["opp"] = picked[0]
            return True
        options = T.opponent_choices(state, ctx["ctrl"])
        if len(options) == 1:
            ctx["opp"] = options[0]
            return True
        ask(state, ctx["ctrl"], "opponent", options, "opp", info={"card": ctx["code"]})
        return False


register(Effects)


# --- announcing: modes and targets when played -------------------------------------------


def entry_abilities(state: GameState, entry) -> list:
    """(index, ability) pairs that an entry on the chain resolves."""
    d = state.defs[entry["code"]]
    if entry["kind"] == "ability":
        return [(entry["ability"], d["abilities"][entry["ability"]])]
    return [(i, a) for i, a in enumerate(d.get("abilities") or ()) if a["trigger"] == "on_play"]


def _needs(effects, prefix, modes, targets):
    """The first (path, effect, what) still to be chosen at announcement."""
    for j, eff in enumerate(effects):
        path = f"{prefix}{j}"
        if eff["effect"] == "choose_one":
            mode = modes.get(path)
            if mode is None:
                return path, eff, "mode"
            found = _needs(eff["options"][mode], f"{path}.{mode}.", modes, targets)
            if found:
                return found
        elif targeted(eff) and path not in targets:
            return path, eff, "target"
    return None


def _announceable(state: GameState, effects, ctrl, sid, credits_left, variable, opp=None):
    """Can these effects be announced (every chosen target available)? `opp`: "the
    opponent" chosen at a multiplayer table (None: either neighbour would do)."""
    for eff in effects:
        if eff["effect"] == "choose_one":
            if not any(
                _announceable(state, opt, ctrl, sid, credits_left, variable, opp)
                for opt in eff["options"]
            ):
                return False
        elif targeted(eff):
            if not _target_options(state, eff, ctrl, sid, credits_left, variable, opp):
                return False
    return True


def _target_options(state: GameState, eff, ctrl, sid, credits_left, variable, opp=None):
    legal = V.candidates(state, eff["target"], ctrl, sid, targeted=True, opp=opp)
    if variable is not None:  # Felülbírálás: its cost equals the target's cost
        card = state.cards[sid] if sid is not None else None
        legal = [
            t
            for t in legal
            if V.card_cost(state, ctrl, card, V.chain_cost(state, state.cards[t])) <= credits_left  # type: ignore[arg-type]
        ]
    return legal


def can_play_card(state: GameState, seat: int, card: CardInstance) -> bool:
    """An event/interrupt from the centre: affordable and every target available."""
    d = state.defs[card.code]
    variable = None if isinstance(d["credit_cost"], int) else d["credit_cost"]
    credits = state.players[seat].credits
    if variable is None and V.card_cost(state, seat, card) > credits:
        return False
    if state.table is not None:
        return _playable_at_a_table(state, seat, card, d, credits, variable)
    for ability in d.get("abilities") or ():
        if ability["trigger"] == "on_play" and not _announceable(
            state, ability["effects"], seat, card.id, credits, variable
        ):
            return False
    return True


def _playable_at_a_table(
    state: GameState, seat: int, card: CardInstance, d, credits, variable
) -> bool:
    """can_play_card at a multiplayer table: every target available against some choice of
    "the opponent" (R 17.1.3)."""
    abilities = [a for a in d.get("abilities") or () if a["trigger"] == "on_play"]
    return any(
        all(
            _announceable(state, a["effects"], seat, card.id, credits, variable, opp)
            for a in abilities
        )
        for opp in _opponents_to_try(state, seat, abilities)
    )


def _opponents_to_try(state: GameState, seat: int, abilities) -> tuple:
    """The choices of "the opponent" a card could be announced with: (None,) in a
    two-player game or when no ability names one; else each neighbour (R 17.1.3)."""
    if state.table is None or not any(T.ability_mentions_opponent(a) for a in abilities):
        return (None,)
    return tuple(T.opponent_choices(state, seat))


def can_activate(state: GameState, seat: int, card: CardInstance, index) -> bool:
    """R 12.8 / 6.5: a paid card's activated ability, costs payable, targets available."""
    if card.controller != seat or not V.effective(state, card):
        return False
    ability = V.abilities(state, card)[index]
    cost = ability.get("cost", {})
    if ("rotate" in cost or "sacrifice" in cost) and card.orientation != "active":
        return False
    d = state.defs[card.code]
    if "rotate" in cost and card.attached_to is not None and d["subtype"] == "passenger":
        return False  # R 4.4.7c / AMB-15
    if cost.get("credits", 0) > state.players[seat].credits:
        return False
    if cost.get("remove_upgrades", 0) > card.upgrades:
        return False
    if "discard_from_centre" in cost:
        return False  # not implemented yet (no first-edition card has this cost)
    timing = ability.get("timing", "any")
    if timing != "any":
        combat = state.combat
        step = combat and combat.get("step")
        ok = {
            "main_phase": state.phase == "main" and combat is None,
            "combat": combat is not None,
            "firing_step": step == "firing",
            "bombardment_step": step == "bombard",
        }[timing]
        if not ok:
            return False
    credits = state.players[seat].credits
    if state.table is None:
        return _announceable(state, ability["effects"], seat, card.id, credits, None)
    return any(
        _announceable(state, ability["effects"], seat, card.id, credits, None, opp)
        for opp in _opponents_to_try(state, seat, (ability,))
    )


def activatable(state: GameState, seat: int):
    """(card id, ability index) pairs `seat` can use now."""
    out: list = []
    if not V.may_activate(state, seat):  # a quick look at the few cards that could
        return out
    activated = V.state_info(state).activated  # code -> indices of activated abilities
    for card in in_play_list(state, seat):
        if card.paid and card.code in activated:
            for i in activated[card.code]:
                if can_activate(state, seat, card, i):
                    out.append((card.id, i))
    return out


def start_card(state: GameState, seat: int, card: CardInstance, ev: list) -> dict:
    """Move an event/interrupt to the chain and push its announcement."""
    d = state.defs[card.code]
    card = ops.relocate(state, card, "chain", ev, "play", face_up=True)
    entry = {
        "eid": card.id,
        "kind": "card",
        "card": card.id,
        "code": card.code,
        "ctrl": seat,
        "cost": None,
        "targets": {},
        "modes": {},
    }
    state.chain.append(entry)
    emit(ev, "play", player=seat, card=ops.pub(state, card), type=d["type"])
    return push(state, {"kind": "announce", "eid": entry["eid"]})


def start_ability(state: GameState, seat: int, card: CardInstance, index, ev: list) -> dict:
    entry = {
        "eid": new_id(state),
        "kind": "ability",
        "source": card.id,
        "ability": index,
        "code": card.code,
        "ctrl": seat,
        "cost": None,
        "targets": {},
        "modes": {},
    }
    state.chain.append(entry)
    emit(ev, "activate", player=seat, card=ops.pub(state, card), ability=index)
    return push(state, {"kind": "announce", "eid": entry["eid"]})


def announce_payment(
    state: GameState, seat: int, card: CardInstance, ev: list, why="pay", statics=None
) -> int:
    """R 11.3.2 / R 12.1b: paying a base, crew or armament is an interrupt. The credits
    go now (R 12.2.1) and the card turns face up (R 6.8.4); the payment sits on the
    chain and takes effect when it resolves (``finish_payment``). Returns the chain
    length below it (the caller opens the response window on it)."""
    base = len(state.chain)
    cost = V.card_cost(state, seat, card, statics=statics)
    ops.spend(state, seat, cost, ev, why)
    V.consume_next(state, seat, state.defs[card.code], "card")
    card.face_up = True
    entry = {
        "eid": new_id(state),
        "kind": "payment",
        "card": card.id,
        "code": card.code,
        "ctrl": seat,
        "cost": cost,
        "targets": {},
        "modes": {},
    }
    state.chain.append(entry)
    emit(ev, "pay", player=seat, card=ops.pub(state, card), cost=cost, eid=entry["eid"])
    return base


def finish_payment(state: GameState, entry, ev: list) -> None:
    """The payment resolves: the card is paid (X locked for a base, R 4.5.5 / AMB-17);
    a research or trap base acts and goes to the trash (R 4.5.8, AMB-16)."""
    card = get_card(state, entry["card"])
    if card is None or card.zone not in IN_PLAY or card.paid:
        emit(ev, "lost_target", eid=entry["eid"], code=entry["code"])  # R 1.6
        return
    card.paid = True
    state.card_epoch += 1
    if card.slot == "base":
        card.x = card.upgrades
    emit(ev, "paid", player=entry["ctrl"], card=ops.pub(state, card), cost=entry["cost"])
    d = state.defs[card.code]
    if d["type"] == "base" and d["subtype"] in ("research", "trap"):
        push(state, {"kind": "to_trash", "card": card.id})
    ops.push_trigger(state, card, "on_pay")


def neutralize_payment(state: GameState, cid, ev: list) -> bool:
    """AMB-14 (b): a neutralised payment is cancelled: the credits are lost, the card stays
    in play unpaid and face down. With ``neutralize_payment_removes_card`` (the AMB-14
    alternative) the card leaves play for its owner's trash (R 12.5)."""
    for entry in state.chain:
        if entry["kind"] == "payment" and entry["card"] == cid:
            state.chain.remove(entry)
            card = state.cards[cid]
            emit(ev, "neutralized", eid=entry["eid"], card=ops.pub(state, card), payment=True)
            if state.ruleset.neutralize_payment_removes_card:
                ops.relocate(state, card, "trash", ev, "neutralized", face_up=True)
            else:
                card.face_up = False
            return True
    return False


def find_entry(state: GameState, eid):
    for entry in state.chain:
        if entry["eid"] == eid:
            return entry
    return None


class Announce(Handler):
    kind = "announce"

    def run(self, state: GameState, frame: dict, ev: list):
        entry = find_entry(state, frame["eid"])
        ctrl = entry["ctrl"]
        if state.table is not None and not self._opponent_known(state, frame, entry):
            return
        opp = entry.get("opp")
        picked = answer(frame, "a")
        pending = frame.get("need")
        if picked is not None and pending is not None:
            path, what = pending
            if what == "mode":
                entry["modes"][path] = picked[0]
            else:
                entry["targets"][path] = list(picked)
            clear_answers(frame)
            frame.pop("need", None)
            return
        found = None
        for index, ability in entry_abilities(state, entry):
            found = _needs(ability["effects"], f"{index}.", entry["modes"], entry["targets"])
            if found:
                break
        if found is None:
            self._finish(state, frame, entry, ev)
            return
        path, eff, what = found
        frame["need"] = [path, what]
        sid = entry.get("card")
        if what == "mode":
            options = [
                i
                for i, opt in enumerate(eff["options"])
                if _announceable(
                    state,
                    opt,
                    ctrl,
                    sid,
                    state.players[ctrl].credits,
                    self._variable(state, entry),
                    opp,
                )
            ]
            if len(options) == 1:
                entry["modes"][path] = options[0]
                frame.pop("need")
                return
            ask(state, ctrl, "mode", options, "a", info={"card": entry["code"]})
            return
        options = _target_options(
            state, eff, ctrl, sid, state.players[ctrl].credits, self._variable(state, entry), opp
        )
        n = min(eff["target"].get("count", 1), len(options))
        if n == len(options):
            entry["targets"][path] = options
            frame.pop("need")
            return
        ask(
            state,
            ctrl,
            "target",
            options,
            "a",
            n=n,
            info={"effect": eff["effect"], "card": entry["code"]},
        )

    def _opponent_known(self, state: GameState, frame: dict, entry) -> bool:
        """R 17.1.3: before its targets, the user of a card or ability that names "the
        opponent" chooses which neighbour that is (only those the card can be announced
        against). False after asking."""
        if "opp" in entry:
            return True
        abilities = [a for _, a in entry_abilities(state, entry)]
        if not any(T.ability_mentions_opponent(a) for a in abilities):
            return True
        picked = answer(frame, "opp")
        if picked is not None:
            clear_answers(frame)
            entry["opp"] = picked[0]
            return True
        ctrl = entry["ctrl"]
        sid = entry.get("card")
        credits = state.players[ctrl].credits
        variable = self._variable(state, entry)
        options = [
            opp
            for opp in T.opponent_choices(state, ctrl)
            if all(
                _announceable(state, a["effects"], ctrl, sid, credits, variable, opp)
                for a in abilities
            )
        ]
        if len(options) <= 1:  # (none: only a payment's own card could have got here)
            entry["opp"] = options[0] if options else T.opponent_choices(state, ctrl)[0]
            return True
        ask(state, ctrl, "opponent", options, "opp", info={"card": entry["code"]})
        return False

    @staticmethod
    def _variable(state: GameState, entry):
        if entry["kind"] != "card":
            return None
        cost = state.defs[entry["code"]]["credit_cost"]
        return None if isinstance(cost, int) else cost

    def _finish(self, state: GameState, frame: dict, entry, ev: list):
        ctrl = entry["ctrl"]
        if entry["kind"] == "card":
            card = state.cards[entry["card"]]
            target_cost = 0
            if self._variable(state, entry) is not None:
                ids = [t for ts in entry["targets"].values() for t in ts]
                target_cost = V.chain_cost(state, state.cards[ids[0]]) if ids else 0
            cost = V.card_cost(state, ctrl, card, target_cost)
            ops.spend(state, ctrl, cost, ev, "play")
            V.consume_next(state, ctrl, state.defs[card.code], "card")
            entry["cost"] = cost
        else:
            source = state.cards[entry["source"]]
            # (not `cost`: an int above; the compiled engine holds a variable to one type)
            paid = V.abilities(state, source)[entry["ability"]].get("cost", {})
            ops.spend(state, ctrl, paid.get("credits", 0), ev, "ability")
            if "remove_upgrades" in paid:
                source.upgrades -= paid["remove_upgrades"]
                state.upgrade_epoch += 1
                emit(ev, "upgrades", card=ops.pub(state, source), upgrades=source.upgrades)
            if "rotate" in paid:
                ops.rotate(state, source, paid["rotate"], ev, "cost")
            if paid.get("sacrifice") and source.zone in IN_PLAY:  # R 6.6
                ops.leave_with_attachments(state, source, ev, "sacrifice")
                _leave_combat(state, source)
                ops.relocate(state, source, "trash", ev, "sacrifice", face_up=True)
            entry["cost"] = paid.get("credits", 0)
        emit(
            ev,
            "announce",
            player=ctrl,
            eid=entry["eid"],
            code=entry["code"],
            targets=entry["targets"],
            modes=entry["modes"],
        )
        pop(state, frame)


register(Announce)


# --- response windows and resolution ---------------------------------------------------------

WINDOW_SUBTYPES: Final = {
    "start": ("start", "reaction"),  # R 4.7.3.1
    "main": ("general", "reaction"),  # R 4.7.3.4
    "declare": ("general", "combat", "reaction"),  # R 11.4.1.2
    "combat": ("combat", "reaction"),  # R 4.7.3.2
}


def playable_interrupts(state: GameState, seat: int, scope):
    allowed = WINDOW_SUBTYPES[scope]
    out = []
    for cid in state.players[seat].centre:
        card = state.cards[cid]
        d = state.defs[card.code]
        if (
            d["type"] == "interrupt"
            and d["subtype"] in allowed
            and can_play_card(state, seat, card)
        ):
            out.append(cid)
    return out


def open_window(state: GameState, first: int, scope: str, base: int | None = None) -> dict:
    return push(
        state,
        {
            "kind": "window",
            "to_act": first,
            "passes": 0,
            "scope": scope,
            "base": len(state.chain) if base is None else base,
        },
    )


def _players_in(state: GameState) -> int:
    """How many must pass in a row to close a window: every player still in the game."""
    return len(state.players) if state.table is None else len(live_seats(state))


def _may_respond(state: GameState, frame: dict, seat: int) -> bool:
    """Every player still in the game may respond (R 12.2; docs/rulings.md); with
    ``responders="combatants"`` only the attacker and defender inside a combat."""
    if state.table is None or state.ruleset.responders == "all":
        return True
    combat = state.combat
    if frame["scope"] not in ("declare", "combat") or combat is None:
        return True
    return seat in (combat["attacker"], combat["defender"])


def _combat_over(state: GameState, frame: dict):
    return frame["scope"] in ("declare", "combat") and (
        state.combat is None or state.combat.get("ended")
    )


class Window(Handler):
    kind = "window"

    def run(self, state: GameState, frame: dict, ev: list):
        # the frame's counts read as ints: compiled, compared and added natively
        passes: int = frame["passes"]
        if passes >= _players_in(state) or (  # all passed in a row (docs/rulings.md)
            _combat_over(state, frame) and len(state.chain) <= frame["base"]
        ):
            base: int = frame["base"]
            if len(state.chain) > base:
                push(state, {"kind": "resolve", "base": base, "current": None})
                frame["passes"] = 0
                frame["to_act"] = state.active
                return
            pop(state, frame)
            return
        seat: int = frame["to_act"]
        # Auto-pass only on public information (NOTES.md): an empty centre and no ability
        # (or, with responders="combatants", a player outside the combat).
        if (not state.players[seat].centre and not activatable(state, seat)) or not _may_respond(
            state, frame, seat
        ):
            frame["passes"] = passes + 1
            frame["to_act"] = next_seat(state, seat)
            return
        wait(frame, seat, "respond")

    def legal(self, state: GameState, frame: dict):
        seat = frame["to_act"]
        out = [PASS]
        out += [
            Action.make("play", card=c) for c in playable_interrupts(state, seat, frame["scope"])
        ]
        out += [Action.make("activate", card=c, ability=i) for c, i in activatable(state, seat)]
        return out

    def act(self, state: GameState, frame: dict, action: Action, ev: list):
        seat: int = frame["to_act"]
        frame["to_act"] = next_seat(state, seat)
        if action.kind == "pass":
            passes: int = frame["passes"]
            frame["passes"] = passes + 1
            event(ev, "pass", {"player": seat})
            return
        frame["passes"] = 0
        if state.table is not None and state.ruleset.response_order == "from_active":
            frame["to_act"] = next_seat(state, state.active)  # the round starts again
        if action.kind == "play":
            start_card(state, seat, state.cards[action.get("card")], ev)
        else:
            start_ability(state, seat, state.cards[action.get("card")], action.get("ability"), ev)

    def info(self, state: GameState, frame: dict):
        return {"scope": frame["scope"], "chain": len(state.chain)}


register(Window)


class Resolve(Handler):
    """R 12.2.2: resolve the chain down to `base`, last in first out."""

    kind = "resolve"

    def run(self, state: GameState, frame: dict, ev: list):
        current = frame["current"]
        if current is not None:
            entry = find_entry(state, current)
            frame["current"] = None
            if entry is not None:
                self._done(state, entry, ev)
            return
        if len(state.chain) <= frame["base"]:
            pop(state, frame)
            return
        entry = state.chain[-1]
        if entry["kind"] == "payment":
            emit(ev, "resolve", eid=entry["eid"], code=entry["code"], player=entry["ctrl"])
            state.chain.pop()
            finish_payment(state, entry, ev)
            return
        abilities = entry_abilities(state, entry)
        chosen = [t for ts in entry["targets"].values() for t in ts]
        if chosen and not any(alive(state, t) for t in chosen):
            emit(ev, "lost_target", eid=entry["eid"], code=entry["code"])  # R 1.6
            self._done(state, entry, ev)
            return
        frame["current"] = entry["eid"]
        emit(ev, "resolve", eid=entry["eid"], code=entry["code"], player=entry["ctrl"])
        if entry["kind"] == "ability":
            source = get_card(state, entry["source"])
        else:
            source = get_card(state, entry["card"])
        opp = entry.get("opp")
        for index, ability in abilities[::-1]:
            if not V.condition_ok(state, ability.get("condition"), source, entry["ctrl"], opp):
                continue
            ctx = {
                "src": source.id if source is not None else None,
                "code": entry["code"],
                "ctrl": entry["ctrl"],
                "x": None,
                "targets": entry["targets"],
                "modes": entry["modes"],
                "path": f"{index}.",
            }
            if "opp" in entry:  # the neighbour chosen when it was played (R 17.1.3)
                ctx["opp"] = opp
            push(state, {"kind": "effects", "effects": ability["effects"], "i": 0, "ctx": ctx})

    @staticmethod
    def _done(state: GameState, entry, ev: list):
        if entry in state.chain:
            state.chain.remove(entry)
        if entry["kind"] == "card":
            card = get_card(state, entry["card"])
            if card is not None and card.zone == "chain":
                ops.relocate(state, card, "trash", ev, "resolved", face_up=True)  # R 14.6


register(Resolve)


def expire_cards(cards, durations: tuple) -> None:
    """The card part of ``expire``, for `cards` (those with modifiers, or more)."""
    for card in cards:
        if card.mods:
            card.mods = [m for m in card.mods if m[2] not in durations]
        if card.grants:
            card.grants = [g for g in card.grants if g[1] not in durations]


def expire(state: GameState, duration: str, *more: str) -> None:
    """End modifiers of a duration (this_shot, until_end_of_combat, until_end_of_turn);
    several durations at once are the same as one call for each."""
    durations = (duration, *more)
    expire_cards([c for c in marked_cards(state) if c.mods or c.grants], durations)
    state.armour_epoch += 1  # modifiers gone
    if "until_end_of_turn" in durations:
        state.cost_mods = [
            m for m in state.cost_mods if m["duration"] not in ("until_end_of_turn", "next")
        ]
