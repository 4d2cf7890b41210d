"""The standings of main at 8c20b83 (tournaments/standings.py before issue 14's integer
form), kept unchanged as the reference the current `standings()` is compared with
(test_standings_equivalence.py). Not used by the application.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd

from tournaments.swiss import PlayerRecord

PlayerId = Hashable

FLOOR = Fraction(33, 100)
"""Every percentage is raised to 0.33 when lower (MTR Appendix C)."""
MATCH_WIN_POINTS = 3
BYE_GAMES = (2, 0)
"""A bye is a match win, 2-0 in games (R 18.7)."""
MISSED_GAMES = (0, 2)
"""A round missed by a late entrant is a match loss, 0-2 in games (MTR practice)."""


@dataclass(frozen=True)
class Entrant:
    """A registered player; `dropped` players stay in the standings, marked."""

    id: PlayerId
    dropped: bool = False


@dataclass(frozen=True)
class SetRecord:
    """One result: `a` won `games_a` games, `b` won `games_b`. `b=None` is a bye for `a`
    (its game fields are ignored: a bye is always scored BYE_GAMES), or, with
    `missed=True`, a round `a` missed by entering late: a loss without an opponent,
    always scored MISSED_GAMES."""

    round: int
    a: PlayerId
    b: PlayerId | None = None
    games_a: int = BYE_GAMES[0]
    games_b: int = BYE_GAMES[1]
    missed: bool = False

    @classmethod
    def bye(cls, round: int, player: PlayerId) -> SetRecord:
        return cls(round, player)

    @classmethod
    def missed_round(cls, round: int, player: PlayerId) -> SetRecord:
        """A round the late entrant `player` missed: a match loss, 0-2, no opponent."""
        return cls(round, player, None, MISSED_GAMES[0], MISSED_GAMES[1], missed=True)

    @property
    def is_bye(self) -> bool:
        return self.b is None and not self.missed

    def __post_init__(self):
        if self.missed and self.b is not None:
            raise ValueError(f"round {self.round}: a missed round has no opponent")
        if self.b is None:
            return
        if self.a == self.b:
            raise ValueError(f"round {self.round}: {self.a!r} cannot play themselves")
        if self.games_a < 0 or self.games_b < 0:
            raise ValueError(f"round {self.round}: negative game count")
        if self.games_a == self.games_b:
            raise ValueError(
                f"round {self.round}: {self.a!r} v {self.b!r} ends "
                f"{self.games_a}-{self.games_b}; KGK has no draws (R 18.4)"
            )


@dataclass(frozen=True)
class Row:
    """One line of the standings. Percentages are exact fractions, floors applied."""

    rank: int
    id: PlayerId
    points: int
    wins: int  # match wins, byes included
    losses: int  # match losses, missed rounds included
    byes: int
    game_wins: int  # bye games included
    game_losses: int
    mwp: Fraction  # own match-win %, floored (what opponents see)
    omw: Fraction
    gwp: Fraction
    ogw: Fraction
    opponents: tuple  # ids, in round order (byes excluded)
    dropped: bool = False
    missed: int = 0  # rounds missed by entering late (each a loss, 0-2)
    tied: bool = False  # equal to another player on points, OMW%, GW% and OGW%
    explain: Mapping = field(default_factory=dict, compare=False, hash=False)

    @property
    def explain_text(self) -> str:
        return "\n".join(f"{k}: {v}" for k, v in self.explain.items())


class _Acc:
    __slots__ = (
        "id",
        "dropped",
        "wins",
        "losses",
        "byes",
        "missed",
        "gw",
        "gl",
        "opps",
        "rounds",
    )

    def __init__(self, e: Entrant):
        self.id = e.id
        self.dropped = e.dropped
        self.wins = self.losses = self.byes = self.missed = self.gw = self.gl = 0
        self.opps: list[tuple[int, PlayerId]] = []
        self.rounds: set[int] = set()


def _dec(x: Fraction) -> str:
    """x with four decimals, rounded half up (for display only)."""
    q = (x * 10000 + Fraction(1, 2)).__floor__()
    return f"{q // 10000}.{q % 10000:04d}"


def _floored(x: Fraction) -> Fraction:
    return x if x >= FLOOR else FLOOR


def _id_key(pid: PlayerId):
    return (0, pid, "") if isinstance(pid, int) and not isinstance(pid, bool) else (1, 0, str(pid))


def standings(
    players: Iterable[Entrant | PlayerId],
    matches: Iterable[SetRecord],
    *,
    bye_games: tuple[int, int] = BYE_GAMES,
) -> list[Row]:
    """The standings after the given matches, best first (see the module docstring).

    `players` are `Entrant`s (or bare ids, not dropped). Raises ValueError for a
    result naming an unknown player, a player twice in one round (a missed round
    included), or a draw.
    """
    acc: dict[PlayerId, _Acc] = {}
    for e in players:
        if not isinstance(e, Entrant):
            e = Entrant(e)
        if e.id in acc:
            raise ValueError(f"player {e.id!r} is listed twice")
        acc[e.id] = _Acc(e)

    for m in matches:
        rnd = m.round
        a = _seat(acc, m.a, rnd)
        if m.missed:
            a.losses += 1
            a.missed += 1
            a.gw += MISSED_GAMES[0]
            a.gl += MISSED_GAMES[1]
            continue
        if m.b is None:
            a.wins += 1
            a.byes += 1
            a.gw += bye_games[0]
            a.gl += bye_games[1]
            continue
        b = _seat(acc, m.b, rnd)
        games_a, games_b = m.games_a, m.games_b
        a.gw += games_a
        a.gl += games_b
        b.gw += games_b
        b.gl += games_a
        if games_a > games_b:
            a.wins += 1
            b.losses += 1
        else:
            b.wins += 1
            a.losses += 1
        a.opps.append((rnd, b.id))
        b.opps.append((rnd, a.id))

    mwp: dict[PlayerId, Fraction] = {}
    gwp: dict[PlayerId, Fraction] = {}
    raw_m: dict[PlayerId, Fraction | None] = {}
    raw_g: dict[PlayerId, Fraction | None] = {}
    fractions: dict[tuple[int, int], tuple] = {}  # few distinct values: made once each
    for pid, a in acc.items():
        raw_m[pid], mwp[pid] = _percentage(fractions, a.wins, a.wins + a.losses)
        raw_g[pid], gwp[pid] = _percentage(fractions, a.gw, a.gw + a.gl)
        a.opps.sort()  # by round (a player meets one opponent a round): the order played
    # Opponents' means as integer sums over one common denominator per measure: exact,
    # and one Fraction per player instead of one per addition.
    mw_scaled, mw_den = _common_denominator(mwp)
    gw_scaled, gw_den = _common_denominator(gwp)

    rows = []
    for pid, a in acc.items():
        opponents = tuple([o for _, o in a.opps])
        rows.append(
            dict(
                id=pid,
                points=MATCH_WIN_POINTS * a.wins,
                wins=a.wins,
                losses=a.losses,
                byes=a.byes,
                missed=a.missed,
                game_wins=a.gw,
                game_losses=a.gl,
                mwp=mwp[pid],
                omw=_mean(mw_scaled, mw_den, opponents) if opponents else FLOOR,
                gwp=gwp[pid],
                ogw=_mean(gw_scaled, gw_den, opponents) if opponents else FLOOR,
                opponents=opponents,
                dropped=a.dropped,
            )
        )
    # Best first; equal on all four keys: by id. Two stable sorts (reverse=True keeps the
    # id order of equals). Each fraction is preceded by its float, so comparisons are
    # float comparisons and the exact fraction decides only where the floats are equal.
    rows.sort(key=lambda r: _id_key(r["id"]))
    for r in rows:
        omw, gwp_, ogw = r["omw"], r["gwp"], r["ogw"]
        r["_key"] = (r["points"], float(omw), omw, float(gwp_), gwp_, float(ogw), ogw)
    rows.sort(key=lambda r: r["_key"], reverse=True)

    groups: list[list[dict]] = []
    for r in rows:  # equal keys are adjacent after the sort
        if groups and groups[-1][0]["_key"] == r["_key"]:
            groups[-1].append(r)
        else:
            groups.append([r])
    for r in rows:
        del r["_key"]
    context = _ExplainContext(acc, mwp, gwp, raw_m, raw_g, bye_games)
    out = []
    for group in groups:
        ids = [r["id"] for r in group]
        for r in group:
            tied_with = [t for t in ids if t != r["id"]]
            out.append(
                Row(
                    rank=len(out) + 1,
                    tied=bool(tied_with),
                    explain=_Explain(context, acc[r["id"]], r["omw"], r["ogw"], tied_with),
                    **r,
                )
            )
    return out


def _seat(acc: dict, pid, rnd: int) -> _Acc:
    """The accumulator of `pid`, who has a result in round `rnd` (one a round)."""
    a = acc.get(pid)
    if a is None:
        raise ValueError(f"round {rnd}: unknown player {pid!r}")
    if rnd in a.rounds:
        raise ValueError(f"round {rnd}: {pid!r} has two results")
    a.rounds.add(rnd)
    return a


def _percentage(cache: dict, num: int, den: int) -> tuple:
    """(num / den exactly or None when den is 0, the same raised to the floor), made once
    per distinct (num, den): the floor test is integer arithmetic (num/den < 33/100)."""
    key = (num, den)
    value = cache.get(key)
    if value is None:
        if not den:
            value = (None, FLOOR)
        else:
            raw = Fraction(num, den)
            value = (raw, FLOOR if 100 * num < 33 * den else raw)
        cache[key] = value
    return value


def _common_denominator(values: dict) -> tuple[dict, int]:
    """Every value as an integer numerator over the least common denominator."""
    common = 1
    for d in {v.denominator for v in values.values()}:
        common = common // gcd(common, d) * d
    return {k: v.numerator * (common // v.denominator) for k, v in values.items()}, common


def _mean(scaled: dict, den: int, opponents: tuple) -> Fraction:
    """The exact mean of the opponents' values (given over the common denominator)."""
    return Fraction(sum(map(scaled.__getitem__, opponents)), den * len(opponents))


@dataclass(frozen=True)
class _ExplainContext:
    acc: dict
    mwp: dict
    gwp: dict
    raw_m: dict
    raw_g: dict
    bye_games: tuple


class _Explain(Mapping):
    """A row's `explain` texts, written when first read: the pairing reads only the
    numbers, and writing every text took most of the standings' time at thousands of
    players."""

    __slots__ = ("_args", "_data")

    def __init__(self, *args):
        self._args = args
        self._data = None

    def _texts(self) -> dict:
        if self._data is None:
            self._data = _explain(*self._args)
            self._args = None
        return self._data

    def __getitem__(self, key):
        return self._texts()[key]

    def __iter__(self):
        return iter(self._texts())

    def __len__(self):
        return len(self._texts())

    def __repr__(self):
        return repr(self._texts())


def _explain(c: _ExplainContext, a: _Acc, omw, ogw, tied_with) -> dict[str, str]:
    bye_games = c.bye_games
    ex: dict[str, str] = {}
    points = MATCH_WIN_POINTS * a.wins
    played = a.wins + a.losses
    bye_txt = f", {a.byes} of them by bye" if a.byes else ""
    ex["points"] = f"{MATCH_WIN_POINTS} x {a.wins} match wins{bye_txt} = {points}"
    miss_txt = ""
    if a.missed:
        ex["points"] += f" ({a.missed} round(s) missed by entering late: losses, 0 points)"
        miss_txt = f", {a.missed} missed by entering late"
    if played:
        raw = c.raw_m[a.id]
        ex["MW%"] = (
            f"{points} / ({MATCH_WIN_POINTS} x {played} rounds{miss_txt}) = {raw} = {_dec(raw)}"
        )
        if raw < FLOOR:
            ex["MW%"] += ", below 0.33, so 0.33"
    else:
        ex["MW%"] = "no rounds played: 0.33 (floor)"
    games = a.gw + a.gl
    counted = []
    if a.byes:
        counted.append(f"byes counted {bye_games[0]}-{bye_games[1]}")
    if a.missed:
        counted.append(f"missed rounds counted {MISSED_GAMES[0]}-{MISSED_GAMES[1]}")
    bye_g = f" ({'; '.join(counted)})" if counted else ""
    if games:
        raw = c.raw_g[a.id]
        ex["GW%"] = (
            f"{a.gw} game wins / {games} games{bye_g} = {3 * a.gw} / (3 x {games})"
            f" = {raw} = {_dec(raw)}"
        )
        if raw < FLOOR:
            ex["GW%"] += ", below 0.33, so 0.33"
    else:
        ex["GW%"] = "no games played: 0.33 (floor)"
    ex["OMW%"] = _opp_text(c, a, c.mwp, c.raw_m, "MW%", omw)
    ex["OGW%"] = _opp_text(c, a, c.gwp, c.raw_g, "GW%", ogw)
    if tied_with:
        ex["order"] = (
            "equal on points, OMW%, GW% and OGW% to "
            + ", ".join(str(t) for t in tied_with)
            + ": ordered by player id"
        )
    return ex


def _opp_text(c: _ExplainContext, a: _Acc, own: dict, raw: dict, name: str, mean) -> str:
    if not a.opps:
        if a.byes and a.missed:
            why = "byes and missed rounds only"
        elif a.byes:
            why = "byes only"
        elif a.missed:
            why = "missed rounds only"
        else:
            why = "no rounds played"
        return f"no opponents yet ({why}): 0.33 (floor)"
    parts, starred = [], False
    for _, o in a.opps:
        star = ""
        if raw[o] is None or raw[o] < FLOOR:
            star, starred = "*", True
        dropped = " dropped" if c.acc[o].dropped else ""
        parts.append(f"{o}{dropped} {_dec(own[o])}{star}")
    txt = f"mean({', '.join(parts)}) = {mean} = {_dec(mean)}"
    if starred:
        txt += f"; * raised to the 0.33 floor (the opponent's own {name} is lower)"
    if a.byes:
        txt += f"; {a.byes} bye round(s) left out"
    if a.missed:
        txt += f"; {a.missed} missed round(s) (late entry) left out"
    return txt


def player_records(rows: Iterable[Row]) -> list[PlayerRecord]:
    """The pairing's view of the standings: points, rank, opponents, bye, dropped."""
    return [
        PlayerRecord(
            id=r.id,
            points=r.points,
            rank=r.rank,
            opponents=frozenset(r.opponents),
            had_bye=r.byes > 0,
            dropped=r.dropped,
        )
        for r in rows
    ]
