"""The racing rule of deck advice (issue 39): pure functions, no Django, no engine.

A race compares candidates (changed decks) with the deck itself on the same games: game i of
a candidate and game i of the deck are played from the same seed (common random numbers), so
each game gives a *paired difference* d = score(candidate) - score(deck) in {-1, -0.5, 0,
0.5, 1}. The mean of d is the candidate's win-rate change; the games are independent, so its
interval is the normal one, mean +- z * sd / sqrt(n).

Candidates are played in rounds of growing size. After each round a candidate is settled

- "worse" when its whole interval is below 0 (it stops early: clearly worse than the deck),
- "better" when its whole interval is above 0,
- "same" (no gain worth making) when even the top of its interval stays under +`margin`:
  the one-sided test that its gain is below `margin` (a futility stop: however many more
  games it played, it would not become a change worth making),

and the others play the next round, until none is left or the game budget is spent.

The futility stop is what saves games in a real field (bench/RESULTS.md "Deck advice"): most
proposals change the deck by a few points either way, too little to call better or worse
at 95 %, and without it they all played to the end of the budget. A candidate whose gain is
really `margin` or more is stopped as "same" with probability at most `alpha` (one-sided,
Bonferroni over the looks as below).

Looking at the data after every round would inflate the error rate of a fixed-z interval,
so the z of each look spends the error rate `alpha` over the looks a race may take
(Bonferroni): a candidate as good as the deck is reported "better" or "worse" with
probability at most `alpha`, however many rounds it plays (tests/decklab/test_racing.py
checks it over thousands of simulated races).
"""

import math
from dataclasses import dataclass, field
from statistics import NormalDist

ALPHA = 0.05  # the error rate a race states: an equal candidate reported different
MARGIN = 0.05  # a difference inside +-5 points is no change worth making
ROUNDS = (40, 40, 80, 160, 320, 640)  # games of each round (a candidate's games grow 2x)
Z95 = 1.96  # a plain 95 % interval: one look, no decision taken on it
MIN_VARIANCE = 0.05  # a floor under the variance of d while few games disagree (see below)

WORSE, BETTER, SAME, ACTIVE, UNDECIDED = "worse", "better", "same", "active", "undecided"


def z_for(alpha: float, looks: int) -> float:
    """The two-sided z of one look when `alpha` is shared by `looks` looks (Bonferroni)."""
    return NormalDist().inv_cdf(1 - alpha / (2 * looks))


@dataclass
class Tally:
    """A candidate's paired differences so far: count, sum and sum of squares."""

    games: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, difference: float) -> None:
        self.games += 1
        self.total += difference
        self.squares += difference * difference

    def as_list(self) -> list:
        """[games, total, squares]: how a tally is stored between a run's chunks."""
        return [self.games, self.total, self.squares]

    def merge(self, other: "Tally") -> None:
        self.games += other.games
        self.total += other.total
        self.squares += other.squares

    @property
    def mean(self) -> float:
        return self.total / self.games if self.games else 0.0

    def variance(self) -> float:
        """The sample variance of d. Zero when every game agreed (identical decks: the
        interval is then the point 0, and an identical deck is never reported different);
        otherwise at least MIN_VARIANCE, so ten lucky games do not make a tiny interval."""
        if self.games < 2:
            return 1.0
        var = (self.squares - self.games * self.mean**2) / (self.games - 1)
        if var <= 1e-12:
            return 0.0
        return max(var, MIN_VARIANCE)

    def interval(self, z: float) -> tuple[float, float, float]:
        """(mean, low, high) of the mean difference."""
        if self.games == 0:
            return 0.0, -1.0, 1.0
        half = z * math.sqrt(self.variance() / self.games)
        return self.mean, max(-1.0, self.mean - half), min(1.0, self.mean + half)


def verdict(
    tally: Tally, z: float, margin: float = MARGIN, one_sided_z: float | None = None
) -> str:
    """Where one candidate stands after a look: WORSE, BETTER (two-sided, `z`), SAME (the
    top of its one-sided interval, `one_sided_z`, under +`margin`) or still ACTIVE."""
    one_sided_z = z if one_sided_z is None else one_sided_z
    if tally.games == 0:
        return ACTIVE
    mean, low, high = tally.interval(z)
    if high < 0:
        return WORSE
    if low > 0:
        return BETTER
    if tally.interval(one_sided_z)[2] < margin:
        return SAME
    return ACTIVE


@dataclass
class Race:
    """The state of a race: each candidate's tally and verdict, the rounds played, games
    spent. `budget` counts the candidates' games (the deck's own games come on top, once
    per game index, shared by every candidate)."""

    candidates: int
    budget: int
    rounds: tuple = ROUNDS
    alpha: float = ALPHA
    margin: float = MARGIN
    tallies: list = field(default_factory=list)
    verdicts: list = field(default_factory=list)
    played: int = 0  # rounds played
    spent: int = 0  # candidate games played

    def __post_init__(self):
        self.tallies = self.tallies or [Tally() for _ in range(self.candidates)]
        self.verdicts = self.verdicts or [ACTIVE] * self.candidates
        self.z = z_for(self.alpha, len(self.rounds))
        self.futility_z = z_for(2 * self.alpha, len(self.rounds))  # one-sided: alpha / looks

    def active(self) -> list[int]:
        return [i for i, v in enumerate(self.verdicts) if v == ACTIVE]

    def next_round(self) -> tuple[int, int, list[int]] | None:
        """(first game index, games, the candidates to play) of the next round, or None when
        the race is over: nobody active, every round played, or the budget cannot pay it."""
        active = self.active()
        if not active or self.played >= len(self.rounds):
            return None
        first = sum(self.rounds[: self.played])
        games = self.rounds[self.played]
        if self.spent + games * len(active) > self.budget:
            games = (self.budget - self.spent) // len(active)
            if games < 2:
                return None
        return first, games, active

    def record(self, results: dict[int, Tally]) -> None:
        """Add a round's tallies (candidate -> its differences in this round) and judge."""
        for i, tally in results.items():
            self.tallies[i].merge(tally)
            self.spent += tally.games
        self.played += 1
        for i in results:
            self.verdicts[i] = verdict(self.tallies[i], self.z, self.margin, self.futility_z)

    def finish(self) -> None:
        """The race is over: whoever is still active is undecided."""
        self.verdicts = [UNDECIDED if v == ACTIVE else v for v in self.verdicts]

    def interval(self, i: int) -> tuple[float, float, float]:
        return self.tallies[i].interval(self.z)

    def as_dict(self) -> dict:
        """The race between two rounds, as a run stores it (its chunks play on workers)."""
        return {
            "candidates": self.candidates,
            "budget": self.budget,
            "rounds": list(self.rounds),
            "tallies": [t.as_list() for t in self.tallies],
            "verdicts": list(self.verdicts),
            "played": self.played,
            "spent": self.spent,
        }

    @classmethod
    def restore(cls, data: dict) -> "Race":
        race = cls(data["candidates"], data["budget"], rounds=tuple(data["rounds"]))
        race.tallies = [Tally(*values) for values in data["tallies"]]
        race.verdicts = list(data["verdicts"])
        race.played, race.spent = data["played"], data["spent"]
        return race


def run(race: Race, play_round) -> Race:
    """Drive a race to its end; `play_round(first, games, candidates)` returns
    {candidate: Tally} of the paired differences of games first..first+games-1."""
    while (step := race.next_round()) is not None:
        race.record(play_round(*step))
    race.finish()
    return race


def fixed_games(race: Race) -> int:
    """The candidate games a fixed design needs for the same decisions: every candidate
    plays as many games as the longest-raced one did (the baseline racing is measured
    against, bench/RESULTS.md)."""
    return race.candidates * max((t.games for t in race.tallies), default=0)
