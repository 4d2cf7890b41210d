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
* **Rollouts**: each candidate is applied to a determinisation (engine.observation), then the heuristic
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

* The tree search: one tree over the information sets of the search (single-observer
  ISMCTS): nodes are keyed by action id; selection is UCB1 with availability counts (an
  action is a child's "trial" only when it was legal in that iteration's determinisation);
  a new node per iteration; a playout with the heuristic (or random) bot for a bounded number of
  decisions, cut off with an evaluation of the position; the reward goes back up the path.
* The decision is the most visited root action (tree) or the last candidate standing
  (rollouts); ``explanation`` keeps the top three with their visits (rollouts) and mean
  rewards ("win_rate", an estimate of the chance to win) (``SearchBot.explain()``).

What the bot may know and how a determinisation is drawn from it: engine.observation.
"""

import math
import time

from . import values as V
from .basic_bots import HeuristicBot, RandomBot
from .collector import collector_paused
from .game import apply, legal_actions, pending
from .observation import Observation, determinise, observation_key, observe
from .rng import Rng
from .serialize import clone

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
        digest = observation_key(obs)
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
