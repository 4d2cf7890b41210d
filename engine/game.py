"""The game: setup (R 10), the turn (R 11.2, 11.3, 11.5), winning (R 15) and the API.

    state = new_game([colony_a, colony_b], seed=42)
    pending(state)          -> Pending(player, decision, info) or None when over
    legal_actions(state)    -> [Action, ...] of the deciding player
    events = apply(state, action)   # mutates; runs the rules to the next decision

``apply`` raises ``MalformedAction`` (unreadable) or ``IllegalAction`` (not
allowed now), each with a reason ``code``; the state is unchanged then.
"""

from typing import Any, Final, NamedTuple

from . import ops
from . import resolve as R
from . import table as T
from . import values as V
from .actions import Action, IllegalAction, MalformedAction, parse_action
from .deck import Ruleset as DeckRuleset
from .deck import check_deck
from .flow import (
    HANDLERS,
    MAX_STEPS,
    Handler,
    answer,
    ask,
    clear_answers,
    emit,
    pop,
    push,
    register,
    wait,
)
from .main_actions import main_actions
from .main_phase import check_main, do_main
from .rng import Rng
from .ruleset import DEFAULT, Ruleset
from .state import (
    CardInstance,
    CardTable,
    GameState,
    PlayerState,
    clockwise,
    get_card,
    in_play_list,
    new_id,
    new_table,
    next_seat,
    seats,
)


class Pending(NamedTuple):
    """Who must decide what (``pending``): immutable, compared and shown by its fields.
    A named tuple, not a frozen dataclass: it is made at every decision, and a frozen
    dataclass's ``__init__`` sets each field through ``object.__setattr__`` (Python code
    even in the compiled build), where a named tuple is one ``tuple.__new__``."""

    player: int
    decision: str
    info: dict


# Pending(player, decision, info) as its own __new__ makes it (a tuple.__new__ of the fields),
# without that __new__: a Python lambda of namedtuple's, even in the compiled build
_new_tuple: Final[Any] = tuple.__new__


# --- setup (R 10) ----------------------------------------------------------------------


def new_game(
    colonies,
    seed,
    ruleset: Ruleset = DEFAULT,
    *,
    names=None,
    starting_player: int | None = None,
    events: list | None = None,
) -> GameState:
    """Set up a game (R 10): shuffle and cut, starting player, 5 credits, 5 cards, mulligans.

    `colonies` is two lists of card definitions (dicts shaped like the set files,
    one entry per copy), or three up to ``ruleset.max_players`` for a multiplayer table
    (R 17.1, AMB-54), seated clockwise in list order. `starting_player` overrides the die
    roll (R 10.2), e.g. for a playoff's higher seed (R 18.7).
    """
    if not 2 <= len(colonies) <= ruleset.max_players:
        raise ValueError(f"2 to {ruleset.max_players} colonies are needed (AMB-54)")
    if names is None:
        names = [f"p{seat + 1}" for seat in range(len(colonies))]
    if ruleset.check_decks:
        deck_rules = DeckRuleset(  # R 17.2.3: no speed / return-fire cards when simplified
            race_rule=ruleset.race_rule, simplified_combat=ruleset.simplified_combat
        )
        for seat, colony in enumerate(colonies):
            counts: dict = {}
            for d in colony:
                counts.setdefault(d["code"], [d, 0])[1] += 1
            problems = check_deck([(d, n) for d, n in counts.values()], deck_rules)
            if problems:
                raise ValueError(f"colony {seat} is not legal: {[p.code for p in problems]}")
    defs: dict = {}
    for colony in colonies:
        for d in colony:
            defs.setdefault(d["code"], d)
    cards = CardTable()
    state = GameState(
        ruleset=ruleset,
        defs=defs,
        players=[PlayerState(seat, names[seat]) for seat in range(len(colonies))],
        cards=cards,
        rng=Rng.from_seed(seed),
        table=new_table(len(colonies)) if len(colonies) > 2 else None,
    )
    for seat, colony in enumerate(colonies):
        for d in colony:
            card = CardInstance(
                id=new_id(state), code=d["code"], owner=seat, controller=seat, zone="colony"
            )
            cards.add(card)
            state.players[seat].colony.append(card.id)
    push(state, {"kind": "turns"})
    push(state, {"kind": "setup", "step": "shuffle", "start": starting_player})
    settle(state, [] if events is None else events)
    return state


class Setup(Handler):
    kind = "setup"

    def run(self, state: GameState, frame: dict, ev: list):
        if frame["step"] == "shuffle":  # R 10.1: each colony is shuffled, the opponent cuts
            frame["step"] = "deal"
            for seat in seats(state)[::-1]:  # the last seat first (two players: 1, 0)
                ops.shuffle_colony(state, seat, ev)
            return
        pop(state, frame)
        start = frame["start"]
        if start is None:
            start = state.rng.below(len(state.players))  # R 10.2: a die roll, ties re-rolled
        state.starting_player = start
        emit(ev, "starting_player", player=start)
        for seat in seats(state):
            state.players[seat].credits = state.ruleset.initial_credits  # R 10.3
            ops.draw(state, seat, state.ruleset.opening_hand, ev, "opening hand")  # R 10.4
        push(state, {"kind": "mulligan", "order": list(clockwise(state, start)), "i": 0})


register(Setup)


class Mulligan(Handler):
    """R 10.5 / AMB-08: the starting player decides first, then the other; once each."""

    kind = "mulligan"

    def run(self, state: GameState, frame: dict, ev: list):
        if frame.get("redraw") is not None:
            seat = frame.pop("redraw")
            ops.draw(state, seat, state.ruleset.opening_hand, ev, "mulligan")
            frame["i"] += 1
            return
        if frame["i"] >= len(frame["order"]):
            pop(state, frame)
            return
        wait(frame, frame["order"][frame["i"]], "mulligan")

    def legal(self, state: GameState, frame: dict):
        seat = frame["order"][frame["i"]]
        out = [Action.make("keep")]
        if not state.players[seat].mulligan_used:
            out.insert(0, Action.make("mulligan"))
        return out

    def check(self, state: GameState, frame: dict, action: Action):
        if action.kind == "mulligan" and state.players[frame["order"][frame["i"]]].mulligan_used:
            return "MULLIGAN_USED"
        return super().check(state, frame, action)

    def act(self, state: GameState, frame: dict, action: Action, ev: list):
        seat = frame["order"][frame["i"]]
        if action.kind == "keep":
            emit(ev, "keep", player=seat)
            frame["i"] += 1
            return
        player = state.players[seat]
        player.mulligan_used = True
        emit(ev, "mulligan", player=seat)
        for cid in list(player.centre):
            ops.relocate(state, state.cards[cid], "colony", ev, "mulligan")
        frame["redraw"] = seat
        ops.shuffle_colony(state, seat, ev)


register(Mulligan)


class Cut(Handler):
    """R 16.1 with ``ruleset.cut == "choose"``: the opponent picks the cut position."""

    kind = "cut"

    def run(self, state: GameState, frame: dict, ev: list):
        wait(frame, frame["player"], "cut")

    def legal(self, state: GameState, frame: dict):
        n = len(state.players[frame["owner"]].colony)
        return [Action.make("cut", at=i) for i in range(n)]

    def act(self, state: GameState, frame: dict, action: Action, ev: list):
        pop(state, frame)
        ops.cut(state, frame["owner"], action.get("at"), ev)


register(Cut)


# --- turns -------------------------------------------------------------------------------


class Turns(Handler):
    kind = "turns"

    def run(self, state: GameState, frame: dict, ev: list):
        limit = state.ruleset.turn_limit
        if limit and state.turn >= limit:
            state.result = "turn_limit"
            state.phase = "over"
            emit(ev, "game_over", winner=None, reason="turn_limit")
            return
        state.turn += 1
        if state.table is None:  # two players alternate, the starting player first
            state.active = (state.starting_player + state.turn - 1) % len(state.players)
        else:  # clockwise from the starting player, past the eliminated (R 17.1.1, AMB-44)
            if state.turn > 1:
                state.active = next_seat(state, state.active)
            else:
                state.active = state.starting_player
            state.table["turns"][state.active] += 1
        emit(ev, "turn", turn=state.turn, player=state.active)
        push(state, {"kind": "turn", "step": "start"})


register(Turns)


def turn_income(state: GameState) -> int:
    """R 10.6: 1, 2, 3, 4 in game turns 1-4, then 5; at a multiplayer table 5 in every
    start phase from each player's first turn on (R 17.1.4)."""
    if state.table is not None:
        return state.ruleset.income
    schedule = state.ruleset.turn_credits
    if state.turn <= len(schedule):
        return schedule[state.turn - 1]
    return state.ruleset.income


class Turn(Handler):
    kind = "turn"

    def run(self, state: GameState, frame: dict, ev: list):
        step: str = frame["step"]
        seat = state.active
        if step == "start":  # R 11.2
            state.phase = "start"
            for cid in state.players[seat].surface:
                state.cards[cid].bought = 0
            state.upgrade_epoch += 1
            ops.gain(state, seat, turn_income(state), ev, "income")  # R 11.2.1
            frame["step"] = "start_window"
            cards = V.effective_with(state, seat, "start_of_turn")
            for card in cards[::-1]:
                ops.push_trigger(state, card, "start_of_turn")
        elif step == "start_window":  # R 11.2.2
            frame["step"] = "main"
            R.open_window(state, seat, "start")
        elif step == "main":  # R 11.3
            state.phase = "main"
            wait(frame, seat, "main")
        elif step == "end_hand":  # R 11.5.1
            state.phase = "end"
            centre = state.players[seat].centre
            excess = len(centre) - state.ruleset.hand_limit
            picked = answer(frame, "hand")
            if picked is not None:
                clear_answers(frame)
                for cid in picked:
                    ops.relocate(state, state.cards[cid], "wasteland", ev, "hand limit")
            elif excess > 0:
                ask(state, seat, "discard", list(centre), "hand", n=excess)
                return
            frame["step"] = "end_hangar"
        elif step == "end_hangar":  # R 11.5.2
            picked = answer(frame, "ship")
            if picked is not None:
                clear_answers(frame)
                ship = state.cards[picked[0]]
                ops.leave_with_attachments(state, ship, ev, "hangar limit")
                ops.relocate(state, ship, "trash", ev, "hangar limit", face_up=True)
                return
            if V.hangar_total(state, seat) > state.ruleset.hangar_limit:
                ask(state, seat, "discard_ship", list(state.players[seat].hangar), "ship", n=1)
                return
            frame["step"] = "end_rest"
        elif step == "end_rest":
            self._end_rest(state, frame, ev)

    def _end_rest(self, state: GameState, frame: dict, ev: list):
        seat = state.active
        player = state.players[seat]
        rules = state.ruleset
        if player.credits > rules.credit_cap:  # R 11.5.3
            ops.spend(state, seat, player.credits - rules.credit_cap, ev, "credit cap")
        reset = seats(state) if rules.armour_reset_scope == "all" else (seat,)
        for s in reset:  # R 11.5.4 / AMB-19
            for card in in_play_list(state, s):
                card.damage = 0
        state.armour_epoch += 1
        for card in in_play_list(state, seat):  # R 11.5.5 / R 6.7
            if card.orientation == "damaged":
                ops.rotate(state, card, "used", ev, "recovery")
            elif card.orientation == "used":
                ops.rotate(state, card, "active", ev, "recovery")
        R.expire(state, "until_end_of_turn")
        self._return_control(state, ev)
        ops.check_state(state, ev)  # AMB-34
        pop(state, frame)
        emit(ev, "end_turn", player=seat, turn=state.turn)
        if state.table is not None:
            T.eliminate_neighbours(state, seat, ev)  # AMB-44 instead of R 15.1
            return
        # R 15.1 / 15.3 / AMB-11: the win check closes the end phase
        if not state.players[state.other(seat)].colony:
            state.winner = seat
            state.result = "colony"
            state.phase = "over"
            state.stack.clear()
            emit(ev, "game_over", winner=seat, reason="colony")

    @staticmethod
    def _return_control(state: GameState, ev: list):
        for cid, original in state.control:
            ship = get_card(state, cid)
            if ship is None or ship.zone != "hangar" or ship.attached_to is not None:
                continue
            if ship.controller == original:
                continue
            state.players[ship.controller].hangar.remove(cid)
            state.players[original].hangar.append(cid)
            ship.controller = original
            for aid in ship.attachments:
                state.cards[aid].controller = original
            emit(ev, "control", card=ops.pub(state, ship), controller=original)
        state.control = []

    # -- the main phase decision (R 11.3.1, M1-M9) -------------------------------------------

    def legal(self, state: GameState, frame: dict):
        if frame["step"] != "main":
            return []
        return main_actions(state, state.active)

    def check(self, state: GameState, frame: dict, action: Action):
        if frame["step"] != "main":
            return "NOT_A_LEGAL_CHOICE"
        return check_main(state, state.active, action)

    def act(self, state: GameState, frame: dict, action: Action, ev: list):
        do_main(state, frame, state.active, action, ev)
        if (
            state.stack[-1] is frame
            and frame["step"] == "main"
            and state.winner is None
            and state.result is None
        ):  # nothing to run first: the next main-phase decision, as run() would ask it
            state.phase = "main"
            wait(frame, state.active, "main")

    def info(self, state: GameState, frame: dict):
        return {"turn": state.turn}


register(Turn)


class Search(Handler):
    """M8: the picked card goes to the centre, then the colony is shuffled and cut."""

    kind = "search"

    def run(self, state: GameState, frame: dict, ev: list):
        picked = answer(frame, "pick")
        pop(state, frame)
        for cid in picked or ():
            ops.relocate(state, state.cards[cid], "centre", ev, "search")
        ops.shuffle_colony(state, frame["player"], ev)


register(Search)


# --- the API ---------------------------------------------------------------------------------


def pending(state: GameState) -> Pending | None:
    """Who must decide what now (None when the game is over)."""
    if state.winner is not None or state.result is not None or not state.stack:
        return None
    frame = state.stack[-1]
    waiting = frame.get("await")
    if waiting is None:
        return None
    info = HANDLERS[frame["kind"]].info(state, frame)
    return _new_tuple(Pending, (waiting["player"], waiting["decision"], info))


def legal_actions(state: GameState, player: int | None = None) -> list:
    """The deciding player's legal actions (empty for anybody else)."""
    if state.winner is not None or state.result is not None or not state.stack:
        return []
    frame = state.stack[-1]
    waiting = frame.get("await")  # as pending(), without building its info
    if waiting is None or (player is not None and player != waiting["player"]):
        return []
    out = HANDLERS[frame["kind"]].legal(state, frame)
    state.offered = (waiting, out)  # apply need not check these again (_was_offered)
    return out


def _was_offered(state: GameState, waiting: dict, action: Action) -> bool:
    """Whether `action` is an object of the list that ``legal_actions`` returned for this
    very decision (its ``await`` dict; a new one at every decision): then it is legal,
    since every handler's ``check`` accepts its own ``legal`` list (check_main: the same
    rules, tests/engine/test_turn.py), and checking it again would list them twice. A
    state edited by hand must not be given an action listed before the edit."""
    offered = state.offered
    if offered is None or offered[0] is not waiting:
        return False
    for listed in offered[1]:
        if listed is action:
            return True
    return False


def apply(state: GameState, action, player: int | None = None) -> list:
    """Apply one action of the deciding player; return the events (engine.flow.Event)."""
    waiting: Any = None  # as pending(), without building its info
    if state.winner is None and state.result is None and state.stack:
        waiting = state.stack[-1].get("await")
    act = None
    offered = state.offered
    if waiting is not None and offered is not None and offered[0] is waiting:
        for listed in offered[1]:  # _was_offered, written out (every decision)
            if listed is action:
                act = action  # an Action of the list just offered: well formed and legal
                break
    if act is None:
        act = _checked(state, action, waiting, player)
    elif player is not None and player != waiting["player"]:
        raise IllegalAction("NOT_YOUR_DECISION", f"player {waiting['player']} decides now")
    frame = state.stack[-1]
    ev: list = []
    del frame["await"]
    state.decisions += 1
    HANDLERS[frame["kind"]].act(state, frame, act, ev)
    settle(state, ev)
    return ev


def _checked(state: GameState, action, waiting: dict | None, player: int | None) -> Action:
    """The Action `action` stands for, if it is allowed now; raise why not (MalformedAction
    first, then the game being over, then another player's decision, then the rules)."""
    act = parse_action(action)
    if waiting is None:
        raise IllegalAction("GAME_OVER", "the game is over")
    if player is not None and player != waiting["player"]:
        raise IllegalAction("NOT_YOUR_DECISION", f"player {waiting['player']} decides now")
    if not _was_offered(state, waiting, act):  # e.g. the id of an action of the list
        frame = state.stack[-1]
        reason = HANDLERS[frame["kind"]].check(state, frame, act)
        if reason is not None:
            raise IllegalAction(reason, f"{act.id} in {waiting['decision']}")
    return act


def settle(state: GameState, ev: list) -> None:
    """Run to the next decision; there, check the state (AMB-34) and go on if it changed."""
    stack = state.stack  # handlers change it in place, never replace it
    while True:
        # run the rules forward until a player must decide or the game is over
        steps = 0
        while stack and state.winner is None and state.result is None:
            frame = stack[-1]
            if "await" in frame:
                break
            HANDLERS[frame["kind"]].run(state, frame, ev)
            steps += 1
            if steps > MAX_STEPS:  # pragma: no cover - a bug guard
                raise RuntimeError(f"the rules did not reach a decision (stuck in {frame['kind']})")
        if not stack or state.winner is not None or state.result is not None:
            return
        depth = len(state.stack)
        ops.check_state(state, ev)  # e.g. a paid armament with negative armour (R 5.4.3)
        if len(state.stack) == depth and "await" in state.stack[-1]:
            return


__all__ = [
    "Pending",
    "new_game",
    "pending",
    "legal_actions",
    "apply",
    "MalformedAction",
    "IllegalAction",
]
