"""Small state-changing operations shared by the turn, combat and effect code.

Every operation appends events; cards are described publicly with ``pub`` (a
face-down card in play is only ``{id, face_down, owner, zone}``, a card in a hidden
pile -- colony, centre, wasteland -- has no id at all) and privately in the event's
``secret`` part, which only the owner sees.
"""

from . import values as V
from .flow import emit, event, push
from .state import (
    HIDDEN_PILES,
    IN_PLAY,
    CardInstance,
    GameState,
    mark,
    move,
    prev_seat,
    renumber_pile,
)

# --- descriptions ------------------------------------------------------------------


def public(card: CardInstance) -> bool:
    """Everybody may know this card's identity now (R 3.1, 16)."""
    return card.face_up and card.zone not in HIDDEN_PILES


def pub(state: GameState, card: CardInstance) -> dict:
    if public(card):
        return {
            "id": card.id,
            "code": card.code,
            "name": state.defs[card.code]["name"],
            "owner": card.owner,
            "zone": card.zone,
        }
    if card.zone in HIDDEN_PILES:  # no id: nobody else may tell the cards of a pile apart
        return {"face_down": True, "owner": card.owner, "zone": card.zone}
    return {"id": card.id, "face_down": True, "owner": card.owner, "zone": card.zone}


def ident(state: GameState, card: CardInstance) -> dict:
    return {"id": card.id, "code": card.code, "name": state.defs[card.code]["name"]}


def relocate(state: GameState, card: CardInstance, zone: str, ev: list, why: str, **kw):
    """`move` plus a "move" event that keeps hidden identities secret."""
    origin = card.zone
    old = card.id
    was_in_play = origin in IN_PLAY
    card = move(state, card, zone, **kw)
    data: dict = {"card": pub(state, card), "from": origin, "to": zone, "why": why}
    if was_in_play and zone not in IN_PLAY:
        data["was"] = old
    secret = None if public(card) else ident(state, card)
    event(ev, "move", data, secret, (card.owner,) if secret else ())
    return card


# --- credits -----------------------------------------------------------------------


def gain(state: GameState, seat: int, n: int, ev: list, why: str = "") -> None:
    if n <= 0:
        return
    state.players[seat].credits += n
    credits = state.players[seat].credits
    event(ev, "credits", {"player": seat, "change": n, "credits": credits, "why": why})


def spend(state: GameState, seat: int, n: int, ev: list, why: str = "") -> None:
    player = state.players[seat]
    if n > player.credits:
        raise RuntimeError("spending more credits than available")
    if n <= 0:
        return
    player.credits -= n
    event(ev, "credits", {"player": seat, "change": -n, "credits": player.credits, "why": why})


def lose(state: GameState, seat: int, n: int, ev: list, why: str = "") -> None:
    """Lose up to n credits (R 1.4: never below 0)."""
    n = min(n, state.players[seat].credits)
    spend(state, seat, n, ev, why)


# --- colony ------------------------------------------------------------------------


def draw(state: GameState, seat: int, n: int, ev: list, why: str = "draw") -> int:
    """Top cards of the colony to the centre (R 11.3.1 M7); returns how many."""
    player = state.players[seat]
    drawn = 0
    for _ in range(n):
        if not player.colony:
            break
        card = state.cards[player.colony[0]]
        relocate(state, card, "centre", ev, why)
        drawn += 1
    return drawn


def discard_top(state: GameState, seat: int, n: int, ev: list, why: str) -> int:
    """Top cards of the colony to the wasteland (R 11.4.5.2, R 13.9)."""
    player = state.players[seat]
    done = 0
    for _ in range(n):
        if not player.colony:
            break
        relocate(state, state.cards[player.colony[0]], "wasteland", ev, why)
        done += 1
    return done


def shuffle_colony(state: GameState, seat: int, ev: list) -> None:
    """R 16.1: shuffle (fresh ids), then the opponent cuts."""
    player = state.players[seat]
    state.rng.shuffle(player.colony)
    renumber_pile(state, seat, "colony")
    emit(ev, "shuffle", player=seat, cards=len(player.colony))
    if len(player.colony) < 2:
        return
    if state.ruleset.cut == "choose":
        push(state, {"kind": "cut", "player": prev_seat(state, seat), "owner": seat})
    else:
        cut(state, seat, state.rng.below(len(player.colony)), ev)


def cut(state: GameState, seat: int, at: int, ev: list) -> None:
    colony = state.players[seat].colony
    colony[:] = colony[at:] + colony[:at]
    emit(ev, "cut", player=seat, by=prev_seat(state, seat), at=at)


# --- damage, destruction -----------------------------------------------------------


def rotate(state: GameState, card: CardInstance, to: str, ev: list, why: str = "") -> None:
    if card.orientation != to:
        card.orientation = to
        event(ev, "rotate", {"card": pub(state, card), "to": to, "why": why})


def deal_damage(state: GameState, card: CardInstance, n: int, ev: list, why: str = "") -> int:
    """Damage to a ship or a base (R 4.2.6, 4.2.7, 4.5.10, 5.4.2); returns damage dealt.

    A participating ship in a combat is only marked hit (it turns damaged at the
    end of the firing step, R 11.4.4.8); otherwise -- outside combat, or after the
    firing step has ended (a decision: no later step converts hits) -- ships
    (repair: used, R 13.8) and paid bases turn damaged at once. Destruction is
    left to `check_state`.
    """
    if n <= 0 or card.zone not in IN_PLAY:
        return 0
    left = V.armour_left(state, card)
    dealt = min(n, left)  # R 1.4: excess damage is lost
    card.damage += dealt
    state.armour_epoch += 1
    emit(ev, "damage", card=pub(state, card), amount=dealt, why=why)
    if dealt <= 0:
        return 0
    if V.is_ship(state, card):
        if V.participating(state, card) and not state.combat.get("hits_done"):  # type: ignore[union-attr]
            card.hit = True  # turns damaged at the end of the firing step
            mark(state, card)
        else:
            damaged_state(state, card, ev)
    elif card.slot == "base" and card.paid:
        rotate(state, card, "damaged", ev, "damage")
    return dealt


def damaged_state(state: GameState, card: CardInstance, ev: list) -> None:
    """A ship that takes damage turns damaged, or only used with repair (R 13.8)."""
    if "repair" in V.keywords(state, card):
        if card.orientation == "active":
            rotate(state, card, "used", ev, "repair")
    else:
        rotate(state, card, "damaged", ev, "damage")


def leave_with_attachments(state: GameState, ship: CardInstance, ev: list, why: str) -> None:
    """R 14.2 / AMB-37: a ship's armaments and crew go with it (trash/wasteland)."""
    for aid in list(ship.attachments):
        destroy(state, state.cards[aid], ev, why)


def destroy(state: GameState, card: CardInstance, ev: list, why: str = "destroyed") -> None:
    """R 14.1: destroyed cards go to the owner's trash if paid, wasteland if unpaid."""
    if card.zone not in IN_PLAY:
        return
    triggers: list = []
    if card.paid and card.face_up:
        triggers = [a for a in V.abilities(state, card) if a["trigger"] == "on_destroyed"]
    ctrl = card.controller
    leave_with_attachments(state, card, ev, why)
    if card.paid:
        card = relocate(state, card, "trash", ev, why, face_up=True)
    else:
        card = relocate(state, card, "wasteland", ev, why)
    for ability in triggers[::-1]:
        push(state, effects_frame(ability["effects"], card, ctrl))


def check_state(state: GameState, ev: list) -> None:
    """AMB-34: a ship with 0 current armour is destroyed (outside a shot's damage step)."""
    combat = state.combat
    if combat is not None and (
        combat.get("batch") or (combat["step"] == "firing" and state.ruleset.simplified_combat)
    ):
        return  # R 17.2.2: ships at 0 armour leave only at the end of the firing step
    players = state.players
    for player in players:
        if player.hangar:
            break
    else:
        return  # no ship anywhere
    info = V.state_info(state)
    if not info.lowers_armour:  # statics can only add armour: a lower bound without them
        if armour_kept(state, info):
            return  # nothing _all_armoured reads changed since it found every ship armoured
        if _all_armoured(state, info):
            # what _all_armoured read: the hangars as copies (they change in place)
            hangars = [player.hangar.copy() for player in players]
            state.armoured = (state.card_epoch, state.armour_epoch, info, hangars)
            return  # nobody is at 0 (the common case, fast)
    hangars = [player.hangar for player in players]
    statics = V.static_abilities(state)
    doomed = [
        state.cards[cid]
        for hangar in hangars
        for cid in hangar
        if V.armour_left(state, state.cards[cid], statics) <= 0
    ]
    for card in doomed:
        if card.zone == "hangar":
            destroy(state, card, ev, "armour 0")


def armour_kept(state: GameState, info: V.DefInfo) -> bool:
    """Whether check_state's last "every ship armoured" still stands: nothing it read has
    changed since (card_epoch: ships, attachments, paid flags; armour_epoch: damage and
    modifiers; the definitions' info; the hangars, compared whole). No key is built: this
    runs at every decision."""
    kept = state.armoured
    if kept is None or kept[0] != state.card_epoch or kept[1] != state.armour_epoch:
        return False
    if kept[2] is not info:
        return False
    hangars: list = kept[3]
    players = state.players
    if len(hangars) != len(players):
        return False
    for i, player in enumerate(players):
        if hangars[i] != player.hangar:
            return False
    return True


def _all_armoured(state: GameState, info: V.DefInfo) -> bool:
    """Every ship has armour left without the static abilities: V.armour_left(state, ship,
    ()) > 0 for all, written out (printed armour + paid face-up attachments' bonuses +
    modifiers, floored at 0, above the damage)."""
    cards = state.cards
    defs = state.defs
    armour = info.armour
    negative = info.negative_bonus
    for player in state.players:
        for cid in player.hangar:
            card = cards[cid]
            value = armour[card.code]
            if not card.damage and not card.mods and value > 0:
                if not card.attachments or not negative:
                    continue  # bonuses can only add armour: above 0 damage
            if card.attached_to is None:
                for aid in card.attachments:
                    att = cards[aid]
                    if att.paid and att.face_up:
                        bonus = defs[att.code].get("bonus")
                        if bonus:
                            value += bonus.get("armour", 0)
            for mod in card.mods:
                if mod[0] == "armour":
                    value += mod[1]
            if max(0, value) <= card.damage:
                return False
    return True


# --- effects frames ------------------------------------------------------------------


def effects_frame(effects: list, source: CardInstance | None, ctrl: int, **ctx) -> dict:
    return {
        "kind": "effects",
        "effects": effects,
        "i": 0,
        "ctx": {
            "src": source.id if source is not None else None,
            "code": source.code if source is not None else None,
            "ctrl": ctrl,
            "x": source.x if source is not None else None,
            "targets": {},
            "modes": {},
            "path": "",
            **ctx,
        },
    }


def push_trigger(state: GameState, card: CardInstance, trigger: str, **match) -> int:
    """Push the abilities of `card` with `trigger` (conditions checked now); returns count."""
    found = []
    for ability in V.abilities(state, card):
        if ability["trigger"] != trigger:
            continue
        if any(ability.get(k) != v for k, v in match.items()):
            continue
        if not V.condition_ok(state, ability.get("condition"), card, card.controller):
            continue
        found.append(ability)
    for ability in found[::-1]:
        push(state, effects_frame(ability["effects"], card, card.controller))
    return len(found)


def reveal(state: GameState, ev: list, card_ids, viewer: int, zone: str, player: int | None = None):
    """Show hidden cards to one viewer only (R 16.4): identities travel in the event's
    secret part, addressed to `viewer`; everyone else sees that a look happened."""
    where = {} if player is None else {"player": player}
    emit(
        ev,
        "reveal",
        secret={"cards": [ident(state, state.cards[c]) for c in card_ids]},
        audience=(viewer,),
        **where,
        zone=zone,
        viewer=viewer,
    )


def leave_combat(state: GameState, card: CardInstance):
    """The card is no longer one of the combat's attackers, defenders or bombers."""
    combat = state.combat
    if combat is not None:
        for key in ("attackers", "defenders", "bombers"):
            if card.id in combat[key]:
                combat[key].remove(card.id)
