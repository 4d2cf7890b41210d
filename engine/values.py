"""Derived values: current stats, keywords, costs, filters, targets and conditions.

Nothing here changes the state. Current values follow R 5.1.3: printed value
+ icon bonuses of paid armaments and paid crew aboard + temporary modifiers +
continuous ("static") abilities of paid cards in play, floored at 0 (R 1.4).
Filters that look at a card's identity (type, subtype, race, cost) only match
face-up cards, so a legal-target list never reveals a face-down card.
"""

from .catalog import SHIP_SIZE
from .state import IN_PLAY, CardInstance, GameState, cards_in_play

STAT_NAMES = ("speed", "firepower", "armour", "bombardment")


# --- identity ------------------------------------------------------------------------


def ctype(state: GameState, card: CardInstance) -> str:
    return state.defs[card.code]["type"]


def subtype(state: GameState, card: CardInstance) -> str:
    return state.defs[card.code]["subtype"]


def name(state: GameState, card: CardInstance) -> str:
    return state.defs[card.code]["name"]


def abilities(state: GameState, card: CardInstance) -> list:
    return state.defs[card.code].get("abilities") or []


def size(state: GameState, card: CardInstance) -> int:
    """R 4.2.3: capacity of a ship (R 4.2.4)."""
    return SHIP_SIZE[state.defs[card.code]["subtype"]]


def hangar_size(state: GameState, card: CardInstance) -> int:
    """R 3.7 / AMB-09: hangar occupancy (Mamut I. occupies 6)."""
    d = state.defs[card.code]
    return d.get("hangar_size") or SHIP_SIZE[d["subtype"]]


def is_ship(state: GameState, card: CardInstance) -> bool:
    return card.zone == "hangar" and card.attached_to is None


def printed_cost(state: GameState, card: CardInstance):
    return state.defs[card.code]["credit_cost"]


# --- where static abilities work ---------------------------------------------------


def effective(state: GameState, card: CardInstance) -> bool:
    """A paid card in play whose text works where it is (R 4.3.3, 4.4.3, 4.4.7, 6.8.2)."""
    if not (card.paid and card.face_up and card.zone in IN_PLAY):
        return False
    d = state.defs[card.code]
    t = d["type"]
    if t == "ship":
        return card.attached_to is None
    if t == "base":
        return card.slot == "base"
    if t == "armament":
        return card.attached_to is not None
    if t == "crew":
        return card.attached_to is not None or d["subtype"] == "passenger"
    return False


_STATIC_DEFS: dict = {}  # id(defs) -> (defs, len(defs), {code: [static abilities]}, flag)


def _static_info(defs: dict) -> tuple:
    """(code -> the static abilities of that definition (only codes that have some),
    whether any of them may lower armour).

    Cached per definitions dict (a game's ``state.defs``); a dict that gained cards since
    (engine.notation adds them one by one) is recomputed. A few dicts are kept.
    """
    hit = _STATIC_DEFS.get(id(defs))
    if hit is not None and hit[0] is defs and hit[1] == len(defs):
        return hit[2], hit[3]
    table = {}
    lowers_armour = False
    for code, d in defs.items():
        statics = [a for a in d.get("abilities") or () if a["trigger"] == "static"]
        if statics:
            table[code] = statics
        for ability in statics:
            for eff in ability["effects"]:
                if eff["effect"] == "modify_stat" and eff["stat"] == "armour":
                    amount = eff["amount"]
                    if not isinstance(amount, int) or amount < 0:
                        lowers_armour = True
    if len(_STATIC_DEFS) >= 8:
        del _STATIC_DEFS[next(iter(_STATIC_DEFS))]
    _STATIC_DEFS[id(defs)] = (defs, len(defs), table, lowers_armour)
    return table, lowers_armour


def _static_defs(defs: dict) -> dict:
    return _static_info(defs)[0]


def statics_may_lower_armour(state: GameState) -> bool:
    """Whether a static ability of some card of this game may lower a card's armour
    (if not, armour without the static abilities is a lower bound of the real one)."""
    return _static_info(state.defs)[1]


def static_abilities(state: GameState):
    """(source card, ability) for every static ability that currently works.

    The order is that of ``cards_in_play`` (ships, then their attachments; surface;
    canteen), written out for speed: most cards have no static ability.
    """
    out = []
    table = _static_defs(state.defs)
    if not table:
        return out
    cards = state.cards
    for player in state.players:
        for cid in player.hangar:
            ship = cards[cid]
            if ship.paid and ship.code in table:
                _add_statics(state, ship, table, out)
            for aid in ship.attachments:
                att = cards[aid]
                if att.paid and att.code in table:
                    _add_statics(state, att, table, out)
        for zone in (player.surface, player.canteen):
            for cid in zone:
                card = cards[cid]
                if card.paid and card.code in table:
                    _add_statics(state, card, table, out)
    return out


def _add_statics(state: GameState, card: CardInstance, table: dict, out: list) -> None:
    if not effective(state, card):
        return
    for ability in table[card.code]:
        if condition_ok(state, ability.get("condition"), card, card.controller):
            out.append((card, ability))


# --- conditions and amounts -----------------------------------------------------------


def condition_ok(state: GameState, cond, source: CardInstance | None, ctrl: int) -> bool:
    if not cond:
        return True
    kind = cond["kind"]
    if kind == "controls":
        sid = source.id if source is not None else None
        count = len(candidates(state, cond["target"], ctrl, sid, targeted=False))
        return count >= cond["at_least"]
    if kind == "in_combat":
        combat = state.combat
        if combat is None:
            return False
        role = cond["role"]
        if role == "attacker":
            return combat["attacker"] == ctrl
        if role == "defender":
            return combat["defender"] == ctrl
        return True
    if kind == "colony_at_most":
        seat = ctrl if cond["player"] == "you" else 1 - ctrl
        return len(state.players[seat].colony) <= cond["amount"]
    raise ValueError(f"unknown condition {kind!r}")


def amount_value(state: GameState, amount, ctrl: int, source: CardInstance | None) -> int:
    if isinstance(amount, int):
        return amount
    if amount == "X":
        return (source.x or 0) if source is not None else 0
    if isinstance(amount, dict):
        sid = source.id if source is not None else None
        n = len(candidates(state, amount["count_of"], ctrl, sid, targeted=False))
        return n * amount.get("times", 1)
    raise ValueError(f"bad amount {amount!r}")


# --- filters and targets --------------------------------------------------------------


def participating(state: GameState, card: CardInstance) -> bool:
    combat = state.combat
    return combat is not None and (card.id in combat["attackers"] or card.id in combat["defenders"])


def def_matches(state: GameState, d: dict, flt: dict | None) -> bool:
    """A card definition against the identity part of a filter (cost modifiers)."""
    for key, value in (flt or {}).items():
        if key == "type" and d["type"] != value:
            return False
        if key == "subtype" and d["subtype"] != value:
            return False
        if key == "race" and d.get("race") != value:
            return False
        if key == "keyword" and value not in (d.get("keywords") or ()):
            return False
        cost = d["credit_cost"]
        if key == "cost_max" and not (isinstance(cost, int) and cost <= value):
            return False
        if key == "cost_min" and not (isinstance(cost, int) and cost >= value):
            return False
    return True


def filter_ok(
    state: GameState, card: CardInstance, flt: dict | None, source_id: int | None
) -> bool:
    if not flt:
        return True
    d = state.defs[card.code]
    visible = card.face_up
    for key, value in flt.items():
        if key in ("type", "subtype", "race", "cost_max", "cost_min"):
            if not visible:
                return False
            if key == "cost_max" or key == "cost_min":
                cost = d["credit_cost"]
                if not isinstance(cost, int):
                    cost = chain_cost(state, card)
                if key == "cost_max" and cost > value:
                    return False
                if key == "cost_min" and cost < value:
                    return False
            elif d.get(key) != value:
                return False
        elif key == "keyword":
            if value not in keywords(state, card):
                return False
        elif key == "paid":
            if card.paid != value:
                return False
        elif key == "state":
            if card.orientation != value:
                return False
        elif key == "in_combat":
            if not participating(state, card):
                return False
        elif key == "other":
            if card.id == source_id:
                return False
        elif key == "size_max":
            if not (is_ship(state, card) and size(state, card) <= value):
                return False
    return True


def chain_cost(state: GameState, card: CardInstance) -> int:
    for entry in state.chain:
        if entry["card"] == card.id:
            return entry.get("cost", 0)
    return 0


def _owner_ok(seat: int, owner, ctrl: int) -> bool:
    if owner in (None, "any"):
        return True
    return (seat == ctrl) if owner == "you" else (seat != ctrl)


def candidates(
    state: GameState,
    spec: dict,
    ctrl: int,
    source_id: int | None,
    *,
    targeted: bool = True,
    pile: str | None = None,
) -> list:
    """Ids of the cards a target spec can name now.

    `targeted` = a player chooses (cloaked ships are excluded, R 13.2); with
    ``count: "all"`` nothing is chosen, so cloak does not protect. `pile` looks
    in the controller's trash instead of in play (return_to_centre from trash).
    """
    kind = spec["kind"]
    owner = spec.get("owner")
    flt = spec.get("filter")
    out = []
    if pile is not None:
        player = state.players[ctrl]
        for cid in player.zone(pile):
            card = state.cards[cid]
            if ctype(state, card) == kind and filter_ok(state, card, flt, source_id):
                out.append(cid)
        return out
    if kind in ("interrupt", "event"):
        for entry in state.chain:
            cid = entry.get("card")
            if cid is None or cid == source_id or entry.get("kind") != "card":
                continue
            card = state.cards[cid]
            if ctype(state, card) != kind or not _owner_ok(card.controller, owner, ctrl):
                continue
            if filter_ok(state, card, flt, source_id):
                out.append(cid)
        return out
    for seat in (ctrl, 1 - ctrl):
        if not _owner_ok(seat, owner, ctrl):
            continue
        for card in cards_in_play(state, seat):
            if kind == "ship":
                if not is_ship(state, card):
                    continue
                if targeted and "cloak" in keywords(state, card):
                    continue  # R 13.2
            elif kind == "base":
                if card.slot != "base":
                    continue
            elif kind == "crew":
                if card.slot != "crew":
                    continue
            elif kind == "armament":
                if card.slot != "armament":
                    continue
            elif kind != "card":
                continue
            if filter_ok(state, card, flt, source_id):
                out.append(card.id)
    return out


# --- stats and keywords --------------------------------------------------------------


def printed(state: GameState, card: CardInstance, stat: str) -> int:
    """R 5.1.4 base value: the printed number."""
    return state.defs[card.code].get(stat) or 0


def _static_targets(state: GameState, spec: dict, src: CardInstance, card: CardInstance) -> bool:
    kind = spec["kind"]
    if kind == "self":
        return card.id == src.id
    if kind == "carrier":
        return src.attached_to == card.id
    if not _owner_ok(card.controller, spec.get("owner"), src.controller):
        return False
    if kind == "ship" and not is_ship(state, card):
        return False
    if kind == "base" and card.slot != "base":
        return False
    if kind in ("crew", "armament") and card.slot != kind:
        return False
    return filter_ok(state, card, spec.get("filter"), src.id)


def stat(state: GameState, card: CardInstance, stat_name: str, statics=None) -> int:
    """Current value (R 5.1.3); for armour this is the full armour (R 5.4.1)."""
    value = printed(state, card, stat_name)
    if card.attached_to is None:
        for aid in card.attachments:
            att = state.cards[aid]
            if att.paid and att.face_up:
                bonus = state.defs[att.code].get("bonus")
                if bonus:
                    value += bonus.get(stat_name, 0)
    for mod in card.mods:
        if mod[0] == stat_name:
            value += mod[1]
    if statics is None:
        statics = static_abilities(state)
    for src, ability in statics:
        for eff in ability["effects"]:
            if eff["effect"] == "modify_stat" and eff["stat"] == stat_name:
                if _static_targets(state, eff["target"], src, card):
                    value += amount_value(state, eff["amount"], src.controller, src)
    return max(0, value)


def armour_left(state: GameState, card: CardInstance, statics=None) -> int:
    """R 5.4.1: current armour = full armour - damage, floored at 0."""
    return max(0, stat(state, card, "armour", statics) - card.damage)


def keywords(state: GameState, card: CardInstance) -> set:
    """Printed keywords + temporary grants + static grants (R 13)."""
    out = set(state.defs[card.code].get("keywords") or ())
    for grant in card.grants:
        out.add(grant[0])
    if card.zone != "hangar":
        return out
    # static grant_keyword: only carriers ("carrier") and self occur in the set;
    # scan the ship's own attachments and every static source for generality.
    for cid in card.attachments:
        att = state.cards[cid]
        if not effective(state, att):
            continue
        for ability in state.defs[att.code].get("abilities") or ():
            if ability["trigger"] != "static":
                continue
            for eff in ability["effects"]:
                if eff["effect"] == "grant_keyword" and eff["target"]["kind"] == "carrier":
                    out.add(eff["keyword"])
    return out


def x_value(state: GameState, card: CardInstance) -> int:
    return card.x or 0


# --- costs ---------------------------------------------------------------------------


def _cost_delta(state: GameState, seat: int, d: dict | None, action: str, statics=None) -> int:
    delta = 0
    if statics is None:
        statics = static_abilities(state)
    for src, ability in statics:
        for eff in ability["effects"]:
            if eff["effect"] != "cost_modifier":
                continue
            affected = src.controller if eff.get("player", "you") == "you" else 1 - src.controller
            if affected != seat or eff.get("action", "card") != action:
                continue
            if action == "card" and not def_matches(state, d, eff.get("filter")):
                continue
            delta += eff["amount"]
    for mod in state.cost_mods:
        if mod["player"] != seat or mod["action"] != action:
            continue
        if action == "card" and not def_matches(state, d, mod.get("filter")):
            continue
        delta += mod["amount"]
    return delta


def card_cost(
    state: GameState, seat: int, card: CardInstance, target_cost: int = 0, statics=None
) -> int:
    """R 19.6 credit cost with modifiers, never below 0 (R 1.4a)."""
    d = state.defs[card.code]
    base = d["credit_cost"]
    if not isinstance(base, int):  # Felülbírálás: equals the neutralised card's cost (R 21.3)
        base = target_cost
    return max(0, base + _cost_delta(state, seat, d, "card", statics))


def action_cost(state: GameState, seat: int, action: str, base: int, statics=None) -> int:
    """M6 (upgrade) and M7 (draw) costs with modifiers (cost_modifier action)."""
    return max(0, base + _cost_delta(state, seat, None, action, statics))


def consume_next(state: GameState, seat: int, d: dict | None, action: str) -> None:
    """A "next" cost modifier is used up by the next matching card or action."""
    keep = []
    for mod in state.cost_mods:
        used = (
            mod["duration"] == "next"
            and mod["player"] == seat
            and mod["action"] == action
            and (action != "card" or def_matches(state, d, mod.get("filter")))
        )
        if not used:
            keep.append(mod)
    state.cost_mods = keep


def attack_surcharge(state: GameState, seat: int, statics=None) -> int:
    """AMB-35: the sum of attack surcharges `seat` pays per attack (Aknagyűrű)."""
    total = 0
    if statics is None:
        statics = static_abilities(state)
    for src, ability in statics:
        for eff in ability["effects"]:
            if eff["effect"] == "attack_surcharge":
                payer = (
                    1 - src.controller
                    if eff.get("player", "opponent") == "opponent"
                    else src.controller
                )
                if payer == seat:
                    total += amount_value(state, eff["amount"], src.controller, src)
    return total


def hangar_total(state: GameState, seat: int) -> int:
    return sum(hangar_size(state, state.cards[cid]) for cid in state.players[seat].hangar)


def capacity_left(state: GameState, ship: CardInstance) -> int:
    return size(state, ship) - len(ship.attachments)
