"""Reads of an event's final order (R 18.3, R 18.6): the order the cut and the Swiss
placings use, who enters the playoff, and the places the event decided."""

from __future__ import annotations

import hashlib

from . import standings as standings_mod
from .models import Registration, TableSet, Tournament
from .standings_query import current_standings


def draw_key(t: Tournament, reg_id) -> str:
    return hashlib.sha256(f"{t.seed}:cut:{reg_id}".encode()).hexdigest()


def final_order(t: Tournament) -> list[standings_mod.Row]:
    """The active players' standings in the order the cut and Swiss placings use.

    Players equal on points, OMW%, GW% and OGW% are ordered by a draw seeded with the
    event's seed (docs/rulings.md "Ties at the cut"; `cut_tie_draw` off: registration
    order, as the standings page lists them)."""
    rows = [row for row in current_standings(t) if not row.dropped]
    if t.cut_tie_draw:
        rows.sort(key=lambda r: (-r.points, -r.omw, -r.gwp, -r.ogw, draw_key(t, r.id)))
    return rows


def cut_order(t: Tournament) -> list[standings_mod.Row]:
    """`final_order` less the players who have met no opponent (a late entrant with
    missed rounds or a bye only): they never enter the playoff (issue 35;
    docs/rulings.md "Ties at the cut")."""
    return [row for row in final_order(t) if row.opponents]


def playoff_size(active: int) -> int:
    """Top four (R 18.3); with only two or three active players, a final of the top two."""
    return 4 if active >= 4 else 2 if active >= 2 else 0


def by_seed(regs):
    return sorted(regs, key=lambda r: r.playoff_seed or 99)


def placings(t: Tournament) -> list[Registration]:
    """1st, 2nd, 3rd (R 18.6): from the final (3rd: the third-place winner, else the
    higher-seeded semi-final loser, else seed 3 of a top-two playoff); after a Swiss-only
    finish, the final standings' active players. Fewer players, fewer places; a
    disqualified player has none."""
    final = (
        t.matches.filter(stage="final", status=TableSet.CONFIRMED)
        .select_related("player_a__player", "player_b__player")
        .first()
    )
    if final is None:
        if t.status != Tournament.FINISHED or t.matches.filter(round__isnull=True).exists():
            return []
        regs = {r.pk: r for r in t.registrations.select_related("player")}
        return [regs[row.id] for row in final_order(t)[:3]]
    first = final.winner
    second = final.player_b if first == final.player_a else final.player_a
    third_match = t.matches.filter(stage="third", status=TableSet.CONFIRMED).first()
    semis = list(t.matches.filter(stage="semi").select_related("player_a", "player_b"))
    if third_match is not None:
        third = third_match.winner
    elif semis:
        third = by_seed([m.player_b if m.winner == m.player_a else m.player_a for m in semis])[0]
    else:
        third = t.registrations.filter(playoff_seed=3).select_related("player").first()
    # a disqualified player is left out and those below move up (MTR; rulings "Penalties")
    return [reg for reg in (first, second, third) if reg is not None and not reg.disqualified]


def decided_placings(t: Tournament) -> list[Registration]:
    """Every place the playoff decided (issue 35: a top four decides four): the placings
    (R 18.6), then the other semi-final loser (4th). A Swiss-only finish: the placings."""
    placed = placings(t)
    if not placed:
        return []
    semis = t.matches.filter(stage="semi", status=TableSet.CONFIRMED).select_related(
        "player_a__player", "player_b__player"
    )
    losers = by_seed([m.player_b if m.winner == m.player_a else m.player_a for m in semis])
    ids = {reg.pk for reg in placed}
    for reg in losers:
        if reg.pk not in ids and not reg.disqualified:
            placed.append(reg)
            ids.add(reg.pk)
    return placed
