"""Card effects, the chain and response windows (R 12; effect vocabulary of engine.effects).

- ``effects`` frames execute a card's structured effects in order, asking the
  right player whenever a choice is needed (one decision per pick).
- ``announce`` frames put an event, an interrupt or an activated ability on the
  chain: mode and targets are chosen when it is played (R 1.6 needs a target
  that can be lost), then its cost is paid at that moment (R 12.2.1).
- ``window`` frames let the players alternately add interrupts (or use
  abilities) or pass; two passes in a row resolve the chain last in, first out
  (R 12.2.2); after a non-empty chain resolved, a new window opens (AMB-13).

The executors of the effects are in engine.executors; announcing (the ``announce``
frame, what may be played, payments) in engine.announce.
"""

from typing import Final

from . import ops
from . import table as T
from . import values as V
from .actions import PASS, Action
from .announce import (
    activatable,
    can_play_card,
    entry_abilities,
    find_entry,
    finish_payment,
    start_ability,
    start_card,
)
from .executors import EXEC, alive
from .flow import (
    Handler,
    clear_answers,
    emit,
    event,
    pop,
    push,
    register,
    wait,
)
from .state import (
    GameState,
    get_card,
    live_seats,
    marked_cards,
    next_seat,
)

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
        options = T.opponent_choices(state, ctx["ctrl"])
        return T.settle_opponent(state, frame, ctx, ctx["ctrl"], options, ctx["code"])


register(Effects)


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
