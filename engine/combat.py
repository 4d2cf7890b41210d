"""The combat phase (R 11.4): the declaration and the ``combat`` frame, which walks R
11.4.1.4's five steps (equip, payment, firing, bombardment, disarm) with one small handler
per step (``STEPS``), and the simultaneous effects at the end of the payment step.

``state.combat`` is the public CombatState of Appendix A. The ships of a combat and their
abilities, and ``Step``, the interface of a step handler, are in engine.combat_base; the
firing step and its shots (R 11.4.4) in engine.firing; the bombardment step and a
bombardment (R 11.4.5, also stealth's, R 13.6) in engine.bombard.
"""

from typing import Final, cast

from . import ops
from . import values as V
from .actions import DONE, Action, choose
from .announce import _needs
from .bombard import BombardWindow, BombersUsed, Bombs, SelectBombers
from .combat_base import (
    Step,
    board,
    can_pay_attachment,
    in_hangar,
    participants,
    pay_card,
    side,
    unboard,
)
from .firing import EndFiring, Firing
from .flow import (
    Handler,
    answer,
    ask,
    clear_answers,
    emit,
    pop,
    push,
    register,
    settle_targets,
    wait,
)
from .resolve import expire_cards, open_window
from .state import CardInstance, GameState, get_card, marked_cards

# crew id -> ship id -> the shared Action "board" of that crew onto that ship, None until made:
# lists indexed by id, as engine.main_actions' cash rows (a crew's row grown to the largest ship id
# it is read with). ~9 a boarding decision: a list item where Action.cached built, hashed and
# compared a five-item key tuple (~170 ns an action in both builds)
_BOARD_ROWS: Final[list[list[Action | None]]] = []


def _board_action(crew: int, ship: int) -> Action:
    """``Action.make("board", card=crew, ship=ship)``, made once and kept in crew's row."""
    rows = _BOARD_ROWS
    if len(rows) <= crew:
        rows.extend([[] for _ in range(crew + 1 - len(rows))])
    row = rows[crew]
    if len(row) <= ship:
        row.extend([None] * (ship + 1 - len(row)))
    action = row[ship]
    if action is None:
        action = row[ship] = Action("board", (("card", crew), ("ship", ship)))
    return action


# --- declaration ------------------------------------------------------------------------


def attack_targets(state: GameState, seat: int, defender=None):
    """M2 targets: colony, centre, one crew card, one base (R 11.3.1) of the defender
    (two players: the other; multiplayer: the neighbour named, R 17.1.2)."""
    opp = state.players[state.other(seat) if defender is None else defender]
    out: list[tuple[str, int | None]] = [("colony", None), ("centre", None)]
    out += [("crew", cid) for cid in opp.canteen]
    out += [("base", cid) for cid in opp.surface]
    return out


def declare_attack(
    state: GameState, seat: int, target, card_id, ev: list, statics=None, defender=None
) -> None:
    """R 11.4.1.1: pay the surcharges (AMB-35), fix the target, open the combat. At a
    multiplayer table the attack names its defender, a neighbour (R 17.1.2)."""
    if defender is None:
        defender = state.other(seat)
    surcharge = V.attack_surcharge(state, seat, statics, defender)
    ops.spend(state, seat, surcharge, ev, "attack surcharge")
    state.combat = {
        "attacker": seat,
        "defender": defender,
        "target": {"kind": target, "card": card_id},
        "attackers": [],
        "defenders": [],
        "bombers": [],
        "step": "declared",
        "passed_by": None,
        "ended": False,
        "batch": False,
        "fired": False,
        "hits_done": False,
    }
    state.phase = "combat"
    tgt = None
    if card_id is not None:
        tgt = ops.pub(state, state.cards[card_id])
    named = {} if state.table is None else {"defender": defender}  # whom, at a table of 3+
    emit(ev, "attack", player=seat, target=target, card=tgt, surcharge=surcharge, **named)
    push(state, {"kind": "combat", "step": "declared"})
    # on_attack_declared triggers (Szenátus, Vadászterület)
    for s in (seat, state.combat["defender"]):
        by = "you" if s == seat else "opponent"
        for card in V.effective_with(state, s, "on_attack_declared"):
            ops.push_trigger(state, card, "on_attack_declared", by=by)


# --- the combat frame: one handler per step of R 11.4 --------------------------------------------


class Window(Step):
    """A response window, then `following` (R 11.4.1.2 after the declaration, the
    defender first; R 12.2 after the equip step and R 11.4.3 before the payments act)."""

    def __init__(self, following: str, attacker_first: bool, scope: str) -> None:
        self.following = following
        self.attacker_first = attacker_first
        self.scope = scope

    def run(self, state: GameState, frame: dict, ev: list) -> None:
        combat: dict = state.combat
        frame["step"] = self.following
        first = combat["attacker"] if self.attacker_first else combat["defender"]
        open_window(state, first, self.scope)


def ship_options(state: GameState, seat: int, chosen) -> list:
    """`seat`'s active ships not designated yet (R 11.4.2.1 / 11.4.2.3)."""
    return [
        cid
        for cid in state.players[seat].hangar
        if cid not in chosen and state.cards[cid].orientation == "active"
    ]


class SideStep(Step):
    """A step one side of the combat takes (the attacker's or the defender's), then
    `following`."""

    def __init__(self, attacker: bool, following: str) -> None:
        self.attacker = attacker
        self.following = following

    def seat(self, state: GameState) -> int:
        combat: dict = state.combat
        return combat["attacker"] if self.attacker else combat["defender"]


class Designate(SideStep):
    """R 11.4.2.1 / 11.4.2.3: a side designates its ships, one a decision, then "done"
    (`following`: the side's crew boarding)."""

    def act(self, state: GameState, frame: dict, action: Action, ev: list) -> None:
        combat: dict = state.combat
        seat = self.seat(state)
        if action.kind == "done":
            frame["step"] = self.following
            if not self.attacker and not combat["defenders"]:
                emit(ev, "no_defence", player=seat)
            return
        side(combat, seat).append(action.get("value"))
        role = "attacker" if self.attacker else "defender"
        emit(ev, "designate", player=seat, ship=action.get("value"), role=role)


class DesignateAttackers(Designate):
    def __init__(self) -> None:
        super().__init__(True, "equip_attacker_crew")

    def run(self, state: GameState, frame: dict, ev: list) -> None:
        combat: dict = state.combat
        options = ship_options(state, combat["attacker"], combat["attackers"])
        if not options and not combat["attackers"]:
            emit(ev, "no_attackers")  # AMB-50: nothing can attack any more
            frame["step"] = "disarm"
        elif not options:
            frame["step"] = self.following
        else:
            wait(frame, combat["attacker"], "attackers")

    def legal(self, state: GameState, frame: dict) -> list:
        combat: dict = state.combat
        out = [choose(c) for c in ship_options(state, combat["attacker"], combat["attackers"])]
        if combat["attackers"]:  # at least one attacker (AMB-50)
            out.append(DONE)
        return out


class DesignateDefenders(Designate):
    def __init__(self) -> None:
        super().__init__(False, "equip_defender_crew")

    def run(self, state: GameState, frame: dict, ev: list) -> None:
        combat: dict = state.combat
        if ship_options(state, combat["defender"], combat["defenders"]):
            wait(frame, combat["defender"], "defenders")
        else:
            frame["step"] = self.following

    def legal(self, state: GameState, frame: dict) -> list:
        combat: dict = state.combat
        out = [choose(c) for c in ship_options(state, combat["defender"], combat["defenders"])]
        return out + [DONE]  # R 11.4.2.5: no defence is a choice


def board_options(state: GameState, seat: int, first=False) -> list:
    """(crew id, ship id) pairs; with `first`, stop at the first crew that can board."""
    out: list = []
    canteen = state.players[seat].canteen
    if not canteen:
        return out
    open_ships = [s.id for s in participants(state, seat) if V.capacity_left(state, s) > 0]
    if not open_ships:
        return out
    paid_only = state.ruleset.active_requires_paid_for_boarding
    for cid in canteen:
        crew = state.cards[cid]
        if crew.orientation != "active":
            continue
        if paid_only and not crew.paid:
            continue
        out += [(cid, sid) for sid in open_ships]
        if first:
            break
    return out


class Board(SideStep):
    """R 11.4.2.2 / 11.4.2.4: a side moves active crew aboard its ships, one a decision."""

    def run(self, state: GameState, frame: dict, ev: list) -> None:
        seat = self.seat(state)
        if board_options(state, seat, first=True):
            wait(frame, seat, "board")
        else:
            frame["step"] = self.following

    def legal(self, state: GameState, frame: dict) -> list:
        out = [_board_action(c, s) for c, s in board_options(state, self.seat(state))]
        return out + [DONE]

    def act(self, state: GameState, frame: dict, action: Action, ev: list) -> None:
        if action.kind == "done":
            frame["step"] = self.following
            return
        board(state, state.cards[action.get("card")], state.cards[action.get("ship")], ev)


def aboard(state: GameState, ship: CardInstance) -> list[CardInstance]:
    return [state.cards[a] for a in ship.attachments]


class Payments(SideStep):
    """R 11.4.3.1 / 11.4.3.2: the attacker pays what is aboard its ships, then the defender."""

    def run(self, state: GameState, frame: dict, ev: list) -> None:
        seat = self.seat(state)
        # The decision is offered whenever face-down cards are aboard (public),
        # so skipping it never tells the opponent they cannot be paid (R 6.10.2).
        if any(not c.paid for s in participants(state, seat) for c in aboard(state, s)):
            wait(frame, seat, "payments")
        else:
            frame["step"] = self.following

    def legal(self, state: GameState, frame: dict) -> list:
        seat = self.seat(state)
        payable = [
            card.id
            for ship in participants(state, seat)
            for card in aboard(state, ship)
            if can_pay_attachment(state, seat, card)
        ]
        return [Action.make("pay", card=c) for c in payable] + [DONE]

    def act(self, state: GameState, frame: dict, action: Action, ev: list) -> None:
        if action.kind == "done":
            frame["step"] = self.following
            return
        pay_card(state, self.seat(state), state.cards[action.get("card")], ev)


class EndOfPayment(Step):
    """R 11.4.3.3, AMB-30: the effects "at the end of the payment step" are prepared, the
    attacker's choices first, then take effect at one moment."""

    def run(self, state: GameState, frame: dict, ev: list) -> None:
        combat: dict = state.combat
        if "eop" not in frame:
            frame["eop"] = self._items(state, combat)
            frame["eop_i"] = 0
        items = frame["eop"]
        i = frame["eop_i"]
        if i < len(items):  # choices: attacker's first, then the defender's
            prepared = answer(frame, "prep")
            if prepared is not None:
                items[i].update(prepared)
                clear_answers(frame)
                frame["eop_i"] = i + 1
                return
            item = items[i]
            card = state.cards[item["card"]]
            ability = V.abilities(state, card)[item["ability"]]
            push(
                state, prepare_frame(ability["effects"], card, item["ctrl"], f"{item['ability']}.")
            )
            return
        # then everything takes effect at the same moment
        frame.pop("eop")
        frame.pop("eop_i")
        frame["step"] = "firing" if combat["defenders"] else "end_firing"
        if combat["defenders"]:
            emit(ev, "firing_step")
        if not items:
            return
        combat["batch"] = True
        push(state, {"kind": "batch_end"})
        for item in items[::-1]:
            card = state.cards[item["card"]]
            ability = V.abilities(state, card)[item["ability"]]
            fr = ops.effects_frame(ability["effects"], card, item["ctrl"])
            fr["ctx"].update(
                targets=item.get("targets", {}),
                modes=item.get("modes", {}),
                path=f"{item['ability']}.",
            )
            push(state, fr)

    @staticmethod
    def _items(state: GameState, combat: dict) -> list:
        items = []
        for seat in (combat["attacker"], combat["defender"]):
            for ship in participants(state, seat):
                for card in aboard(state, ship):
                    if not V.effective(state, card):
                        continue
                    for i, ability in enumerate(V.abilities(state, card)):
                        if ability["trigger"] == "end_of_payment" and V.condition_ok(
                            state, ability.get("condition"), card, seat
                        ):
                            items.append({"card": card.id, "ability": i, "ctrl": seat})
        return items


class Disarm(Step):
    """R 11.4.6: crew back to their canteens, paid missiles to the trash, the combat's
    effects end, the main phase resumes."""

    def run(self, state: GameState, frame: dict, ev: list) -> None:
        combat: dict = state.combat
        combat["step"] = "disarm"
        for seat in (combat["attacker"], combat["defender"]):
            for cid in list(side(combat, seat)):
                ship = in_hangar(state, cid)
                if ship is None:
                    continue
                for aid in list(ship.attachments):
                    card = state.cards[aid]
                    if card.boarded:
                        orientation = "active" if ship.orientation == "active" else "used"
                        if (
                            state.ruleset.passenger_exempt_from_return_used
                            and state.defs[card.code]["subtype"] == "passenger"
                        ):
                            orientation = card.orientation
                        unboard(state, card, orientation, ev)
                    elif card.paid and state.defs[card.code]["subtype"] == "missile":
                        ops.relocate(
                            state, card, "trash", ev, "missile used", face_up=True
                        )  # R 4.3.5c
        # crew still aboard a ship that left the combat lists (e.g. control changed)
        # one scan of every card for the three clean-ups below (in this order): the cards
        # that are boarded, hit or carry modifiers (unboarding changes none of that)
        cards = state.cards
        marked = marked_cards(state)
        for card in [c for c in marked if c.boarded and c.attached_to is not None]:
            ship = cards[cast(int, card.attached_to)]  # not None: filtered just above
            unboard(state, card, "active" if ship.orientation == "active" else "used", ev)
        for card in marked:
            card.hit = False
        expire_cards(marked, ("this_shot", "until_end_of_combat"))  # = expire(...) of both
        state.armour_epoch += 1  # modifiers gone
        state.combat = None
        state.phase = "main"
        emit(ev, "combat_end")
        pop(state, frame)
        ops.check_state(state, ev)  # AMB-34


# frame["step"] -> its handler, in the order of R 11.4
STEPS: Final[dict[str, Step]] = {
    "declared": Window("equip_attackers", attacker_first=False, scope="declare"),  # R 11.4.1.2
    "equip_attackers": DesignateAttackers(),
    "equip_attacker_crew": Board(True, "equip_defenders"),
    "equip_defenders": DesignateDefenders(),
    "equip_defender_crew": Board(False, "equip_window"),
    "equip_window": Window("pay_attacker", attacker_first=True, scope="combat"),  # R 12.2
    "pay_attacker": Payments(True, "pay_defender"),
    "pay_defender": Payments(False, "pay_window"),
    "pay_window": Window("end_of_payment", attacker_first=True, scope="combat"),  # R 11.4.3
    "end_of_payment": EndOfPayment(),
    "firing": Firing(),
    "end_firing": EndFiring(),
    "bombard_select": SelectBombers(),
    "bombard": BombardWindow(),
    "bombard_go": Bombs(),
    "bombard_end": BombersUsed(),
    "disarm": Disarm(),
}


class Combat(Handler):
    """The combat frame: walks R 11.4's steps (STEPS), from the declaration to the disarm."""

    kind = "combat"

    def run(self, state: GameState, frame: dict, ev: list):
        combat: dict = state.combat
        step: str = frame["step"]
        if combat["ended"] and step != "disarm":
            frame["step"] = "disarm"
            return
        combat["step"] = "bombard" if step == "bombard_go" else step
        STEPS[step].run(state, frame, ev)

    def legal(self, state: GameState, frame: dict):
        return STEPS[frame["step"]].legal(state, frame)

    def check(self, state: GameState, frame: dict, action: Action):
        step = STEPS[frame["step"]]
        if action in step.legal(state, frame):
            return None
        if action.kind == "pay":
            card = get_card(state, action.get("card"))
            if (
                card is not None
                and V.card_cost(state, card.controller, card)
                > state.players[card.controller].credits
            ):
                return "INSUFFICIENT_CREDITS"
        return step.refusal(action)

    def act(self, state: GameState, frame: dict, action: Action, ev: list):
        STEPS[frame["step"]].act(state, frame, action, ev)


register(Combat)


class BatchEnd(Handler):
    """Simultaneous effects are over: destruction is checked once (R 11.4.3.3)."""

    kind = "batch_end"

    def run(self, state: GameState, frame: dict, ev: list):
        pop(state, frame)
        if state.combat is not None:
            state.combat["batch"] = False
        ops.check_state(state, ev)


register(BatchEnd)


def prepare_frame(effects, card: CardInstance, ctrl, prefix):
    return {
        "kind": "prepare",
        "effects": effects,
        "src": card.id,
        "code": card.code,
        "ctrl": ctrl,
        "prefix": prefix,
        "modes": {},
        "targets": {},
    }


class Prepare(Handler):
    """Choose the modes and targets of a simultaneous effect in advance (AMB-30)."""

    kind = "prepare"

    def run(self, state: GameState, frame: dict, ev: list):
        picked = answer(frame, "p")
        need = frame.get("need")
        if picked is not None and need is not None:
            if need[1] == "mode":
                frame["modes"][need[0]] = picked[0]
            else:
                frame["targets"][need[0]] = picked
            clear_answers(frame)
            frame.pop("need")
            return
        found = _needs(frame["effects"], frame["prefix"], frame["modes"], frame["targets"])
        if found is None:
            pop(state, frame)
            below = state.stack[-1]
            below.setdefault("answers", {})["prep"] = {
                "modes": frame["modes"],
                "targets": frame["targets"],
            }
            return
        path, eff, what = found
        frame["need"] = [path, what]
        if what == "mode":
            ask(
                state,
                frame["ctrl"],
                "mode",
                list(range(len(eff["options"]))),
                "p",
                info={"card": frame["code"]},
            )
            return
        legal = V.candidates(state, eff["target"], frame["ctrl"], frame["src"], targeted=True)
        ctrl, targets = frame["ctrl"], frame["targets"]
        settle_targets(state, frame, targets, ctrl, eff, legal, path, "p", frame["code"])


register(Prepare)
