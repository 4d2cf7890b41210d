"""A finished event's report, stored as the event ends (tasks.event_finished, after the
archetypes were refreshed) and again by `rebuild_stats`: its lists' shares by race and
by archetype, each one's conversion to the top four, and the winning list.

The report keeps the archetypes as they were described then (race pair and signature
cards, not their ids, which the next refresh replaces), so it reads the same later.
A private deck's list is counted and never copied here: the winning list is kept only
when it is public (its deck public, or no saved deck: a finished event publishes the
lists typed at registration).
"""

from tournaments.models import Tournament
from tournaments.selectors import final_places

from .catalogue import card_races, list_race
from .models import DecklistRace, EventReport

TOP = 4  # an event report's conversion: to the top four (the playoff, R 18.6)


def store_event_report(event: Tournament) -> EventReport | None:
    """Store (or replace) a finished event's report; None for an unfinished event."""
    if event.status != Tournament.FINISHED:
        return None
    report, _new = EventReport.objects.update_or_create(
        tournament=event, defaults={"data": event_report_data(event)}
    )
    return report


def event_report_data(event: Tournament) -> dict:
    """The report's figures as JSON (a simulation's bot entries count nowhere)."""
    entries = list(
        event.registrations.filter(bot="").select_related("player", "deck").order_by("pk")
    )
    races = card_races(code for entry in entries for code, _n in entry.cards)
    archetypes = _archetypes_of(entries)
    places = final_places(event)
    by_race: dict[str, list[int]] = {}
    by_archetype: dict[str, dict] = {}
    winner = None
    for entry in entries:
        race = list_race(entry.cards, races)
        top = int(places.get(entry.pk, TOP + 1) <= TOP)
        _count(by_race.setdefault(race, [0, 0]), top)
        described = archetypes.get(entry.pk)
        key = _key(described)
        row = by_archetype.setdefault(key, {"archetype": described, "lists": 0, "top": 0})
        row["lists"] += 1
        row["top"] += top
        if places.get(entry.pk) == 1:
            winner = _winner(entry, race, described)
    return {
        "lists": len(entries),
        "races": sorted(
            ([race, n, top] for race, (n, top) in by_race.items()), key=lambda r: (-r[1], r[0])
        ),
        "archetypes": sorted(
            by_archetype.values(), key=lambda r: (-r["lists"], _key(r["archetype"]))
        ),
        "winner": winner,
    }


def _count(counts: list[int], top: int) -> None:
    counts[0] += 1
    counts[1] += top


def _key(described: dict | None) -> str:
    if described is None:
        return ""
    return f"{described['races']}/{','.join(described['signature'])}/{described['other']}"


def _archetypes_of(entries) -> dict[int, dict]:
    """registration id -> its archetype as described (race pair, signature, other)."""
    placed = DecklistRace.objects.filter(
        registration_id__in=[entry.pk for entry in entries], archetype__isnull=False
    ).select_related("archetype")
    return {
        row.registration_id: {
            "races": row.archetype.races,
            "signature": row.archetype.signature,
            "other": row.archetype.other,
        }
        for row in placed
    }


def _winner(entry, race: str, archetype: dict | None) -> dict:
    public = entry.deck is None or entry.deck.is_public
    return {
        "player": entry.name,
        "deck_name": entry.deck_name if public else "",
        "race": race,
        "archetype": archetype,
        "public": public,
        "cards": [list(pair) for pair in entry.cards] if public else [],
    }
