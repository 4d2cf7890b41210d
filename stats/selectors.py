"""The statistics pages' read models: stored figures (models.py) in, rows for templates
out. Nothing here counts games: recording.py did that as the games ended."""

import datetime
from collections import Counter, defaultdict
from dataclasses import dataclass

from django.db.models import Avg, Count, Q, Sum
from django.utils.translation import gettext_lazy as _

from cardgame.language import is_english
from cards_data.models import Card
from decks.models import DeckCard
from decks.problems import race_name
from engine.catalog import RACES
from tournaments.models import Tournament
from tournaments.selectors import final_places

from .catalogue import card_races, list_race
from .figures import Rate, shares, weighted_shares
from .models import CardTally, DecklistCard, DecklistRace, MatchupTally, SeatResult

SOURCES = {SeatResult.ONLINE: _("online"), SeatResult.TOURNAMENT: _("tournament")}
PERIOD_MONTHS = 12  # the metagame's default period: the last twelve months


@dataclass(frozen=True)
class Period:
    """Whole months from `start` to `end` (first days), and which games: people's only
    (bots False) or the games a bot played in (bots True), never the two mixed."""

    start: datetime.date
    end: datetime.date
    bots: bool = False

    @property
    def months(self) -> list[datetime.date]:
        months, month = [], self.start
        while month <= self.end:
            months.append(month)
            month = _next_month(month)
        return months

    @property
    def end_day(self) -> datetime.date:
        """The first day after the period."""
        return _next_month(self.end)


def _next_month(month: datetime.date) -> datetime.date:
    return (month.replace(day=28) + datetime.timedelta(days=4)).replace(day=1)


def _month(value: str | None) -> datetime.date | None:
    try:
        return datetime.datetime.strptime(value or "", "%Y-%m").date()
    except ValueError:
        return None


def period_from(query, today: datetime.date) -> Period:
    """The period a page's query asks for (`from`, `to` as YYYY-MM, `bots` 1), the last
    PERIOD_MONTHS months when it asks for none or for an impossible one."""
    end = _month(query.get("to")) or today.replace(day=1)
    start = _month(query.get("from"))
    if start is None or start > end:
        start = end
        for _ in range(PERIOD_MONTHS - 1):
            start = (start - datetime.timedelta(days=1)).replace(day=1)
    return Period(start, end, query.get("bots") == "1")


@dataclass(frozen=True)
class Share:
    race: str
    share: float
    count: int = 0

    @property
    def name(self) -> str:
        return race_name(self.race) if self.race else "—"


def _ranked(fractions: dict[str, float], counts: dict[str, int]) -> list[Share]:
    rows = [Share(race, share, counts.get(race, 0)) for race, share in fractions.items()]
    return sorted(rows, key=lambda row: (-row.share, row.race))


def _tallies(period: Period):
    return MatchupTally.objects.filter(
        month__gte=period.start, month__lte=period.end, bots=period.bots
    )


def online_shares(period: Period) -> list[Share]:
    """Each race's part of the colonies played in the period's games (one per player)."""
    rows = _tallies(period).values("race").annotate(games=Sum("games"))
    counts = {row["race"]: row["games"] for row in rows}
    return _ranked(shares(counts), counts)


def online_trend(period: Period) -> list[tuple[datetime.date, list[Share]]]:
    """Month by month, each race's part of the colonies played that month."""
    by_month: dict[datetime.date, dict[str, int]] = defaultdict(dict)
    for row in _tallies(period).values("month", "race").annotate(games=Sum("games")):
        by_month[row["month"]][row["race"]] = row["games"]
    return [(month, _ranked(shares(by_month[month]), by_month[month])) for month in period.months]


def tournament_shares(period: Period) -> list[Share]:
    """Each race's part of the decklists of the events finished in the period, each event
    weighted by its players (figures.weighted_shares). A private deck's list counts here
    as its race only, and is never shown."""
    lists = DecklistRace.objects.filter(
        tournament__status=Tournament.FINISHED,
        tournament__date__gte=period.start,
        tournament__date__lt=period.end_day,
    )
    by_event: dict[int, Counter] = defaultdict(Counter)
    for row in lists.values("tournament", "race").annotate(n=Count("id")):
        by_event[row["tournament"]][row["race"]] = row["n"]
    counts = sum(by_event.values(), Counter())
    events = by_event.values()
    return _ranked(weighted_shares((sum(c.values()), c) for c in events), counts)


@dataclass(frozen=True)
class Cell:
    race: str
    opponent: str
    rate: Rate


def matchup_matrix(period: Period) -> tuple[list[Share], list[tuple[Share, list[Cell]]]]:
    """The races played (most played first) and, row by row, each one with its record
    against each (a mirror is always half: the page leaves it empty)."""
    tallied = _tallies(period).values("race", "opponent_race")
    totals = tallied.annotate(games=Sum("games"), wins=Sum("wins"))
    rates = {(t["race"], t["opponent_race"]): Rate(t["wins"], t["games"]) for t in totals}
    races = online_shares(period)
    rows = [
        (a, [Cell(a.race, b.race, rates.get((a.race, b.race), Rate(0, 0))) for b in races])
        for a in races
    ]
    return races, rows


@dataclass(frozen=True)
class CardFigures:
    public_decks: int
    public_copies: float | None
    event_lists: int
    event_copies: float | None
    beside: list[dict]
    baseline: Rate
    drawn: Rate
    opening: Rate


def card_figures(card: Card, bots: bool = False) -> CardFigures:
    in_public = DeckCard.objects.filter(card=card, deck__is_public=True)
    public = in_public.aggregate(decks=Count("id"), copies=Avg("count"))
    in_lists = DecklistCard.objects.filter(code=card.code)
    lists = in_lists.aggregate(lists=Count("id"), copies=Avg("count"))
    tally = CardTally.objects.filter(code=card.code, bots=bots).first() or CardTally()
    return CardFigures(
        public_decks=public["decks"],
        public_copies=public["copies"],
        event_lists=lists["lists"],
        event_copies=lists["copies"],
        beside=_beside(card, public["decks"]),
        baseline=Rate(tally.wins, tally.games),
        drawn=Rate(tally.drawn_wins, tally.drawn_games),
        opening=Rate(tally.opening_wins, tally.opening_games),
    )


BESIDE = 10  # the cards most often played beside a card, shown on its page


def _beside(card: Card, decks: int) -> list[dict]:
    """The cards most public decks that play `card` also play (private lists never count:
    what sits beside a card is a piece of the list)."""
    if not decks:
        return []
    with_card = DeckCard.objects.filter(card=card, deck__is_public=True).values("deck")
    rows = (
        DeckCard.objects.filter(deck__in=with_card)
        .exclude(card=card)
        .values("card__code", "card__name", "card__name_en")
        .annotate(decks=Count("deck"), copies=Avg("count"))
        .order_by("-decks", "card__code")[:BESIDE]
    )
    english = is_english()
    return [
        {
            **row,
            "share": row["decks"] / decks,
            "name": row["card__name_en" if english else "card__name"],
        }
        for row in rows
    ]


@dataclass(frozen=True)
class Record:
    key: tuple
    rate: Rate

    @property
    def names(self) -> list[str]:
        return [_label(part) for part in self.key]


def _label(part) -> str:
    """A record's key part as people read it: a version, where it was played, a race."""
    if part is None or part == "":
        return "—"
    if isinstance(part, int):
        return f"v{part}"
    if part in SOURCES:
        return str(SOURCES[part])
    return race_name(part) if part in RACES else str(part)


def _records(results, *fields) -> list[Record]:
    rows = results.values(*fields).annotate(games=Count("id"), wins=Count("id", filter=Q(won=True)))
    records = [
        Record(tuple(row[f] for f in fields), Rate(row["wins"], row["games"])) for row in rows
    ]
    return sorted(records, key=lambda r: (-r.rate.games, r.key))


def deck_records(deck, bots: bool = False) -> dict[str, list[Record]]:
    """A deck's record in real games: by version and source, and by version and opponent."""
    results = SeatResult.objects.filter(deck=deck, bots=bots)
    return {
        "versions": sorted(_records(results, "deck_version", "source"), key=_newest_first),
        "opponents": sorted(_records(results, "deck_version", "opponent_race"), key=_newest_first),
    }


def _newest_first(record: Record):
    version = record.key[0] or 0
    return (-version, -record.rate.games, record.key[1:])


def player_records(user, viewer, bots: bool = False) -> dict:
    """A player's record by deck, by race and by matchup. Another player's private deck
    is shown as such, without its name (its list was never stored here)."""
    results = SeatResult.objects.filter(user=user, bots=bots)
    by_deck = results.values("deck", "deck__name", "deck__is_public", "deck__owner")
    decks = by_deck.annotate(games=Count("id"), wins=Count("id", filter=Q(won=True)))
    deck_rows = [
        {
            "deck": row["deck"] if _shown(row, viewer) else None,
            "name": row["deck__name"] if _shown(row, viewer) else None,
            "rate": Rate(row["wins"], row["games"]),
        }
        for row in decks.order_by("-games", "deck")
    ]
    return {
        "decks": deck_rows,
        "races": _records(results, "race"),
        "matchups": _records(results, "race", "opponent_race"),
    }


def _shown(row: dict, viewer) -> bool:
    if row["deck"] is None:
        return False
    return row["deck__is_public"] or (viewer.is_authenticated and viewer.pk == row["deck__owner"])


TOP = 4  # an event report's conversion: to the top four (the playoff, R 18.6)


@dataclass(frozen=True)
class Conversion:
    share: Share
    top: int

    @property
    def rate(self) -> float:
        return self.top / self.share.count if self.share.count else 0.0


def event_report(event: Tournament) -> dict:
    """A finished event's metagame: each race's share of its lists, how many of them made
    the top four, and the winning list (a finished event's decklists are public,
    tournaments.selectors.decklist_visible). Read from the event's own lists: a few
    hundred rows at most."""
    entries = list(event.registrations.select_related("player").order_by("pk"))
    races = card_races(code for entry in entries for code, _n in entry.cards)
    places = final_places(event)
    lists, top = Counter(), Counter()
    winner = None
    for entry in entries:
        race = list_race(entry.cards, races)
        lists[race] += 1
        top[race] += places.get(entry.pk, TOP + 1) <= TOP
        if places.get(entry.pk) == 1:
            winner = (entry, race)
    rows = _ranked(shares(lists), lists)
    return {
        "shares": rows,
        "conversions": [Conversion(row, top[row.race]) for row in rows],
        "winner": winner and _winning_list(*winner),
    }


def _winning_list(entry, race: str) -> dict:
    names = Card.objects.filter(code__in=[code for code, _n in entry.cards])
    english = is_english()
    by_code = {c.code: (c.name_en if english else c.name) for c in names}
    cards = [(count, code, by_code.get(code, code)) for code, count in entry.cards]
    return {"entry": entry, "race": Share(race, 1.0), "cards": cards}
