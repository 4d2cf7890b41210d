"""The firing step (R 11.4.4, AMB-20): who acts by speed, fire, abilities and passes, the
end of the firing (R 11.4.4.8); and one shot, the ``shot`` frame (R 11.4.4.6): the
target's answer (return fire, stealth, heavy weapons), burst fire (R 13.4) and formation
(R 13.5) sharing out damage, then the damage dealt at once; ``distribute`` is a damage
distribution, one point per decision."""

from . import ops
from . import values as V
from .actions import PASS, Action
from .bombard import bombard_frame
from .combat_base import (
    Step,
    can_heavy_weapons,
    eligible,
    foe,
    heavy_weapons,
    in_hangar,
    participants,
    speed,
)
from .flow import Handler, answer, clear_answers, emit, event, pop, push, register, wait
from .resolve import expire, open_window
from .state import GameState


def shot_frame(shooter: int, target: int) -> dict:
    """The frame of a shot declared by the firing step (R 11.4.4.6.1)."""
    return {
        "kind": "shot",
        "shooter": shooter,
        "target": target,
        "step": "respond",
        "returned": False,
    }


def distribute_frame(player: int, points: int, caps: list, rest, store: str) -> dict:
    """`player` shares out `points` of damage over [ship id, cap] pairs, one point a decision
    (burst fire: `rest` None; formation: `rest` the ship that keeps what is not moved)."""
    return {
        "kind": "distribute",
        "player": player,
        "points": points,
        "caps": caps,
        "assigned": [],
        "rest": rest,
        "store": store,
    }


class Firing(Step):
    """R 11.4.4 (AMB-20): priority by speed, the acting side fires, uses an ability or passes,
    until both pass in succession; R 17.2.2's simplified combat alternates instead."""

    def run(self, state: GameState, frame: dict, ev: list) -> None:
        decided = self._decider(state)
        if decided is None:
            frame["step"] = "end_firing"
            return
        actions = self.legal(state, frame)
        if len(actions) == 1:  # only "pass": known from public information
            self.act(state, frame, actions[0], ev)
            return
        wait(frame, decided[0], "fire")

    def legal(self, state: GameState, frame: dict) -> list:
        decided = self._decider(state)
        if decided is None:
            return []
        seat, free = decided
        combat: dict = state.combat
        ships = self._acting_ships(state, seat, free)
        targets = participants(state, foe(combat, seat))
        if state.ruleset.cloak_blocks_fire:
            targets = [t for t in targets if "cloak" not in V.keywords(state, t)]
        out = []
        for ship in ships:
            for target in targets:
                out.append(Action.cached("fire", "ship", ship.id, "target", target.id))
            kws = V.keywords(state, ship)
            if "stealth" in kws and seat == combat["attacker"]:
                out.append(Action.cached("stealth", "ship", ship.id))
            if can_heavy_weapons(state, ship):
                out.append(Action.cached("heavy_weapons", "ship", ship.id))
        out.append(PASS)
        return out

    def refusal(self, action: Action) -> str:
        return "NO_PRIORITY_OR_BAD_TARGET" if action.kind == "fire" else "NOT_A_LEGAL_CHOICE"

    def act(self, state: GameState, frame: dict, action: Action, ev: list) -> None:
        combat: dict = state.combat
        decided = self._decider(state)
        assert decided is not None  # an action is legal: someone acts
        seat = decided[0]
        kind = action.kind
        if kind == "pass":
            event(ev, "pass", {"player": seat})
            if combat["passed_by"] is None:
                combat["passed_by"] = seat
            else:  # R 11.4.4.5: both passed in succession
                frame["step"] = "end_firing"
            return
        if kind == "heavy_weapons":
            heavy_weapons(state, state.cards[action.get("ship")], ev)
            return
        combat["passed_by"] = None
        if state.ruleset.simplified_combat:
            combat["next_seat"] = foe(combat, seat)  # R 17.2.2: the other side fires next
        ship = state.cards[action.get("ship")]
        if kind == "stealth":
            emit(ev, "stealth", ship=ship.id)
            ops.rotate(state, ship, "used", ev, "stealth")  # R 13.6: then it turns used
            push(state, bombard_frame([ship.id], stealth=True))
            return
        target = state.cards[action.get("target")]
        emit(ev, "fire", shooter=ship.id, target=target.id)
        if state.ruleset.rotate_shooter_on_declare:  # AMB-21
            ops.rotate(state, ship, "used", ev, "fired")
        push(state, shot_frame(ship.id, target.id))

    @staticmethod
    def _decider(state: GameState):
        """(seat, free) of the player to act now, or None when firing is over."""
        combat: dict = state.combat
        att, dfn = combat["attacker"], combat["defender"]
        if combat["passed_by"] is not None:
            return foe(combat, combat["passed_by"]), True
        if state.ruleset.simplified_combat:  # R 17.2.2: alternate, attacker first, no speed
            first = combat.get("next_seat", att)
            for seat in (first, foe(combat, first)):
                if eligible(state, seat):
                    return seat, True
            return None
        ea, ed = eligible(state, att), eligible(state, dfn)
        if not ea and not ed:
            return None
        if not ed:
            return att, True
        if not ea:
            return dfn, True
        fa = max(speed(state, s) for s in ea)
        fd = max(speed(state, s) for s in ed)
        return (att, False) if fa >= fd else (dfn, False)  # R 11.4.4.2: ties -> attacker

    @staticmethod
    def _acting_ships(state: GameState, seat: int, free) -> list:
        """R 11.4.4.3: the ships that would win priority (all of them when it is free)."""
        combat: dict = state.combat
        mine = eligible(state, seat)
        if free:
            return mine
        theirs = eligible(state, foe(state.combat, seat))
        top = max(speed(state, s) for s in theirs)
        attacker = seat == combat["attacker"]
        return [s for s in mine if speed(state, s) > top or (attacker and speed(state, s) == top)]


class EndFiring(Step):
    """R 11.4.4.8: hit ships turn damaged (repair: used, R 13.8); then the bombers."""

    def run(self, state: GameState, frame: dict, ev: list) -> None:
        combat: dict = state.combat
        if state.ruleset.simplified_combat:  # R 17.2.2: the "killed" ships leave now
            combat["step"] = "end_firing"
            ops.check_state(state, ev)
        for seat in (combat["attacker"], combat["defender"]):
            for cid in state.players[seat].hangar:
                ship = state.cards[cid]
                if ship.hit:
                    ship.hit = False
                    ops.damaged_state(state, ship, ev)
        combat["passed_by"] = None
        combat["hits_done"] = True
        frame["step"] = "bombard_select"


class Shot(Handler):
    kind = "shot"

    def run(self, state: GameState, frame: dict, ev: list):
        combat: dict = state.combat
        step: str = frame["step"]
        shooter = in_hangar(state, frame["shooter"])
        target = in_hangar(state, frame["target"])
        if combat["ended"]:
            pop(state, frame)
            return
        if step == "respond":
            if target is None or shooter is None:
                frame["step"] = "window"
                return
            if len(self.legal(state, frame)) > 1:
                wait(frame, target.controller, "return_fire")
            else:
                frame["step"] = "window"
        elif step == "window":
            frame["step"] = "packets"
            open_window(state, shooter.controller if shooter else combat["attacker"], "combat")
        elif step == "packets":
            self._packets(state, frame, ev)
        elif step == "burst":
            self._burst(state, frame, ev)
        elif step == "burst_return":
            self._burst_return(state, frame, ev)
        elif step == "formation":
            self._formation(state, frame, ev)
        elif step == "apply":
            self._apply(state, frame, ev)

    # -- the target answers: return fire, stealth or nothing (R 11.4.4.6.2) --------------------

    def legal(self, state: GameState, frame: dict):
        if frame["step"] == "burst_return":
            return [Action.make("return_fire"), Action.make("hold_fire")]
        shooter = in_hangar(state, frame["shooter"])
        target = in_hangar(state, frame["target"])
        out = [Action.make("hold_fire")]
        if shooter is None or target is None or target.orientation != "active":
            return out
        if "rapid_fire" not in V.keywords(state, shooter):  # R 13.3
            if not state.ruleset.simplified_combat:  # R 17.2.2: no returning fire
                out.append(Action.make("return_fire"))
            if can_heavy_weapons(state, target):  # AMB-27: also when targeted
                out.append(Action.cached("heavy_weapons", "ship", target.id))
        combat = state.combat
        if "stealth" in V.keywords(state, target) and target.controller == combat["attacker"]:
            out.append(Action.cached("stealth", "ship", target.id))  # R 13.6, AMB-26, AMB-29
        return out

    def act(self, state: GameState, frame: dict, action: Action, ev: list):
        kind = action.kind
        if frame["step"] == "burst_return":
            item = frame["br"][frame["br_i"]]
            item[1] = kind == "return_fire"
            frame["br_i"] += 1
            return
        target = state.cards[frame["target"]]
        if kind == "heavy_weapons":
            heavy_weapons(state, target, ev)
            return
        frame["step"] = "window"
        if kind == "return_fire":
            frame["returned"] = True
            emit(ev, "return_fire", ship=target.id)
            if state.ruleset.rotate_shooter_on_declare:
                ops.rotate(state, target, "used", ev, "returned fire")
        elif kind == "stealth":
            emit(ev, "stealth", ship=target.id)
            ops.rotate(state, target, "used", ev, "stealth")
            push(state, bombard_frame([target.id], stealth=True))
        else:
            emit(ev, "hold_fire", ship=target.id)

    # -- damage --------------------------------------------------------------------------------

    def _packets(self, state: GameState, frame: dict, ev: list):
        shooter = in_hangar(state, frame["shooter"])
        target = in_hangar(state, frame["target"])
        packets = []  # [source, recipient, amount, from_burst]
        bursts = []  # [burst ship, the ship it exchanges fire with]
        if shooter is not None and target is not None:
            if "burst_fire" in V.keywords(state, shooter):
                bursts.append([shooter.id, target.id])
            else:
                packets.append([shooter.id, target.id, V.stat(state, shooter, "firepower"), False])
            if frame["returned"]:
                if "burst_fire" in V.keywords(state, target):
                    bursts.append([target.id, shooter.id])
                else:
                    packets.append(
                        [target.id, shooter.id, V.stat(state, target, "firepower"), False]
                    )
        else:
            emit(ev, "lost_target", shooter=frame["shooter"], target=frame["target"])
        frame["packets"] = packets
        frame["bursts"] = bursts
        frame["burst_i"] = 0
        frame["br"] = []
        frame["step"] = "burst"

    def _burst(self, state: GameState, frame: dict, ev: list):
        """R 13.4 / AMB-23: the burst ship's damage is distributed, each <= current armour."""
        i = frame["burst_i"]
        if i >= len(frame["bursts"]):
            frame["step"] = "burst_return"
            frame["br_i"] = 0
            return
        burst_id, partner_id = frame["bursts"][i]
        burst = state.cards[burst_id]
        assigned = answer(frame, "dist")
        if assigned is not None:
            clear_answers(frame)
            for rid, k in assigned:
                if k > 0:
                    frame["packets"].append([burst_id, rid, k, True])
            # AMB-24: every other recipient still active may return fire
            scope_ok = (
                state.ruleset.burst_return_fire_scope == "always" or burst_id == frame["shooter"]
            )
            if state.ruleset.simplified_combat:  # R 17.2.2: no returning fire
                scope_ok = False
            if scope_ok and "rapid_fire" not in V.keywords(state, burst):
                for rid, k in assigned:
                    rec = state.cards[rid]
                    if k > 0 and rid != partner_id and rec.orientation == "active":
                        frame["br"].append([rid, None, burst_id])
            frame["burst_i"] = i + 1
            return
        seat = burst.controller
        recipients = participants(state, foe(state.combat, seat))
        caps = []
        for rec in recipients:
            if rec.id != partner_id and "cloak" in V.keywords(state, rec):
                continue  # AMB-22
            cap = V.armour_left(state, rec) if state.ruleset.burst_cap_by_armour else 99
            if cap > 0:
                caps.append([rec.id, cap])
        points = V.stat(state, burst, "firepower")
        emit(ev, "burst_fire", ship=burst_id, points=points)
        push(state, distribute_frame(seat, points, caps, None, "dist"))

    def _burst_return(self, state: GameState, frame: dict, ev: list):
        i = frame["br_i"]
        if i < len(frame["br"]):
            rid = frame["br"][i][0]
            rec = in_hangar(state, rid)
            if rec is None or rec.orientation != "active":
                frame["br"][i][1] = False
                frame["br_i"] = i + 1
                return
            wait(frame, rec.controller, "burst_return_fire")
            return
        for rid, yes, burst_id in frame["br"]:
            rec = in_hangar(state, rid)
            if yes and rec is not None:
                frame["packets"].append([rid, burst_id, V.stat(state, rec, "firepower"), False])
                emit(ev, "return_fire", ship=rid)
                ops.rotate(state, rec, "used", ev, "returned fire")
        frame["step"] = "formation"
        frame["form_i"] = 0

    def _formation(self, state: GameState, frame: dict, ev: list):
        """R 13.5 / AMB-25: share damage among your participating formation ships."""
        packets = frame["packets"]
        i = frame["form_i"]
        assigned = answer(frame, "form")
        if assigned is not None:
            clear_answers(frame)
            src, rid, amount, _ = packets[i]
            new = [[src, r, k, True] for r, k in assigned if k > 0 and r != rid]
            kept = amount - sum(p[2] for p in new)
            packets[i] = [src, rid, kept, False]
            packets.extend(new)
            frame["form_i"] = i + 1
            return
        while i < len(packets):
            src, rid, amount, from_burst = packets[i]
            rec = in_hangar(state, rid)
            if (
                not from_burst
                and amount > 0
                and rec is not None
                and "formation" in V.keywords(state, rec)
            ):
                mates = [
                    s
                    for s in participants(state, rec.controller)
                    if "formation" in V.keywords(state, s)
                ]
                if len(mates) > 1:
                    caps = [
                        [m.id, V.armour_left(state, m)]
                        for m in mates
                        if V.armour_left(state, m) > 0
                    ]
                    frame["form_i"] = i
                    push(state, distribute_frame(rec.controller, amount, caps, rid, "form"))
                    return
            i += 1
        frame["form_i"] = i
        frame["step"] = "apply"

    def _apply(self, state: GameState, frame: dict, ev: list):
        """R 11.4.4.6.4-7: simultaneous damage, rotation, hits, destruction."""
        combat: dict = state.combat
        combat["batch"] = True
        for src, rid, amount, _ in frame["packets"]:
            rec = in_hangar(state, rid)
            if rec is not None and amount > 0:
                ops.deal_damage(state, rec, amount, ev, f"shot by {src}")
        shooter = in_hangar(state, frame["shooter"])
        target = in_hangar(state, frame["target"])
        if shooter is not None:
            ops.rotate(state, shooter, "used", ev, "fired")
        if target is not None and frame["returned"]:
            ops.rotate(state, target, "used", ev, "returned fire")
        combat["batch"] = False
        combat["fired"] = True
        expire(state, "this_shot")
        pop(state, frame)
        ops.check_state(state, ev)


register(Shot)


class Distribute(Handler):
    """Assign damage points one at a time (burst fire, formation); "done" ends early."""

    kind = "distribute"

    def run(self, state: GameState, frame: dict, ev: list):
        left = frame["points"] - sum(k for _, k in frame["assigned"])
        if left <= 0 or not self._open(frame):
            self._finish(state, frame)
            return
        wait(frame, frame["player"], "distribute")

    @staticmethod
    def _open(frame: dict):
        given = {r: k for r, k in frame["assigned"]}
        return [r for r, cap in frame["caps"] if given.get(r, 0) < cap]

    def legal(self, state: GameState, frame: dict):
        return [Action.make("choose", value=r) for r in self._open(frame)] + [Action.make("done")]

    def act(self, state: GameState, frame: dict, action: Action, ev: list):
        if action.kind == "done":
            self._finish(state, frame)
            return
        rid = action.get("value")
        for item in frame["assigned"]:
            if item[0] == rid:
                item[1] += 1
                break
        else:
            frame["assigned"].append([rid, 1])

    def _finish(self, state: GameState, frame: dict):
        pop(state, frame)
        state.stack[-1].setdefault("answers", {})[frame["store"]] = [
            list(a) for a in frame["assigned"]
        ]

    def info(self, state: GameState, frame: dict):
        return {"points_left": frame["points"] - sum(k for _, k in frame["assigned"])}


register(Distribute)
