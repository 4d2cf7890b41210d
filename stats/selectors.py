"""The statistics pages' read models: stored figures (models.py) in, rows for templates
out. Nothing here counts games: recording.py did that as the games ended."""

import datetime
from collections import Counter, defaultdict
from dataclasses import dataclass

from django.db import connection
from django.db.models import Avg, Count, Max, Q, Sum
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from cardgame.language import is_english
from cards_data.models import Card
from decklab.models import LabRun
from decklab.selectors import visible_runs
from decks.models import DeckCard
from decks.problems import race_name
from engine.catalog import RACES
from tournaments.models import Tournament

from .charts import LineChart, line_chart
from .figures import Rate, shares, weighted_shares
from .models import (
    Archetype,
    ArchetypeMatchupTally,
    CardBeside,
    CardTally,
    DeckArchetype,
    DecklistCard,
    DecklistRace,
    EventReport,
    MatchupTally,
    SeatResult,
)
from .reports import store_event_report

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


def _event_lists(period: Period):
    return DecklistRace.objects.filter(
        tournament__status=Tournament.FINISHED,
        tournament__date__gte=period.start,
        tournament__date__lt=period.end_day,
    )


def _weighted(period: Period, key: str) -> tuple[dict, Counter]:
    """Shares of `key` (race, archetype) in the lists of the events finished in the period,
    each event weighted by its players (figures.weighted_shares), and the lists' counts."""
    by_event: dict[int, dict] = defaultdict(dict)
    counts: Counter = Counter()
    grouped = _event_lists(period).order_by().values_list("tournament", key)
    for event, value, n in _plain_rows(grouped.annotate(n=Count("id"))):
        by_event[event][value] = n
        counts[value] += n
    events = by_event.values()
    return weighted_shares((sum(c.values()), c) for c in events), counts


def _plain_rows(query) -> list[tuple]:
    """A values_list query's rows straight from the cursor: an event a row per race or
    archetype is thousands of rows on a busy year, and Django's per-row converters (ints
    and strings that need none) cost more than the query (bench/RESULTS.md)."""
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def tournament_shares(period: Period) -> list[Share]:
    """Each race's part of the decklists of the events finished in the period, weighted by
    the events' players. A private deck's list counts here as its race only."""
    return _ranked(*_weighted(period, "race"))


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


def _beside(card: Card, decks: int) -> list[dict]:
    """The cards most public decks that play `card` also play, as last refreshed
    (beside.refresh_beside; private lists never count)."""
    if not decks:
        return []
    rows = list(CardBeside.objects.filter(code=card.code).order_by("-decks", "other"))
    names = _card_names(row.other for row in rows)
    return [
        {
            "card__code": row.other,
            "name": names.get(row.other, row.other),
            "decks": row.decks,
            "copies": row.copies,
            "share": min(1.0, row.decks / decks),
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


ARCHETYPE_SEPARATOR = "–"


@dataclass(frozen=True)
class ArchetypeRow:
    """An archetype as people read it. `typical`: (code, copies, name, share of its lists
    that play the card); `share`: its part of every list placed (tournament lists and
    decks, public and private) or, on the metagame, of the period's weighted lists."""

    id: int | None
    races: tuple[str, ...]
    name: str
    typical: tuple[tuple[str, int, str, float], ...]
    lists: int
    share: float

    @property
    def race(self) -> str:
        """The first race of its pair (the colour it is drawn in)."""
        return self.races[0] if self.races else ""


def _card_names(codes) -> dict[str, str]:
    english = is_english()
    rows = Card.objects.filter(code__in=set(codes)).values_list("code", "name", "name_en")
    return {code: (name_en if english else name) for code, name, name_en in rows}


def races_label(races: tuple[str, ...]) -> str:
    """A race pair as people read it ("Zarg–Xeno"); raceless lists: "Raceless"."""
    if not races:
        return str(_("Raceless"))
    return ARCHETYPE_SEPARATOR.join(race_name(race) for race in races)


def archetype_name(races: tuple[str, ...], signature, other: bool, names: dict) -> str:
    """Its race pair and its most characteristic cards ("Zarg–Xeno: Vörös hajó, ...");
    a pair's lists in no archetype of their own: "Zarg–Xeno: other lists"."""
    pair = races_label(races)
    if other:
        return str(_("%(races)s: other lists") % {"races": pair})
    cards = ", ".join(names.get(code, code) for code in signature)
    return f"{pair}: {cards}" if cards else pair


def _pair(races: str) -> tuple[str, ...]:
    return tuple(races.split("+")) if races else ()


def _rows(archetypes: list[Archetype], share) -> list[ArchetypeRow]:
    codes = [c for a in archetypes for c in a.signature] + [
        row[0] for a in archetypes for row in a.typical
    ]
    names = _card_names(codes)
    pairs = {a.pk: _pair(a.races) for a in archetypes}
    return [
        ArchetypeRow(
            id=a.pk,
            races=pairs[a.pk],
            name=archetype_name(pairs[a.pk], a.signature, a.other, names),
            typical=tuple((c, n, names.get(c, c), f) for c, n, f in a.typical),
            lists=a.lists,
            share=share(a),
        )
        for a in archetypes
    ]


def archetypes() -> list[ArchetypeRow]:
    """Every archetype (most lists first) with its name, race pair, typical list and its
    share of all the lists placed. Read by the metagame page and by deck advice (issue
    39) for its gauntlet and its candidates."""
    found = list(Archetype.objects.all())
    total = sum(a.lists for a in found)
    return _rows(found, lambda a: a.lists / total if total else 0.0)


def archetype_generation() -> str:
    """Which refresh the stored archetypes come from: the metagame caches what depends
    only on them (their shares, their matchups) under this key, so a refresh, and only a
    refresh, changes what it shows (one small query where the two took most of the page)."""
    found = Archetype.objects.aggregate(last=Max("found"), n=Count("id"))
    return f"{found['last'].timestamp() if found['last'] else 0}-{found['n']}"


ARCHETYPES_SHOWN = 12  # the metagame's archetypes: the most played of the period
MATRIX_ARCHETYPES = 8  # the archetype matchup matrix: the most played in the period's games


def archetype_shares(period: Period) -> list[ArchetypeRow]:
    """The archetypes of the period's finished events' lists, weighted by the events'
    players, most played first."""
    fractions, counts = _weighted(period, "archetype")
    found = Archetype.objects.filter(pk__in=[pk for pk in fractions if pk is not None])
    rows = _rows(list(found), lambda a: fractions.get(a.pk, 0.0))
    return sorted(rows, key=lambda row: (-row.share, row.name))[:ARCHETYPES_SHOWN]


def archetype_matrix(period: Period) -> tuple[list[ArchetypeRow], list[tuple]]:
    """The most played archetypes in the period's games (MATRIX_ARCHETYPES) and, row by
    row, each one's record against each."""
    tallies = ArchetypeMatchupTally.objects.filter(
        month__gte=period.start, month__lte=period.end, bots=period.bots
    )
    played = dict(
        tallies.values("archetype").annotate(n=Sum("games")).values_list("archetype", "n")
    )
    top = [pk for pk, _n in sorted(played.items(), key=lambda kv: (-kv[1], kv[0]))]
    top = top[:MATRIX_ARCHETYPES]
    among = tallies.filter(archetype__in=top, opponent__in=top).values("archetype", "opponent")
    totals = among.annotate(games=Sum("games"), wins=Sum("wins"))
    rates = {(t["archetype"], t["opponent"]): Rate(t["wins"], t["games"]) for t in totals}
    found = {a.pk: a for a in Archetype.objects.filter(pk__in=top)}
    total = sum(played.values())
    rows = _rows([found[pk] for pk in top if pk in found], lambda a: played[a.pk] / total)
    matrix = [
        (a, [Cell(str(a.id), str(b.id), rates.get((a.id, b.id), Rate(0, 0))) for b in rows])
        for a in rows
    ]
    return rows, matrix


def deck_archetype(deck) -> ArchetypeRow | None:
    """The archetype of the deck's newest version, if the last refresh placed it."""
    newest = deck.versions.order_by("-number").values_list("number", flat=True).first()
    placed = DeckArchetype.objects.filter(deck=deck, version=newest).select_related("archetype")
    found = placed.first()
    if found is None:
        return None
    return _rows([found.archetype], lambda a: 0.0)[0]


def lab_figure(card: Card, user) -> dict | None:
    """The deck lab's simulated win rate of the decks with this card, summed over the
    finished runs of the decks this person may see (their newest run a deck): None when
    no such run exists. Bots against the reference colonies, not people: shown beside
    the real figures, never mixed with them."""
    runs = visible_runs(user).filter(status=LabRun.DONE).order_by("deck_id", "-finished", "-pk")
    wins = games = decks = 0
    seen = set()
    for run in runs.prefetch_related("chunks"):
        if run.deck_id in seen or card.code not in {code for code, _n in run.colony}:
            continue
        seen.add(run.deck_id)
        decks += 1
        for chunk in run.chunks.all():
            wins += chunk.play_wins + chunk.draw_wins
            games += chunk.play_games + chunk.draw_games
    if not decks:
        return None
    return {"rate": Rate(wins, games), "decks": decks}


def trend_chart(period: Period) -> LineChart:
    """Each race's share of the colonies played, month by month, as a line chart."""
    trend = online_trend(period)
    races = sorted({row.race for _month, rows in trend for row in rows})
    series = {  # a month without games is no point of any line (not a fall to 0 %)
        race: [
            next((r.share for r in rows if r.race == race), 0.0) if rows else None
            for _m, rows in trend
        ]
        for race in races
    }
    labels = {race: (race_name(race) if race else "—") for race in races}
    return line_chart([month for month, _rows in trend], series, labels)


def event_report(event: Tournament) -> dict:
    """A finished event's stored report, read for its page: shares by race and by
    archetype with their conversion to the top four, the winning list with its cards'
    names. An event finished before reports were kept gets its report stored now."""
    stored = EventReport.objects.filter(tournament=event).first() or store_event_report(event)
    data = stored.data
    lists = data["lists"] or 1
    races = [Conversion(Share(race, n / lists, n), top) for race, n, top in data["races"]]
    described = [row["archetype"] for row in data["archetypes"] if row["archetype"]]
    winner = data["winner"]
    codes = [c for d in described for c in d["signature"]]
    codes += [code for code, _n in winner["cards"]] if winner else []
    names = _card_names(codes)
    kinds = [
        Conversion(
            Share(
                _pair(d["races"])[0] if d and d["races"] else "", row["lists"] / lists, row["lists"]
            ),
            row["top"],
            archetype_name(_pair(d["races"]), d["signature"], d["other"], names)
            if d
            else str(_("Not placed")),
        )
        for row in data["archetypes"]
        for d in [row["archetype"]]
    ]
    if winner:
        winner = {
            **winner,
            "race_name": race_name(winner["race"]) if winner["race"] else "—",
            "cards": [(n, code, names.get(code, code)) for code, n in winner["cards"]],
        }
    return {"lists": data["lists"], "races": races, "archetypes": kinds, "winner": winner}


@dataclass(frozen=True)
class Conversion:
    """A race's or an archetype's lists in an event and how many made the top four."""

    share: Share
    top: int
    label: str = ""

    @property
    def name(self) -> str:
        return self.label or self.share.name

    @property
    def rate(self) -> float:
        return self.top / self.share.count if self.share.count else 0.0


def report_description(report: dict) -> str:
    """One sentence for a shared link's preview: the lists, the winner, the top race."""
    parts = [
        ngettext("%(n)s decklist", "%(n)s decklists", report["lists"]) % {"n": report["lists"]}
    ]
    if report["winner"]:
        parts.append(gettext("won by %(player)s") % {"player": report["winner"]["player"]})
    if report["races"]:
        top = report["races"][0]
        parts.append(
            gettext("most played: %(race)s (%(share)s%%)")
            % {"race": top.name, "share": round(top.share.share * 100)}
        )
    return ", ".join(parts) + "."
