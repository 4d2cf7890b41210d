"""The statistics' figures as pure functions (no Django): shares, weighted shares, rates
with their Wilson 95 % intervals. tests/stats/test_figures.py checks each against numbers
computed by hand.

Why Wilson and not the normal approximation: the samples here are often small (a rare
matchup, a card few decks play), and at n = 10 with 9 wins the normal interval reaches
past 100 % while Wilson's stays inside [0, 1] and keeps close to its nominal coverage.
"""

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

Z95 = 1.959963984540054  # the standard normal's 97.5th percentile: a two-sided 95 % interval
# Below this many games a rate is shown greyed out: its interval is wider than about
# +-20 points (Wilson at p = 0.5, n = 20: 0.30 to 0.70), too wide to tell a matchup apart.
MIN_SAMPLE = 20


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion wins/games; (0, 1) for no games."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Rate:
    """wins out of games, with its 95 % interval; `enough` when the sample is big enough to
    show in colour (MIN_SAMPLE)."""

    wins: int
    games: int

    @property
    def value(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def enough(self) -> bool:
        return self.games >= MIN_SAMPLE

    def minus(self, other: "Rate") -> float | None:
        """This rate less another (the card's rate when drawn less its decks' baseline)."""
        if self.value is None or other.value is None:
            return None
        return self.value - other.value


def shares(counts: Mapping[str, int]) -> dict[str, float]:
    """Each key's part of the total (0 for every key when the total is 0)."""
    total = sum(counts.values())
    return {key: (count / total if total else 0.0) for key, count in counts.items()}


def weighted_shares(events: Iterable[tuple[int, Mapping[str, int]]]) -> dict[str, float]:
    """Shares over several events, each event's own shares weighted by its size (players).

    `events`: (size, counts of its decklists by key). An event's decklists may be fewer
    than its players (a list missing, a late entry): its shares come from the lists it
    has, its weight from the players it had, so a big event with a few lists still counts
    as big, and a small event does not count as much as a big one (the plain mean of the
    events' shares would make a 4-player evening equal to a 64-player open).
    """
    totals: dict[str, float] = {}
    weight = 0
    for size, counts in events:
        if size <= 0 or not sum(counts.values()):
            continue
        weight += size
        for key, share in shares(counts).items():
            totals[key] = totals.get(key, 0.0) + size * share
    return {key: (total / weight if weight else 0.0) for key, total in totals.items()}


def primary_race(races_by_copy: Mapping[str, int]) -> str:
    """The race a colony counts under: the race with the most copies (ties: the first race
    in alphabetical order), "" for a colony of raceless cards only."""
    ranked = sorted((-count, race) for race, count in races_by_copy.items() if race and count)
    return ranked[0][1] if ranked else ""
