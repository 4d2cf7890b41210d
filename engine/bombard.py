"""The bombardment step (R 11.4.5): the bombers designated (ordnance, R 13.9), a response
window, the bombardment, the bombers turned used; and one bombardment, the ``bombard``
frame (also a stealth ship's, R 13.6): the total of the bombers, what it does to each kind
of target, the trap the defender may pay (R 4.5.9), the bombers' abilities when it
succeeds (R 11.4.5.8)."""

from . import ops
from . import values as V
from .actions import DONE, Action, choose
from .combat_base import Step, can_ordnance, in_hangar, ordnance, participants, pay_card
from .flow import Handler, answer, ask, clear_answers, emit, pop, push, register, wait
from .resolve import open_window
from .state import CardInstance, GameState, get_card


def bombard_frame(bombers: list, stealth: bool) -> dict:
    """The frame of a bombardment by `bombers` (the combat's, or one stealth ship)."""
    return {"kind": "bombard", "bombers": bombers, "stealth": stealth, "step": "start"}


class SelectBombers(Step):
    """R 11.4.5.1: the attacker designates its bombers among its active attacking ships
    (ordnance, R 13.9, on a designated one)."""

    def run(self, state: GameState, frame: dict, ev: list) -> None:
        if len(self.legal(state, frame)) > 1:  # more than "done"
            wait(frame, state.combat["attacker"], "bombers")
        else:
            frame["step"] = "bombard"

    def legal(self, state: GameState, frame: dict) -> list:
        combat: dict = state.combat
        out = [
            choose(c.id)
            for c in participants(state, combat["attacker"])
            if c.orientation == "active" and c.id not in combat["bombers"]
        ]
        for cid in combat["bombers"]:
            ship = in_hangar(state, cid)
            if ship is not None and can_ordnance(state, ship):
                out.append(Action.make("ordnance", ship=cid))
        return out + [DONE]

    def act(self, state: GameState, frame: dict, action: Action, ev: list) -> None:
        combat: dict = state.combat
        kind = action.kind
        if kind == "done":
            frame["step"] = "bombard"
        elif kind == "choose":
            combat["bombers"].append(action.get("value"))
            emit(
                ev, "designate", player=combat["attacker"], ship=action.get("value"), role="bomber"
            )
        elif kind == "ordnance":
            ordnance(state, state.cards[action.get("ship")], ev)


class BombardWindow(Step):
    """R 11.4.5: a response window before the bombs fall (when a bomber is still there)."""

    def run(self, state: GameState, frame: dict, ev: list) -> None:
        combat: dict = state.combat
        att = combat["attacker"]
        if any(in_hangar(state, cid, att) for cid in combat["bombers"]):
            open_window(state, att, "combat")
        frame["step"] = "bombard_go"


class Bombs(Step):
    """R 11.4.5.1: the bombers still there bombard together (engine.bombard)."""

    def run(self, state: GameState, frame: dict, ev: list) -> None:
        combat: dict = state.combat
        frame["step"] = "bombard_end"
        bombers = [cid for cid in combat["bombers"] if in_hangar(state, cid, combat["attacker"])]
        if bombers:
            push(state, bombard_frame(bombers, stealth=False))
        else:
            emit(ev, "no_bombardment")


class BombersUsed(Step):
    """R 11.4.5.7: every designated bomber turns used."""

    def run(self, state: GameState, frame: dict, ev: list) -> None:
        for cid in state.combat["bombers"]:
            ship = in_hangar(state, cid)
            if ship is not None and ship.orientation == "active":
                ops.rotate(state, ship, "used", ev, "bombed")
        frame["step"] = "disarm"


class Bombard(Handler):
    kind = "bombard"

    def run(self, state: GameState, frame: dict, ev: list):
        combat: dict = state.combat
        step: str = frame["step"]
        dfn = combat["defender"]
        if step == "start":
            bombers = [in_hangar(state, c) for c in frame["bombers"]]
            total = sum(V.stat(state, b, "bombardment") for b in bombers if b is not None)
            frame["total"] = total
            frame["success"] = False
            target = combat["target"]
            emit(
                ev,
                "bombard",
                bombers=frame["bombers"],
                total=total,
                target=target["kind"],
                stealth=frame["stealth"],
            )
            kind = target["kind"]
            frame["step"] = "after"
            if kind == "colony":  # R 11.4.5.2
                frame["success"] = ops.discard_top(state, dfn, total, ev, "bombardment") > 0
            elif kind == "centre":  # R 11.4.5.3
                centre = state.players[dfn].centre
                if total >= 2 and centre:
                    frame["step"] = "centre"
                    if len(centre) == 1:
                        frame.setdefault("answers", {})["c"] = list(centre)
                    else:
                        ask(state, dfn, "discard", list(centre), "c", n=1)
            elif kind == "crew":  # R 11.4.5.4, AMB-48
                card = get_card(state, target["card"])
                if card is not None and card.zone == "canteen" and total >= 2:
                    ops.destroy(state, card, ev, "bombardment")
                    frame["success"] = True
            elif kind == "base":
                card = get_card(state, target["card"])
                if card is None or card.zone != "surface":
                    return
                if not card.paid:  # R 11.4.5.5
                    if total >= 2:
                        if not frame["stealth"] or state.ruleset.trap_payable_vs_stealth:
                            frame["step"] = "trap"  # always asked: no leak (R 6.10.2)
                        else:
                            ops.destroy(state, card, ev, "bombardment")
                            frame["success"] = True
                elif total >= 1:  # R 11.4.5.6
                    if total >= V.armour_left(state, card):
                        ops.destroy(state, card, ev, "bombardment")
                        frame["success"] = True
                    else:
                        ops.deal_damage(state, card, total, ev, "bombardment")
        elif step == "centre":
            picked = answer(frame, "c")
            clear_answers(frame)
            for cid in picked:
                ops.relocate(state, state.cards[cid], "wasteland", ev, "bombardment")
            frame["success"] = True
            frame["step"] = "after"
        elif step == "trap":
            card = get_card(state, combat["target"]["card"])
            if card is None or card.zone != "surface":
                frame["step"] = "after"
                return
            wait(frame, dfn, "trap")
        elif step == "trap_paid":  # AMB-14 (b): a neutralised payment leaves the trap unpaid
            frame["step"] = "after"
            card = get_card(state, combat["target"]["card"])
            if card is not None and card.zone == "surface" and not card.paid:
                ops.destroy(state, card, ev, "bombardment")
                frame["success"] = True
        elif step == "after":
            pop(state, frame)
            if frame["success"]:
                emit(ev, "bombard_success", target=combat["target"]["kind"])
                for cid in frame["bombers"][::-1]:
                    ship = in_hangar(state, cid)
                    if ship is None:
                        continue
                    for aid in ship.attachments[::-1]:
                        att = state.cards[aid]
                        if V.effective(state, att):
                            ops.push_trigger(state, att, "on_bombard")
                    ops.push_trigger(state, ship, "on_bombard")

    def legal(self, state: GameState, frame: dict):
        card = state.cards[state.combat["target"]["card"]]
        out = [Action.make("decline")]
        if trap_payable(state, card):
            out.insert(0, Action.make("pay", card=card.id))
        return out

    def check(self, state: GameState, frame: dict, action: Action):
        if action in self.legal(state, frame):
            return None
        if action.kind == "pay":
            return "NOT_A_PAYABLE_TRAP"
        return "NOT_A_LEGAL_CHOICE"

    def act(self, state: GameState, frame: dict, action: Action, ev: list):
        combat: dict = state.combat
        card = state.cards[combat["target"]["card"]]
        frame["step"] = "after"
        if action.kind == "pay":  # R 4.5.9: the trap acts, then goes to the trash
            frame["step"] = "trap_paid"
            pay_card(state, card.controller, card, ev, "trap")
        else:
            emit(ev, "decline", player=combat["defender"])
            ops.destroy(state, card, ev, "bombardment")
            frame["success"] = True

    def info(self, state: GameState, frame: dict):
        return {"total": frame.get("total")}


register(Bombard)


def trap_payable(state: GameState, card: CardInstance) -> bool:
    """R 4.5.9 / AMB-16: a real trap, numeric upgrade limit met, affordable."""
    d = state.defs[card.code]
    if card.paid or card.slot != "base" or d["type"] != "base" or d["subtype"] != "trap":
        return False
    limit = d.get("upgrade_limit")
    if isinstance(limit, int) and card.upgrades < limit:
        return False
    return V.card_cost(state, card.controller, card) <= state.players[card.controller].credits
