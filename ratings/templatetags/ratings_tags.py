"""The ratings app's parts of other apps' pages, as inclusion tags (the apps below it import
nothing of it): the lobby's "Rated game" choice and the player page's rating panel."""

from django import template

from .. import presentation, selectors

register = template.Library()


@register.inclusion_tag("ratings/_lobby_rated.html", takes_context=True)
def rated_choice(context):
    """The lobby's "Rated game" box, offered only to a person who opted in (the others get a
    link to the setting): matches' services refuse a rated game otherwise."""
    request = context.get("request")
    user = getattr(request, "user", None)
    posted = context.get("posted") or {}
    return {"opted_in": selectors.is_opted_in(user), "checked": posted.get("rated") == "1"}


@register.inclusion_tag("ratings/_player_rating.html", takes_context=True)
def rating_panel(context, person):
    """A person's level, number and history chart in the current season, on their page."""
    request = context.get("request")
    viewer = getattr(request, "user", None)
    is_me = bool(viewer and viewer.is_authenticated and viewer.pk == person.pk)
    season = selectors.current_season()
    rated = selectors.rating_of(person, season)
    changes = selectors.history(person, season) if rated is not None else []  # none unrated
    numbers = [changes[0].number_before, *(c.number_after for c in changes)] if changes else []
    return {
        "person": person,
        "is_me": is_me,
        "season": season,
        "rating": presentation.describe(rated),
        "chart": presentation.history_chart(numbers),
        "opted_in": selectors.is_opted_in(person),
    }
