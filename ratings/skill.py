"""The rating method, pure (no Django): openskill's Plackett-Luce model (Weng and Lin, 2011),
the display number shown to people and the named levels (docs/ratings.md).

A person's skill is a normal belief N(mu, sigma^2). The number people see is conservative:
it rises as a person's sigma shrinks with games played, so a newcomer does not top the
leaderboard after one lucky win:

    number = round(NUMBER_BASE + NUMBER_SCALE * (mu - 3 * sigma))

`mu - 3 sigma` is openskill's `ordinal()`. With the model's defaults (mu 25, sigma 25/3) a
newcomer's ordinal is 0, so a newcomer shows 1100; a simulated population of average players
settles near ordinal 16-17 after a hundred games (sigma ~2.8), i.e. near 1500.
"""

from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # the library's published defaults: mu 25, sigma 25/3, beta 25/6
NUMBER_BASE = 1100
NUMBER_SCALE = 25
PROVISIONAL_GAMES = 10  # a person's number is provisional until this many rated games


@dataclass(frozen=True)
class Skill:
    """A person's belief about their skill in one season."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma


NEWCOMER = Skill()


def display_number(mu: float, sigma: float) -> int:
    """The conservative number people see (the module's formula)."""
    return round(NUMBER_BASE + NUMBER_SCALE * (mu - 3 * sigma))


DEFAULT_NUMBER = display_number(NEWCOMER.mu, NEWCOMER.sigma)  # 1100: a person never rated


@dataclass(frozen=True)
class Level:
    """A named band of display numbers, from `floor` up to the next level's floor. The names
    are the ship sizes of the game (R 4.1: scout, fighter, cruiser, destroyer) and the flagship
    above them; the words themselves live in ratings/levels.py (translated)."""

    key: str
    floor: int


LEVELS = (  # lowest first; thresholds on the display number
    Level("scout", -(10**9)),
    Level("fighter", 1300),
    Level("cruiser", 1500),
    Level("destroyer", 1700),
    Level("flagship", 1900),
)


def level_for(number: int) -> Level:
    """The level whose band holds `number`."""
    found = LEVELS[0]
    for level in LEVELS:
        if number >= level.floor:
            found = level
    return found


def rate_ranking(skills: list[Skill], places: list[int]) -> list[Skill]:
    """The new skills of the players of one game. `places[i]` is player i's finishing place,
    1 best; equal places are a draw between them. Each player is a team of one."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=list(places))
    return [Skill(team[0].mu, team[0].sigma) for team in rated]
