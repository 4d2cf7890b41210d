"""How a figure reads on the statistics pages: a share, a rate with its interval and its
sample (greyed out below figures.MIN_SAMPLE), a difference in points."""

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext

from stats.figures import Rate

register = template.Library()


@register.filter
def percent(value) -> str:
    """0.537 -> "54%"; "—" for no value."""
    if value is None:
        return "—"
    return f"{round(value * 100)}%"


@register.filter
def width(value) -> str:
    """A share as a bar's CSS width ("53.7"), never localised (a comma breaks CSS)."""
    return f"{(value or 0) * 100:.1f}"


@register.filter
def points(value) -> str:
    """A difference of two rates in percentage points, signed ("+5", "−3")."""
    if value is None:
        return "—"
    shown = round(value * 100)
    sign = "+" if shown > 0 else "−" if shown < 0 else "±"
    return gettext("%(sign)s%(points)s points") % {"sign": sign, "points": abs(shown)}


@register.filter
def points_from(figure: Rate, baseline: Rate) -> str:
    """How far a rate is from its baseline, in points."""
    return points(figure.minus(baseline))


@register.simple_tag
def rate(figure: Rate):
    """A rate, its 95 % interval and its sample; greyed out when the sample is small."""
    games = ngettext("%(games)s game", "%(games)s games", figure.games) % {"games": figure.games}
    if not figure.games:
        return format_html('<span class="rate thin">—</span> <small>{}</small>', games)
    low, high = figure.interval
    interval = gettext("95%% interval: %(low)s–%(high)s") % {
        "low": percent(low),
        "high": percent(high),
    }
    return format_html(
        '<span class="rate{}" title="{}">{}</span> <small>{} · {}</small>',
        "" if figure.enough else " thin",
        interval,
        percent(figure.value),
        f"{percent(low)}–{percent(high)}",
        games,
    )
