"""The search bot: rollouts over the heuristic bot (every strength) or an information-set
Monte Carlo tree search (``"method": "ismcts"``; ISMCTS, Cowling, Powley & Whitehouse 2012,
what "easy" used until 2026-11-27), both from the seat's observation only.

How the strengths decide (issue 18: "hard" must beat the heuristic bot, in at most a second
a decision on one core; easy 4 rollouts, normal 12, hard 40: STRENGTHS). It is rollout policy improvement over the heuristic bot (the
opponent the goal names; Tesauro & Galperin's rollouts), flat at the root:

* Only the turn's **main decision** (R 11.3.1's actions: play, place, pay, draw, attack, end
  the turn...) is searched; every other decision (payments, responses, combat picks) takes
  the heuristic bot's choice, or a `minor` share of the budget when a strength sets one.
* **Candidates**: at most `width` legal actions: the heuristic's own choice, then the
  best-scored action (by the heuristic's scores) of each other kind, an attack counting as a
  kind per target (the heuristic scores all attacks but a colony attack low, and the
  rollouts are there to find when that is wrong), then the rest by score.
* **Rollouts**: each candidate is applied to a determinisation (below), then the heuristic
  bot plays every seat for `turns` turns (an even count: the cut comes in the seat's own turn
  again) or `depth` decisions, whichever is first. A finished game's reward is mostly won or
  lost, the rest by how many colony cards the winner kept (``outcome``); an unfinished one
  gets ``fitted_value``: a logistic model of "this seat wins" on differences of pile sizes,
  ship stats and credits, fitted on positions of heuristic-bot games
  (bench/fit_search_eval.py; held-out log loss 0.377 against 0.471 for the old material
  sigmoid ``evaluate``, which the tree search still uses).
* **Common random numbers**: every candidate is played out on the same determinisations with
  the same playout generators, so their rewards differ by what the candidate changes, not by
  the luck of the sample. **Sequential halving** spends the `rollouts` budget: each round
  plays every surviving candidate on the next samples and keeps the better half by mean
  reward, until one is left or the budget is spent. The heuristic's own choice counts
  `margin` (0.1) more than its mean: it is left only for a clearly better candidate. The
  estimates are biased (the cut-off evaluation, the heuristic playing on for the seat), and
  acting on small differences lost games: on one gauntlet (bench/RESULTS.md, "The search
  bot") margins of 0 / 0.05 / 0.1 / 0.2 won 22 / 25 / 28 / 22 of 32, and more rollouts over
  more candidates without a margin only 16.
* A time cap (`seconds`, a quarter of it for a minor decision) stops a decision early on a
  slow machine; the rollout budget normally ends it long before (a few milliseconds a
  rollout on the compiled engine).

The bot decides from what its player may know, never from the true state:

* ``observe(state, seat)`` is its only input. It is a copy of the game in which every card
  the seat may not look at (R 3.1 "who may look", exactly the rule ``engine.view`` applies:
  every colony, another player's centre and wasteland, face-down cards of others) has lost
  its identity (code ``"?"``), the generator's secret key is replaced by a fixed one, and
  the frame stack is redacted where ``engine.view`` shows less (below). Beside it:

  - the seat's **own** colony list (it built its deck, R 9), as a multiset of codes: its own
    unseen cards (its colony, in any order) are that list less the cards it sees;
  - for **each opponent a prior**, never its list (docs/rulings.md, "The search bot's
    knowledge"): the races its cards seen so far show (public zones, trash, the chain,
    face-up cards in play), the copies of each name seen (R 9.2: they count against the
    three copies), and the card pool to sample the rest from: every card of the set (the
    first edition, ``engine.colonies.load_cards``, the files the catalogue is loaded from)
    whose race may still be in that colony (R 7.1 / R 9.3: no race opposing a race seen;
    the variants of R 9.5 widen it);
  - the definitions of the whole pool plus the codes the seat sees, so nothing in them
    depends on which cards the opponent really holds.

* A *determinisation* (one per rollout sample, one per ISMCTS iteration): the seat's own
  unseen cards get the codes of its list less what it sees, shuffled; each opponent's unseen cards (exactly as many as
  the view counts in each zone) get codes from a **deck-shaped prior**: first the missing
  copies of the names already seen (a colony holds 15 names three times over, as the
  generated colonies of engine.colonies and ordinary decks do: having seen a
  card, the best guess is that its other copies are there too), then new names three copies
  each, drawn from the pool of the races that colony may hold (a race not seen yet of each
  opposing pair chosen at random per determinisation, R 9.3), a ship name with probability
  0.4 (6 of 15 names, the shape of those colonies) and otherwise any other card, uniformly.
  Uniform over all legal codes was the alternative: it makes the opponent's colony hold 45
  different cards of eight possible races, a poorer guess of what is in its centre (ships
  are what the bot must plan against) at no gain in honesty. The codes are shuffled over
  the unseen cards, and the game gets a fresh generator (draws and shuffles are sampled too).
* The tree search: one tree over the information sets of the search (single-observer
  ISMCTS): nodes are keyed by action id; selection is UCB1 with availability counts (an
  action is a child's "trial" only when it was legal in that iteration's determinisation);
  a new node per iteration; a playout with the heuristic (or random) bot for a bounded number of
  decisions, cut off with an evaluation of the position; the reward goes back up the path.
* The decision is the most visited root action (tree) or the last candidate standing
  (rollouts); ``explanation`` keeps the top three with their visits (rollouts) and mean
  rewards ("win_rate", an estimate of the chance to win) (``SearchBot.explain()``).

The frame stack: while another player picks among cards the seat cannot see, the options
offered to them are redacted where they depend on those cards' identities. The one such
pick of the engine is a filtered search of one's colony (``search_colony``: "look at the
top 5, take a ship"): its options become the whole top of that colony the search looks at,
the positions everyone knows, never which of them fit the filter. The other picks among
hidden cards offer whole piles or the top of a colony by position (discards from the
centre, M8's search, returning a pile, ordering the top), which is what a player sees
across the table; they stay as they are. ``engine.view`` shows such a pick as its prompt
and the picks left only. Unseen cards keep their instance ids (frames and actions name
cards by id); an id is fresh whenever a card enters or leaves a hidden zone or its pile is
shuffled (engine/state.py): it tells where the card lies and since when, never what it is.

Codes are dealt to unseen cards in the order of the piles they lie in, and the generator of
a decision is seeded from the bot's seed and the observation with each colony's ids sorted
(a shuffled colony's fresh ids follow its order; the cut after it, R 16.1, public but
meaningless, rotates them), so the same observation always gives the same decision (with
an iteration budget; a time budget stops earlier on a slow machine): two games that differ only in cards the seat cannot see give
the same decisions (tests/engine/test_search.py).

What the bot does not use that a person has: it keeps no memory between decisions, so
cards a look showed (R 16.4) and cards it saw enter the opponent's centre (returned from
the trash, say) are not remembered: it knows less than a person there, never more.
"""

import json
import math
import time
from collections import Counter
from hashlib import blake2b

from . import values as V
from .basic_bots import HeuristicBot, RandomBot
from .catalog import RACE_PAIRS
from .collector import collector_paused
from .colonies import load_cards
from .deck import MAX_COPIES_PER_NAME, name_key
from .game import SEARCH_DEPTH, apply, legal_actions, pending
from .rng import Rng
from .serialize import clone, dump, load
from .state import all_cards
from .view import sees

HIDDEN = "?"  # the code of a card whose identity the observer does not know
PILES = ("colony", "centre", "surface", "canteen", "hangar", "trash", "wasteland")
SHIP_SHARE = 0.4  # the prior's share of ship names among the unseen ones (6 of 15)

# strength -> settings. All three are flat rollouts over the heuristic bot (see the module):
# `rollouts` playouts per main decision, shared by at most `width` candidates, each playout
# `turns` turns or `depth` decisions (then `fitted_value`); `margin` favours the heuristic's
# own choice; `minor` is the budget share of a decision other than the turn's main one (0:
# the heuristic's choice, unsearched); `seconds` caps a decision (the budget ends it long
# before: 1-10 ms a rollout on the compiled engine). Easy is weaker by its small, unguarded
# budget (noise moves it off the heuristic's choice). `"method": "ismcts"` with `iterations`,
# `depth` and `playout` ("heuristic" or "random") is the tree search instead (no strength
# uses it now; the tests still run it).
STRENGTHS = {
    "easy": {
        "method": "rollouts",
        "rollouts": 4,
        "seconds": 0.25,
        "depth": 100,
        "turns": 2,
        "width": 3,
        "minor": 0.0,
        "margin": 0.0,
    },
    "normal": {
        "method": "rollouts",
        "rollouts": 12,
        "seconds": 0.5,
        "depth": 300,
        "turns": 4,
        "width": 3,
        "minor": 0.0,
        "margin": 0.05,
    },
    "hard": {
        "method": "rollouts",
        "rollouts": 40,
        "seconds": 0.9,
        "depth": 300,
        "turns": 6,
        "width": 5,
        "minor": 0.0,
        "margin": 0.1,
    },
}
WIN_MARGIN = 0.2  # rollouts: the share of a finished game's reward that is its margin
MINOR_SHARE = 0.25  # ISMCTS: the budget share of a decision other than the turn's main one
UCB_C = 0.7  # exploration constant of UCB1 (rewards in [0, 1])
PRIOR_VISITS, PRIOR_REWARD = 2, 0.6  # the heuristic's choice: two virtual playouts at 60 %

_POOL: list = []  # the card set, read once (engine.colonies.load_cards)


def card_pool() -> list:
    """The card set an opponent's unseen cards are sampled from: every first-edition card
    (the set files; the catalogue is loaded from them). Read once per process."""
    if not _POOL:
        _POOL.extend(load_cards())
    return _POOL


class Prior:
    """What the seat knows of one opponent's colony: the races its seen cards show and the
    copies of each name seen; the pool to sample its unseen cards from (see the module)."""

    __slots__ = ("fixed", "open", "refill", "ships", "others")

    def __init__(self, fixed, open_pairs, refill, ships, others):
        self.fixed = fixed  # races the colony holds (seen), sorted
        self.open = open_pairs  # [(race a, race b)]: one of them may be in the colony
        self.refill = refill  # codes: the missing copies of the names seen (sorted)
        self.ships = ships  # race -> [code] of ship names not seen (sorted)
        self.others = others  # race -> [code] of the other names not seen (sorted)


class Observation:
    """What `seat` may know of a game: the redacted state (as dump text), its own list and
    a prior per opponent."""

    __slots__ = ("seat", "text", "defs", "own", "unseen", "priors")

    def __init__(self, seat, text, defs, own, unseen, priors):
        self.seat = seat
        self.text = text  # dump of the redacted state (without the card definitions)
        self.defs = defs  # the pool's definitions and those of the codes the seat sees
        self.own = own  # Counter of the codes of the seat's own colony list (its deck)
        self.unseen = unseen  # Counter: the seat's own cards it cannot see (its colony)
        self.priors = priors  # opponent seat -> Prior


def observe(state, seat: int, pool=None) -> Observation:
    """The search bot's whole input: the game as `seat` may know it (see the module)."""
    if pool is None:
        pool = card_pool()
    redacted = load(dump(state))
    seen: list[Counter[str]] = [Counter() for _ in state.players]
    own: Counter[str] = Counter()
    defs = {d["code"]: d for d in pool}
    for card in all_cards(redacted):
        if card.owner == seat:
            own[card.code] += 1  # its own list: it built its deck
            defs[card.code] = state.defs[card.code]
        if sees(card, seat):
            seen[card.owner][card.code] += 1
            defs[card.code] = state.defs[card.code]
        else:
            card.code = HIDDEN
    _redact_stack(redacted, seat)
    redacted.rng = Rng.from_seed("observation")  # the secret key never reaches the bot
    redacted.defs = {}
    # in code order: a Counter keeps the order its codes were first counted, which follows
    # the true positions of the cards
    unseen = Counter(dict(sorted((own - seen[seat]).items())))
    own = Counter(dict(sorted(own.items())))
    race_rule = state.ruleset.race_rule
    priors = {
        other: _prior(seen[other], defs, pool, race_rule)
        for other in range(len(state.players))
        if other != seat
    }
    return Observation(seat, dump(redacted), defs, own, unseen, priors)


def _prior(seen: Counter, defs: dict, pool: list, race_rule: str) -> Prior:
    races = {defs[code].get("race") for code in seen} - {None}
    copies: Counter[str] = Counter()
    for code, n in seen.items():
        copies[name_key(defs[code]["name"])] += n
    refill = []
    for code in sorted(seen):  # one code per name seen (the first in code order)
        key = name_key(defs[code]["name"])
        left = MAX_COPIES_PER_NAME - copies[key]
        if left > 0:
            refill += [code] * left
            copies[key] = MAX_COPIES_PER_NAME
    if race_rule == "original":  # R 9.3: no race opposing one seen
        fixed: list[str] = []
        open_pairs: list[tuple[str, ...]] = []
        for a, b in RACE_PAIRS:
            inside = [r for r in (a, b) if r in races]
            if inside:
                fixed += inside
            else:
                open_pairs.append((a, b))
    else:  # R 9.5.2 / 9.5.3: any race may be there (max4: sampled up to four below)
        fixed = sorted(races)
        open_pairs = [(r,) for a, b in RACE_PAIRS for r in (a, b) if r not in races]
    ships: dict = {}
    others: dict = {}
    for d in sorted(pool, key=lambda d: d["code"]):
        if copies[name_key(d["name"])]:
            continue  # seen: its missing copies are in `refill`
        table = ships if d["type"] == "ship" else others
        table.setdefault(d.get("race"), []).append(d["code"])
    return Prior(sorted(fixed), open_pairs, refill, ships, others)


def _redact_stack(state, seat: int) -> None:
    """Options of another player's pick that depend on hidden identities (see the module)."""
    stack = state.stack
    for i, frame in enumerate(stack):
        if frame.get("kind") != "choice" or frame["player"] == seat or frame["prompt"] != "search":
            continue
        below = stack[i - 1] if i > 0 else {}
        depth = SEARCH_DEPTH
        if below.get("kind") == "effects":  # search_colony: a filter on the top `depth`
            depth = below["effects"][below["i"]].get("depth", SEARCH_DEPTH)
        colony = state.players[frame["player"]].colony
        frame["options"] = list(colony[:depth])


def _sample_opponent(prior: Prior, n: int, race_rule: str, rng: Rng) -> list:
    """`n` codes for an opponent's unseen cards from its prior (see the module)."""
    refill = list(prior.refill)
    if len(refill) >= n:
        rng.shuffle(refill)
        return refill[:n]
    races = list(prior.fixed)
    if race_rule == "original":
        races += [pair[rng.below(2)] for pair in prior.open]
    elif race_rule == "max4":
        extra = [pair[0] for pair in prior.open]
        rng.shuffle(extra)
        races += extra[: max(0, 4 - len(races))]
    else:
        races += [pair[0] for pair in prior.open]
    ships = [c for r in sorted(races) for c in prior.ships.get(r, ())] + list(
        prior.ships.get(None, ())
    )
    others = [c for r in sorted(races) for c in prior.others.get(r, ())] + list(
        prior.others.get(None, ())
    )
    out = refill
    while len(out) < n and (ships or others):
        pick_ship = ships and (not others or rng.below(10) < int(SHIP_SHARE * 10))
        names = ships if pick_ship else others
        code = names.pop(rng.below(len(names)))
        out += [code] * MAX_COPIES_PER_NAME
    while len(out) < n:  # a pool too small for the count (never with the real set)
        out.append(out[rng.below(len(out))] if out else prior.refill[0])
    rng.shuffle(out)
    return out[:n]


def determinise(obs: Observation, rng: Rng):
    """A full game consistent with the observation: the seat's own unseen cards get the codes
    of its list less what it sees; each opponent's get codes sampled from its prior; the
    game's generator is fresh."""
    state = load(obs.text)
    state.defs = obs.defs
    by_owner: dict[int, list] = {}
    for card in _by_position(state):
        if card.code == HIDDEN:
            by_owner.setdefault(card.owner, []).append(card)
    race_rule = state.ruleset.race_rule
    for owner in sorted(by_owner):
        cards = by_owner[owner]
        if owner == obs.seat:
            # sorted: a Counter's order is the order its codes were first counted, which
            # follows the true positions of the cards (the twins test caught that leak)
            pool = sorted(obs.unseen.elements())
            rng.shuffle(pool)  # the bot's generator
        else:
            pool = _sample_opponent(obs.priors[owner], len(cards), race_rule, rng)
        for card, code in zip(cards, pool, strict=False):
            card.code = code
    state.rng = Rng.from_seed(f"det:{rng.below(1 << 62)}")
    return state


def _by_position(state) -> list:
    """The cards in the order of the piles they lie in (seat, zone, position), then the rest
    (attached, on the chain) by id. Codes are dealt to unseen cards in this order, not by id:
    the ids of a shuffled colony are fresh in position order, and the cut after it (R 16.1, a
    public event) rotates them, so two games that differ only in a cut deal the same codes
    to the same positions."""
    order = []
    placed = set()
    for player in state.players:
        for zone in PILES:
            for cid in getattr(player, zone):
                order.append(state.cards[cid])
                placed.add(cid)
    order += [card for card in all_cards(state) if card.id not in placed]  # in id order
    return order


def _digest(obs: Observation) -> str:
    """The key of the decision's generator: the observation, with each colony's ids in sorted
    order (their rotation says where the last cut was, R 16.1, public and meaningless), so
    the same position after another cut gets the same decision."""
    data = json.loads(obs.text)
    for player in data["players"]:
        player["colony"] = sorted(player["colony"])
    text = json.dumps(data, sort_keys=True)
    return blake2b(text.encode(), digest_size=16).hexdigest()


def evaluate(state, seat: int) -> float:
    """A cut-off playout's estimate that `seat` wins, in [0, 1]: colony cards (the lives of
    R 15.1) count most, then ships in play, hand and credits."""
    if state.winner is not None:
        return 1.0 if state.winner == seat else 0.0
    scores = [_material(state, s) for s in range(len(state.players))]
    mine = scores[seat]
    best_other = max(x for s, x in enumerate(scores) if s != seat)
    return 1.0 / (1.0 + math.exp(-(mine - best_other) / 6.0))


# the cut-off evaluation of the rollouts: a logistic model of "this seat wins" on the
# differences of FEATURES between the seat and its strongest opponent, fitted on positions
# of heuristic-bot games (bench/fit_search_eval.py prints these weights and how well they
# predict held-out games)
FEATURES = (
    "colony",
    "colony_short",
    "centre",
    "surface",
    "canteen",
    "ships",
    "firepower",
    "armour",
    "bombardment",
    "credits",
    "active",
)
WEIGHTS = (  # intercept first; `bench/fit_search_eval.py --games 1200 --seed 1`
    0.0,
    0.0497,  # colony
    -0.3049,  # colony_short
    0.2106,  # centre
    0.1361,  # surface
    0.1325,  # canteen
    -0.0003,  # ships
    0.1957,  # firepower
    0.1886,  # armour
    0.0295,  # bombardment
    0.0915,  # credits
    -0.1364,  # active
)


def features(state, seat) -> list:
    """The seat's FEATURES (see WEIGHTS): pile sizes (a short colony counted again), its
    undamaged ships and their stats, credits, and whether it is the active player."""
    player = state.players[seat]
    statics = V.static_abilities(state)
    cards = state.cards
    ships = fp = arm = bomb = 0
    for cid in player.hangar:
        card = cards[cid]
        if card.orientation != "damaged":
            ships += 1
            fp += V.stat(state, card, "firepower", statics)
            arm += V.armour_left(state, card, statics)
            bomb += V.stat(state, card, "bombardment", statics)
    colony = len(player.colony)
    return [
        colony,
        max(0, 10 - colony),  # the last lives count more: a colony near empty is near lost
        len(player.centre),
        len(player.surface),
        len(player.canteen),
        ships,
        fp,
        arm,
        bomb,
        min(player.credits, 20),
        1 if state.active == seat else 0,
    ]


def feature_difference(state, seat) -> list:
    """`seat`'s features less those of its strongest opponent (by the fitted model)."""
    mine = features(state, seat)
    best, best_z = None, None
    for other in range(len(state.players)):
        if other == seat:
            continue
        theirs = features(state, other)
        z = sum(w * x for w, x in zip(WEIGHTS[1:], theirs, strict=True))
        if best_z is None or z > best_z:
            best, best_z = theirs, z
    assert best is not None
    return [a - b for a, b in zip(mine, best, strict=True)]


def fitted_value(state, seat) -> float:
    """The fitted model's estimate that `seat` wins an unfinished game, in (0, 1)."""
    diff = feature_difference(state, seat)
    z = WEIGHTS[0] + sum(w * x for w, x in zip(WEIGHTS[1:], diff, strict=True))
    z = max(-30.0, min(30.0, z))
    return 1.0 / (1.0 + math.exp(-z))


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
        with collector_paused():  # the rollouts make no reference cycles: engine/collector.py
            return self._decide(obs, seat)

    def _decide(self, obs: Observation, seat: int):
        digest = _digest(obs)
        rng = Rng.from_seed(f"search-bot:{self.seed}:{digest}")
        first = determinise(obs, rng)
        actions = legal_actions(first)  # the seat's own actions: the same in every sample
        if len(actions) == 1:
            self.last_explanation = [{"action": actions[0].id, "visits": 0, "win_rate": None}]
            self.last_iterations = 0
            return actions[0]
        top = pending(first)
        if self.settings.get("method") == "rollouts":
            return self._flat(obs, seat, rng, first, actions, top.decision if top else "")
        # the main decision of a turn gets the whole budget; the many small ones (responses,
        # payments, picks) a quarter of it, so a game's thinking goes where it matters
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

    # -- flat rollouts over the heuristic bot ("normal", "hard") ------------------------------

    def _flat(self, obs, seat, rng, first, actions, decision):
        """Rollout policy improvement (see the module): the heuristic's best `width` actions,
        each played out on the same determinisations with the same playout generators
        (common random numbers), halved by their mean reward (sequential halving)."""
        settings = self.settings
        scale = 1.0 if decision == "main" else settings["minor"]
        budget = int(settings["rollouts"] * scale)
        heuristic = HeuristicBot(f"{self.seed}:{rng.below(1 << 30)}")
        hint = heuristic.choose(first, seat)
        by_id = {a.id: a for a in actions}
        if budget < 2:  # not searched: the heuristic's choice
            self.last_explanation = [{"action": hint.id, "visits": 0, "win_rate": None}]
            self.last_iterations = 0
            return by_id[hint.id]
        survivors = _candidates(heuristic, first, seat, decision, actions, hint, settings["width"])
        stats = {aid: [0, 0.0] for aid in survivors}
        seconds = settings["seconds"]
        deadline = None if seconds is None else self.clock() + seconds * max(scale, 0.25)
        depth = settings["depth"]
        turns = settings["turns"]
        margin = settings["margin"]
        samples = []  # (determinisation, playout seed), the same for every candidate
        rounds = max(1, math.ceil(math.log2(len(survivors))))
        used = done = 0
        out_of_time = False
        for r in range(rounds):
            shares = (rounds - r) * len(survivors)  # the last round spends what is left
            per = max(
                1, -(-(budget - used) // shares) if r == rounds - 1 else (budget - used) // shares
            )
            for j in range(done, done + per):
                if j == len(samples):
                    state = first if j == 0 else determinise(obs, rng)
                    samples.append((state, f"{self.seed}:{rng.below(1 << 30)}"))
                state, playout_seed = samples[j]
                for aid in survivors:
                    value = _rollout(clone(state), aid, seat, playout_seed, depth, turns)
                    if value is not None:
                        stats[aid][0] += 1
                        stats[aid][1] += value
                    used += 1
                if deadline is not None and self.clock() >= deadline:
                    out_of_time = True
                    break
            done += per
            if out_of_time or len(survivors) == 1:
                break
            survivors.sort(key=lambda aid: -_mean(stats[aid], aid == hint.id, margin))
            survivors = survivors[: (len(survivors) + 1) // 2]
        best = max(survivors, key=lambda aid: _mean(stats[aid], aid == hint.id, margin))
        shown = sorted(stats, key=lambda aid: (aid != best, -stats[aid][0], -_mean(stats[aid])))
        self.last_explanation = [
            {
                "action": aid,
                "visits": stats[aid][0],
                "win_rate": round(stats[aid][1] / stats[aid][0], 3) if stats[aid][0] else None,
            }
            for aid in shown[:3]
        ]
        self.last_iterations = used
        return by_id[best]

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


def _candidates(heuristic, state, seat, decision, actions, hint, width) -> list:
    """The ids of at most `width` actions to play out: the heuristic's choice, then the
    best-scored action of each other kind (an attack per target: the heuristic rates all but
    a colony attack low, and the rollouts are there to find when it is wrong), best first,
    then the rest by score."""
    scores = {a.id: heuristic.score(state, seat, decision, a) for a in actions}
    ranked = sorted(actions, key=lambda a: (-scores[a.id], a.id != hint.id, a.id))
    kinds: set = set()
    first: list[str] = []
    rest: list[str] = []
    for a in ranked:
        kind = (a.kind, a.get("target"))
        (rest if kind in kinds else first).append(a.id)
        kinds.add(kind)
    return (first + rest)[:width]


def _mean(stat, favoured=False, margin=0.0) -> float:
    """A candidate's mean reward; the heuristic's own choice is favoured by `margin` (and
    wins ties): another candidate must beat it clearly (see the module)."""
    n, total = stat
    mean = total / n if n else -1.0
    return mean + (margin + 1e-9 if favoured else 0.0)


def _rollout(state, aid, seat, seed, depth, turns=0):
    """`seat`'s action `aid`, then the heuristic bot for everyone for at most `depth`
    decisions and `turns` turns (0: no turn limit): `seat`'s reward (None: the action is
    not legal in this sample)."""
    for action in legal_actions(state):
        if action.id == aid:
            apply(state, action)
            break
    else:
        return None
    bot = HeuristicBot(seed)
    stack = state.stack  # changed in place by the rules, never replaced
    steps = 0
    # cut at the first decision `turns` turns on (with an even count, in the seat's own
    # turn again, so every cut is evaluated at a like point of the game) or at `depth`
    horizon = state.turn + turns if turns else None
    while steps < depth and state.winner is None and state.result is None and stack:
        if horizon is not None and state.turn >= horizon:
            break
        waiting = stack[-1].get("await")
        if waiting is None:
            break
        try:
            action = bot.choose(state, waiting["player"])
        except ValueError:
            # no legal action: a frame below kept options computed from the true cards (a
            # pick among hidden cards by a filter) and none fits the sampled codes; the
            # bot's generator refuses to pick among none. The position is evaluated.
            break
        apply(state, action)
        steps += 1
    return outcome(state, seat)


def outcome(state, seat: int) -> float:
    """A rollout's reward for `seat`, in [0, 1]: a finished game is mostly won or lost (1 -
    WIN_MARGIN or 0 at least), the rest by how many colony cards (R 15.1's lives) the winner
    kept, so a rollout also tells a narrow win from a wide one; an unfinished one (cut at
    the playout's depth) gets the fitted model's estimate (`fitted_value`)."""
    if state.winner is None:
        return fitted_value(state, seat)
    kept = len(state.players[state.winner].colony) / 45.0
    if state.winner == seat:
        return 1.0 - WIN_MARGIN + WIN_MARGIN * min(1.0, kept)
    return WIN_MARGIN * (1.0 - min(1.0, kept))


def _factory(strength):
    def make(seed=0):
        return SearchBot(seed, strength)

    make.__name__ = f"search_{strength}"
    return make


SEARCH_BOTS: dict = {f"search-{s}": _factory(s) for s in STRENGTHS}
