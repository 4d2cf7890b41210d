"""Announcing (R 12.2.1): an event, an interrupt, an activated ability or a payment goes
on the chain (the ``announce`` frame): what may be played or activated now, its modes and
targets chosen when it is played (R 1.6 needs a target that can be lost), then its cost
paid at that moment; a payment's resolution (R 6.8.4, R 4.5.8)."""

from . import ops
from . import table as T
from . import values as V
from .effects import targeted
from .flow import Handler, answer, ask, clear_answers, emit, pop, push, register, settle_targets
from .state import (
    IN_PLAY,
    CardInstance,
    GameState,
    get_card,
    in_play_list,
    new_id,
)

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
    emit(ev, "play", player=seat, card=ops.pub(state, card), type=d["type"])
    return _announce(state, seat, card, {"eid": card.id, "kind": "card", "card": card.id})


def start_ability(state: GameState, seat: int, card: CardInstance, index, ev: list) -> dict:
    emit(ev, "activate", player=seat, card=ops.pub(state, card), ability=index)
    head = {"eid": new_id(state), "kind": "ability", "source": card.id, "ability": index}
    return _announce(state, seat, card, head)


def _announce(state: GameState, seat: int, card: CardInstance, head: dict) -> dict:
    """Put the chain entry (`head` names what it is) on the chain and push its announcement."""
    entry = {**head, "code": card.code, "ctrl": seat, "cost": None, "targets": {}, "modes": {}}
    state.chain.append(entry)
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


class ToTrash(Handler):
    """After a research or trap resolved: it goes to its owner's trash."""

    kind = "to_trash"

    def run(self, state: GameState, frame: dict, ev: list):
        pop(state, frame)
        card = get_card(state, frame["card"])
        if card is not None and card.zone == "surface":
            ops.relocate(state, card, "trash", ev, "resolved", face_up=True)


register(ToTrash)


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
        settle_targets(state, frame, entry["targets"], ctrl, eff, options, path, "a", entry["code"])

    def _opponent_known(self, state: GameState, frame: dict, entry) -> bool:
        """R 17.1.3: before its targets, the user of a card or ability that names "the
        opponent" chooses which neighbour that is (only those the card can be announced
        against). False after asking."""
        if "opp" in entry:
            return True
        abilities = [a for _, a in entry_abilities(state, entry)]
        if not any(T.ability_mentions_opponent(a) for a in abilities):
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
        ] or T.opponent_choices(state, ctrl)[:1]  # (none: only a payment's own card gets here)
        return T.settle_opponent(state, frame, entry, ctrl, options, entry["code"])

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
                ops.leave_combat(state, source)
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
