# Stays whole (over 600 lines): one pure algorithm, the standings of R 18.7. Its column form,
# checks, exact percentages and explanations share private helpers (Table builds _Explain,
# which reads Table) and one reference test (tests/tournaments/test_standings_equivalence.py);
# split, the parts would import each other.

"""Swiss standings for KGK tournaments (R 18.4, R 18.7, AMB-43): pure functions.

`standings(players, matches)` returns one `Row` per registered player, best first:
match points (3 per match win, 0 per loss; a bye is a match win, 2-0 in games),
then the tiebreakers of the MTG Tournament Rules, Appendix C:

  OMW%  the mean of the match-win percentages of the opponents faced;
  GW%   the player's own game-win percentage;
  OGW%  the mean of the game-win percentages of the opponents faced;

where a match-win percentage is match points / (3 x rounds played) and a game-win
percentage is game wins / games played (game points / (3 x games), with no draws),
each raised to 0.33 when lower. Byes count for the player's own points, MW% and GW%
(as a 2-0 win) but a bye is not an opponent: it is left out of OMW% and OGW%.
A round a late entrant missed (`SetRecord.missed_round`, R 18 late entry, as the MTR
treats late entrants) is a match loss, 0-2 in games, for the player's own points,
MW% and GW%; like a bye it has no opponent, so it is left out of OMW% and OGW%.
A dropped player stays in the standings (marked) and their figures use only the
rounds they played; so do their opponents' averages. An opponent met twice (a
rematch) counts twice. A player who has faced no opponent yet (only byes, or no
round) gets the floor, 0.33, for OMW% and OGW%.

Arithmetic is exact (`fractions.Fraction`); every row's `explain` says how each
figure was computed. Players tied on all four keys are ordered by id (`tied`).
There are no draws in KGK (R 18.4): a match with equal game wins is rejected.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import compress, repeat
from math import gcd
from operator import add, eq, is_, mul, not_

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


def _dec(x: Fraction) -> str:
    """x with four decimals, rounded half up (for display only)."""
    q = (x * 10000 + Fraction(1, 2)).__floor__()
    return f"{q // 10000}.{q % 10000:04d}"


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
    results = [(m.round, m.a, m.b, m.games_a, m.games_b, m.missed) for m in matches]
    return tabulate(players, results, bye_games=bye_games).rows()


def tabulate(
    players: Iterable[Entrant | PlayerId],
    results: Iterable[tuple],
    *,
    bye_games: tuple[int, int] = BYE_GAMES,
) -> Table:
    """The standings as a `Table`, from results as plain tuples
    `(round, a, b, games_a, games_b, missed)`, read as `SetRecord(...)` reads them (`b`
    None: a bye, or with `missed` true a round `a` missed; the game fields of either
    are ignored). The same checks and errors as `standings()`, which is
    `tabulate(...).rows()`; the pairing needs only `tabulate(...).records()`.

    The results are read once and turned into columns (`tabulate_columns`).
    """
    columns = list(zip(*results, strict=True))
    if not columns:
        columns = [()] * 6
    elif len(columns) != 6:
        raise ValueError("a result is (round, a, b, games_a, games_b, missed)")
    return tabulate_columns(players, *columns, bye_games=bye_games)


def tabulate_columns(
    players: Iterable[Entrant | PlayerId],
    rounds: Sequence,
    a: Sequence,
    b: Sequence,
    games_a: Sequence,
    games_b: Sequence,
    missed: Sequence,
    *,
    bye_games: tuple[int, int] = BYE_GAMES,
    dropped: Sequence[bool] | None = None,
) -> Table:
    """`tabulate` on results given as six columns of equal length (result k is
    `(rounds[k], a[k], b[k], games_a[k], games_b[k], missed[k])`): what the service
    reads from the database, one array per column. With `dropped` (a flag a player),
    `players` are bare ids.

    Linear in the matches. The lookups of the players' indices and every check run on
    whole columns through builtins (`map`, `compress`, `set`: no Python statement per
    result); what is left a result is one loop of integer updates and two appends,
    and the rounds of a player's opponents are gathered only when `rows()` reads them
    (tests/tournaments/test_standings_equivalence.py compares every row with the
    reference model and counts the work). When a column check fails, `_first_error`
    walks the results in order and raises the error the row-by-row reading raised for
    the first bad one (so bad input gives the same errors as before).
    row-by-row reading raised for the first bad one.
    """
    if dropped is not None:  # bare ids, with their dropped flags beside them
        ids, dropped = list(players), list(dropped)
        index = dict(zip(ids, range(len(ids)), strict=False))
        if len(index) != len(ids) or len(dropped) != len(ids):
            seen: set = set()
            twice = next((pid for pid in ids if pid in seen or seen.add(pid)), None)
            if twice is not None:
                raise ValueError(f"player {twice!r} is listed twice")
            raise ValueError("one dropped flag a player")
    else:
        ids, dropped, index = [], [], {}
        for e in players:
            pid, drop = (e.id, e.dropped) if isinstance(e, Entrant) else (e, False)
            if pid in index:
                raise ValueError(f"player {pid!r} is listed twice")
            index[pid] = len(ids)
            ids.append(pid)
            dropped.append(drop)
    n = len(ids)
    columns = (rounds, a, b, games_a, games_b, missed)
    if len(set(map(len, columns))) > 1:
        raise ValueError("the result columns differ in length")
    lone_mask = list(map(is_, b, repeat(None)))  # byes and missed rounds
    if any(lone_mask):
        pair_mask = list(map(not_, lone_mask))
        p_round, p_a, p_b, p_ga, p_gb, p_missed = (
            list(compress(column, pair_mask)) for column in columns
        )
        l_round, l_a, l_missed = (
            list(compress(column, lone_mask)) for column in (rounds, a, missed)
        )
    else:
        p_round, p_a, p_b, p_ga, p_gb, p_missed = columns
        l_round = l_a = l_missed = ()
    lookup = index.__getitem__
    try:
        ia = list(map(lookup, p_a))
        ib = list(map(lookup, p_b))
        il = list(map(lookup, l_a))
        bad = (
            any(map(eq, ia, ib))
            or any(p_missed)
            or (p_ga and (min(p_ga) < 0 or min(p_gb) < 0))
            or any(map(eq, p_ga, p_gb))
        )
    except KeyError:
        bad = True
    if bad:
        _first_error(index, *columns)
    # The hot loop: a few integer updates and two appends a match, nothing else (no
    # lookup, no check, no round: the checks ran on whole columns above, and the rounds
    # of a player's opponents are gathered only if `rows()` asks, `Table.opp_round`).
    wins, gw, gl = [0] * n, [0] * n, [0] * n  # wins: match wins, for now
    opp: list[list[int]] = [[] for _ in range(n)]  # opponents' indices, as the results came
    for i, j, x, y in zip(ia, ib, p_ga, p_gb, strict=True):
        if x > y:
            wins[i] += 1
        else:
            wins[j] += 1
        gw[i] += x
        gl[i] += y
        gw[j] += y
        gl[j] += x
        opp[i].append(j)
        opp[j].append(i)
    missed_flags = list(map(bool, l_missed))
    count = Counter(compress(il, missed_flags))
    n_missed = list(map(count.get, range(n), repeat(0)))
    count = Counter(compress(il, map(not_, missed_flags)))
    byes = list(map(count.get, range(n), repeat(0)))
    lone: dict[int, list] = {}  # the rounds of a player's byes and missed rounds
    for i, rnd in zip(il, l_round, strict=True):
        lone.setdefault(i, []).append(rnd)
    if not _one_result_a_round(n, p_round, ia, ib, l_round, il):
        opp_round = _opponent_rounds(n, p_round, ia, ib)
        for i in range(n):
            played = opp_round[i] + lone[i] if i in lone else opp_round[i]
            if len(set(played)) != len(played):
                twice = next(r for k, r in enumerate(played) if r in played[:k])
                raise ValueError(f"round {twice}: {ids[i]!r} has two results")
    table = Table(ids, dropped, wins, byes, n_missed, gw, gl, opp, bye_games)
    table._rounds_of = (p_round, ia, ib)
    return table


def _opponent_rounds(n: int, p_round, ia, ib) -> list[list]:
    """The rounds of each player's matches, in the order of `opp[i]`."""
    rounds: list[list] = [[] for _ in range(n)]
    for rnd, i, j in zip(p_round, ia, ib, strict=True):
        rounds[i].append(rnd)
        rounds[j].append(rnd)
    return rounds


def _one_result_a_round(n: int, p_round, ia, ib, l_round, il) -> bool:
    """Whether no player has two results in one round (a match, a bye or a missed round):
    every (round, player) once. With integer rounds, (round, player) is the integer
    round * n + player (one to one, as 0 <= player < n); otherwise a tuple."""
    total = 2 * len(ia) + len(il)
    if set(map(type, p_round)) | set(map(type, l_round)) <= {int}:
        scaled = list(map(mul, p_round, repeat(n)))
        seen = set(map(add, scaled, ia))
        seen.update(map(add, scaled, ib))
        seen.update(map(add, map(mul, l_round, repeat(n)), il))
    else:
        seen = set(zip(p_round, ia, strict=True))
        seen.update(zip(p_round, ib, strict=True))
        seen.update(zip(l_round, il, strict=True))
    return len(seen) == total


def _first_error(index: dict, *columns):
    """Raise the error of the first result (in order) that `tabulate` cannot count."""
    get = index.get
    for rnd, a, b, games_a, games_b, was_missed in zip(*columns, strict=True):
        i = get(a)
        if b is None:
            if i is None:
                raise ValueError(f"round {rnd}: unknown player {a!r}")
            continue
        j = get(b)
        if (
            i is None
            or j is None
            or i == j
            or was_missed
            or games_a < 0
            or games_b < 0
            or games_a == games_b
        ):
            _reject(rnd, a, b, games_a, games_b, was_missed, i, j)
    raise AssertionError("a check failed on the columns but on no result")


def _reject(rnd, a, b, games_a, games_b, was_missed, i, j):
    """Raise the error of a result between two players that `tabulate` cannot count."""
    if was_missed:
        raise ValueError(f"round {rnd}: a missed round has no opponent")
    if a == b or (i is not None and i == j):
        raise ValueError(f"round {rnd}: {a!r} cannot play themselves")
    if games_a < 0 or games_b < 0:
        raise ValueError(f"round {rnd}: negative game count")
    if games_a == games_b:
        raise ValueError(
            f"round {rnd}: {a!r} v {b!r} ends {games_a}-{games_b}; KGK has no draws (R 18.4)"
        )
    raise ValueError(f"round {rnd}: unknown player {a if i is None else b!r}")


class _Percentages:
    """One measure (match-win or game-win %) of every player, exactly, in integers.

    `pair[i]` is the player's (wins, played) and `value[pair]` = (the exact fraction or
    None when nothing was played, the same raised to the floor): one Fraction per
    distinct pair, which are few. `scaled[i]` is the floored value over `den`, the least
    common denominator of all of them and of the floor's 100, so opponents' means are
    integer sums."""

    __slots__ = ("pair", "value", "scaled", "den")

    def __init__(self, won: list[int], lost: list[int]):
        self.pair = pairs = list(zip(won, map(int.__add__, won, lost), strict=True))
        self.value = value = {}
        for num, den in set(pairs):
            if not den:
                value[num, den] = (None, FLOOR)
            else:
                raw = Fraction(num, den)
                value[num, den] = (raw, FLOOR if 100 * num < 33 * den else raw)
        common = FLOOR.denominator
        for _raw, floored in value.values():
            d = floored.denominator
            common = common // gcd(common, d) * d
        self.den = common
        by_pair = {p: v[1].numerator * (common // v[1].denominator) for p, v in value.items()}
        self.scaled = list(map(by_pair.__getitem__, pairs))

    def floored(self, i: int) -> Fraction:
        return self.value[self.pair[i]][1]

    def raw(self, i: int) -> Fraction | None:
        return self.value[self.pair[i]][0]


class Table:
    """The standings in integer form (what `tabulate` returns).

    Players are indices: `ids[i]`, with per-player lists of their counts and their
    opponents' indices (`opp[i]`, with the round of each in `opp_round[i]`). MW% and
    GW% are integers over one common denominator each (`_Percentages`); an opponents'
    mean (OMW%, OGW%) is its integer sum over the opponents, and the sort key scales
    every mean to one denominator more (the least common multiple of the numbers of
    opponents), so the order and the ties are exact without a Fraction per player.
    `order` is the players' indices best first; `rows()` makes the `Row`s (with their
    fractions and explain texts), `records()` the pairing's `PlayerRecord`s.
    """

    def __init__(self, ids, dropped, wins, byes, missed, gw, gl, opp, bye_games):
        """`wins` are the match wins over opponents, `gw` and `gl` the games of matches
        only: the byes and the missed rounds are added here."""
        self.ids, self.dropped, self.byes, self.missed = ids, dropped, byes, missed
        self.opp, self.bye_games = opp, bye_games
        self.losses = [len(o) - w + m for o, w, m in zip(opp, wins, missed, strict=True)]
        self.wins = wins = list(map(add, wins, byes))
        (win_bye, lose_bye), (win_missed, lose_missed) = bye_games, MISSED_GAMES
        self.gw = [
            g + b * win_bye + m * win_missed for g, b, m in zip(gw, byes, missed, strict=True)
        ]
        self.gl = [
            g + b * lose_bye + m * lose_missed for g, b, m in zip(gl, byes, missed, strict=True)
        ]
        losses, gw, gl = self.losses, self.gw, self.gl
        self._opp_round = None
        self._rounds_of = None
        self.mw = mw = _Percentages(wins, losses)
        self.gwp = gwp = _Percentages(gw, gl)
        n = len(ids)
        counts = list(map(len, opp))
        self.omw_sum = [sum(map(mw.scaled.__getitem__, o)) for o in opp]
        self.ogw_sum = [sum(map(gwp.scaled.__getitem__, o)) for o in opp]
        k_all = 1
        for k in set(counts):
            if k:
                k_all = k_all // gcd(k_all, k) * k
        # Over the denominator den * k_all: a mean times k_all // k; the floor, 33/100.
        scale = [k_all // k if k else 0 for k in counts]
        floor_m = FLOOR.numerator * (mw.den // FLOOR.denominator) * k_all
        floor_g = FLOOR.numerator * (gwp.den // FLOOR.denominator) * k_all
        # The last tie-break is the id (`_id_key`); when every id is a plain int (the
        # database's), the int itself orders them the same, without a call a player.
        id_keys = ids if set(map(type, ids)) <= {int} else list(map(_id_key, ids))
        keys = [
            (
                -wins[i],
                -(self.omw_sum[i] * scale[i] if counts[i] else floor_m),
                -gwp.scaled[i],
                -(self.ogw_sum[i] * scale[i] if counts[i] else floor_g),
                id_keys[i],
            )
            for i in range(n)
        ]
        # Best first: points (3 per win), OMW%, GW%, OGW%; equal on all four: by id.
        self.order = order = sorted(range(n), key=keys.__getitem__)
        self.group_start = starts = []  # position where each tie group begins
        last = None
        for pos, i in enumerate(order):
            key = keys[i][:4]
            if key != last:
                starts.append(pos)
                last = key
        starts.append(n)

    @property
    def opp_round(self) -> list[list]:
        """The round of each opponent in `opp[i]`, gathered when first asked (the
        pairing never asks)."""
        if self._opp_round is None:
            self._opp_round = _opponent_rounds(len(self.ids), *self._rounds_of)
        return self._opp_round

    def _mean(self, sums: list[int], den: int, i: int) -> Fraction:
        k = len(self.opp[i])
        return Fraction(sums[i], den * k) if k else FLOOR

    def opponents(self, i: int) -> tuple:
        """Player i's opponents' ids in the order played (one opponent a round)."""
        ids = self.ids
        return tuple([ids[j] for _r, j in sorted(zip(self.opp_round[i], self.opp[i], strict=True))])

    def rows(self) -> list[Row]:
        ids, order, starts = self.ids, self.order, self.group_start
        out = []
        for g in range(len(starts) - 1):
            group = order[starts[g] : starts[g + 1]]
            tied = len(group) > 1
            for i in group:
                pid = ids[i]
                omw = self._mean(self.omw_sum, self.mw.den, i)
                ogw = self._mean(self.ogw_sum, self.gwp.den, i)
                out.append(
                    Row(
                        rank=len(out) + 1,
                        id=pid,
                        points=MATCH_WIN_POINTS * self.wins[i],
                        wins=self.wins[i],
                        losses=self.losses[i],
                        byes=self.byes[i],
                        game_wins=self.gw[i],
                        game_losses=self.gl[i],
                        mwp=self.mw.floored(i),
                        omw=omw,
                        gwp=self.gwp.floored(i),
                        ogw=ogw,
                        opponents=self.opponents(i),
                        dropped=self.dropped[i],
                        missed=self.missed[i],
                        tied=tied,
                        explain=_Explain(self, i, omw, ogw, group),
                    )
                )
        return out

    def records(self) -> list[PlayerRecord]:
        """`player_records(self.rows())`, without making the rows: one column a field,
        best first, then one `PlayerRecord` a player."""
        order, get = self.order, self.ids.__getitem__
        wins, byes, opp = self.wins, self.byes, self.opp
        return list(
            map(
                PlayerRecord,
                map(get, order),
                [MATCH_WIN_POINTS * wins[i] for i in order],
                range(1, len(order) + 1),
                [frozenset(map(get, opp[i])) for i in order],
                [byes[i] > 0 for i in order],
                map(self.dropped.__getitem__, order),
            )
        )


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


def _explain(t: Table, i: int, omw, ogw, group: list[int]) -> dict[str, str]:
    # The tie group is shared by its members and read here, when a text is: naming the
    # others in every row would be quadratic in the group (before round 1 everyone ties).
    pid = t.ids[i]
    tied_with = [t.ids[x] for x in group if t.ids[x] != pid]
    bye_games = t.bye_games
    wins, byes, missed, gw, gl = t.wins[i], t.byes[i], t.missed[i], t.gw[i], t.gl[i]
    ex: dict[str, str] = {}
    points = MATCH_WIN_POINTS * wins
    played = wins + t.losses[i]
    bye_txt = f", {byes} of them by bye" if byes else ""
    ex["points"] = f"{MATCH_WIN_POINTS} x {wins} match wins{bye_txt} = {points}"
    miss_txt = ""
    if missed:
        ex["points"] += f" ({missed} round(s) missed by entering late: losses, 0 points)"
        miss_txt = f", {missed} missed by entering late"
    if played:
        raw = t.mw.raw(i)
        ex["MW%"] = (
            f"{points} / ({MATCH_WIN_POINTS} x {played} rounds{miss_txt}) = {raw} = {_dec(raw)}"
        )
        if raw < FLOOR:
            ex["MW%"] += ", below 0.33, so 0.33"
    else:
        ex["MW%"] = "no rounds played: 0.33 (floor)"
    games = gw + gl
    counted = []
    if byes:
        counted.append(f"byes counted {bye_games[0]}-{bye_games[1]}")
    if missed:
        counted.append(f"missed rounds counted {MISSED_GAMES[0]}-{MISSED_GAMES[1]}")
    bye_g = f" ({'; '.join(counted)})" if counted else ""
    if games:
        raw = t.gwp.raw(i)
        ex["GW%"] = (
            f"{gw} game wins / {games} games{bye_g} = {3 * gw} / (3 x {games})"
            f" = {raw} = {_dec(raw)}"
        )
        if raw < FLOOR:
            ex["GW%"] += ", below 0.33, so 0.33"
    else:
        ex["GW%"] = "no games played: 0.33 (floor)"
    ex["OMW%"] = _opp_text(t, i, t.mw, "MW%", omw)
    ex["OGW%"] = _opp_text(t, i, t.gwp, "GW%", ogw)
    if tied_with:
        ex["order"] = (
            "equal on points, OMW%, GW% and OGW% to "
            + ", ".join(str(x) for x in tied_with)
            + ": ordered by player id"
        )
    return ex


def _opp_text(t: Table, i: int, pct: _Percentages, name: str, mean) -> str:
    byes, missed = t.byes[i], t.missed[i]
    if not t.opp[i]:
        if byes and missed:
            why = "byes and missed rounds only"
        elif byes:
            why = "byes only"
        elif missed:
            why = "missed rounds only"
        else:
            why = "no rounds played"
        return f"no opponents yet ({why}): 0.33 (floor)"
    parts, starred = [], False
    for _r, j in sorted(zip(t.opp_round[i], t.opp[i], strict=True)):
        star = ""
        raw = pct.raw(j)
        if raw is None or raw < FLOOR:
            star, starred = "*", True
        dropped = " dropped" if t.dropped[j] else ""
        parts.append(f"{t.ids[j]}{dropped} {_dec(pct.floored(j))}{star}")
    txt = f"mean({', '.join(parts)}) = {mean} = {_dec(mean)}"
    if starred:
        txt += f"; * raised to the 0.33 floor (the opponent's own {name} is lower)"
    if byes:
        txt += f"; {byes} bye round(s) left out"
    if missed:
        txt += f"; {missed} missed round(s) (late entry) left out"
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
