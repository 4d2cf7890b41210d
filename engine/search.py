"""An information-set Monte Carlo tree search bot (ISMCTS; Cowling, Powley & Whitehouse 2012).

The bot decides from what its player may know, never from the true state:

* ``observe(state, seat)`` is its only input. It is a copy of the game in which every card
  the seat may not look at (R 3.1 "who may look", exactly the rule ``engine.view`` applies:
  every colony, another player's centre and wasteland, face-down cards of others) has lost
  its identity (code ``"?"``), the generator's secret key is replaced by a fixed one, plus
  each colony's card list as a multiset (the open-decklist assumption of docs/rulings.md:
  the bot knows which 45 cards each colony holds, never where an unseen one is).
* Each iteration makes a *determinisation*: the unseen cards of each owner get the codes of
  that owner's list less the cards the seat sees, shuffled by the bot's own generator, and
  the game gets a fresh generator (so draws and shuffles are sampled too).
* One tree over the information sets of the search (single-observer ISMCTS): nodes are
  keyed by action id; selection is UCB1 with availability counts (an action is a child's
  "trial" only when it was legal in that iteration's determinisation); a new node per
  iteration; a playout with the heuristic (or random) bot for a bounded number of
  decisions, cut off with an evaluation of the position; the reward goes back up the path.
* The decision is the most visited root action; ``explanation`` keeps the top three with
  their estimated win rates (``SearchBot.last_explanation``).

The generator of a decision is seeded from the bot's seed and the observation, so the same
observation always gives the same decision (with an iteration budget; a time budget stops
earlier on a slow machine): two games that differ only in cards the seat cannot see give
the same decisions (tests/engine/test_search.py).
"""

import math
import time
from collections import Counter
from hashlib import blake2b

from . import values as V
from .bots import HeuristicBot, RandomBot
from .game import apply, legal_actions, pending
from .rng import Rng
from .serialize import dump, load
from .view import sees

HIDDEN = "?"  # the code of a card whose identity the observer does not know

# strength -> (iterations, seconds, playout decisions, playout bot); "hard" decides in at
# most a second on one core (the time cap) and usually stops at its iteration budget first
STRENGTHS = {
    "easy": {"iterations": 24, "seconds": 0.25, "depth": 20, "playout": "random"},
    "normal": {"iterations": 96, "seconds": 0.5, "depth": 30, "playout": "heuristic"},
    "hard": {"iterations": 160, "seconds": 0.9, "depth": 60, "playout": "heuristic"},
}
MINOR_SHARE = 0.25  # the budget share of a decision other than the turn's main one
UCB_C = 0.7
PRIOR_VISITS, PRIOR_REWARD = (
    2,
    0.6,
)  # the heuristic's choice: two virtual playouts at 60 %  # exploration constant of UCB1 (rewards in [0, 1])


class Observation:
    """What `seat` may know of a game: the redacted state (as dump text) and the lists."""

    __slots__ = ("seat", "text", "defs", "decks", "unseen")

    def __init__(self, seat, text, defs, decks, unseen):
        self.seat = seat
        self.text = text  # dump of the redacted state (without the card definitions)
        self.defs = defs  # the definitions of the codes of the colony lists
        self.decks = decks  # per seat: Counter of codes of its colony list (open decklists)
        self.unseen = unseen  # per seat: Counter of codes the observer cannot place


def decklists(state) -> list:
    """Each seat's colony list as a multiset of codes (every card it owns, in any zone)."""
    decks: list[Counter[str]] = [Counter() for _ in state.players]
    for card in state.cards.values():
        decks[card.owner][card.code] += 1
    return decks


def observe(state, seat: int) -> Observation:
    """The search bot's whole input: the game as `seat` may know it (see the module)."""
    redacted = load(dump(state))
    known: list[Counter[str]] = [Counter() for _ in state.players]
    for card in redacted.cards.values():
        if sees(card, seat):
            known[card.owner][card.code] += 1
        else:
            card.code = HIDDEN
    redacted.rng = Rng.from_seed("observation")  # the secret key never reaches the bot
    defs = redacted.defs
    redacted.defs = {}
    decks = decklists(state)
    # in code order: a Counter keeps the order its codes were first counted, which follows
    # the true positions of the cards
    unseen = [Counter(dict(sorted((decks[s] - known[s]).items()))) for s in range(len(decks))]
    decks = [Counter(dict(sorted(d.items()))) for d in decks]
    return Observation(seat, dump(redacted), defs, decks, unseen)


def determinise(obs: Observation, rng: Rng):
    """A full game consistent with the observation: unseen cards get codes sampled from
    their owner's unseen multiset; the game's generator is fresh."""
    state = load(obs.text)
    state.defs = obs.defs
    by_owner: dict[int, list] = {}
    for card in state.cards.values():
        if card.code == HIDDEN:
            by_owner.setdefault(card.owner, []).append(card)
    for owner, cards in by_owner.items():
        # sorted: a Counter's order is the order its codes were first counted, which follows
        # the true positions of the cards (the twins test caught that leak)
        pool = sorted(obs.unseen[owner].elements())
        if len(pool) < len(cards):  # cannot happen with a fixed colony; stay playable
            pool += sorted(obs.decks[owner].elements())
        rng.shuffle(pool)  # the bot's generator
        for card, code in zip(cards, pool, strict=False):
            card.code = code
    state.rng = Rng.from_seed(f"det:{rng.below(1 << 62)}")
    return state


def evaluate(state, seat: int) -> float:
    """A cut-off playout's estimate that `seat` wins, in [0, 1]: colony cards (the lives of
    R 15.1) count most, then ships in play, hand and credits."""
    if state.winner is not None:
        return 1.0 if state.winner == seat else 0.0
    scores = [_material(state, s) for s in range(len(state.players))]
    mine = scores[seat]
    best_other = max(x for s, x in enumerate(scores) if s != seat)
    return 1.0 / (1.0 + math.exp(-(mine - best_other) / 6.0))


def _material(state, seat) -> float:
    player = state.players[seat]
    statics = V.static_abilities(state)
    cards = state.cards
    ships = 0.0
    for cid in player.hangar:
        card = cards[cid]
        if card.orientation != "damaged":
            ships += 0.5 * (
                V.stat(state, card, "firepower", statics)
                + V.armour_left(state, card, statics)
                + V.stat(state, card, "bombardment", statics)
            )
    return (
        2.0 * len(player.colony)
        + ships
        + 1.0 * len(player.surface)
        + 0.5 * len(player.canteen)
        + 0.6 * len(player.centre)
        + 0.2 * min(player.credits, 15)
    )


class _Node:
    __slots__ = ("children", "visits", "reward", "avail", "player")

    def __init__(self, player=None):
        self.children = {}  # action id -> _Node
        self.visits = 0
        self.reward = 0.0  # summed rewards of `player`, who chose the action into this node
        self.avail = 0
        self.player = player


class SearchBot:
    """ISMCTS over the bot's observation (see the module); ``strength`` easy/normal/hard,
    or explicit ``iterations`` / ``seconds`` (None: no cap)."""

    def __init__(self, seed=0, strength="normal", iterations=None, seconds=False, **kw):
        settings = dict(STRENGTHS[strength])
        if iterations is not None:
            settings["iterations"] = iterations
        if seconds is not False:
            settings["seconds"] = seconds
        settings.update(kw)
        self.settings = settings
        self.strength = strength
        self.name = f"search-{strength}"
        self.seed = seed
        self.last_explanation = None
        self.last_iterations = 0
        self.clock = time.perf_counter

    def choose(self, state, seat):
        return self.decide(observe(state, seat), seat)

    def decide(self, obs: Observation, seat: int):
        """The decision from the observation alone (the true state is not an argument)."""
        digest = blake2b(obs.text.encode(), digest_size=16).hexdigest()
        rng = Rng.from_seed(f"search-bot:{self.seed}:{digest}")
        first = determinise(obs, rng)
        actions = legal_actions(first)  # the seat's own actions: the same in every sample
        if len(actions) == 1:
            self.last_explanation = [{"action": actions[0].id, "visits": 0, "win_rate": None}]
            self.last_iterations = 0
            return actions[0]
        # the main decision of a turn gets the whole budget; the many small ones (responses,
        # payments, picks) a quarter of it, so a game's thinking goes where it matters
        top = pending(first)
        scale = 1.0 if top is not None and top.decision == "main" else MINOR_SHARE
        root = self._search(obs, seat, rng, first, scale)
        by_id = {a.id: a for a in actions}
        ranked = sorted(
            ((aid, node) for aid, node in root.children.items() if aid in by_id),
            key=lambda item: (-item[1].visits, -item[1].reward, item[0]),
        )
        self.last_explanation = [
            {
                "action": aid,
                "visits": node.visits,
                "win_rate": round(node.reward / node.visits, 3) if node.visits else None,
            }
            for aid, node in ranked[:3]
        ]
        if not ranked:
            return actions[0]
        return by_id[ranked[0][0]]

    def explain(self):
        """The last decision's top three options: action id, visits and estimated win rate."""
        return self.last_explanation

    # -- the search ---------------------------------------------------------------------------

    def _search(self, obs, seat, rng, first, scale=1.0):
        settings = self.settings
        budget = settings["iterations"]
        seconds = settings["seconds"]
        if budget is not None:
            budget = max(8, int(budget * scale))
        if seconds is not None:
            seconds *= scale
        deadline = None if seconds is None else self.clock() + seconds
        depth = settings["depth"]
        bot_seed = f"{self.seed}:{rng.below(1 << 30)}"
        playout = (HeuristicBot if settings["playout"] == "heuristic" else RandomBot)(bot_seed)
        root = _Node()
        done = 0
        state = first
        while budget is None or done < budget:
            if state is None:
                state = determinise(obs, rng)
            self._iterate(root, state, seat, rng, playout, depth)
            state = None
            done += 1
            if deadline is not None and self.clock() >= deadline:
                break
        self.last_iterations = done
        return root

    def _iterate(self, root, state, seat, rng, playout, depth):
        node = root
        path = []
        expanded = False
        while (p := pending(state)) is not None:
            actions = legal_actions(state)
            if not actions:  # a sample the rest of the stack cannot go on with: see _playout
                break
            if len(actions) == 1:  # forced: no choice to learn
                apply(state, actions[0])
                continue
            if expanded:
                break
            children = node.children
            untried = []
            for a in actions:
                child = children.get(a.id)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            if untried:
                # the heuristic's choice is tried first and starts with a small prior
                # (progressive bias): with a few dozen iterations per decision the search
                # refines the heuristic rather than sampling blindly
                hint = playout.choose(state, p.player)
                action = hint if hint.id in {a.id for a in untried} else None
                child = _Node(p.player)
                if action is None:
                    action = untried[rng.below(len(untried))]
                elif not children:
                    child.visits = PRIOR_VISITS
                    child.reward = PRIOR_VISITS * PRIOR_REWARD
                child.avail = 1
                children[action.id] = child
                expanded = True
            else:
                best, best_score = None, -1.0
                for a in actions:
                    child = children[a.id]
                    score = child.reward / child.visits + UCB_C * math.sqrt(
                        math.log(child.avail) / child.visits
                    )
                    if score > best_score:
                        best, best_score = a, score
                action = best
                child = children[action.id]
            apply(state, action)
            path.append(child)
            node = child
        # the playout: the chosen bot for at most `depth` decisions, then the evaluation
        steps = 0
        while steps < depth and (p := pending(state)) is not None:
            if not legal_actions(state):
                # a frame below the decision kept options computed from the true cards (a
                # pick among hidden cards by a filter); with other codes sampled none may
                # fit: the playout stops here and the position is evaluated
                break
            apply(state, playout.choose(state, p.player))
            steps += 1
        values = {}
        for child in path:
            who = child.player
            if who not in values:
                values[who] = evaluate(state, who)
            child.visits += 1
            child.reward += values[who]


def _factory(strength):
    def make(seed=0):
        return SearchBot(seed, strength)

    make.__name__ = f"search_{strength}"
    return make


SEARCH_BOTS = {f"search-{s}": _factory(s) for s in STRENGTHS}
