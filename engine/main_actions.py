"""The main phase's actions listed (R 11.3.1, M1-M9), fast: ``main_actions`` gives the
legal ones of a seat, from shared Action objects kept in tables by card id (issue 18), and
``main_candidates`` a superset of them, the plain reference the tests compare it with. The
costs of the main actions are here (engine.main_phase checks and does them)."""

from typing import Final

from . import announce as A
from . import combat as C
from . import resolve as R
from . import table as T
from . import values as V
from .actions import Action
from .state import (
    CardInstance,
    GameState,
    PlayerState,
    cards_in_play,
)

UPGRADE_COST: Final = 1  # R 4.5.2
MAX_BOUGHT_UPGRADES: Final = 2  # R 4.5.2
DRAW_COST: Final = 1  # M7
SEARCH_COST: Final = 2  # M8
SEARCH_DEPTH: Final = 5
WASTELAND_DRAW_COST: Final = 2  # M9
WASTELAND_DRAW_COLONY: Final = 5


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
