"""The combat phase (R 11.4): declaration, equip, payment, firing, bombardment, disarm,
and the ship abilities of R 13 that act in it.

``state.combat`` is the public CombatState of Appendix A; the ``combat`` frame
walks the five steps; ``shot`` resolves one shot (R 11.4.4.6) with its response
window, burst fire (R 13.4) and formation (R 13.5); ``bombard`` resolves a
bombardment (R 11.4.5, also used by stealth, R 13.6); ``distribute`` is a
damage distribution, one point per decision.
"""

from typing import Final, cast

from . import ops
from . import values as V
from .actions import DONE, PASS, Action, choose
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
from .resolve import _needs, announce_payment, expire, expire_cards, open_window
from .state import CardInstance, GameState, get_card, mark, marked_cards, next_seat

# --- helpers -----------------------------------------------------------------------------

# crew id -> ship id -> the shared Action "board" of that crew onto that ship, None until made:
# lists indexed by id, as engine.game's cash rows (a crew's row grown to the largest ship id
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


def in_hangar(state: GameState, cid, seat=None) -> CardInstance | None:
    card = get_card(state, cid)
    if card is None or card.zone != "hangar" or card.attached_to is not None:
        return None
    if seat is not None and card.controller != seat:
        return None
    return card


def side(combat, seat: int) -> list:
    return combat["attackers"] if seat == combat["attacker"] else combat["defenders"]


def participants(state: GameState, seat: int) -> list[CardInstance]:
    """The cards of `seat`'s side of the combat still in its hangar as ships (``in_hangar``
    of each, written out: this runs at every step of a combat)."""
    combat: dict = state.combat
    out: list[CardInstance] = []
    for cid in combat["attackers"] if seat == combat["attacker"] else combat["defenders"]:
        card = get_card(state, cid)
        if (
            card is not None
            and card.zone == "hangar"
            and card.attached_to is None
            and card.controller == seat
        ):
            out.append(card)
    return out


def eligible(state: GameState, seat: int) -> list[CardInstance]:
    """R 11.4.4.1: participating, active and still in play."""
    return [c for c in participants(state, seat) if c.orientation == "active"]


def foe(combat: dict, seat: int) -> int:
    """The other side of a combat: the defender for the attacker and the other way round."""
    return combat["defender"] if seat == combat["attacker"] else combat["attacker"]


def speed(state: GameState, card: CardInstance) -> int:
    return V.stat(state, card, "speed")


def board(state: GameState, crew: CardInstance, ship: CardInstance, ev: list) -> None:
    """R 11.4.2.2: crew go aboard for this combat (the card keeps its id: it is tracked)."""
    state.players[crew.controller].canteen.remove(crew.id)
    state.card_epoch += 1  # a zone and a ship's attachments change
    crew.zone = "hangar"
    crew.attached_to = ship.id
    crew.boarded = True
    mark(state, crew)
    ship.attachments.append(crew.id)
    emit(ev, "board", card=ops.pub(state, crew), ship=ship.id)


def unboard(state: GameState, crew: CardInstance, orientation: str, ev: list) -> None:
    """R 11.4.6.1 / 4.4.5: back to the owner's canteen, keeping paid/unpaid."""
    assert crew.attached_to is not None  # aboard a ship
    ship = state.cards[crew.attached_to]
    ship.attachments.remove(crew.id)
    state.card_epoch += 1  # a zone and a ship's attachments change
    crew.attached_to = None
    crew.boarded = False
    crew.zone = "canteen"
    crew.controller = crew.owner
    crew.orientation = orientation
    state.players[crew.owner].canteen.append(crew.id)
    emit(ev, "disembark", card=ops.pub(state, crew), orientation=orientation)


def can_pay_attachment(state: GameState, seat: int, card: CardInstance) -> bool:
    """R 11.4.3: unpaid crew/armament (missiles too) whose true type matches its slot."""
    if card.paid or card.controller != seat:
        return False
    if V.ctype(state, card) != card.slot:
        return False  # a bluff can never be paid (R 6.10)
    return V.card_cost(state, seat, card) <= state.players[seat].credits


def pay_card(
    state: GameState,
    seat: int,
    card: CardInstance,
    ev: list,
    why="pay",
    statics=None,
    scope="combat",
) -> None:
    """Pay a face-down card (R 6.8.4) as an interrupt (R 11.3.2 / 12.1b): the payment goes
    on the chain and the opponent may respond first (R 12.3); it takes effect when the
    chain resolves (``resolve.finish_payment``: face up, paid, X locked, on_pay)."""
    base = announce_payment(state, seat, card, ev, why, statics)
    open_window(state, next_seat(state, seat), scope, base)


class ToTrash(Handler):
    """After a research or trap resolved: it goes to its owner's trash."""

    kind = "to_trash"

    def run(self, state: GameState, frame: dict, ev: list):
        pop(state, frame)
        card = get_card(state, frame["card"])
        if card is not None and card.zone == "surface":
            ops.relocate(state, card, "trash", ev, "resolved", face_up=True)


register(ToTrash)


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


# --- the combat frame -----------------------------------------------------------------------

PAY_STEPS: Final = ("pay_attacker", "pay_defender")


class Combat(Handler):
    kind = "combat"

    def run(self, state: GameState, frame: dict, ev: list):
        combat: dict = state.combat
        step: str = frame["step"]
        if combat["ended"] and step not in ("disarm",):
            frame["step"] = "disarm"
            return
        combat["step"] = "bombard" if step == "bombard_go" else step
        att, dfn = combat["attacker"], combat["defender"]
        if step == "declared":
            frame["step"] = "equip_attackers"
            open_window(state, dfn, "declare")  # R 11.4.1.2
        elif step == "equip_attackers":
            options = self._ship_options(state, att, combat["attackers"])
            if not options and not combat["attackers"]:
                emit(ev, "no_attackers")  # AMB-50: nothing can attack any more
                frame["step"] = "disarm"
            elif not options:
                frame["step"] = "equip_attacker_crew"
            else:
                wait(frame, att, "attackers")
        elif step in ("equip_attacker_crew", "equip_defender_crew"):
            seat = att if step == "equip_attacker_crew" else dfn
            if self._board_options(state, seat, first=True):
                wait(frame, seat, "board")
            else:
                frame["step"] = "equip_defenders" if seat == att else "equip_window"
        elif step == "equip_window":  # R 12.2: the equip step's designations can be answered
            frame["step"] = "pay_attacker"
            open_window(state, att, "combat")
        elif step == "equip_defenders":
            if self._ship_options(state, dfn, combat["defenders"]):
                wait(frame, dfn, "defenders")
            else:
                frame["step"] = "equip_defender_crew"
        elif step in PAY_STEPS:
            seat = att if step == "pay_attacker" else dfn
            # The decision is offered whenever face-down cards are aboard (public),
            # so skipping it never tells the opponent they cannot be paid (R 6.10.2).
            if any(not c.paid for s in participants(state, seat) for c in self._aboard(state, s)):
                wait(frame, seat, "payments")
            else:
                frame["step"] = "pay_defender" if seat == att else "pay_window"
        elif step == "pay_window":  # R 11.4.3: combat interrupts before the payments act
            frame["step"] = "end_of_payment"
            open_window(state, att, "combat")
        elif step == "end_of_payment":
            self._end_of_payment(state, frame, ev)
        elif step == "firing":
            self._firing(state, frame, ev)
        elif step == "end_firing":
            self._end_firing(state, ev)
            frame["step"] = "bombard_select"
        elif step == "bombard_select":
            if len(self._bomber_actions(state)) > 1:  # more than "done"
                wait(frame, att, "bombers")
            else:
                frame["step"] = "bombard"
        elif step == "bombard":  # R 11.4.5: a response window before the bombs fall
            if any(in_hangar(state, cid, att) for cid in combat["bombers"]):
                open_window(state, att, "combat")
            frame["step"] = "bombard_go"
        elif step == "bombard_go":
            frame["step"] = "bombard_end"
            bombers = [cid for cid in combat["bombers"] if in_hangar(state, cid, att)]
            if bombers:
                push(
                    state,
                    {"kind": "bombard", "bombers": bombers, "stealth": False, "step": "start"},
                )
            else:
                emit(ev, "no_bombardment")
        elif step == "bombard_end":
            for cid in combat["bombers"]:  # R 11.4.5.7
                ship = in_hangar(state, cid)
                if ship is not None and ship.orientation == "active":
                    ops.rotate(state, ship, "used", ev, "bombed")
            frame["step"] = "disarm"
        elif step == "disarm":
            self._disarm(state, frame, ev)

    # -- equip ----------------------------------------------------------------------------

    @staticmethod
    def _ship_options(state: GameState, seat: int, chosen):
        return [
            cid
            for cid in state.players[seat].hangar
            if cid not in chosen and state.cards[cid].orientation == "active"
        ]

    @staticmethod
    def _board_options(state: GameState, seat: int, first=False):
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

    @staticmethod
    def _aboard(state: GameState, ship: CardInstance) -> list[CardInstance]:
        return [state.cards[a] for a in ship.attachments]

    def _payable(self, state: GameState, seat: int):
        out = []
        for ship in participants(state, seat):
            for card in self._aboard(state, ship):
                if can_pay_attachment(state, seat, card):
                    out.append(card.id)
        return out

    def legal(self, state: GameState, frame: dict):
        combat: dict = state.combat
        step: str = frame["step"]
        att, dfn = combat["attacker"], combat["defender"]
        if step == "equip_attackers":
            out = [choose(c) for c in self._ship_options(state, att, combat["attackers"])]
            if combat["attackers"]:
                out.append(DONE)
            return out
        if step == "equip_defenders":
            out = [choose(c) for c in self._ship_options(state, dfn, combat["defenders"])]
            return out + [DONE]
        if step in ("equip_attacker_crew", "equip_defender_crew"):
            seat = att if step == "equip_attacker_crew" else dfn
            out = [_board_action(c, s) for c, s in self._board_options(state, seat)]
            return out + [DONE]
        if step in PAY_STEPS:
            seat = att if step == "pay_attacker" else dfn
            return [Action.make("pay", card=c) for c in self._payable(state, seat)] + [DONE]
        if step == "firing":
            return self._firing_actions(state, frame)
        if step == "bombard_select":
            return self._bomber_actions(state)
        return []

    def check(self, state: GameState, frame: dict, action: Action):
        if action in self.legal(state, frame):
            return None
        if action.kind == "pay":
            card = get_card(state, action.get("card"))
            if (
                card is not None
                and V.card_cost(state, card.controller, card)
                > state.players[card.controller].credits
            ):
                return "INSUFFICIENT_CREDITS"
        if action.kind == "fire" and frame["step"] == "firing":
            return "NO_PRIORITY_OR_BAD_TARGET"
        return "NOT_A_LEGAL_CHOICE"

    def act(self, state: GameState, frame: dict, action: Action, ev: list):
        combat: dict = state.combat
        step: str = frame["step"]
        att, dfn = combat["attacker"], combat["defender"]
        kind = action.kind
        if step in ("equip_attackers", "equip_defenders"):
            seat = att if step == "equip_attackers" else dfn
            if kind == "done":
                frame["step"] = "equip_attacker_crew" if seat == att else "equip_defender_crew"
                if seat == dfn and not combat["defenders"]:
                    emit(ev, "no_defence", player=dfn)
                return
            side(combat, seat).append(action.get("value"))
            emit(
                ev,
                "designate",
                player=seat,
                ship=action.get("value"),
                role="attacker" if seat == att else "defender",
            )
        elif step in ("equip_attacker_crew", "equip_defender_crew"):
            seat = att if step == "equip_attacker_crew" else dfn
            if kind == "done":
                frame["step"] = "equip_defenders" if seat == att else "equip_window"
                return
            board(state, state.cards[action.get("card")], state.cards[action.get("ship")], ev)
        elif step in PAY_STEPS:
            seat = att if step == "pay_attacker" else dfn
            if kind == "done":
                frame["step"] = "pay_defender" if seat == att else "pay_window"
                return
            pay_card(state, seat, state.cards[action.get("card")], ev)
        elif step == "firing":
            self._firing_act(state, frame, action, ev)
        elif step == "bombard_select":
            if kind == "done":
                frame["step"] = "bombard"
            elif kind == "choose":
                combat["bombers"].append(action.get("value"))
                emit(ev, "designate", player=att, ship=action.get("value"), role="bomber")
            elif kind == "ordnance":
                ordnance(state, state.cards[action.get("ship")], ev)

    # -- end of the payment step (R 11.4.3.3, AMB-30) -------------------------------------------

    def _end_of_payment(self, state: GameState, frame: dict, ev: list):
        combat: dict = state.combat
        if "eop" not in frame:
            items = []
            for seat in (combat["attacker"], combat["defender"]):
                for ship in participants(state, seat):
                    for card in self._aboard(state, ship):
                        if not V.effective(state, card):
                            continue
                        for i, ability in enumerate(V.abilities(state, card)):
                            if ability["trigger"] == "end_of_payment" and V.condition_ok(
                                state, ability.get("condition"), card, seat
                            ):
                                items.append({"card": card.id, "ability": i, "ctrl": seat})
            frame["eop"] = items
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

    # -- firing (R 11.4.4, AMB-20) ----------------------------------------------------------------

    def _decider(self, state: GameState):
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

    def _acting_ships(self, state: GameState, seat: int, free):
        combat: dict = state.combat
        mine = eligible(state, seat)
        if free:
            return mine
        theirs = eligible(state, foe(state.combat, seat))
        top = max(speed(state, s) for s in theirs)
        attacker = seat == combat["attacker"]
        return [s for s in mine if speed(state, s) > top or (attacker and speed(state, s) == top)]

    def _firing_actions(self, state: GameState, frame: dict):
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

    def _firing(self, state: GameState, frame: dict, ev: list):
        decided = self._decider(state)
        if decided is None:
            frame["step"] = "end_firing"
            return
        seat = decided[0]
        actions = self._firing_actions(state, frame)
        if len(actions) == 1:  # only "pass": known from public information
            self._firing_act(state, frame, actions[0], ev)
            return
        wait(frame, seat, "fire")

    def _firing_act(self, state: GameState, frame: dict, action: Action, ev: list):
        combat: dict = state.combat
        seat, _ = self._decider(state)
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
            push(state, {"kind": "bombard", "bombers": [ship.id], "stealth": True, "step": "start"})
            return
        target = state.cards[action.get("target")]
        emit(ev, "fire", shooter=ship.id, target=target.id)
        if state.ruleset.rotate_shooter_on_declare:  # AMB-21
            ops.rotate(state, ship, "used", ev, "fired")
        push(
            state,
            {
                "kind": "shot",
                "shooter": ship.id,
                "target": target.id,
                "step": "respond",
                "returned": False,
            },
        )

    def _end_firing(self, state: GameState, ev: list):
        """R 11.4.4.8: hit ships turn damaged (repair: used, R 13.8)."""
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

    # -- bombardment (R 11.4.5) ---------------------------------------------------------------

    def _bomber_options(self, state: GameState):
        combat: dict = state.combat
        return [
            c.id
            for c in participants(state, combat["attacker"])
            if c.orientation == "active" and c.id not in combat["bombers"]
        ]

    def _bomber_actions(self, state: GameState):
        combat: dict = state.combat
        out = [choose(c) for c in self._bomber_options(state)]
        for cid in combat["bombers"]:
            ship = in_hangar(state, cid)
            if ship is not None and can_ordnance(state, ship):
                out.append(Action.make("ordnance", ship=cid))
        return out + [DONE]

    # -- disarm (R 11.4.6) ----------------------------------------------------------------------

    def _disarm(self, state: GameState, frame: dict, ev: list):
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
        n = min(eff["target"].get("count", 1), len(legal))
        if n == len(legal):
            frame["targets"][path] = legal
            frame.pop("need")
            return
        ask(
            state,
            frame["ctrl"],
            "target",
            legal,
            "p",
            n=n,
            info={"effect": eff["effect"], "card": frame["code"]},
        )


register(Prepare)


# --- ship abilities used in combat ------------------------------------------------------------


def hw_bonus(ship) -> int:
    return sum(m[1] for m in ship.mods if m[3] == "heavy_weapons")


def can_heavy_weapons(state: GameState, ship) -> bool:
    """R 13.7 / AMB-27: 2 CR for +1 firepower, capped at twice the base firepower."""
    if "heavy_weapons" not in V.keywords(state, ship):
        return False
    if state.players[ship.controller].credits < 2:
        return False
    base = V.printed(state, ship, "firepower")
    if state.ruleset.heavy_weapons_cap == "increase":
        return hw_bonus(ship) + 1 <= base
    return V.stat(state, ship, "firepower") + 1 <= 2 * base


def heavy_weapons(state: GameState, ship, ev: list) -> None:
    ops.spend(state, ship.controller, 2, ev, "heavy weapons")
    ship.mods.append(["firepower", 1, "until_end_of_combat", "heavy_weapons"])
    mark(state, ship)
    state.armour_epoch += 1
    emit(ev, "heavy_weapons", ship=ship.id, firepower=V.stat(state, ship, "firepower"))


def ord_bonus(ship) -> int:
    return sum(m[1] for m in ship.mods if m[3] == "ordnance")


def can_ordnance(state: GameState, ship) -> bool:
    """R 13.9 / AMB-28: discard a colony card for +1 bombardment, up to twice the base."""
    if "ordnance" not in V.keywords(state, ship):
        return False
    if not state.players[ship.controller].colony:
        return False
    base = V.printed(state, ship, "bombardment")
    if state.ruleset.ordnance_cap == "increase":
        return ord_bonus(ship) + 1 <= base
    return V.stat(state, ship, "bombardment") + 1 <= 2 * base


def ordnance(state: GameState, ship, ev: list) -> None:
    ops.discard_top(state, ship.controller, 1, ev, "ordnance")
    ship.mods.append(["bombardment", 1, "until_end_of_combat", "ordnance"])
    mark(state, ship)
    state.armour_epoch += 1
    emit(ev, "ordnance", ship=ship.id, bombardment=V.stat(state, ship, "bombardment"))


# --- one shot (R 11.4.4.6) ---------------------------------------------------------------------


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
            push(
                state, {"kind": "bombard", "bombers": [target.id], "stealth": True, "step": "start"}
            )
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
        push(
            state,
            {
                "kind": "distribute",
                "player": seat,
                "points": points,
                "caps": caps,
                "assigned": [],
                "rest": None,
                "store": "dist",
            },
        )

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
                    push(
                        state,
                        {
                            "kind": "distribute",
                            "player": rec.controller,
                            "points": amount,
                            "caps": caps,
                            "assigned": [],
                            "rest": rid,
                            "store": "form",
                        },
                    )
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


# --- a bombardment (R 11.4.5, stealth R 13.6) ------------------------------------------------------


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
