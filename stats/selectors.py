"""The statistics pages' read models: stored figures (models.py) in, rows for templates
out. Nothing here counts games: recording.py did that as the games ended."""

import datetime
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace

from django.db import connection
from django.db.models import Avg, Count, Exists, F, Max, OuterRef, Q, Subquery, Sum, TextField
from django.db.models.functions import Cast
from django.utils import translation
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from cardgame.language import current_language
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
from .reports import event_report_data

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


def online_rows(period: Period) -> list[tuple]:
    """The period's games as (month, race, opponent's race, games, wins): read once for the
    metagame page, whose shares, trend and matrix are each a sum of them."""
    grouped = _tallies(period).order_by().values_list("month", "race", "opponent_race")
    return list(grouped.annotate(games=Sum("games"), wins=Sum("wins")))


def online_shares(period: Period, rows: list[tuple] | None = None) -> list[Share]:
    """Each race's part of the colonies played in the period's games (one per player)."""
    counts: Counter = Counter()
    for _month, race, _opponent, games, _wins in _or_read(rows, period):
        counts[race] += games
    return _ranked(shares(counts), counts)


def _or_read(rows: list[tuple] | None, period: Period) -> list[tuple]:
    return online_rows(period) if rows is None else rows


def online_trend(
    period: Period, rows: list[tuple] | None = None
) -> list[tuple[datetime.date, list[Share]]]:
    """Month by month, each race's part of the colonies played that month."""
    by_month: dict[datetime.date, Counter] = defaultdict(Counter)
    for month, race, _opponent, games, _wins in _or_read(rows, period):
        by_month[month][race] += games
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


def matchup_matrix(
    period: Period, rows: list[tuple] | None = None
) -> tuple[list[Share], list[tuple[Share, list[Cell]]]]:
    """The races played (most played first) and, row by row, each one with its record
    against each (a mirror is always half: the page leaves it empty)."""
    rows = _or_read(rows, period)
    games: Counter = Counter()
    wins: Counter = Counter()
    for _month, race, opponent, n, won in rows:
        games[(race, opponent)] += n
        wins[(race, opponent)] += won
    rates = {key: Rate(wins[key], n) for key, n in games.items()}
    races = online_shares(period, rows)
    matrix = [
        (a, [Cell(a.race, b.race, rates.get((a.race, b.race), Rate(0, 0))) for b in races])
        for a in races
    ]
    return races, matrix


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
    named = Card.objects.filter(code=OuterRef("other")).values(_name_field())[:1]
    beside = CardBeside.objects.filter(code=card.code).annotate(name=Subquery(named))
    rows = list(beside.order_by("-decks", "other"))  # their names in the same query
    return [
        {
            "card__code": row.other,
            "name": row.name or row.other,
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


def _grouped(results, *fields) -> list[tuple]:
    """(*fields, games, wins) of the results grouped by `fields`: one read a page, which
    _roll_up sums into each of the page's tables."""
    grouped = results.order_by().values_list(*fields)
    return list(grouped.annotate(games=Count("id"), wins=Count("id", filter=Q(won=True))))


def _roll_up(rows: list[tuple], *positions: int) -> list[Record]:
    """The grouped rows summed by the fields at `positions`, most games first."""
    games: Counter = Counter()
    wins: Counter = Counter()
    for row in rows:
        key = tuple(row[p] for p in positions)
        games[key] += row[-2]
        wins[key] += row[-1]
    records = [Record(key, Rate(wins[key], n)) for key, n in games.items()]
    return sorted(records, key=lambda r: (-r.rate.games, r.key))


def deck_records(deck, bots: bool = False) -> dict[str, list[Record]]:
    """A deck's record in real games: by version and source, and by version and opponent
    (both summed from one read of its results)."""
    results = SeatResult.objects.filter(deck=deck, bots=bots)
    rows = _grouped(results, "deck_version", "source", "opponent_race")
    return {
        "versions": sorted(_roll_up(rows, 0, 1), key=_newest_first),
        "opponents": sorted(_roll_up(rows, 0, 2), key=_newest_first),
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
    matchups = _grouped(results, "race", "opponent_race")  # the races: their sums
    return {
        "decks": deck_rows,
        "races": _roll_up(matchups, 0),
        "matchups": _roll_up(matchups, 0, 1),
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
    decks, public and private) or, on the metagame, of the period's weighted lists.
    `name` is in the active language, `names` in each of the site's ("hu", "en"): deck
    advice keeps both from one read (decklab.metagame.snapshot)."""

    id: int | None
    races: tuple[str, ...]
    name: str
    typical: tuple[tuple[str, int, str, float], ...]
    lists: int
    share: float
    names: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def race(self) -> str:
        """The first race of its pair (the colour it is drawn in)."""
        return self.races[0] if self.races else ""


def _name_field() -> str:
    """The Card column of a card's name in the active language."""
    return "name_en" if current_language() == "en" else "name"


def _card_names(codes) -> dict[str, str]:
    return _card_names_in(codes)[current_language()]


def _card_names_in(codes) -> dict[str, dict[str, str]]:
    """The cards' names in each of the site's languages: {"hu": {code: name}, "en": ...}."""
    rows = Card.objects.filter(code__in=set(codes)).values_list("code", "name", "name_en")
    return {
        "hu": {code: name for code, name, _en in rows},
        "en": {code: name_en for code, _name, name_en in rows},
    }


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
    names = _card_names_in(codes)
    active = current_language()
    pairs = {a.pk: _pair(a.races) for a in archetypes}
    named = {language: _names(archetypes, pairs, names, language) for language in names}
    return [
        ArchetypeRow(
            id=a.pk,
            races=pairs[a.pk],
            name=named[active][a.pk],
            typical=tuple((c, n, names[active].get(c, c), f) for c, n, f in a.typical),
            lists=a.lists,
            share=share(a),
            names={language: named[language][a.pk] for language in named},
        )
        for a in archetypes
    ]


def _names(archetypes, pairs, names, language: str) -> dict[int, str]:
    """Each archetype's name in `language` (its race names and words are translated)."""
    with translation.override(language):
        return {
            a.pk: archetype_name(pairs[a.pk], a.signature, a.other, names[language])
            for a in archetypes
        }


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


def archetypes_by_id() -> dict[int, ArchetypeRow]:
    """Every archetype by its id (their names in one read of the cards): the metagame's
    shares and matrix each take theirs from one read a page (metagame view: `known`)."""
    return {row.id: row for row in archetypes()}


def archetype_shares(period: Period, known=archetypes_by_id) -> list[ArchetypeRow]:
    """The archetypes of the period's finished events' lists, weighted by the events'
    players, most played first. `known`: the archetypes by id (read when called)."""
    fractions, _counts = _weighted(period, "archetype")
    found = known() if any(pk is not None for pk in fractions) else {}
    rows = [replace(row, share=fractions[pk]) for pk, row in found.items() if pk in fractions]
    return sorted(rows, key=lambda row: (-row.share, row.name))[:ARCHETYPES_SHOWN]


def archetype_matrix(
    period: Period, known=archetypes_by_id
) -> tuple[list[ArchetypeRow], list[tuple]]:
    """The most played archetypes in the period's games (MATRIX_ARCHETYPES) and, row by
    row, each one's record against each: one read of the period's games by archetype and
    opponent, each archetype's games their sum."""
    tallies = ArchetypeMatchupTally.objects.filter(
        month__gte=period.start, month__lte=period.end, bots=period.bots
    ).order_by()
    grouped = tallies.values_list("archetype", "opponent")
    totals = list(grouped.annotate(games=Sum("games"), wins=Sum("wins")))
    played: Counter = Counter()
    for archetype, _opponent, games, _wins in totals:
        played[archetype] += games
    top = [pk for pk, _n in sorted(played.items(), key=lambda kv: (-kv[1], kv[0]))]
    top = top[:MATRIX_ARCHETYPES]
    rates = {(a, b): Rate(wins, games) for a, b, games, wins in totals if a in top and b in top}
    found = known() if top else {}
    total = sum(played.values())
    rows = [replace(found[pk], share=played[pk] / total) for pk in top if pk in found]
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
    the real figures, never mixed with them.

    "Newest" is the run started last (a deck's newest version), not the one that finished
    last: another player's long run of an older version may finish after it. One query,
    whatever the number of runs: the sums come from the database, no run or chunk is read."""
    with_card = _runs_with_card(LabRun.objects.filter(status=LabRun.DONE), card.code)
    newer = with_card.filter(deck=OuterRef("deck")).filter(
        Q(created__gt=OuterRef("created")) | Q(created=OuterRef("created"), pk__gt=OuterRef("pk"))
    )
    newest = _runs_with_card(visible_runs(user).filter(status=LabRun.DONE), card.code)
    found = newest.filter(~Exists(newer)).aggregate(
        decks=Count("id", distinct=True),
        wins=Sum(F("chunks__play_wins") + F("chunks__draw_wins")),
        games=Sum(F("chunks__play_games") + F("chunks__draw_games")),
    )
    if not found["decks"]:
        return None
    return {"rate": Rate(found["wins"] or 0, found["games"] or 0), "decks": found["decks"]}


def _runs_with_card(runs, code: str):
    """The runs whose frozen colony ([[code, count], ...]) plays the card: its code as a
    JSON string in the colony's text (the closing quote: no longer code matches), which
    SQLite and PostgreSQL read alike (a JSON containment lookup is PostgreSQL's only)."""
    colony = Cast("colony", TextField())
    return runs.annotate(colony_text=colony).filter(colony_text__contains=f'"{code}"')


def trend_chart(period: Period, rows: list[tuple] | None = None) -> LineChart:
    """Each race's share of the colonies played, month by month, as a line chart."""
    trend = online_trend(period, rows)
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
    names. A page only reads: an event finished before reports were kept (none stored
    yet) gets its report computed for the page and not saved; `rebuild_stats` stores it."""
    stored = EventReport.objects.filter(tournament=event).values_list("data", flat=True).first()
    data = stored if stored is not None else event_report_data(event)
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
