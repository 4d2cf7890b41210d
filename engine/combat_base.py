"""What every part of a combat (R 11.4) shares: the ships taking part, crew going aboard
and back (R 11.4.2, R 11.4.6), paying what is aboard (R 11.4.3), the ship abilities used in
a combat, heavy weapons (R 13.7) and ordnance (R 13.9), and ``Step``, the interface of the
combat frame's step handlers (engine.combat's STEPS; the firing's in engine.firing, the
bombardment's in engine.bombard)."""

from . import ops
from . import values as V
from .actions import Action
from .announce import announce_payment
from .flow import emit, event
from .resolve import open_window
from .state import CardInstance, GameState, get_card, mark, next_seat


class Step:
    """One step of the combat frame (``frame["step"]``, a part of one of R 11.4.1.4's five
    steps): ``run`` moves the combat on while no decision waits (it sets the next step,
    waits for a player or pushes a frame); ``legal`` and ``act`` are its decision's."""

    def run(self, state: GameState, frame: dict, ev: list) -> None:  # pragma: no cover
        raise NotImplementedError

    def legal(self, state: GameState, frame: dict) -> list:
        return []

    def act(self, state: GameState, frame: dict, action: Action, ev: list) -> None:
        return None

    def refusal(self, action: Action) -> str:
        """The reason code of an action that is not legal here (an unaffordable payment
        excepted: Combat.check)."""
        return "NOT_A_LEGAL_CHOICE"


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
    chain resolves (``announce.finish_payment``: face up, paid, X locked, on_pay)."""
    base = announce_payment(state, seat, card, ev, why, statics)
    open_window(state, next_seat(state, seat), scope, base)


# --- ship abilities used in combat (R 13) ------------------------------------------------------------


def can_heavy_weapons(state: GameState, ship) -> bool:
    """R 13.7 / AMB-27: 2 CR for +1 firepower, capped at twice the base firepower."""
    if state.players[ship.controller].credits < 2:
        return False
    return _can_boost(state, ship, "heavy_weapons", "firepower", state.ruleset.heavy_weapons_cap)


def heavy_weapons(state: GameState, ship, ev: list) -> None:
    ops.spend(state, ship.controller, 2, ev, "heavy weapons")
    _boost(state, ship, "heavy_weapons", "firepower", ev)


def can_ordnance(state: GameState, ship) -> bool:
    """R 13.9 / AMB-28: discard a colony card for +1 bombardment, up to twice the base."""
    if not state.players[ship.controller].colony:
        return False
    return _can_boost(state, ship, "ordnance", "bombardment", state.ruleset.ordnance_cap)


def ordnance(state: GameState, ship, ev: list) -> None:
    ops.discard_top(state, ship.controller, 1, ev, "ordnance")
    _boost(state, ship, "ordnance", "bombardment", ev)


def _can_boost(state: GameState, ship, keyword: str, stat: str, cap: str) -> bool:
    """Whether the ship's `keyword` (heavy weapons, ordnance) may add +1 to `stat` now: up to
    twice the printed value; under the "increase" cap the keyword's own bonus is capped at
    the printed value instead (AMB-27, AMB-28)."""
    if keyword not in V.keywords(state, ship):
        return False
    base = V.printed(state, ship, stat)
    if cap == "increase":
        bonus = sum(m[1] for m in ship.mods if m[3] == keyword)
        return bonus + 1 <= base
    return V.stat(state, ship, stat) + 1 <= 2 * base


def _boost(state: GameState, ship, keyword: str, stat: str, ev: list) -> None:
    ship.mods.append([stat, 1, "until_end_of_combat", keyword])
    mark(state, ship)
    state.armour_epoch += 1
    event(ev, keyword, {"ship": ship.id, stat: V.stat(state, ship, stat)})
