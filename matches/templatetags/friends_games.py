"""The friends page's games (templates/social/friends.html, issue 37): what the people you
follow have open to join, and what they are playing to watch. A tag library of matches, so
the social app (below matches) needs no import of it."""

from django import template

from cardgame import bots
from decks.play import RULESET_LABELS
from matches import clocks, presentation, selectors
from matches.models import Match
from social.selectors import blocked_ids

register = template.Library()


@register.simple_tag(takes_context=True)
def friend_games(context, user_ids) -> dict:
    """{user id: [game, ...]}: each game a line for the page (players by name, ruleset,
    clock, whether to join or watch). Games with somebody the viewer blocks, or is blocked
    by, are left out: they could not join them anyway."""
    viewer = context["request"].user
    ids = set(user_ids)
    avoid = blocked_ids(viewer.pk) if viewer.is_authenticated else set()
    bot_names = bots.names()
    out: dict = {}
    for match in selectors.games_of_people(ids):
        seats = list(match.seats.all())
        seated = {s.user_id for s in seats if s.user_id}
        if seated & avoid:
            continue
        line = _line(match, seats, viewer, bot_names)
        for person in (seated | {match.created_by_id}) & ids:
            out.setdefault(person, []).append(line)
    return out


@register.inclusion_tag("matches/_friend_games.html")
def games_of(games: dict, user_id: int):
    return {"games": games.get(user_id, [])}


def _line(match, seats, viewer, bot_names) -> dict:
    players = [
        {**p, "name": presentation.seat_name(p, bot_names)} if p["bot"] else p
        for p in selectors.players_of(seats)
    ]
    mine = viewer.is_authenticated and any(s.user_id == viewer.pk for s in seats)
    return {
        "id": match.pk,
        "players": players,
        "ruleset_label": RULESET_LABELS.get(match.ruleset, match.ruleset),
        "seat_count": match.seat_count,
        "clock": clocks.describe(match),
        "join": match.status == Match.OPEN and not mine,
        "open": match.status == Match.OPEN,
    }
