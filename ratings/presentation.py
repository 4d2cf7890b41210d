"""What the ratings pages show: a level's name in the reader's language, a person's rating
as "a level and a number", and the geometry of the rating history chart (server-drawn SVG)."""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _lazy

from . import skill

# The levels are the game's ship sizes (docs/rules.md R 4.1: felderítő, vadászgép,
# cirkáló, romboló) with the flagship above them; thresholds in ratings/skill.py LEVELS.
LEVEL_NAMES = {
    "scout": _lazy("Scout"),
    "fighter": _lazy("Fighter"),
    "cruiser": _lazy("Cruiser"),
    "destroyer": _lazy("Destroyer"),
    "flagship": _lazy("Flagship"),
}


def level_name(number: int) -> str:
    return str(LEVEL_NAMES[skill.level_for(number).key])


def describe(rating) -> dict | None:
    """A Rating row as the pages show it; None for no row or no rated game yet."""
    if rating is None or rating.games == 0:
        return None
    return {
        "number": rating.number,
        "level": level_name(rating.number),
        "level_key": skill.level_for(rating.number).key,
        "games": rating.games,
        "provisional": rating.provisional,
        "provisional_games": skill.PROVISIONAL_GAMES,
    }


def levels_table() -> list[dict]:
    """Every level with its band (the leaderboard's key)."""
    rows = []
    for i, level in enumerate(skill.LEVELS):
        upper = skill.LEVELS[i + 1].floor - 1 if i + 1 < len(skill.LEVELS) else None
        lower = level.floor if i > 0 else None
        rows.append(
            {"key": level.key, "name": str(LEVEL_NAMES[level.key]), "low": lower, "high": upper}
        )
    return rows


# The chart's drawing box (SVG user units); the page scales it to its width, so on a phone's
# 350 px a unit is about one pixel and the 11-unit labels stay readable.
WIDTH, HEIGHT = 360, 180
LEFT, RIGHT, TOP, BOTTOM = 40, 10, 10, 24


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: str  # the polyline's "x,y x,y ..."
    dots: list  # (x, y, number) of each point
    gridlines: list  # (y, label) of the level thresholds and the ends of the range
    plot_left: int
    plot_right: int
    label_x: int  # where the gridlines' labels end (left of the plot)
    axis_y: int
    first_label: str
    last_label: str
    lowest: int
    highest: int
    games: int


def history_chart(numbers: list[int]) -> Chart | None:
    """The chart of a person's numbers: the one before their first rated game of the season,
    then the one after each game. None with no game."""
    if len(numbers) < 2:
        return None
    low, high = min(numbers), max(numbers)
    span = max(high - low, 100)  # a flat history still gets a readable scale
    middle = (low + high) / 2
    bottom_value, top_value = middle - span * 0.6, middle + span * 0.6
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    # coordinates as text here: a template would localise a float ("12,5" in Hungarian),
    # which is not an SVG number
    def x(i):
        return f"{LEFT + plot_w * i / (len(numbers) - 1):.1f}"

    def y(value):
        return f"{TOP + plot_h * (top_value - value) / (top_value - bottom_value):.1f}"

    dots = [(x(i), y(n), n) for i, n in enumerate(numbers)]
    gridlines = [
        (y(level.floor), f"{level.floor}")
        for level in skill.LEVELS[1:]
        if bottom_value < level.floor < top_value
    ]
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        points=" ".join(f"{px},{py}" for px, py, _ in dots),
        dots=dots if len(dots) <= 40 else [],
        gridlines=gridlines,
        plot_left=LEFT,
        plot_right=WIDTH - RIGHT,
        label_x=LEFT - 4,
        axis_y=HEIGHT - BOTTOM,
        first_label="1",
        last_label=str(len(numbers) - 1),
        lowest=low,
        highest=high,
        games=len(numbers) - 1,
    )
