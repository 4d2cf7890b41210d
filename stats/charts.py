"""Line charts drawn on the server as SVG (the metagame's trends): the geometry here, the
drawing in templates/stats/_line_chart.html. No script: a chart is readable printed and
on a phone, where the SVG scales to the screen's width (CHART_WIDTH units across about
360 px on a 390 px phone, so a label of LABEL_SIZE units stays about 11 px high)."""

import datetime
from dataclasses import dataclass

from django.utils.formats import date_format
from django.utils.translation import pgettext

CHART_WIDTH, CHART_HEIGHT = 360, 200
LEFT, RIGHT, TOP, BOTTOM = 34, 8, 10, 26  # room for the axes' labels
LABEL_SIZE = 11
MONTH_LABELS = 4  # at most this many month labels: each needs ~60 units at LABEL_SIZE


@dataclass(frozen=True)
class Line:
    key: str
    label: str
    points: str  # "x,y x,y ..." for <polyline>
    dots: list[tuple[float, float]]  # a dot a month: a lone month is still seen


@dataclass(frozen=True)
class LineChart:
    width: int
    height: int
    left: float
    right: float
    bottom: float
    lines: list[Line]
    y_ticks: list[tuple[float, str]]  # (y, "50%")
    x_ticks: list[tuple[float, str, str]]  # (x, "2026. nov.", its SVG text-anchor)
    label_size: int = LABEL_SIZE

    @property
    def empty(self) -> bool:
        return not self.lines


def month_label(month: datetime.date) -> str:
    """A month on an axis, short and localised: "Nov 2026", "2026. nov."."""
    return date_format(month, pgettext("a month on a chart's axis (Django date format)", "M Y"))


def line_chart(
    months: list[datetime.date], series: dict[str, list[float | None]], labels: dict[str, str]
) -> LineChart:
    """Shares (0-1) by month, one line per key, on a 0-100 % axis; a None is no point
    (a month without games: the line joins the months around it)."""
    plot_w = CHART_WIDTH - LEFT - RIGHT
    plot_h = CHART_HEIGHT - TOP - BOTTOM
    step = plot_w / (len(months) - 1) if len(months) > 1 else 0

    def x(i):
        return round(LEFT + (i * step if step else plot_w / 2), 1)

    def y(value):
        return round(TOP + plot_h * (1 - value), 1)

    lines = []
    for key, values in series.items():
        points = [(x(i), y(v)) for i, v in enumerate(values) if v is not None]
        drawn = " ".join(f"{a:g},{b:g}" for a, b in points)
        lines.append(Line(key, labels[key], drawn, [(f"{a:g}", f"{b:g}") for a, b in points]))
    every = max(1, -(-len(months) // MONTH_LABELS))
    x_ticks = [
        (x(i), month_label(m), _anchor(i, len(months)))
        for i, m in enumerate(months)
        if i % every == 0
    ]
    y_ticks = [(y(v), f"{round(v * 100)}%") for v in (0, 0.25, 0.5, 0.75, 1)]
    return LineChart(
        CHART_WIDTH, CHART_HEIGHT, LEFT, CHART_WIDTH - RIGHT, TOP + plot_h, lines, y_ticks, x_ticks
    )


def _anchor(index: int, count: int) -> str:
    """A month label's anchor: the label at the plot's right edge ends there, so it does
    not run past the chart (and off a phone's screen); the others are centred on their
    month (the first has the y axis's labels' room to its left)."""
    return "end" if count > 1 and index == count - 1 else "middle"
