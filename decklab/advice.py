"""Deck advice (issue 39): candidate changes to a deck, raced against it in the lab's games,
and the winners re-measured on fresh seeds. Pure code (no Django): the worker, the tests and
the bench run exactly the same games.

Common random numbers: game i of the deck and game i of every candidate are the same pairing
(opponent, side, seed). The engine shuffles a colony with its own seeded generator and the
same number of draws for any 45 cards (engine/game.py Setup, R 10.1), so a candidate's card
lies where the deck's card lay in the same game, and the bots are seeded from the same seed:
the two games only part where the changed card makes a difference.
"""

from collections import Counter
from dataclasses import dataclass, field

from engine.deck import MAX_COPIES_PER_NAME, check_deck

from . import racing, simulation

FRESH_GAMES = 400  # the re-measurement of the recommended deck, on seeds no race used
MAX_CANDIDATES = 10


@dataclass(frozen=True)
class Change:
    """`count` copies of `out` leave the deck and as many of `into` come in. When `into` is
    already in the deck the change is the removal of `out` (its copies go to `into`)."""

    out: str
    into: str
    count: int

    def apply(self, entries) -> list[list]:
        counts = Counter(dict((code, n) for code, n in entries))
        counts[self.out] -= self.count
        counts[self.into] += self.count
        return sorted([code, n] for code, n in counts.items() if n > 0)

    def removal(self, entries) -> bool:
        return any(code == self.into for code, _n in entries)

    def as_dict(self) -> dict:
        return {"out": self.out, "into": self.into, "count": self.count}


def _cost(card: dict) -> int:
    cost = card.get("credit_cost")
    return cost if isinstance(cost, int) else 99


def _legal(entries, cards: dict, deck_rules) -> bool:
    return not check_deck([(cards[code], n) for code, n in entries], deck_rules)


def _replacements(out: dict, pool: list[dict], played: Counter) -> list[dict]:
    """The pool's cards in the order they are tried for `out`: the same type first, then
    those that decks of the same archetype play, then the closest cost."""
    return sorted(
        pool,
        key=lambda c: (
            c["type"] != out["type"],
            -played[c["code"]],
            abs(_cost(c) - _cost(out)),
            c["code"],
        ),
    )


def suspects(entries, played: Counter) -> list[str]:
    """The deck's cards, the likeliest weak ones first: those no archetype deck plays, then
    the least played, the more expensive first (a dead card in hand is usually a costly one)."""
    return [code for code, _n in sorted(entries, key=lambda e: (played[e[0]], -e[1], e[0]))]


def propose(
    entries,
    cards: dict,
    *,
    deck_rules,
    owned: dict | None = None,
    archetype: list | None = None,
    limit: int | None = None,
) -> list[Change]:
    """Candidate changes of a deck, at most `limit`, the most promising first.

    entries: the deck's [[code, count], ...]; cards: code -> definition (every card of the
    deck's races); owned: code -> copies the person owns (only those are proposed, less the
    copies the deck already uses); archetype: the card lists of decks of the same archetype
    (their cards are tried first). One swap per suspect card in turn, then second choices;
    then removals (a suspect's copies to another card of the deck of its type)."""
    races = {cards[code]["race"] for code, _n in entries}
    in_deck = {code for code, _n in entries}
    played = Counter(code for deck in archetype or () for code, _n in deck)
    pool = [
        c
        for c in cards.values()
        if c["race"] in races and c["code"] not in in_deck and _owns(owned, c["code"], 1)
    ]
    counts = dict((code, n) for code, n in entries)
    choices = []
    for code in suspects(entries, played):
        options = [
            Change(code, c["code"], counts[code])
            for c in _replacements(cards[code], pool, played)
            if _owns(owned, c["code"], counts[code])
        ]
        choices.append(options[:3])
    ordered = _spread(choices)
    ordered += _removals(entries, cards, played)
    proposals, seen = [], set()
    for change in ordered:
        if change in seen or not _legal(change.apply(entries), cards, deck_rules):
            continue
        seen.add(change)
        proposals.append(change)
    return proposals[: limit or MAX_CANDIDATES]


def _spread(choices: list[list[Change]]) -> list[Change]:
    """Each suspect's best replacement that no earlier suspect took, then the second
    choices: three suspects all swapped for one card could not all be applied."""
    first, taken = [], set()
    for options in choices:
        fresh = [c for c in options if c.into not in taken] or options
        if fresh:
            first.append(fresh[0])
            taken.add(fresh[0].into)
    return first + [c for options in choices for c in options if c not in first]


def _owns(owned: dict | None, code: str, copies: int) -> bool:
    return owned is None or owned.get(code, 0) >= copies


def _removals(entries, cards: dict, played: Counter) -> list[Change]:
    """A suspect's copies moved to a card of the same type that has room for them (R 9.2)."""
    counts = dict((code, n) for code, n in entries)
    found = []
    for code in suspects(entries, played):
        for other, n in entries:
            room = MAX_COPIES_PER_NAME - n
            same = cards[other]["type"] == cards[code]["type"]
            if other != code and same and room >= counts[code]:
                found.append(Change(code, other, counts[code]))
                break
    return found


@dataclass
class Split:
    """Games, the deck's score and the candidate's score in one opponent x side cell."""

    games: int = 0
    deck: float = 0.0
    candidate: float = 0.0
    diff: racing.Tally = field(default_factory=racing.Tally)


def score(winner) -> float:
    """A game's score for the deck in seat 0: a win 1, a loss 0, unfinished (turn limit) 1/2."""
    return 0.5 if winner is None else float(winner == 0)


class Games:
    """The lab's games of a deck and its candidates against the gauntlet, game i of each
    seeded alike (common random numbers); the deck plays each game index once, whatever the
    number of candidates that share it."""

    def __init__(self, deck, candidates, opponents, *, seed, ruleset, bot="heuristic"):
        """deck / candidates: colonies as definition lists; opponents: [(key, colony)]."""
        self.deck, self.candidates, self.opponents = deck, candidates, opponents
        self.seed, self.ruleset, self.bot = seed, ruleset, bot
        self.deck_scores: dict[int, float] = {}
        self.splits = [{} for _ in candidates]
        self.games_played = 0

    def pairing(self, i: int) -> tuple[str, list, bool]:
        """Game i: opponent i mod k, the deck on the play and on the draw in turn (R 10.2)."""
        key, colony = self.opponents[i % len(self.opponents)]
        return key, colony, simulation.starts(i // len(self.opponents))

    def play(self, colony, i: int) -> float:
        key, theirs, on_play = self.pairing(i)
        seed = f"{self.seed}-{i}"
        winner, _turns, _bot = simulation.play_one(
            [colony, theirs], seed, on_play, self.ruleset, self.bot
        )
        self.games_played += 1
        return score(winner)

    def deck_score(self, i: int) -> float:
        if i not in self.deck_scores:
            self.deck_scores[i] = self.play(self.deck, i)
        return self.deck_scores[i]

    def play_round(self, first: int, games: int, who: list[int]) -> dict[int, racing.Tally]:
        """The paired differences of games first..first+games-1 for the candidates `who`."""
        results = {c: racing.Tally() for c in who}
        for i in range(first, first + games):
            base = self.deck_score(i)
            key, _colony, on_play = self.pairing(i)
            for c in who:
                mine = self.play(self.candidates[c], i)
                results[c].add(mine - base)
                cell = self.splits[c].setdefault((key, on_play), Split())
                cell.games += 1
                cell.deck += base
                cell.candidate += mine
                cell.diff.add(mine - base)
        return results


def combined(entries, changes: list[Change]) -> tuple[list[list], list[Change]]:
    """The deck with every change that still fits once the earlier ones are made (best
    first): a card already swapped out, or brought in, is not touched twice."""
    touched, used = set(), []
    for change in changes:
        if {change.out, change.into} & touched:
            continue
        entries = change.apply(entries)
        touched |= {change.out, change.into}
        used.append(change)
    return entries, used


def fresh_seed(seed: str) -> str:
    """The re-measurement's seeds: game i is `<seed>-fresh-i`, which no race game uses."""
    return f"{seed}-fresh"


def remeasure(games: Games, colony, count: int | None = None) -> racing.Tally:
    """The recommended deck against the deck on `count` (FRESH_GAMES) games from seeds no race used
    (`games.seed` + "-fresh"): the gain shown is not the winner's curse of the race."""
    fresh = Games(
        games.deck,
        [colony],
        games.opponents,
        seed=fresh_seed(games.seed),
        ruleset=games.ruleset,
        bot=games.bot,
    )
    tally = fresh.play_round(0, count or FRESH_GAMES, [0])[0]
    games.games_played += fresh.games_played
    return tally


def race(games: Games, budget: int, *, step: int = 10, on_progress=None) -> racing.Race:
    """Race every candidate of `games` against the deck (decklab.racing) within `budget`
    candidate games. `on_progress(race)` is called every `step` game indices (to store
    the progress, or to stop the race by raising)."""
    state = racing.Race(len(games.candidates), budget, rounds=racing.ROUNDS)

    def play_round(first, count, who):
        results = {c: racing.Tally() for c in who}
        for start in range(first, first + count, step):
            n = min(step, first + count - start)
            for c, tally in games.play_round(start, n, who).items():
                results[c].merge(tally)
            if on_progress:
                on_progress(state)
        return results

    racing.run(state, play_round)
    return state


def recommend(games: Games, state: racing.Race, entries, changes, colony_of) -> dict | None:
    """The deck with the better candidates (best first, racing.BETTER) re-measured against
    the deck on fresh seeds; None when no candidate was better. `colony_of(entries)` makes
    the definitions a game is played with."""
    plan = recommended(state, entries, changes)
    if plan is None:
        return None
    cards, used = plan
    return recommendation(remeasure(games, colony_of(cards)), cards, used)


def recommended(state: racing.Race, entries, changes) -> tuple[list, list[Change]] | None:
    """(cards, changes used) of the deck with every better candidate that fits, the best
    first; None when no candidate was better."""
    better = sorted(
        (i for i, v in enumerate(state.verdicts) if v == racing.BETTER),
        key=lambda i: -state.tallies[i].mean,
    )
    if not better:
        return None
    return combined(entries, [changes[i] for i in better])


def recommendation(tally: racing.Tally, cards, used: list[Change]) -> dict:
    """What the re-measurement found: the gain holds when its whole 95 % interval is > 0."""
    mean, low, high = tally.interval(racing.Z95)
    return {
        "changes": [change.as_dict() for change in used],
        "cards": cards,
        "games": tally.games,
        "change": mean,
        "low": low,
        "high": high,
        "holds": low > 0,
    }
