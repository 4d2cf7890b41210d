"""The game: setup (R 10), the turn (R 11.2, 11.3, 11.5), winning (R 15) and the API.

    state = new_game([colony_a, colony_b], seed=42)
    pending(state)          -> Pending(player, decision, info) or None when over
    legal_actions(state)    -> [Action, ...] of the deciding player
    events = apply(state, action)   # mutates; runs the rules to the next decision

``apply`` raises ``MalformedAction`` (unreadable) or ``IllegalAction`` (not
allowed now), each with a reason ``code``; the state is unchanged then.
"""

from typing import Any, Final, NamedTuple

from . import announce as A
from . import combat as C
from . import ops
from . import resolve as R
from . import table as T
from . import values as V
from .actions import Action, IllegalAction, MalformedAction, parse_action
from .combat_base import pay_card
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
    event,
    pop,
    push,
    register,
    wait,
)
from .rng import Rng
from .ruleset import DEFAULT, Ruleset
from .state import (
    CardInstance,
    CardTable,
    GameState,
    PlayerState,
    cards_in_play,
    clockwise,
    get_card,
    in_play_list,
    new_id,
    new_table,
    next_seat,
    seats,
)

UPGRADE_COST: Final = 1  # R 4.5.2
MAX_BOUGHT_UPGRADES: Final = 2  # R 4.5.2
DRAW_COST: Final = 1  # M7
SEARCH_COST: Final = 2  # M8
SEARCH_DEPTH: Final = 5
WASTELAND_DRAW_COST: Final = 2  # M9
WASTELAND_DRAW_COLONY: Final = 5


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


def main_candidates(state: GameState, seat: int) -> list:
    """Every main-phase action worth checking (a superset of the legal ones)."""
    player = state.players[seat]
    candidates = [Action.make("end_turn")]
    ships = [c for c in player.hangar if state.cards[c].attached_to is None]
    for cid in player.centre:
        card = state.cards[cid]
        t = state.defs[card.code]["type"]
        if t in ("ship", "event", "interrupt"):
            candidates.append(Action.make("play", card=cid))
        candidates.append(Action.make("place", card=cid, to="surface"))
        candidates.append(Action.make("place", card=cid, to="canteen"))
        for sid in ships:
            candidates.append(Action.make("place", card=cid, to="ship", ship=sid))
    for card in cards_in_play(state, seat):
        if not card.paid:
            candidates.append(Action.make("pay", card=card.id))
        for i, ability in enumerate(V.abilities(state, card)):
            if ability["trigger"] == "activated" and card.paid:
                candidates.append(Action.make("activate", card=card.id, ability=i))
    surface = sorted(player.surface)
    for i, a in enumerate(surface):
        candidates.append(Action.make("upgrade", card=a))
        for b in surface[i:]:
            candidates.append(Action.make("cash", a=a, b=b))
    candidates += [Action.make("draw"), Action.make("search"), Action.make("wasteland_draw")]
    if state.table is None:
        for target, target_id in C.attack_targets(state, seat):
            candidates.append(Action.make("attack", target=target, card=target_id))
        return candidates
    for defender in T.defenders(state, seat):  # R 17.1.2
        for target, target_id in C.attack_targets(state, seat, defender):
            candidates.append(Action.make("attack", target=target, card=target_id, player=defender))
    return candidates


def _pay_reason(state: GameState, seat: int, card: CardInstance, credits, statics=None):
    """M5 (R 4.5.4, 4.3.5a, 6.10): why this card of yours in play cannot be paid now."""
    if card.paid:
        return "ALREADY_PAID"
    d = state.defs[card.code]
    if d["type"] != card.slot:
        return "CANNOT_PAY"  # a bluff is never paid (R 6.10)
    if card.slot == "base":
        if d["subtype"] == "trap":
            return "TRAP_ONLY_WHEN_BOMBARDED"  # R 4.5.9
        limit = d.get("upgrade_limit")
        if isinstance(limit, int) and card.upgrades < limit:
            return "NOT_ENOUGH_UPGRADES"  # R 4.5.4
    if card.slot == "armament" and d["subtype"] == "missile":
        return "MISSILE_ONLY_IN_COMBAT"  # R 4.3.5a
    if V.card_cost(state, seat, card, statics=statics) > credits:
        return "INSUFFICIENT_CREDITS"
    return None


class _Shared(dict):
    """Shared immutable main-phase actions by a key other than one card id (a card and a
    ship), made on first use (``__missing__``). Bounded: card ids grow during a game."""

    __slots__ = ("make",)

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, key):
        if len(self) >= 20_000:
            self.clear()
        action = self[key] = self.make(key)
        return action


# card id -> the shared main-phase Action of one kind naming that card, None until made:
# lists indexed by id (ids are small ints, ~1,200 by a game's end), so the compiled build
# reads an action as a list item where a dict look-up hashed the id (issue 18). main_actions
# first fits every table to the state's ids (_fit_tables), so a read is
# ``table[cid] or _made(table, cid, ...)`` (list's own C code in the pure build, as the dict's
# was). Shared by every game: an Action is a value.
_UPGRADE: Final[list[Action | None]] = []
_PLACE_SURFACE: Final[list[Action | None]] = []
_PLACE_CANTEEN: Final[list[Action | None]] = []
_ATTACK_CREW: Final[list[Action | None]] = []
_ATTACK_BASE: Final[list[Action | None]] = []
_PLAY: Final[list[Action | None]] = []
_PAY: Final[list[Action | None]] = []
# base a -> base b -> cash a, b: a row per first base (empty until a is cashed; a row is
# grown to the largest b it is read with). The Actions are made here, not through
# Action.cached: most pairs are new (a base's id is drawn afresh when it is placed), and its
# key tuple would only be built to miss
_CASH_ROWS: Final[list[list[Action | None]]] = []
_BY_ID: Final = (_UPGRADE, _PLACE_SURFACE, _PLACE_CANTEEN, _ATTACK_CREW, _ATTACK_BASE, _PLAY, _PAY)
_PLACE_SHIP: Final = _Shared(
    lambda k: Action("place", (("card", k[0]), ("ship", k[1]), ("to", "ship")))
)


def _fit_tables(next_id: int) -> None:
    """Every id table as long as a state whose next id is `next_id` needs."""
    for table in _BY_ID:
        if len(table) < next_id:
            table.extend([None] * (next_id - len(table)))
    while len(_CASH_ROWS) < next_id:
        _CASH_ROWS.append([])


def _made(
    table: list[Action | None], cid: int, kind: str, key: str = "", value: str = ""
) -> Action:
    """The Action `kind` naming card `cid` (and `key` = `value` if given: a key sorted after
    "card"), made and kept in `table` (an id table, fitted). Made directly, not through
    Action.cached: the table is the cache, and most ids are new to it (its key tuple would
    only be built to miss); an equal Action elsewhere need not be the same object."""
    params: tuple = (("card", cid),) if not key else (("card", cid), (key, value))
    action = Action(kind, params)
    table[cid] = action
    return action


def _cash(row: list[Action | None], a: int, b: int) -> Action:
    """cash a, b, made and kept in a's row (grown to b)."""
    if len(row) <= b:
        row.extend([None] * (b + 1 - len(row)))
    action = row[b]
    if action is None:
        action = row[b] = Action("cash", (("a", a), ("b", b)))
    return action


_END_TURN: Final = Action.make("end_turn")
_DRAW: Final = Action.make("draw")
_SEARCH: Final = Action.make("search")
_WASTELAND_DRAW: Final = Action.make("wasteland_draw")
_ATTACK_COLONY: Final = Action.make("attack", target="colony")
_ATTACK_CENTRE: Final = Action.make("attack", target="centre")


def main_actions(state: GameState, seat: int) -> list:
    """Every legal main-phase action of `seat` (= the candidates `check_main` accepts).

    Written out for speed; tests/engine/test_turn.py checks it against
    ``[a for a in main_candidates(...) if check_main(...) is None]``.
    """
    player = state.players[seat]
    credits = player.credits
    cards = state.cards
    memo = state.memo  # V.state_info's memo read here while valid (a call per decision)
    info: V.DefInfo
    if memo is not None and memo[0] is state.defs and memo[1] == len(memo[0]):
        info = memo[2]
    else:
        info = V.state_info(state)
    # costs look the static abilities up only where some static of the game may apply
    if len(_UPGRADE) < state.next_id:
        _fit_tables(state.next_id)  # every id of this state has its slot in the id tables
    out = [_END_TURN]
    if player.centre:
        _centre_actions(state, seat, info, out)
    _in_play_actions(state, seat, info, out)
    if player.surface:
        _base_actions(state, seat, info, out)
    if player.colony:
        cost = DRAW_COST
        if state.cost_mods or "draw" in info.cost_actions:
            cost = V.action_cost(state, seat, "draw", DRAW_COST)
        if cost <= credits:
            out.append(_DRAW)
        if SEARCH_COST <= credits:
            out.append(_SEARCH)
    if (
        len(player.colony) <= WASTELAND_DRAW_COLONY
        and player.wasteland
        and WASTELAND_DRAW_COST <= credits
    ):
        out.append(_WASTELAND_DRAW)
    if state.table is not None:
        out += _multiplayer_attacks(state, seat)
        return out
    if state.turn != 1:
        for cid in player.hangar:
            if cards[cid].orientation == "active":
                break
        else:
            return out
        if V.attack_surcharge(state, seat) <= credits:
            # C.attack_targets, written out: colony, centre, crew cards, bases
            out.append(_ATTACK_COLONY)
            out.append(_ATTACK_CENTRE)
            opp = state.players[state.other(seat)]
            out += _attacks_on(opp.canteen, opp.surface)
    return out


def _multiplayer_attacks(state: GameState, seat: int) -> list:
    """M2 at a multiplayer table: not in one's own first turn (R 17.1.4), with an active
    ship (AMB-50), on either neighbour (R 17.1.2) whose surcharges one can pay (AMB-35)."""
    if T.first_turn(state, seat):
        return []
    cards = state.cards
    if not any(cards[c].orientation == "active" for c in state.players[seat].hangar):
        return []
    credits = state.players[seat].credits
    out = []
    for defender in T.defenders(state, seat):
        if V.attack_surcharge(state, seat, None, defender) > credits:
            continue
        for target, cid in C.attack_targets(state, seat, defender):
            out.append(Action.make("attack", target=target, card=cid, player=defender))
    return out


# [(crew ids, base ids, the attacks on them)] of the last _attacks_on: a function of the two
# id lists alone (not of a state), so one entry serves every state that has them. One tuple,
# read and replaced whole: a thread never sees the lists of one call with another's attacks
_ATTACKS_KEPT: Final[list] = [(None, None, [])]


def _attacks_on(canteen: list, surface: list) -> list:
    """The attacks on these crew cards, then on these bases (read only). The opponent's
    crew and bases seldom change within a turn: the last list is kept while both id lists
    stay equal (two C-level list comparisons instead of a look-up per target). The id tables
    are fitted to these ids (main_actions: _fit_tables)."""
    kept = _ATTACKS_KEPT[0]
    if kept[0] == canteen and kept[1] == surface:
        return kept[2]
    crew = _ATTACK_CREW
    base = _ATTACK_BASE
    attacks = [crew[c] or _made(crew, c, "attack", "target", "crew") for c in canteen]
    attacks += [base[c] or _made(base, c, "attack", "target", "base") for c in surface]
    _ATTACKS_KEPT[0] = (list(canteen), list(surface), attacks)  # copies: zones change in place
    return attacks


def _centre_actions(state: GameState, seat: int, info: V.DefInfo, out: list) -> None:
    """main_actions for the cards in the centre: play (M4) and place (M1)."""
    player = state.players[seat]
    credits = player.credits
    rules = state.ruleset
    cards = state.cards
    defs = state.defs
    types = info.types
    bluff = rules.bluff_slots
    any_surface = "surface" in bluff
    any_canteen = "canteen" in bluff
    any_ship = "ship" in bluff
    open_ships = [s for s in player.hangar if V.capacity_left(state, cards[s]) > 0]
    limit_on_play = rules.hangar_limit_on_play
    hangar_total = V.hangar_total(state, seat) if limit_on_play else 0
    for cid in player.centre:
        card = cards[cid]
        t = types[card.code]
        if t == "ship":
            if V.card_cost(state, seat, card) <= credits and (
                not limit_on_play or hangar_total + V.hangar_size(state, card) <= rules.hangar_limit
            ):
                out.append(_PLAY[cid] or _made(_PLAY, cid, "play"))
        elif t == "event" or (
            t == "interrupt" and defs[card.code]["subtype"] in R.WINDOW_SUBTYPES["main"]
        ):
            if A.can_play_card(state, seat, card):
                out.append(_PLAY[cid] or _made(_PLAY, cid, "play"))
        if t == "base" or any_surface:
            out.append(_PLACE_SURFACE[cid] or _made(_PLACE_SURFACE, cid, "place", "to", "surface"))
        if t == "crew" or any_canteen:
            out.append(_PLACE_CANTEEN[cid] or _made(_PLACE_CANTEEN, cid, "place", "to", "canteen"))
        if t == "armament" or any_ship:
            out += [_PLACE_SHIP[cid, sid] for sid in open_ships]


def _in_play_actions(state: GameState, seat: int, info: V.DefInfo, out: list) -> None:
    """main_actions for the cards in play, in the order of cards_in_play: pay (M5) and
    activated abilities of the few cards that can add one (_candidates)."""
    credits = state.players[seat].credits
    activated = info.activated
    limits = info.upgrade_limit
    for card in _candidates(state, seat, info):
        if not card.paid:
            limit = limits.get(card.code)
            if limit is not None and card.upgrades < limit:
                continue  # _pay_reason's NOT_ENOUGH_UPGRADES (the commonest), without the call
            if _pay_reason(state, seat, card, credits) is None:
                out.append(_PAY[card.id] or _made(_PAY, card.id, "pay"))
        else:
            for i in activated[card.code]:
                if A.can_activate(state, seat, card, i):
                    out.append(Action.cached("activate", "ability", i, "card", card.id))


def _candidates(state: GameState, seat: int, info: V.DefInfo) -> list[CardInstance]:
    """`seat`'s cards in play, in the order of cards_in_play, that can add a pay or activate
    action: unpaid cards whose type matches their slot (a bluff is never paid, R 6.10: the
    first test of _pay_reason) other than traps and missiles (its tests by definition:
    ``info.main_pay``) and paid cards with an activated ability (~2 of ~25).

    That depends only on the zone lists, the cards' ships, slots and paid flags: the list
    is kept per seat while ``state.card_epoch`` (bumped by every change of those but the
    zone lists) and the in-play zone lists (compared whole) stay the same."""
    player = state.players[seat]
    # (card_epoch, info, hangar, surface, canteen, the list), compared field by field: the
    # zone lists as copies (no key tuples built at every main-phase decision)
    kept = state.candidates.get(seat)
    if (
        kept is not None
        and kept[0] == state.card_epoch
        and kept[1] is info
        and kept[2] == player.hangar
        and kept[3] == player.surface
        and kept[4] == player.canteen
    ):
        found: list[CardInstance] = kept[5]
        return found
    ships = [state.cards[c] for c in player.hangar]  # only here: most calls keep the list
    found = _find_candidates(state, player, ships, info)
    state.candidates[seat] = (
        state.card_epoch,
        info,
        list(player.hangar),
        list(player.surface),
        list(player.canteen),
        found,
    )
    return found


def _find_candidates(
    state: GameState, player: PlayerState, ships: list[CardInstance], info: V.DefInfo
) -> list[CardInstance]:
    """_candidates, computed: one look at each card in play."""
    types = info.main_pay  # the type, or None where _pay_reason refuses by definition
    activated = info.activated
    cards = state.cards  # read by index: compiled, a list item (a bound __getitem__ is a call)
    found = []
    for ship in ships:
        if ship.code in activated if ship.paid else types[ship.code] == ship.slot:
            found.append(ship)
        for a in ship.attachments:
            c = cards[a]
            if c.code in activated if c.paid else types[c.code] == c.slot:
                found.append(c)
    for zone in (player.surface, player.canteen):
        for i in zone:
            c = cards[i]
            if c.code in activated if c.paid else types[c.code] == c.slot:
                found.append(c)
    return found


def _base_actions(state: GameState, seat: int, info: V.DefInfo, out: list) -> None:
    """main_actions for the bases on the surface, in id order: upgrade (M6), then every
    cash pair (a, b), a <= b (M3): often the bulk of the list."""
    can_buy, upgraded = _base_lists(state, seat)
    cost = UPGRADE_COST
    if state.cost_mods or "upgrade" in info.cost_actions:
        cost = V.action_cost(state, seat, "upgrade", UPGRADE_COST)
    if cost <= state.players[seat].credits:
        table = _UPGRADE
        out += [table[c] or _made(table, c, "upgrade") for c in can_buy]
    if upgraded:
        out += _cash_actions(state, seat, upgraded)


def _cash_actions(state: GameState, seat: int, upgraded: list[int]) -> list:
    """Every cash pair (a, b), a <= b, of `upgraded` (`seat`'s bases with upgrades, in id
    order; M3, AMB-47): (a, a) when a has two upgrades, then (a, b) for the later b."""
    cards = state.cards
    rows = _CASH_ROWS
    found: list = []
    n = len(upgraded)
    last = upgraded[-1]  # the largest b of every row read here
    for i in range(n):
        a = upgraded[i]
        row = rows[a]
        if len(row) <= last:
            row.extend([None] * (last + 1 - len(row)))
        if cards[a].upgrades >= 2:
            found.append(row[a] or _cash(row, a, a))
        # an index loop: compiled, no slice, itemgetter or tuple per base (a few bases)
        for j in range(i + 1, n):
            b = upgraded[j]
            found.append(row[b] or _cash(row, a, b))
    return found


def _base_lists(state: GameState, seat: int) -> tuple[list[int], list[int]]:
    """(`seat`'s bases that may still be upgraded this turn, its bases with upgrades), each
    in id order. Kept per seat (read only) while ``state.upgrade_epoch`` (bumped by every
    change of upgrades or bought) and the surface stand still; a main-phase upgrade or cash
    patches them (_bases_changed) instead of looking at every base again."""
    surface = state.players[seat].surface
    # (upgrade_epoch, a copy of the surface, can_buy, upgraded): compared field by field
    kept = state.base_lists.get(seat)
    if kept is not None and kept[0] == state.upgrade_epoch and kept[1] == surface:
        can_buy: list[int] = kept[2]
        upgraded: list[int] = kept[3]
        return can_buy, upgraded
    cards = state.cards
    ordered = sorted(surface)
    can_buy = [cid for cid in ordered if cards[cid].bought < MAX_BOUGHT_UPGRADES]
    upgraded = [cid for cid in ordered if cards[cid].upgrades > 0]
    state.base_lists[seat] = (state.upgrade_epoch, list(surface), can_buy, upgraded)
    return can_buy, upgraded


def _bases_changed(state: GameState, seat: int, *changed: CardInstance) -> None:
    """After a main-phase upgrade or cash of `changed` (bases of `seat`'s surface): bump
    ``state.upgrade_epoch``; if `seat`'s kept base lists were up to date, keep them for
    the new epoch, with those bases put in or taken out where they moved (new lists: a
    caller may still hold the old ones; most upgrades move none)."""
    kept = state.base_lists.get(seat)
    up_to_date = (
        kept is not None
        and kept[0] == state.upgrade_epoch
        and kept[1] == state.players[seat].surface
    )
    state.upgrade_epoch += 1
    if kept is None or not up_to_date:
        return
    can_buy = kept[2]
    upgraded = kept[3]
    for card in changed:
        cid = card.id
        if (card.bought < MAX_BOUGHT_UPGRADES) != (cid in can_buy):
            can_buy = _toggled(can_buy, cid)
        if (card.upgrades > 0) != (cid in upgraded):
            upgraded = _toggled(upgraded, cid)
    state.base_lists[seat] = (state.upgrade_epoch, kept[1], can_buy, upgraded)  # same surface


def _toggled(ids: list[int], cid: int) -> list[int]:
    """A new sorted list: `ids` with `cid` taken out if it is in, else put in."""
    if cid in ids:
        return [i for i in ids if i != cid]
    out = ids + [cid]
    out.sort()
    return out


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
