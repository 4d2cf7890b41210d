"""Engine test helpers (imported by the engine tests): the real first-edition cards, positions in notation, actions by name."""

import json
from pathlib import Path

from engine import colonies
from engine import notation as N
from engine.game import apply, legal_actions, pending
from engine.ops import public
from engine.state import IN_PLAY
from engine.view import view, view_events

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


def random_colony(rng, races=None, ships=6):
    """A legal 45-card colony of the real set (engine.colonies.random_colony, R 9)."""
    return colonies.random_colony(rng, CARDS, races, ships)


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


# --- the id-following adversary (issue 11 item 9, R 16.2) ---------------------------------


def _cards(node):
    """Every card dict (one with an id) anywhere in a JSON-like value."""
    if isinstance(node, list):
        for item in node:
            yield from _cards(item)
    elif isinstance(node, dict):
        if isinstance(node.get("id"), int) and ("face_down" in node or "code" in node):
            yield node
        for value in node.values():
            yield from _cards(value)


class Watcher:
    """What one viewer can tell about other players' cards from its projection only.

    It remembers every id it has seen with a card's identity and links ids the way a client
    could: a move event's ``was`` (the id a card had in play), and one known id vanishing
    from its listing of other players' cards in the step where exactly one new face-down id
    appears. Knowing a face-down card by an id seen on that card (a look, R 16.4) is
    allowed; knowing it through a link across a change of zone is a leak (`followed`)."""

    def __init__(self, state, viewer):
        self.viewer = viewer
        self.seen = {}  # id -> code, read on the card itself
        self.linked = {}  # id -> code, inferred across a move
        self.listed = self._listing(view(state, viewer))
        self._learn(view(state, viewer))

    def _others(self, card):
        return card.get("owner") != self.viewer

    def _listing(self, v) -> dict:
        """id -> face down? for every card of another player the view lists."""
        return {c["id"]: "code" not in c for c in _cards(v["players"]) if self._others(c)}

    def _learn(self, node):
        for c in _cards(node):
            if "code" in c and self._others(c):
                self.seen[c["id"]] = c["code"]

    def _code(self, cid):
        return self.seen.get(cid) or self.linked.get(cid)

    def observe(self, state, events, v=None, evs=None):
        """One step: the viewer's view after it and the step's events (computed if not given)."""
        v = view(state, self.viewer) if v is None else v
        evs = view_events(events, self.viewer) if evs is None else evs
        for e in evs:
            if e["kind"] == "reveal" and "secret" in e:
                self._learn(e["secret"]["cards"])
            card = e.get("card")
            if e["kind"] == "move" and "was" in e and isinstance(card, dict) and "id" in card:
                if self._code(e["was"]) is not None:
                    self.linked[card["id"]] = self._code(e["was"])
        listed = list(_cards(v["players"]))
        self._learn(listed)
        self._learn(evs)
        now = {c["id"]: "code" not in c for c in listed if self._others(c)}
        vanished = [c for c in self.listed if c not in now and self._code(c) is not None]
        appeared = [c for c, down in now.items() if c not in self.listed and down]
        if len(vanished) == 1 and len(appeared) == 1:
            self.linked[appeared[0]] = self._code(vanished[0])
        self.listed = now

    def followed(self, state) -> list:
        """Face-down cards in play of other players whose identity the viewer linked."""
        return [
            c.code
            for c in state.cards.values()
            if c.zone in IN_PLAY
            and not public(c)
            and c.owner != self.viewer
            and c.id not in self.seen
            and self.linked.get(c.id) == c.code
        ]
