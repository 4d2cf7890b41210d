"""JSON dump/load of a whole game, a state hash, and replay from an action log.

A game is reproducible from (colonies, seed, ruleset, actions) (DESIGN.md):
``replay`` rebuilds it, and ``state_hash`` compares two states. ``dump`` is the
server's copy (it holds the seed and every hidden card); clients get
``engine.view`` instead.
"""

import json
import marshal
from dataclasses import fields
from hashlib import blake2b

from .game import apply, new_game
from .rng import Rng
from .ruleset import DEFAULT, Ruleset
from .state import CardInstance, CardTable, GameState, PlayerState, all_cards, card_count

FORMAT = 2  # 2: cards as rows of CARD_FIELDS (1: a dict per card; still loaded)

# A card is a row (a list) of these fields, in this order: a mid-game state is about half
# the size of a dict per card, and quicker both ways.
CARD_FIELDS = (
    "id",
    "code",
    "owner",
    "controller",
    "zone",
    "face_up",
    "paid",
    "orientation",
    "damage",
    "upgrades",
    "bought",
    "slot",
    "attached_to",
    "attachments",
    "boarded",
    "hit",
    "mods",
    "grants",
    "x",
)
assert CARD_FIELDS == tuple(f.name for f in fields(CardInstance))


def _card_row(c: CardInstance) -> list:
    return [
        c.id,
        c.code,
        c.owner,
        c.controller,
        c.zone,
        c.face_up,
        c.paid,
        c.orientation,
        c.damage,
        c.upgrades,
        c.bought,
        c.slot,
        c.attached_to,
        list(c.attachments),
        c.boarded,
        c.hit,
        [list(m) for m in c.mods],
        [list(g) for g in c.grants],
        c.x,
    ]


def to_dict(state: GameState) -> dict:
    return {
        "format": FORMAT,
        "ruleset": state.ruleset.to_dict(),
        "defs": state.defs,
        "players": [p.to_dict() for p in state.players],
        "cards": [_card_row(c) for c in all_cards(state)],  # a list keeps the order
        "rng": state.rng.to_dict(),
        "next_id": state.next_id,
        "turn": state.turn,
        "active": state.active,
        "starting_player": state.starting_player,
        "phase": state.phase,
        "combat": state.combat,
        "chain": state.chain,
        "stack": state.stack,
        "cost_mods": state.cost_mods,
        "control": state.control,
        "winner": state.winner,
        "result": state.result,
        "decisions": state.decisions,
    } | ({} if state.table is None else {"table": state.table})  # multiplayer only (R 17.1)


def from_dict(data: dict) -> GameState:
    fmt = data.get("format")
    if fmt not in (1, FORMAT):
        raise ValueError(f"unknown state format {fmt!r}")
    cards = CardTable()
    if fmt == 1:
        for c in data["cards"]:
            card = CardInstance.from_dict(c)
            cards.add(card)
    else:
        for row in data["cards"]:
            card = CardInstance(*row)
            card.attachments = list(card.attachments)
            card.mods = [list(m) for m in card.mods]
            card.grants = [list(g) for g in card.grants]
            cards.add(card)
    return GameState(
        ruleset=Ruleset.from_dict(data["ruleset"]),
        defs=data["defs"],
        players=[PlayerState.from_dict(p) for p in data["players"]],
        cards=cards,
        rng=Rng.from_dict(data["rng"]),
        next_id=data["next_id"],
        turn=data["turn"],
        active=data["active"],
        starting_player=data["starting_player"],
        phase=data["phase"],
        combat=data["combat"],
        chain=data["chain"],
        stack=data["stack"],
        cost_mods=data["cost_mods"],
        control=data["control"],
        winner=data["winner"],
        result=data["result"],
        decisions=data["decisions"],
        table=data.get("table"),
    )


_dumps, _loads = marshal.dumps, marshal.loads
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_DEFS_TAIL = ',"defs":'
_DEFS_TEXT: dict = {}  # id(defs) -> (defs, len(defs), its JSON)
_DEFS_PARSED: dict = {}  # JSON of defs -> defs (read-only; shared by the states loaded)
# Games whose card definitions stay parsed: a worker or web process serves hundreds of games
# at once, and with 8 every load of another game parsed its ~7 kB of definitions again
# (~80 us of a ~0.2 ms load; matches/positions.py loads on every drain of a game another
# worker moved). Each ~38 kB (tracemalloc: ~31 kB parsed, its ~7 kB text as the key): ~10 MB.
_DEFS_KEPT = 256


def _defs_text(defs: dict) -> str:
    hit = _DEFS_TEXT.get(id(defs))
    if hit is not None and hit[0] is defs and hit[1] == len(defs):
        return hit[2]
    text = _ENCODE(defs)
    if len(_DEFS_TEXT) >= 8:
        del _DEFS_TEXT[next(iter(_DEFS_TEXT))]
    _DEFS_TEXT[id(defs)] = (defs, len(defs), text)
    return text


def dump(state: GameState) -> str:
    """Compact JSON; keys in a fixed order with the card definitions last (they do not
    change during a game, so their JSON is cached per game)."""
    data = to_dict(state)
    del data["defs"]
    body = _ENCODE(data)
    return body[:-1] + _DEFS_TAIL + _defs_text(state.defs) + "}"


def load(text: str) -> GameState:
    cut = text.rfind(_DEFS_TAIL)
    if cut > 0 and text.endswith("}") and text.startswith('{"format":2,'):
        defs_text = text[cut + len(_DEFS_TAIL) : -1]
        defs = _DEFS_PARSED.get(defs_text)
        if defs is None:
            defs = json.loads(defs_text)
            if len(_DEFS_PARSED) >= _DEFS_KEPT:
                del _DEFS_PARSED[next(iter(_DEFS_PARSED))]
            _DEFS_PARSED[defs_text] = defs
        data = json.loads(text[:cut] + "}")
        data["defs"] = defs
        return from_dict(data)
    return from_dict(json.loads(text))


def clone(state: GameState) -> GameState:
    """An independent copy (for bots that search): what ``load(dump(state))`` gives, made
    field by field (issue 18: a search clones at every node). The card definitions and the
    ruleset are shared (read-only, as ``load`` shares them); the frames, the chain and the
    rest of the JSON part are copied whole by ``marshal`` (C code: plain dicts, lists and
    scalars only, which is what a state holds: it dumps to JSON)."""
    # the table's slots copied as they are (free ones too: the same ids), a new card in each
    # slot that holds one (the free slots, most of them late in a game, skipped by filter in C)
    old: list[CardInstance | None] = state.cards  # type: ignore[assignment]
    slots: list[CardInstance | None] = [None] * len(old)  # a plain list: filled faster
    for c in filter(None, list.__iter__(old)):
        slots[c.id] = CardInstance(
            c.id,
            c.code,
            c.owner,
            c.controller,
            c.zone,
            c.face_up,
            c.paid,
            c.orientation,
            c.damage,
            c.upgrades,
            c.bought,
            c.slot,
            c.attached_to,
            c.attachments.copy(),
            c.boarded,
            c.hit,
            [m.copy() for m in c.mods] if c.mods else [],
            [g.copy() for g in c.grants] if c.grants else [],
            c.x,
        )
    cards = CardTable()
    cards.extend(slots)  # type: ignore[arg-type]  # with its free slots
    cards.live = card_count(state)
    players = [
        PlayerState(
            p.seat,
            p.name,
            p.credits,
            p.colony.copy(),
            p.centre.copy(),
            p.surface.copy(),
            p.canteen.copy(),
            p.hangar.copy(),
            p.trash.copy(),
            p.wasteland.copy(),
            p.mulligan_used,
        )
        for p in state.players
    ]
    combat, chain, stack, cost_mods, control, table = _loads(
        _dumps(
            (state.combat, state.chain, state.stack, state.cost_mods, state.control, state.table)
        )
    )
    return GameState(
        ruleset=state.ruleset,
        defs=state.defs,
        players=players,
        cards=cards,
        rng=Rng(state.rng.key, state.rng.counter),
        next_id=state.next_id,
        turn=state.turn,
        active=state.active,
        starting_player=state.starting_player,
        phase=state.phase,
        combat=combat,
        chain=chain,
        stack=stack,
        cost_mods=cost_mods,
        control=control,
        winner=state.winner,
        result=state.result,
        decisions=state.decisions,
        table=table,
    )


def state_hash(state: GameState) -> str:
    return blake2b(dump(state).encode(), digest_size=16).hexdigest()


def replay(colonies, seed, actions, ruleset: Ruleset = DEFAULT, **kwargs) -> GameState:
    """Rebuild a game from its colonies, seed and action log (action ids or dicts)."""
    state = new_game(colonies, seed, ruleset, **kwargs)
    for action in actions:
        apply(state, action)
    return state
