"""JSON dump/load of a whole game, a state hash, and replay from an action log.

A game is reproducible from (colonies, seed, ruleset, actions) (DESIGN.md):
``replay`` rebuilds it, and ``state_hash`` compares two states. ``dump`` is the
server's copy (it holds the seed and every hidden card); clients get
``engine.view`` instead.
"""

import json
from hashlib import blake2b

from .game import apply, new_game
from .rng import Rng
from .ruleset import DEFAULT, Ruleset
from .state import CardInstance, GameState, PlayerState

FORMAT = 1


def to_dict(state: GameState) -> dict:
    return {
        "format": FORMAT,
        "ruleset": state.ruleset.to_dict(),
        "defs": state.defs,
        "players": [p.to_dict() for p in state.players],
        "cards": [c.to_dict() for c in state.cards.values()],  # a list keeps the order
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
    }


def from_dict(data: dict) -> GameState:
    if data.get("format") != FORMAT:
        raise ValueError(f"unknown state format {data.get('format')!r}")
    cards = {}
    for c in data["cards"]:
        card = CardInstance.from_dict(c)
        cards[card.id] = card
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
    )


def dump(state: GameState) -> str:
    return json.dumps(to_dict(state), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def load(text: str) -> GameState:
    return from_dict(json.loads(text))


def clone(state: GameState) -> GameState:
    """An independent copy (for bots that search)."""
    return load(dump(state))


def state_hash(state: GameState) -> str:
    return blake2b(dump(state).encode(), digest_size=16).hexdigest()


def replay(colonies, seed, actions, ruleset: Ruleset = DEFAULT, **kwargs) -> GameState:
    """Rebuild a game from its colonies, seed and action log (action ids or dicts)."""
    state = new_game(colonies, seed, ruleset, **kwargs)
    for action in actions:
        apply(state, action)
    return state
