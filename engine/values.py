"""Derived values: current stats, keywords, costs, filters, targets and conditions.

Nothing here changes the state. Current values follow R 5.1.3: printed value
+ icon bonuses of paid armaments and paid crew aboard + temporary modifiers +
continuous ("static") abilities of paid cards in play, floored at 0 (R 1.4).
Filters that look at a card's identity (type, subtype, race, cost) only match
face-up cards, so a legal-target list never reveals a face-down card.

Why it stays whole (over 600 lines): its parts call each other both ways. The static
abilities and stats read filters and conditions (a static ability names the cards it
changes by a filter), and the filters read stats and keywords (which static abilities
grant); all of them share the per-state memo of static abilities (``_card_memo``). A split
would cut through that loop or expose the memo to other modules.
"""

from typing import Any, Final

from .catalog import SHIP_SIZE
from .state import (
    IN_PLAY,
    CardInstance,
    GameState,
    all_cards,
    card_count,
    clockwise,
    in_play_list,
    live_seats,
    neighbours,
)

STAT_NAMES: Final = ("speed", "firepower", "armour", "bombardment")


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


class DefInfo:
    """What the hot paths look up per card code, computed once per definitions dict.

    ``statics``: code -> its static abilities (only codes that have some);
    ``lowers_armour``: whether any static ability may lower armour; ``types``: code ->
    type; ``activated``: code -> indices of its activated abilities (codes with some);
    ``armour``: code -> printed armour (0 if none); ``triggers``: trigger -> the codes
    with an ability of that trigger; ``passenger``: codes of passenger crew.
    ``main_pay``: code -> the slot a face-up copy may be paid from in the main phase (its
    type), None for traps and missiles (R 4.5.9, 4.3.5a: paid only when bombarded or in
    combat); ``upgrade_limit``: base code -> the upgrades it needs before it is paid
    (R 4.5.4; bases with one only).

    Which static abilities can matter where: ``by_effect``: effect -> {code -> its static
    abilities with that effect}; ``cost_codes``: codes whose card cost some static
    cost_modifier of the game may change (its filter matches the definition);
    ``cost_actions``: the other actions (upgrade, draw) with a static cost_modifier;
    ``static_stats``: the stats some static modify_stat changes. Where none can matter,
    the static abilities in play need not be looked up: they add nothing.
    """

    __slots__ = (
        "defs",
        "statics",
        "lowers_armour",
        "types",
        "activated",
        "armour",
        "triggers",
        "passenger",
        "by_effect",
        "cost_codes",
        "cost_actions",
        "static_stats",
        "negative_bonus",
        "main_pay",
        "upgrade_limit",
    )  # negative_bonus: some card's icon bonus lowers armour

    def __init__(self, defs: dict):
        # element types: the compiled build reads them without generic look-ups
        self.defs = defs
        self.statics: dict[str, list[dict]] = {}
        self.lowers_armour = False
        self.types: dict[str, str] = {}
        self.activated: dict[str, tuple[int, ...]] = {}
        self.armour: dict[str, int] = {}
        self.triggers: dict[str, set[str]] = {}
        self.passenger: set[str] = set()
        self.by_effect: dict[str, dict[str, list[dict]]] = {}
        self.cost_codes: set[str] = set()
        self.cost_actions: set[str] = set()
        self.static_stats: set[str] = set()
        self.negative_bonus = False
        self.main_pay: dict[str, str | None] = {}
        self.upgrade_limit: dict[str, int] = {}
        cost_filters = []
        for code, d in defs.items():
            bonus = (d.get("bonus") or {}).get("armour")
            if bonus is not None and (not isinstance(bonus, int) or bonus < 0):
                self.negative_bonus = True
            abilities = d.get("abilities") or ()
            self.types[code] = d["type"]
            self.main_pay[code] = _main_pay_slot(d)
            if d["type"] == "base" and isinstance(d.get("upgrade_limit"), int):
                self.upgrade_limit[code] = d["upgrade_limit"]
            self.armour[code] = d.get("armour") or 0
            if d["type"] == "crew" and d["subtype"] == "passenger":
                self.passenger.add(code)
            for a in abilities:
                self.triggers.setdefault(a["trigger"], set()).add(code)
            activated = tuple(i for i, a in enumerate(abilities) if a["trigger"] == "activated")
            if activated:
                self.activated[code] = activated
            statics = [a for a in abilities if a["trigger"] == "static"]
            if statics:
                self.statics[code] = statics
            for ability in statics:
                for eff in ability["effects"]:
                    kind = eff["effect"]
                    by_code = self.by_effect.setdefault(kind, {})
                    with_effect = by_code.setdefault(code, [])
                    if not with_effect or with_effect[-1] is not ability:
                        with_effect.append(ability)
                    if kind == "modify_stat":
                        self.static_stats.add(eff["stat"])
                    if kind == "modify_stat" and eff["stat"] == "armour":
                        amount = eff["amount"]
                        if not isinstance(amount, int) or amount < 0:
                            self.lowers_armour = True
                    if kind == "cost_modifier":
                        action = eff.get("action", "card")
                        if action == "card":
                            cost_filters.append(eff.get("filter"))
                        else:
                            self.cost_actions.add(action)
        for code, d in defs.items():
            if any(def_matches(None, d, flt) for flt in cost_filters):
                self.cost_codes.add(code)

    def card_cost_static(self, d: Any) -> bool:
        """Whether a static ability of the game may change the cost of card `d`."""
        code = d.get("code")
        return code in self.cost_codes or self.defs.get(code) is not d


def _main_pay_slot(d: dict) -> str | None:
    """The slot a card of definition `d` may be paid from in the main phase (_pay_reason
    in engine.game: a trap or a missile never is)."""
    t = d["type"]
    if (t == "base" and d["subtype"] == "trap") or (t == "armament" and d["subtype"] == "missile"):
        return None
    return t


_DEF_INFO: Final[dict] = {}  # id(defs) -> (defs, len(defs), DefInfo)


def def_info(defs: dict) -> DefInfo:
    """The DefInfo of a definitions dict (a game's ``state.defs``).

    Cached per dict; a dict that gained cards since (engine.notation adds them one by
    one) is recomputed. A few dicts are kept.
    """
    hit = _DEF_INFO.get(id(defs))
    if hit is not None and hit[0] is defs and hit[1] == len(defs):
        return hit[2]
    info = DefInfo(defs)
    if len(_DEF_INFO) >= 8:
        del _DEF_INFO[next(iter(_DEF_INFO))]
    _DEF_INFO[id(defs)] = (defs, len(defs), info)
    return info


def statics_may_lower_armour(state: GameState) -> bool:
    """Whether a static ability of some card of this game may lower a card's armour
    (if not, armour without the static abilities is a lower bound of the real one)."""
    return state_info(state).lowers_armour


def _memo(state: GameState) -> tuple:
    """(defs, len(defs), DefInfo, cards, the count of cards, the card instances of this game whose
    definition has a static ability), kept on the state (``GameState.memo``).

    Instances are never replaced during a game (a fresh id keeps the object), so the
    list holds while ``state.cards`` keeps its count (``card_count``: a renumbered card
    takes a new slot but stays one card); it is recomputed if the table gains or
    loses cards (engine.notation adds them one by one) or the definitions change.
    """
    defs = state.defs
    cards = state.cards
    info = def_info(defs)
    table = info.statics
    found = [c for c in all_cards(state) if c.code in table] if table else []
    by_effect = {
        effect: [c for c in found if c.code in codes] for effect, codes in info.by_effect.items()
    }
    activated = info.activated
    with_activated = [c for c in all_cards(state) if c.code in activated] if activated else []
    memo = state.memo = (
        defs,
        len(defs),
        info,
        cards,
        card_count(state),
        found,
        by_effect,
        with_activated,
    )
    return memo


def _card_memo(state: GameState) -> tuple:
    """``state.memo``, recomputed if the definitions or the cards dict changed."""
    m = state.memo
    if (
        m is None
        or m[0] is not state.defs
        or m[1] != len(m[0])
        or m[3] is not state.cards
        or m[4] != card_count(state)
    ):
        m = _memo(state)
    return m


def may_activate(state: GameState, seat: int) -> bool:
    """Whether `seat` has a paid card in play with an activated ability (if not, it can
    activate nothing: R 12.8 needs a paid card, controlled, in play)."""
    with_activated: list[CardInstance] = _card_memo(state)[7]
    for card in with_activated:
        if card.paid and card.controller == seat and card.zone in IN_PLAY:
            return True
    return False


def state_info(state: GameState) -> DefInfo:
    """``def_info(state.defs)``, through the state's memo."""
    m = state.memo
    if m is None or m[0] is not state.defs or m[1] != len(m[0]):
        m = _memo(state)
    return m[2]


def static_abilities(state: GameState, effect: str | None = None):
    """(source card, ability) for every static ability that currently works; with
    `effect`, only those with an effect of that kind (all a consumer of that effect reads).

    Every consumer adds the abilities' amounts up, so the order does not matter; the
    cards are those of this game with a static ability in their definition (few),
    filtered to the paid ones in play.
    """
    m = _card_memo(state)
    info: DefInfo = m[2]  # typed: the compiled build reads its attributes directly
    found: list[CardInstance]
    table: dict[str, list[dict]] | None
    if effect is None:
        table = info.statics
        found = m[5]
    else:
        table = info.by_effect.get(effect)
        if not table:
            return []
        by_effect: dict[str, list[CardInstance]] = m[6]  # the same effects as info's
        found = by_effect[effect]
    if not table:
        return []
    out = []
    types = info.types
    for card in found:
        if not (card.paid and card.face_up and card.zone in IN_PLAY):
            continue
        # effective(), written out
        t = types[card.code]
        if t == "ship":
            if card.attached_to is not None:
                continue
        elif t == "base":
            if card.slot != "base":
                continue
        elif t == "armament":
            if card.attached_to is None:
                continue
        elif t == "crew":
            if card.attached_to is None and card.code not in info.passenger:
                continue
        else:
            continue
        for ability in table[card.code]:
            cond = ability.get("condition")
            if not cond or condition_ok(state, cond, card, card.controller):
                out.append((card, ability))
    return out


def effective_with(state: GameState, seat: int, trigger: str) -> list[CardInstance]:
    """`seat`'s cards in play (in the order of cards_in_play) that are effective and have
    a `trigger` ability: ``[c for c in cards_in_play(state, seat) if effective(state, c)]``
    less those push_trigger would skip (no ability with that trigger)."""
    codes = state_info(state).triggers.get(trigger)
    if not codes:
        return []
    return [c for c in in_play_list(state, seat) if c.code in codes and effective(state, c)]


# --- conditions and amounts -----------------------------------------------------------


def condition_ok(
    state: GameState, cond, source: CardInstance | None, ctrl: int, opp: int | None = None
) -> bool:
    """Does `cond` hold for a card of `ctrl`? `opp` is "the opponent" its user chose at a
    multiplayer table (R 17.1.3); without a choice yet, any neighbour will do."""
    if not cond:
        return True
    kind = cond["kind"]
    if kind == "controls":
        sid = source.id if source is not None else None
        count = len(candidates(state, cond["target"], ctrl, sid, targeted=False, opp=opp))
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
        if cond["player"] == "you":
            seats: tuple = (ctrl,)
        else:
            seats = foes(state, ctrl, opp)
        return any(len(state.players[seat].colony) <= cond["amount"] for seat in seats)
    raise ValueError(f"unknown condition {kind!r}")


def amount_value(
    state: GameState, amount, ctrl: int, source: CardInstance | None, opp: int | None = None
) -> int:
    """An effect's amount; `opp`: "the opponent" chosen at a multiplayer table (R 17.1.3)."""
    if isinstance(amount, int):
        return amount
    if amount == "X":
        return (source.x or 0) if source is not None else 0
    if isinstance(amount, dict):
        sid = source.id if source is not None else None
        n = len(candidates(state, amount["count_of"], ctrl, sid, targeted=False, opp=opp))
        return n * amount.get("times", 1)
    raise ValueError(f"bad amount {amount!r}")


# --- filters and targets --------------------------------------------------------------


def participating(state: GameState, card: CardInstance) -> bool:
    combat = state.combat
    return combat is not None and (card.id in combat["attackers"] or card.id in combat["defenders"])


def def_matches(state: Any, d: Any, flt: dict | None) -> bool:
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


def _payment_filter(flt):
    """A payment has no interrupt subtype: a filter on type/subtype names interrupt cards
    only; cost filters compare the paid card's credit cost."""
    if flt and ("type" in flt or "subtype" in flt):
        return {"type": "__interrupt_card_only__"}
    return flt


def chain_cost(state: GameState, card: CardInstance) -> int:
    for entry in state.chain:
        if entry.get("card") == card.id:
            return entry.get("cost", 0)
    return 0


def foes(state: GameState, ctrl: int, opp: int | None = None) -> tuple:
    """Who "the opponent" of `ctrl`'s card is: the other seat of a two-player game; at a
    multiplayer table the neighbour its user chose (`opp`, R 17.1.3), or either neighbour
    while none is chosen yet (can the card be played at all?)."""
    if opp is not None:
        return (opp,)
    if state.table is None:
        return (1 - ctrl,)
    return tuple(neighbours(state, ctrl))


def static_foes(state: GameState, ctrl: int) -> tuple:
    """Whom a static "opponent" effect of `ctrl`'s card touches: nobody chooses for a
    continuous effect, so at a multiplayer table it is each neighbour (``static_opponent=
    "all"``: every other player still in the game; docs/rulings.md)."""
    if state.table is None:
        return (1 - ctrl,)
    if state.ruleset.static_opponent == "all":
        return tuple(s for s in live_seats(state) if s != ctrl)
    return tuple(neighbours(state, ctrl))


def _owner_ok(seat: int, owner, ctrl: int, opp=None) -> bool:
    """`opp`: None in a two-player game (the other seat), else the seats "the opponent"
    may be (engine.values.foes)."""
    if owner in (None, "any"):
        return True
    if owner == "you":
        return seat == ctrl
    return seat != ctrl if opp is None else seat in opp


def candidates(
    state: GameState,
    spec: dict,
    ctrl: int,
    source_id: int | None,
    *,
    targeted: bool = True,
    pile: str | None = None,
    opp: int | None = None,
) -> list:
    """Ids of the cards a target spec can name now.

    `targeted` = a player chooses (cloaked ships are excluded, R 13.2); with
    ``count: "all"`` nothing is chosen, so cloak does not protect. `pile` looks
    in the controller's trash instead of in play (return_to_centre from trash). `opp`: the
    neighbour chosen as "the opponent" at a multiplayer table (R 17.1.3).
    """
    kind = spec["kind"]
    owner = spec.get("owner")
    them = None if state.table is None else foes(state, ctrl, opp)
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
            if cid is None or cid == source_id:
                continue
            card = state.cards[cid]
            if entry["kind"] == "payment":  # R 12.1b: a payment is an interrupt (AMB-14)
                if kind != "interrupt" or not _owner_ok(entry["ctrl"], owner, ctrl, them):
                    continue
                if filter_ok(state, card, _payment_filter(flt), source_id):
                    out.append(cid)
                continue
            if entry["kind"] != "card":
                continue
            if ctype(state, card) != kind or not _owner_ok(card.controller, owner, ctrl, them):
                continue
            if filter_ok(state, card, flt, source_id):
                out.append(cid)
        return out
    for seat in clockwise(state, ctrl):
        if not _owner_ok(seat, owner, ctrl, them):
            continue
        for card in in_play_list(state, seat):
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
        if stat_name not in state_info(state).static_stats:
            return max(0, value)  # no static ability of the game changes this stat
        statics = static_abilities(state, "modify_stat")
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
        info = state_info(state)  # typed (compiled: direct attribute reads)
        if info.card_cost_static(d) if action == "card" else action in info.cost_actions:
            statics = static_abilities(state, "cost_modifier")
        elif not state.cost_mods:
            return 0  # no static cost modifier of the game applies here, and no other
        else:
            statics = ()  # no static cost modifier of the game applies here
    for src, ability in statics:
        for eff in ability["effects"]:
            if eff["effect"] != "cost_modifier":
                continue
            if eff.get("player", "you") == "you":
                affected = src.controller == seat
            else:
                affected = seat in static_foes(state, src.controller)
            if not affected or eff.get("action", "card") != action:
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
    if not state.cost_mods:
        return
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


def attack_surcharge(state: GameState, seat: int, statics=None, defender=None) -> int:
    """AMB-35: the sum of attack surcharges `seat` pays per attack (Aknagyűrű). At a
    multiplayer table "the opponent" of the card pays to attack its controller, so only
    an attack on `defender` = its controller costs more (R 17.1.3, docs/rulings.md)."""
    total = 0
    if statics is None:
        statics = static_abilities(state, "attack_surcharge")
    for src, ability in statics:
        for eff in ability["effects"]:
            if eff["effect"] == "attack_surcharge":
                if eff.get("player", "opponent") != "opponent":
                    pays = src.controller == seat
                elif state.table is None:
                    pays = 1 - src.controller == seat
                else:
                    pays = defender == src.controller != seat
                if pays:
                    total += amount_value(state, eff["amount"], src.controller, src)
    return total


def hangar_total(state: GameState, seat: int) -> int:
    return sum(hangar_size(state, state.cards[cid]) for cid in state.players[seat].hangar)


def capacity_left(state: GameState, ship: CardInstance) -> int:
    return size(state, ship) - len(ship.attachments)
