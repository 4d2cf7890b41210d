"""Game state as small dataclasses (RULES.md Appendix A) and the zone moves of R 3.

Zones (R 3.1) are per-player lists of card instance ids: ``colony`` (index 0 is
the top), ``centre``, ``surface`` (left to right, append-only, R 3.5),
``canteen``, ``hangar`` (ships only; armaments and boarded crew hang on their
ship via ``attached_to``/``attachments``), ``trash`` and ``wasteland`` (the end
of the list is the top; index 0 is the bottom card of M9). Events and
interrupts being played sit in the game-wide ``chain``.

Hidden identities: a card gets a fresh instance id whenever it enters a hidden
zone (colony, centre, wasteland, or face down into play), whenever it leaves one
(a hidden card that changes zone never keeps its id, R 16.2) and whenever its pile
is shuffled, so an opponent can never follow it by id (NOTES.md, docs/rulings.md).
Only crew boarding a ship for a combat and coming back (engine.combat_base.board) keep
their id: everyone watches that card move.

Why it stays whole (a little over 600 lines): the classes and the moves that keep their
invariants (fresh ids on hidden moves, the marks, the epochs the caches of engine.values
and engine.main_actions read) are one unit; a move written elsewhere could change a card
without them.
"""

from dataclasses import dataclass, field
from typing import Any, Final

from .rng import Rng
from .ruleset import Ruleset

PILES: Final = ("colony", "centre", "trash", "wasteland")
IN_PLAY: Final = ("surface", "canteen", "hangar")  # R 3.11
ZONES: Final = ("colony", "centre", "surface", "canteen", "hangar", "trash", "wasteland", "chain")
HIDDEN_PILES: Final = ("colony", "centre", "wasteland")  # R 3.1 "who may look"
ORIENTATIONS: Final = ("active", "used", "damaged")  # R 6.1


@dataclass(slots=True, init=False)
class CardInstance:
    id: int
    code: str
    owner: int  # R 19.14
    controller: int  # R 19.4
    zone: str
    face_up: bool  # default False
    paid: bool  # R 6.8; default False
    orientation: str  # R 6.1; default "active"
    damage: int  # R 5.4.1; default 0
    upgrades: int  # R 4.5.2; default 0
    bought: int  # upgrades bought this turn with M6 (max 2, R 4.5.2); default 0
    slot: str | None  # what a card in play poses as: ship/base/crew/armament (R 6.10)
    attached_to: int | None  # armament or boarded crew -> its ship
    attachments: list[int]  # ship -> armaments and boarded crew
    boarded: bool  # crew aboard for a combat (R 4.4.4)
    hit: bool  # R 11.4.4.6.6
    mods: list  # [stat, amount, duration, tag]
    grants: list  # [keyword, duration]
    x: int | None  # X locked when paid (R 4.5.5, AMB-17)

    # Written out, not made by the dataclass: the compiled engine (engine/_build.py) compiles
    # it with the class (a dataclass's __init__ would run as Python there): clone makes ~90.
    def __init__(
        self,
        id: int,
        code: str,
        owner: int,
        controller: int,
        zone: str,
        face_up: bool = False,
        paid: bool = False,
        orientation: str = "active",
        damage: int = 0,
        upgrades: int = 0,
        bought: int = 0,
        slot: str | None = None,
        attached_to: int | None = None,
        attachments: list[int] | None = None,
        boarded: bool = False,
        hit: bool = False,
        mods: list | None = None,
        grants: list | None = None,
        x: int | None = None,
    ) -> None:
        self.id = id
        self.code = code
        self.owner = owner
        self.controller = controller
        self.zone = zone
        self.face_up = face_up
        self.paid = paid
        self.orientation = orientation
        self.damage = damage
        self.upgrades = upgrades
        self.bought = bought
        self.slot = slot
        self.attached_to = attached_to
        self.attachments = [] if attachments is None else attachments
        self.boarded = boarded
        self.hit = hit
        self.mods = [] if mods is None else mods
        self.grants = [] if grants is None else grants
        self.x = x

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "code": self.code,
            "owner": self.owner,
            "controller": self.controller,
            "zone": self.zone,
            "face_up": self.face_up,
            "paid": self.paid,
            "orientation": self.orientation,
            "damage": self.damage,
            "upgrades": self.upgrades,
            "bought": self.bought,
            "slot": self.slot,
            "attached_to": self.attached_to,
            "attachments": list(self.attachments),
            "boarded": self.boarded,
            "hit": self.hit,
            "mods": [list(m) for m in self.mods],
            "grants": [list(g) for g in self.grants],
            "x": self.x,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "CardInstance":
        return cls(
            **{**d, "mods": [list(m) for m in d["mods"]], "grants": [list(g) for g in d["grants"]]}
        )


try:  # mypyc reads the decorator when it compiles; without mypy it is not needed (stdlib only)
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover

    def mypyc_attr(*_args: object, **_attrs: object):  # type: ignore[no-redef,misc]
        return lambda cls: cls


@mypyc_attr(native_class=False)  # mypyc: a native class cannot derive from list
class CardTable(list[CardInstance]):
    """A game's cards by instance id: a dict's interface (``cards[cid]``, ``get``, ``in``,
    ``values()``, ``items()``, iteration over the ids) over a list whose index is
    the id. Ids are small ints handed out from 1 up (``new_id``), so the list is short (a
    slot per id a game ever gave: ~1,200 by the end of a random game), and reading a card is a list index: in the
    compiled build (engine/_build.py) a C array read where a dict look-up hashed the id
    (issue 18: the int-keyed look-ups of ``state.cards`` were ~10 % of its time), in the
    pure build list's own C code as a dict's was.

    A slot whose id is gone (renumbered, ``drop``) holds None: reading it by index is a bug
    (the compiled build raises TypeError there, where a dict raised KeyError); ``get`` and
    ``in`` answer for such ids as a dict does. Cards come in through ``add``, never by
    assignment past the end. ``values()`` and ``items()`` are in id order, which is the
    order the dict kept (a card gets a fresh id only as the newest entry, _renumber).
    ``len`` and a bare ``for`` are the list's in compiled code (mypyc reads a list's size
    and items natively, past any override): the engine counts with ``live`` and loops over
    ``values()`` or ``keys()``; the overridden iteration over ids is for Python callers.
    """

    __slots__ = ("live",)

    def __init__(self, cards: "list[CardInstance] | dict[int, CardInstance] | None" = None):
        super().__init__()
        # the cards held (``len`` stays the list's, free slots included: in the compiled build
        # a list's length is read natively and an override would not be called)
        self.live = 0
        if cards:
            for card in cards.values() if isinstance(cards, dict) else cards:
                self.add(card)

    def add(self, card: CardInstance) -> None:
        slots: list[CardInstance | None] = self  # type: ignore[assignment]  # see above
        cid = card.id
        short = cid + 1 - len(slots)
        if short > 0:
            slots.extend([None] * short)
        elif slots[cid] is not None:
            raise ValueError(f"card id {cid} is taken")
        slots[cid] = card
        self.live += 1

    def drop(self, cid: int) -> None:
        slots: list[CardInstance | None] = self  # type: ignore[assignment]
        if self.get(cid) is None:
            raise KeyError(cid)
        slots[cid] = None
        self.live -= 1

    def __delitem__(self, cid) -> None:  # type: ignore[override]  # as a dict's: by id
        self.drop(cid)

    def get(self, cid: object, default: CardInstance | None = None) -> CardInstance | None:
        # (`slots` typed with its free slots: a compiled read checks for None, not a card)
        slots: list[CardInstance | None] = self  # type: ignore[assignment]
        if isinstance(cid, int) and 0 <= cid < len(slots):
            card = slots[cid]
            if card is not None:
                return card
        return default

    def __contains__(self, cid: object) -> bool:  # type: ignore[override]  # ids, as a dict
        return self.get(cid) is not None

    def values(self) -> list[CardInstance]:
        # list's own iterator (the class's yields ids), the free slots (None) skipped in C
        slots: list[CardInstance | None] = self  # type: ignore[assignment]
        return list(filter(None, list.__iter__(slots)))

    def items(self) -> list[tuple[int, CardInstance]]:
        return [(c.id, c) for c in self.values()]

    def keys(self) -> list[int]:
        return [c.id for c in self.values()]

    def __iter__(self):  # type: ignore[override]  # as a dict's: the ids
        return iter(self.keys())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, dict):
            return dict(self.items()) == other
        return isinstance(other, CardTable) and self.items() == other.items()

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = None  # type: ignore[assignment]  # mutable, as a dict

    def __repr__(self) -> str:
        return f"CardTable({dict(self.items())!r})"


@dataclass(slots=True)
class PlayerState:
    seat: int
    name: str
    credits: int = 0
    colony: list[int] = field(default_factory=list)
    centre: list[int] = field(default_factory=list)
    surface: list[int] = field(default_factory=list)
    canteen: list[int] = field(default_factory=list)
    hangar: list[int] = field(default_factory=list)
    trash: list[int] = field(default_factory=list)
    wasteland: list[int] = field(default_factory=list)
    mulligan_used: bool = False  # R 10.5

    def zone(self, name: str) -> list:
        return getattr(self, name)

    def to_dict(self) -> dict:
        return {
            "seat": self.seat,
            "name": self.name,
            "credits": self.credits,
            **{z: list(getattr(self, z)) for z in ZONES if z != "chain"},
            "mulligan_used": self.mulligan_used,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "PlayerState":
        return cls(**d)


@dataclass(slots=True)
class GameState:
    ruleset: Ruleset
    defs: dict[str, dict]  # card code -> card definition (dicts shaped like the set files)
    players: list[PlayerState]
    # instance id -> CardInstance: a CardTable (a dict's interface over a list indexed by id),
    # typed as the list it is so that compiled code reads a card as a list item (its free
    # slots hold None: get_card, all_cards and card_count read the table as a table)
    cards: list[CardInstance]
    rng: Rng
    next_id: int = 1
    turn: int = 0  # global game turn, 1 = the starting player's first turn (R 10.6)
    active: int = 0
    starting_player: int = 0
    phase: str = "setup"  # setup | start | main | combat | end | over
    combat: Any = None  # Appendix A CombatState: a dict in a combat, else None
    # (element types: the compiled build, engine/_build.py, reads a typed dict's items and
    # calls its get() directly; an untyped value costs a generic look-up and method call)
    chain: list[dict] = field(default_factory=list)  # R 12.2: entries played, bottom first
    stack: list[dict] = field(default_factory=list)  # frames: the rules' continuation (flow)
    cost_mods: list[dict] = field(default_factory=list)  # temporary cost modifiers
    control: list = field(default_factory=list)  # [card id, original controller] until end of turn
    winner: int | None = None
    result: str | None = None  # "colony" (R 15.1) | "turn_limit"
    decisions: int = 0
    # a multiplayer table's bookkeeping (R 17.1; None in a two-player game, so a two-player
    # state dumps and hashes exactly as before): see new_table
    table: Any = None  # a dict at a table of three or more, else None
    # derived look-ups of engine.values (not part of the state: never dumped or compared)
    memo: tuple | None = field(default=None, init=False, repr=False, compare=False)
    # (the awaited decision's dict, the list legal_actions returned for it): engine.game
    # applies an action of that very list without checking it again (not part of the state)
    offered: tuple | None = field(default=None, init=False, repr=False, compare=False)
    # bumped by every change of zone, slot, paid flag or ship of a card in play (move, board,
    # unboard, payment): engine.game keeps each seat's pay/activate candidates meanwhile
    card_epoch: int = field(default=0, init=False, repr=False, compare=False)
    # (element types: compiled, a kept entry's fields are read and compared natively)
    candidates: "dict[int, tuple[int, object, list[int], list[int], list[int], list[CardInstance]]]" = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    # bumped by every change of a card's upgrades or upgrades bought this turn: engine.game
    # keeps each seat's upgradable and upgraded bases while it and the surface stand still
    upgrade_epoch: int = field(default=0, init=False, repr=False, compare=False)
    base_lists: dict[int, tuple[int, list[int], list[int], list[int]]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    # bumped by every change of a card's damage or modifiers: with card_epoch and the hangars,
    # engine.ops.check_state knows when every ship still has the armour it had (`armoured`)
    armour_epoch: int = field(default=0, init=False, repr=False, compare=False)
    armoured: tuple | None = field(default=None, init=False, repr=False, compare=False)
    # the cards that may carry combat marks or modifiers (marked_cards); None: not known yet
    marked: list[CardInstance] | None = field(default=None, init=False, repr=False, compare=False)

    def card(self, cid: int) -> CardInstance:
        return self.cards[cid]

    def defn(self, card: CardInstance) -> dict:
        return self.defs[card.code]

    def other(self, seat: int) -> int:
        """ "The opponent" of a two-player game. A multiplayer table has no single opponent
        (R 17.1.3: the user of a card chooses a neighbour), so asking for one is a bug."""
        if self.table is not None:
            raise AssertionError("no single opponent at a multiplayer table (R 17.1.3)")
        return 1 - seat


def get_card(state: GameState, cid: object) -> CardInstance | None:
    """``state.cards.get(cid)``: the card of that id, or None (no such id, an id gone, or not
    an id at all), read as a list item (compiled: no call of the table's Python method)."""
    slots: list[CardInstance | None] = state.cards  # type: ignore[assignment]  # CardTable
    if isinstance(cid, int) and 0 <= cid < len(slots):
        return slots[cid]
    return None


def all_cards(state: GameState) -> list[CardInstance]:
    """``state.cards.values()``: every card of the game, in id order."""
    # list's own iterator (the table's yields ids: a bare loop would be that one in Python),
    # the free slots (None) skipped by filter in C
    slots: list[CardInstance | None] = state.cards  # type: ignore[assignment]  # CardTable
    return list(filter(None, list.__iter__(slots)))


def card_count(state: GameState) -> int:
    """How many cards the game has (the table's ``live``; its ``len`` counts free slots)."""
    table: Any = state.cards
    count: int = table.live
    return count


# --- the multiplayer table (R 17.1, AMB-44, AMB-54) --------------------------------------


def new_table(seat_count: int) -> dict:
    """The bookkeeping of a table of three or more: turns taken per seat (R 17.1.4), the
    eliminated seats in the order they left, who eliminated whom and when (AMB-44), and
    the final ranking (R 17.1.6). Plain lists, so the state still dumps as JSON."""
    return {
        "turns": [0] * seat_count,  # turns each seat has begun (its first turn: 1)
        "out": [],  # eliminated seats, in the order they left (AMB-44)
        "eliminated": [],  # [{"seat", "by", "turn"}] in the same order
        "eliminations": [0] * seat_count,  # players each seat eliminated (R 17.1.6)
        "ranking": None,  # seats best first once the game is over (R 17.1.6)
    }


def multiplayer(state: GameState) -> bool:
    """A table of three or more (R 17.1): the two-player rules of R 10.6, 10.7 and 15.1
    give way to R 17.1.4 and AMB-44."""
    return state.table is not None


def is_out(state: GameState, seat: int) -> bool:
    """Has `seat` been eliminated (AMB-44)? It takes no more turns and answers nothing."""
    return state.table is not None and seat in state.table["out"]


# --- the seats: a circle (R 17.1.1); the two-player game is its smallest case ---------------
# Every two-player assumption of the engine goes through these, so a two-player game is
# exactly what it was: next_seat and prev_seat of a seat are both the other seat.


def seats(state: GameState) -> range:
    """Every seat, in seat order (0 is the first seat; clockwise from it)."""
    return range(len(state.players))


def live_seats(state: GameState) -> list:
    """The seats still in the game, in seat order (every seat until someone is out)."""
    table = state.table
    if table is None or not table["out"]:
        return list(range(len(state.players)))
    return [s for s in range(len(state.players)) if s not in table["out"]]


def next_seat(state: GameState, seat: int) -> int:
    """The seat clockwise of `seat` still in the game: whose turn follows and who responds
    next (R 17.1.1); an eliminated seat is skipped, so the circle closes up (AMB-44)."""
    n = len(state.players)
    nxt = (seat + 1) % n
    table = state.table  # compiled: a native attribute read (a getattr was generic; ~2,000 a game)
    if table is not None and table["out"]:
        while nxt in table["out"] and nxt != seat:
            nxt = (nxt + 1) % n
    return nxt


def prev_seat(state: GameState, seat: int) -> int:
    """The seat counter-clockwise of `seat` still in the game: the cut passes that way."""
    n = len(state.players)
    prv = (seat - 1) % n
    table = state.table
    if table is not None and table["out"]:
        while prv in table["out"] and prv != seat:
            prv = (prv - 1) % n
    return prv


# seat count -> seat -> every seat from it clockwise (made once: clockwise is on hot paths)
_CIRCLES: Final = {
    n: tuple(tuple((s + i) % n for i in range(n)) for s in range(n)) for n in range(1, 9)
}


def clockwise(state: GameState, seat: int) -> tuple:
    """Every seat still in the game, starting with `seat` and going clockwise."""
    circle = _CIRCLES[len(state.players)][seat]
    table = state.table
    if table is not None and table["out"]:
        return tuple(s for s in circle if s == seat or s not in table["out"])
    return circle


def opponents(state: GameState, seat: int) -> tuple:
    """The other seats still in the game, clockwise from `seat` (R 1.5 "each")."""
    return clockwise(state, seat)[1:]


def neighbours(state: GameState, seat: int) -> list:
    """The seats `seat` may attack (R 17.1.2): clockwise and counter-clockwise neighbour
    still in the game (one seat in a two-player game, both others with three; recomputed
    after an elimination, AMB-44)."""
    out = [next_seat(state, seat)]
    if prev_seat(state, seat) not in out:
        out.append(prev_seat(state, seat))
    return out


# --- marks --------------------------------------------------------------------------


def mark(state: GameState, card: CardInstance) -> None:
    """Note `card` as one that may now carry a mark: boarded, hit, mods or grants (every
    place that sets one calls this), so marked_cards need not look at every card."""
    if state.marked is not None:
        state.marked.append(card)


def _card_id(card: CardInstance) -> int:
    return card.id


def marked_cards(state: GameState) -> list[CardInstance]:
    """``[c for c in state.cards.values() if c.boarded or c.hit or c.mods or c.grants]``:
    the end of every shot, combat and turn clears marks, and a game has ~90 cards, of which
    a few are marked. The first call looks at every card; later ones at the cards noted by
    `mark` since, in id order, which is the order of ``state.cards`` (a card gets a fresh id
    only as the dict's newest entry, _renumber) when it was so at that first call."""
    marked = state.marked
    if marked is None:
        found = [c for c in all_cards(state) if c.boarded or c.hit or c.mods or c.grants]
        state.marked = list(found)  # values() are in id order (CardTable)
        return found
    by_id = {id(c): c for c in marked if c.boarded or c.hit or c.mods or c.grants}
    found = sorted(by_id.values(), key=_card_id)
    state.marked = list(found)  # the cards without marks drop out
    return found


# --- moves --------------------------------------------------------------------------


def new_id(state: GameState) -> int:
    cid = state.next_id
    state.next_id += 1
    return cid


def _renumber(state: GameState, card: CardInstance) -> None:
    """Give `card` a fresh instance id (NOTES.md: hidden cards cannot be followed)."""
    slots: list[CardInstance | None] = state.cards  # type: ignore[assignment]  # CardTable
    slots[card.id] = None  # (the table's drop and add, inline: a native list in compiled code)
    card.id = new_id(state)
    if card.id >= len(slots):
        slots.extend([None] * (card.id + 1 - len(slots)))
    slots[card.id] = card


def detach(state: GameState, card: CardInstance) -> None:
    """Take a card out of wherever it is (zone list, ship, chain)."""
    if card.attached_to is not None:
        ship = get_card(state, card.attached_to)
        if ship is not None and card.id in ship.attachments:
            ship.attachments.remove(card.id)
        card.attached_to = None
        return
    if card.zone == "chain":
        for entry in state.chain:
            if entry.get("card") == card.id:
                state.chain.remove(entry)
                break
        return
    holder = state.players[card.controller if card.zone in IN_PLAY else card.owner]
    pile = holder.zone(card.zone)
    if card.id in pile:
        pile.remove(card.id)


def _reset(card: CardInstance) -> None:
    """R 3.12 / 14.3: counters and states fall off when a card leaves play."""
    card.paid = False
    card.orientation = "active"
    card.damage = 0
    card.upgrades = 0
    card.bought = 0
    card.slot = None
    card.boarded = False
    card.hit = False
    card.mods = []
    card.grants = []
    card.x = None
    card.controller = card.owner


def move(
    state: GameState,
    card: CardInstance,
    zone: str,
    *,
    face_up: bool = False,
    seat: int | None = None,
    bottom: bool = False,
    ship: CardInstance | None = None,
    slot: str | None = None,
) -> CardInstance:
    """Move `card` to `zone` and return it (its id may change).

    Piles belong to the owner (R 14.5); cards in play go to `seat` (default: the
    owner) as controller. `bottom` puts a card under a colony (index -1) or at the
    bottom of another pile (index 0). `ship` attaches the card to that ship.
    """
    if zone in IN_PLAY or card.zone in IN_PLAY:  # slot, paid flag (_reset), ships: cards
        state.card_epoch += 1  # in play only (a draw, a shuffle in the piles: not counted)
    was_hidden = not card.face_up or card.zone in HIDDEN_PILES
    if card.attachments:
        raise RuntimeError(f"card {card.id} still carries cards: remove its attachments first")
    detach(state, card)
    leaving_play = card.zone in IN_PLAY and zone not in IN_PLAY
    if leaving_play or zone in PILES:
        if card.upgrades or card.bought:
            state.upgrade_epoch += 1  # back to 0 (only a card in play has any)
        _reset(card)
    hidden = zone in HIDDEN_PILES or (zone in IN_PLAY and not face_up)
    if (hidden or was_hidden) and (card.zone != zone or not was_hidden):
        _renumber(state, card)  # no id of a hidden card survives a change of zone (R 16.2)
    card.zone = zone
    card.face_up = face_up and zone not in HIDDEN_PILES
    if zone in IN_PLAY:
        card.controller = card.owner if seat is None else seat
        if slot is not None:
            card.slot = slot
    if ship is not None:
        card.attached_to = ship.id
        ship.attachments.append(card.id)
        return card
    if zone == "chain":
        return card
    holder = state.players[card.controller if zone in IN_PLAY else card.owner]
    pile = holder.zone(zone)
    if zone == "colony":
        # index 0 is the top of a colony
        if bottom:
            pile.append(card.id)
        else:
            pile.insert(0, card.id)
    elif bottom:
        pile.insert(0, card.id)
    else:
        pile.append(card.id)
    return card


def renumber_pile(state: GameState, seat: int, zone: str) -> None:
    """Fresh ids for every card of a pile (after a shuffle)."""
    pile = state.players[seat].zone(zone)
    for i, cid in enumerate(pile):
        card = state.cards[cid]
        _renumber(state, card)
        pile[i] = card.id


def in_play(card: CardInstance | None) -> bool:
    return card is not None and card.zone in IN_PLAY


def in_play_list(state: GameState, seat: int) -> list[CardInstance]:
    """``list(cards_in_play(state, seat))``, written out (hot paths; typed, so a compiled
    caller reads the cards' attributes directly)."""
    player = state.players[seat]
    cards = state.cards
    out: list[CardInstance] = []
    for cid in player.hangar:
        ship = cards[cid]
        out.append(ship)
        if ship.attachments:
            out += [cards[a] for a in ship.attachments]
    if player.surface:
        out += [cards[c] for c in player.surface]
    if player.canteen:
        out += [cards[c] for c in player.canteen]
    return out


def cards_in_play(state: GameState, seat: int | None = None):
    """Every card in play (ships, then their attachments; surface; canteen)."""
    for s in range(len(state.players)) if seat is None else (seat,):
        player = state.players[s]
        for cid in player.hangar:
            ship = state.cards[cid]
            yield ship
            for aid in ship.attachments:
                yield state.cards[aid]
        for cid in player.surface:
            yield state.cards[cid]
        for cid in player.canteen:
            yield state.cards[cid]
