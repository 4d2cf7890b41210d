"""The archetypes refreshed from the stored decklists (clustering.py says how they are
found): `refresh()` replaces every Archetype, each list's place in one (tournament lists:
DecklistRace.archetype; decks' versions: DeckArchetype) and the matchups between them.

Run when the lists change: after a finished event (tasks.event_finished), by
`manage.py refresh_archetypes` and by `manage.py rebuild_stats`; never per page view.

Privacy: only public lists (a public deck's newest version; a tournament list whose deck
is public, or that came from no saved deck, as finished events publish their lists) are
clustered, so only they shape an archetype's typical list and name. A private deck's list
is then placed by its nearest archetype and counted there, nothing more.
"""

from collections import Counter, defaultdict
from dataclasses import dataclass

from django.db import transaction

from decks.models import DeckVersion
from tournaments.models import Registration, Tournament

from . import clustering
from .catalogue import card_races
from .models import Archetype, ArchetypeMatchupTally, DeckArchetype, DecklistRace, SeatResult


@dataclass
class _List:
    """A decklist as the refresh sees it; `key`: ("entry", registration id) or
    ("deck", deck id, version number); `counted`: a list the shares count (a tournament
    list, a deck's newest version), not an older version only placed for its games."""

    key: tuple
    cards: dict[str, int]
    public: bool
    counted: bool
    pair: tuple[str, ...] = ()
    label: int | None = None


def refresh() -> int:
    """Find the archetypes again and place every list; returns how many there are."""
    lists = _read_lists()
    races = card_races({code for item in lists for code in item.cards})
    by_pair: dict[tuple, list[_List]] = defaultdict(list)
    for item in lists:
        item.pair = clustering.race_pair(item.cards, races)
        by_pair[item.pair].append(item)
    rows: list[tuple[tuple, int, list, list]] = []  # (pair, label, members' cards, typical)
    for pair in sorted(by_pair):
        rows += _pair_archetypes(by_pair[pair])
    with transaction.atomic():
        Archetype.objects.all().delete()  # cascades: DeckArchetype, ArchetypeMatchupTally
        made = _store(rows, lists, races)
        _store_places(lists, made)
        _store_matchups()
    return len(made)


def _read_lists() -> list[_List]:
    entries = Registration.objects.filter(bot="").order_by("pk")
    # an event's lists are published when it finishes (tournaments' decklist_visible): until
    # then, as a private deck's, they are counted and placed, never shown in a typical list
    rows = entries.values_list("pk", "cards", "deck__is_public", "tournament__status")
    lists = [
        _List(("entry", pk), dict(map(tuple, cards)), shown is not False and done, True)
        for pk, cards, shown, done in (
            (pk, cards, shown, status == Tournament.FINISHED) for pk, cards, shown, status in rows
        )
    ]
    versions = DeckVersion.objects.order_by("deck_id", "-number")
    newest = None
    for deck, number, cards, public in versions.values_list(
        "deck_id", "number", "cards", "deck__is_public"
    ):
        counted = deck != newest
        newest = deck
        lists.append(_List(("deck", deck, number), dict(map(tuple, cards)), public, counted))
    return lists


def _pair_archetypes(lists: list[_List]) -> list[tuple]:
    """Cluster a pair's public lists, place the rest by the nearest archetype; the pair's
    archetypes as (pair, label, members' cards, typical list)."""
    public = [item for item in lists if item.public and item.counted]
    for item, label in zip(public, clustering.cluster([i.cards for i in public]), strict=True):
        item.label = label
    members: dict[int, list[dict]] = defaultdict(list)
    for item in public:
        members[item.label].append(item.cards)
    centroids = {
        label: clustering.centroid(cards)
        for label, cards in members.items()
        if label != clustering.OTHER
    }
    unplaced = [item for item in lists if item.label is None]
    for item, found in zip(
        unplaced, clustering.nearest([i.cards for i in unplaced], centroids), strict=True
    ):
        item.label = clustering.OTHER if found is None else found
    labels = sorted(
        {item.label for item in lists}, key=lambda label: (label == clustering.OTHER, label)
    )
    return [(lists[0].pair, label, members.get(label, [])) for label in labels]


def _store(rows: list[tuple], lists: list[_List], races: dict) -> dict[tuple, Archetype]:
    counted: dict[tuple, int] = defaultdict(int)
    for item in lists:
        counted[(item.pair, item.label)] += item.counted
    public_by_pair: dict[tuple, list[dict]] = defaultdict(list)
    for pair, _label, cards in rows:
        public_by_pair[pair] += cards
    made = {}
    for pair, label, cards in rows:
        typical = clustering.typical_list(cards) if cards else []
        other = label == clustering.OTHER
        made[(pair, label)] = Archetype(
            races="+".join(_by_copies(pair, typical, races)),
            rank=len([key for key in made if key[0] == pair]),
            other=other,
            signature=[] if other else clustering.signature(typical, public_by_pair[pair]),
            typical=[list(row) for row in typical],
            lists=counted[(pair, label)],
        )
    Archetype.objects.bulk_create(made.values())
    return made


def _store_places(lists: list[_List], made: dict[tuple, Archetype]) -> None:
    entries: dict[int, list[int]] = defaultdict(list)  # archetype -> its registrations
    for item in lists:
        if item.key[0] == "entry":
            entries[made[(item.pair, item.label)].pk].append(item.key[1])
    for archetype, registrations in entries.items():  # one UPDATE an archetype
        DecklistRace.objects.filter(registration_id__in=registrations).update(archetype=archetype)
    DeckArchetype.objects.bulk_create(
        [
            DeckArchetype(
                deck_id=item.key[1], version=item.key[2], archetype=made[(item.pair, item.label)]
            )
            for item in lists
            if item.key[0] == "deck"
        ],
        batch_size=5000,
    )


def _store_matchups() -> None:
    """Each counted game whose two seats played a placed deck version: a game of the one's
    archetype against the other's, by month and people's or bots' games."""
    places = {
        (deck, version): archetype
        for deck, version, archetype in DeckArchetype.objects.values_list(
            "deck_id", "version", "archetype_id"
        )
    }
    seats = SeatResult.objects.filter(deck__isnull=False).order_by("match_id", "seat")
    rows = seats.values_list("match_id", "deck_id", "deck_version", "won", "bots", "finished")
    tally: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    previous = None
    for row in rows.iterator(chunk_size=5000):
        if previous is not None and previous[0] == row[0]:
            first, second = places.get(previous[1:3]), places.get(row[1:3])
            if first is not None and second is not None:
                month = row[5].date().replace(day=1)
                for mine, theirs, won in ((first, second, previous[3]), (second, first, row[3])):
                    counts = tally[(month, mine, theirs, row[4])]
                    counts[0] += 1
                    counts[1] += int(won)
        previous = row
    ArchetypeMatchupTally.objects.bulk_create(
        [
            ArchetypeMatchupTally(
                month=month, archetype_id=a, opponent_id=b, bots=bots, games=g, wins=w
            )
            for (month, a, b, bots), (g, w) in tally.items()
        ],
        batch_size=5000,
    )


def _by_copies(pair: tuple[str, ...], typical: list, races: dict[str, str]) -> tuple[str, ...]:
    """The pair with the race its typical list plays most first (a Zarg list splashing
    Xeno reads "Zarg–Xeno"); alphabetical when its typical list tells nothing."""
    copies: Counter = Counter()
    for code, count, _share in typical:
        copies[races.get(code, "")] += count
    return tuple(sorted(pair, key=lambda race: (-copies[race], race)))
