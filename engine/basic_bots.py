"""The bots without search: a uniform random player and a simple heuristic player.

A bot is an object with ``choose(state, seat) -> Action`` (one of
``legal_actions(state)``). Bots own their generator, so a game between bots
replays from its seeds. The heuristic bot only uses what its player may know:
its own cards (even face down) and public information; it never looks at the
opponent's hidden cards. engine.search's playouts use both; engine.bots names every bot.
"""

from typing import ClassVar

from . import values as V
from .game import legal_actions
from .rng import Rng

_SLOT_OF = {"surface": "base", "canteen": "crew", "ship": "armament"}  # place.to -> slot


class SeededBot:
    """A bot whose random choices come from its own generator, seeded by its name and `seed`
    (the same seed plays the same game)."""

    name: ClassVar[str] = "seeded"

    def __init__(self, seed=0):
        self.rng = Rng.from_seed(f"{self.name}-bot:{seed}")


class RandomBot(SeededBot):
    """Uniform over the legal actions."""

    name: ClassVar[str] = "random"

    def choose(self, state, seat):
        actions = legal_actions(state)
        return actions[self.rng.below(len(actions))]


class HeuristicBot(SeededBot):
    """Scores each legal action with a few rules of thumb; ties are broken at random."""

    name: ClassVar[str] = "heuristic"

    def choose(self, state, seat):
        actions = legal_actions(state)
        frame = state.stack[-1]
        decision = frame["await"]["decision"]
        if len(actions) == 1:
            best = actions  # nothing to weigh (the generator still draws, as always)
        else:
            best, best_score = [], None
            memo = _Memo(state)  # the state does not change while the actions are scored
            for action in actions:
                score = self._score(state, seat, decision, action, memo)
                if best_score is None or score > best_score:
                    best, best_score = [action], score
                elif score == best_score:
                    best.append(action)
        return best[self.rng.below(len(best))]

    # -- rules of thumb --------------------------------------------------------------------

    def score(self, state, seat, decision, action):
        return self._score(state, seat, decision, action, _Memo(state))

    def _score(self, state, seat, decision, action, memo):
        kind = action.kind
        if decision == "main":
            return self._main(state, seat, action, memo)
        if decision == "mulligan":
            centre = state.players[seat].centre
            ships = sum(1 for c in centre if state.defs[state.cards[c].code]["type"] == "ship")
            return (15 if ships == 0 else 0) if kind == "mulligan" else 10
        if decision == "fire":
            if kind == "fire":
                ship = state.cards[action.get("ship")]
                target = state.cards[action.get("target")]
                fp = V.stat(state, ship, "firepower", memo.statics())
                left = V.armour_left(state, target, memo.statics())
                return 50 + left if fp >= left else 30 + fp
            if kind == "stealth":
                return 35
            if kind == "heavy_weapons":
                return 20 if state.players[seat].credits >= 6 else 0
            return 5
        if decision == "return_fire":
            return {"return_fire": 30, "stealth": 25, "heavy_weapons": 0}.get(kind, 10)
        if decision == "burst_return_fire":
            return 30 if kind == "return_fire" else 10
        if decision == "trap":
            return 30 if kind == "pay" else 10
        if decision in ("attackers", "bombers"):
            return {"choose": 20, "ordnance": 15}.get(kind, 5)
        if decision == "defenders":
            return self._defend(state, seat, action, memo)
        if decision == "board":
            if kind == "board":
                crew = state.cards[action.get("card")]
                real = state.defs[crew.code]["type"] == "crew"
                affordable = (
                    crew.paid
                    or V.card_cost(state, seat, crew, statics=memo.statics())
                    <= state.players[seat].credits
                )
                return 30 if real and affordable else 0
            return 10
        if decision == "payments":
            return 30 if kind == "pay" else 10
        if decision == "respond":
            return {"pass": 10, "play": 12, "activate": 11}.get(kind, 0)
        if decision == "distribute":
            return 20 if kind == "choose" else 0
        if decision == "discard":
            if kind == "choose":  # discard the cheapest of one's own cards
                card = state.cards[action.get("value")]
                cost = state.defs[card.code]["credit_cost"]
                return -(cost if isinstance(cost, int) else 3) if card.owner == seat else 0
            return 0
        return 0

    def _main(self, state, seat, action, memo):
        kind = action.kind
        player = state.players[seat]
        credits = player.credits
        if kind == "play":
            d = state.defs[state.cards[action.get("card")].code]
            if d["type"] == "ship":
                return 50 + min(d["credit_cost"], 20)
            return 28 if d["type"] == "event" else 12
        if kind == "place":
            card = state.cards[action.get("card")]
            t = state.defs[card.code]["type"]
            slot = _SLOT_OF[action.get("to")]
            return 36 if t == slot else -10
        if kind == "pay":
            return 40
        if kind == "upgrade":
            card = state.cards[action.get("card")]
            d = state.defs[card.code]
            limit = d.get("upgrade_limit")
            if d["type"] == "base" and isinstance(limit, int) and card.upgrades < limit:
                return 25
            return -5
        if kind == "attack":
            defender = action.get("player")  # a multiplayer attack names its defender
            if action.get("target") == "colony" and memo.colony_attack_pays(seat, defender):
                return 45
            return 2
        if kind == "draw":
            return 18 if credits >= 4 and len(player.centre) < 5 else 1
        if kind == "wasteland_draw":
            return 14
        if kind == "search":
            return 3
        if kind == "activate":
            return 20
        if kind == "cash":
            return -20
        return 10  # end_turn

    def _defend(self, state, seat, action, memo):
        if action.kind == "done":
            return 10
        ship = state.cards[action.get("value")]
        weakest = memo.weakest_attacker()
        if weakest is None:
            return 0
        return 20 if V.stat(state, ship, "firepower", memo.statics()) >= weakest else 5


class _Memo:
    """What HeuristicBot's scores of one decision share, computed once (same values)."""

    __slots__ = ("state", "_statics", "_colony", "_weakest")

    def __init__(self, state):
        self.state = state
        self._statics = None
        self._colony = None
        self._weakest = False

    def statics(self):
        if self._statics is None:
            self._statics = V.static_abilities(self.state)
        return self._statics

    def colony_attack_pays(self, seat, defender=None) -> bool:
        """Bombers among the active ships, whose firepower matches the enemy's armour (the
        defender's: the other player, or the neighbour a multiplayer attack names)."""
        if defender is None:
            defender = self.state.other(seat)
        if self._colony is None:
            self._colony = {}
        if defender not in self._colony:
            state = self.state
            statics = self.statics()
            cards = state.cards
            mine = [
                cards[c] for c in state.players[seat].hangar if cards[c].orientation == "active"
            ]
            theirs = [
                cards[c] for c in state.players[defender].hangar if cards[c].orientation == "active"
            ]
            power = sum(V.stat(state, s, "firepower", statics) for s in mine)
            guard = sum(V.armour_left(state, s, statics) for s in theirs)
            bombs = sum(V.stat(state, s, "bombardment", statics) for s in mine)
            self._colony[defender] = bombs > 0 and power >= guard
        return self._colony[defender]

    def weakest_attacker(self):
        """The least armour left among the attacking ships (None: no attacker)."""
        if self._weakest is False:
            state = self.state
            attackers = [state.cards[c] for c in state.combat["attackers"]]
            self._weakest = (
                min(V.armour_left(state, s, self.statics()) for s in attackers)
                if attackers
                else None
            )
        return self._weakest
