"""Engine test helpers (imported by the engine tests): the real first-edition cards, positions in notation, actions by name."""

import json
from pathlib import Path

from engine import notation as N
from engine.catalog import RACE_PAIRS
from engine.game import apply, legal_actions, pending

SET_DIR = Path(__file__).resolve().parents[2] / "cards_data" / "sets" / "first"


def load_cards() -> list:
    cards = []
    for path in sorted(SET_DIR.glob("*.json")):
        cards += json.loads(path.read_text(encoding="utf-8"))["cards"]
    return cards


CARDS = load_cards()
BY_NAME = {c["name"]: c for c in CARDS}


def position(text: str, **kw):
    """A main-phase position from the notation (engine.notation)."""
    return N.parse(text, CARDS, **kw)


def do(state, kind, **params):
    """Apply an action whose card parameters are given by name; return the events."""
    return apply(state, N.action(state, kind, **params))


def ids(state, kind):
    """The legal actions of one kind, as ids."""
    return [a.id for a in legal_actions(state) if a.kind == kind]


def decision(state):
    p = pending(state)
    return None if p is None else (p.player, p.decision)


def card(state, name, seat=None):
    return state.cards[N.find(state, name, seat=seat)]


def random_colony(rng, races=None, ships=6, others=9):
    """A legal 45-card colony: 15 names x 3 copies from four compatible races (R 9)."""
    if races is None:
        races = [pair[rng.below(2)] for pair in RACE_PAIRS]
    pool = [c for c in CARDS if c["race"] in races]
    ship_pool = [c for c in pool if c["type"] == "ship"]
    other_pool = [c for c in pool if c["type"] != "ship"]
    rng.shuffle(ship_pool)
    rng.shuffle(other_pool)
    chosen = ship_pool[:ships] + other_pool[: 15 - ships]
    return [c for c in chosen for _ in range(3)]


def pass_windows(state):
    """Both players pass every open response window (R 12.2)."""
    while decision(state) is not None and decision(state)[1] == "respond":
        apply(state, "pass")


def play(state, name, *choices):
    """Play a card from the centre by name, make its choices, let both players pass."""
    events = do(state, "play", card=name)
    for value in choices:
        events += do(state, "choose", value=value)
    while decision(state) is not None and decision(state)[1] == "respond":
        events += apply(state, "pass")
    return events


def tagged_colony(rng, seat, races=None):
    """A colony whose 45 cards are each unique: name and code carry a tag ⟨p{seat}c{i}⟩,
    so a test can search any payload for a particular physical card (NOTES.md)."""
    out = []
    for i, d in enumerate(random_colony(rng, races)):
        tag = f"⟨p{seat}c{i}⟩"
        out.append({**d, "code": d["code"] + tag, "name": d["name"] + tag})
    return out


def random_game(seed, colonies=None, ruleset=None, on_step=None, max_decisions=20000):
    """Play uniformly random legal actions; return (state, action ids)."""
    from engine.game import new_game
    from engine.rng import Rng
    from engine.ruleset import DEFAULT

    rng = Rng.from_seed(f"test-{seed}")
    if colonies is None:
        colonies = [random_colony(rng), random_colony(rng)]
    state = new_game(colonies, seed, ruleset or DEFAULT)
    log = []
    while pending(state) is not None and len(log) < max_decisions:
        actions = legal_actions(state)
        action = actions[rng.below(len(actions))]
        before = state
        events = apply(state, action)
        log.append(action.id)
        if on_step is not None:
            on_step(before, action, events)
    return state, log
