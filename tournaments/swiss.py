"""Swiss pairing for KGK tournaments (R 18.2, R 18.7, AMB-43): one pure function.

`pair_round(players, forbidden=..., seed=...)` takes the active and dropped players
of an event (points, standings rank, previous opponents, whether they had a bye),
the pairs staff have forbidden and the round's stored seed, and returns a `Pairing`:
the pairs in table order, the bye, a note for every player paired down or up (and
for the bye), the number of rematches and warnings for staff (a code and its data
each, `WARNINGS`; tournaments/pairing_warnings.py words them). It never raises for
want of a legal pairing: if every pairing has a rematch (tiny events), it takes
the one with the fewest and warns (NOTES.md: "never stop the event").

Why one module of ~950 lines: it is one algorithm and its proof. The three methods
(exact, groups, auto's certificate) share the cost model below, the private player
record `_P` and its compatibility test, and the certificate is only sound read against
the groups pairing it certifies; the sections (exact, the line and the floaters,
groups, result) are marked, and each function is short.

No Django, no I/O, no clock and no global randomness: the same inputs and seed
give the same pairing, whatever the order of `players`. The seed breaks ties
through hashlib (`seed_key`, `pair_key`), never through `random`.

What "best" means (the cost of a pairing, compared lexicographically, lower is
better; every tier is a sum over the pairs and the bye):

  B   1 if the bye goes to a player who already had one (so that happens only
      when every active player has had one);
  F   staff-forbidden pairs;
  R   rematches;
  Y   how high the bye is: the number of active players ranked below the bye
      (0 = the lowest-ranked player);
  G1  score gap: sum over pairs of |points difference| -- the fewest pair-downs,
      each counted once per score group it crosses;
  G2  sum of squared differences -- the smallest pair-downs (two one-group
      pair-downs beat one player paired down two groups);
  L   for every pair-down, how high the paired-down player stands (the number of
      active players below them): pair-downs happen as low in the standings as
      possible and the player who floats is the lowest-ranked of their group;
  S   the seed: sum over pairs of |sp(a) - sp(b)|, sp being the position in the
      list ordered by points, then `seed_key`; with no other constraint each score
      group is paired 1-2, 3-4, ... in that seeded order;
  U   (only events of at most UNIQUE_LIMIT players) a sum of distinct powers of two,
      one per possible pair in `pair_key` order, so the best pairing is unique.

"exact" (method="exact"; under method="auto", events of at most `exact_limit`
active players): the least-cost pairing, as a maximum-weight perfect matching
(networkx, blossom algorithm) with one integer weight per edge that encodes the
tiers above in mixed radix (each radix exceeds the largest possible total of the
tiers below it), so the matching of maximum weight is the pairing of least cost.
No floats anywhere. The matching is on the complete graph of active players plus a
bye vertex when their number is odd -- unless the groups pairing below (about a
millisecond) proves that every least-cost pairing has its bye, no rematch and its
pair-downs' sizes and players (`_certified_parts`): then the problem splits into
one independent part per score group, each solved on its own, and a part that
the groups pairing already pairs 1-2, 3-4 in seeded order needs no solving (that
is its unique optimum). Under "auto", if the parts to solve are too big (more work
than one matching of FULL_LIMIT players), the groups pairing is kept and reported
as method "groups".

"auto" (issue 35: at 4,096 players it used to return the groups pairing unproven, once
with S 2 above the optimum): at every size the certificate above, and each one-level
part not already at its least S solved exactly on the line (`_line_pairs`: S is a sum
of distances between seeded positions; the pairing 1-2, 3-4 is kept except within a
window around each rematch that the bound S(groups) - least allows, each window by a
dynamic programme), which is fast (bench/pairing_certified_bench.py); parts that are
not one level go to the matching within FULL_LIMIT's work. When the groups pairing
floats a player higher than the L bound (or no clean pairing meets it), the floaters are
weighed (`_parts_by_floaters`: the least L, then the least S of the one-level parts; the
exact method does the same with a matching per part). The result is then the
least-cost pairing (`certified`, method "exact"); otherwise the groups pairing is kept
with `certified` False and a warning that says so (the exact method decides then).

"groups" (large events): the bye to the lowest-ranked player without one, then
score group by score group from the top, carrying at most one floater across each
group boundary: the lowest-ranked member floats down when the group (plus the
floater it received) is odd, the received floater meets the first compatible member
in seeded order, the rest are paired 1-2, 3-4 in seeded order, skipping incompatible
partners, with a repair that swaps partners with an earlier pair. A group is
accepted only without a rematch or forbidden pair; by construction every
pair-down then crosses exactly one boundary, one per boundary with an odd number of
players above it, which is the lower bound on the score gap (`score_gap_bound`).
A group that fails is solved with the exact matching above restricted to it (plus
the floater it received and a vertex for the floater it passes on); a block that
still has a rematch grows to the next group down, and at the bottom up (undoing
earlier groups), up to the whole event, where the exact pairing with a free bye
decides. So the result has a rematch only when the exact pairing does: no
avoidable rematch, and the bye goes to a player without one whenever one exists.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

import networkx as nx

PlayerId = Hashable

EXACT_LIMIT = 256
"""Largest number of active players paired by the exact method under method="auto"."""

FULL_LIMIT = 128
"""Under method="auto", the largest single matching the exact method will solve; an
event of up to EXACT_LIMIT players whose exact problem does not split into parts
this small keeps the groups method's pairing (method "groups")."""

UNIQUE_LIMIT = 16
"""Exact matchings on at most this many players use the U tier (unique optimum)."""

# The codes of `Pairing.warnings` (each with its data; no sentence here, no Django):
REMATCH = "REMATCH"  # table, players: every pairing has a rematch; this one has the fewest
FORBIDDEN_PAIR = "FORBIDDEN_PAIR"  # table, players: no pairing avoids a staff-forbidden pair
SECOND_BYE = "SECOND_BYE"  # player: every active player has had a bye
BYE_ABOVE = "BYE_ABOVE"  # player, lower: the lower-ranked one could not take it cleanly
NOT_PROVEN = "NOT_PROVEN"  # "auto" kept the groups pairing without proof of least cost
WARNINGS = (REMATCH, FORBIDDEN_PAIR, SECOND_BYE, BYE_ABOVE, NOT_PROVEN)

_GREEDY_FLOAT_TRIES = 4  # outgoing-floater candidates the greedy tries before giving up


class PlayerRecord(NamedTuple):
    """One registered player as the pairing sees them before a round.

    `rank` is the current standings position (1 = first); players are ordered by
    points, then rank. `opponents` are the ids of everyone they have played (byes
    excluded). Dropped players are never paired; they may stay in the list.

    A named tuple (immutable, compared by value), not a frozen dataclass: the service
    makes one a player before every round, and a frozen dataclass's `__init__` cost
    a dozen times as much (16,384 players: bench/RESULTS.md, issue 14).
    """

    id: PlayerId
    points: int
    rank: int
    opponents: frozenset = frozenset()
    had_bye: bool = False
    dropped: bool = False


@dataclass
class Pairing:
    """The pairing of one round.

    `pairs` are in table order (table 1 first), the higher-ranked player first.
    `notes` has an entry for every player paired down or up and for the bye.
    `rematches` and `forbidden_pairs` count the unavoidable ones (each has a warning).
    `score_gap` is the sum of the points differences over the pairs;
    `score_gap_bound` is the least the score groups allow once the bye is given.
    """

    pairs: list[tuple[PlayerId, PlayerId]]
    bye: PlayerId | None
    notes: dict[PlayerId, str] = field(default_factory=dict)
    rematches: int = 0
    warnings: list[dict] = field(default_factory=list)
    """For staff, each {"code": one of WARNINGS, **its data}: player ids, never sentences
    (tournaments/pairing_warnings.py says them in the reader's language, with names)."""
    method: str = "exact"
    forbidden_pairs: int = 0
    score_gap: int = 0
    score_gap_bound: int = 0
    stats: dict = field(default_factory=dict)
    """How it was computed: score groups, exact blocks and the players in them."""
    certified: bool = True
    """Proven least-cost (method "exact"); False: the groups method's pairing, not proven
    (method="groups", or "auto" when no certificate was found cheaply: with a warning)."""


def seed_key(seed: str | int, player_id: PlayerId) -> int:
    """The player's seeded tie-break key (64 bits of BLAKE2b over seed and id)."""
    digest = hashlib.blake2b(f"{seed}\x1f{player_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def pair_key(seed: str | int, a: PlayerId, b: PlayerId) -> int:
    """The seeded key of the unordered pair {a, b} (used by the U tier)."""
    x, y = sorted((str(a), str(b)))
    digest = hashlib.blake2b(f"{seed}\x1f{x}\x1f{y}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


class _P:
    """A working copy of an active player (indices instead of lookups in hot loops)."""

    __slots__ = ("id", "pts", "pos", "h", "sk", "sp", "opp", "had_bye", "bad", "lvl", "part")

    def __init__(self, rec: PlayerRecord):
        self.id = rec.id
        self.pts = rec.points
        self.opp = rec.opponents
        self.had_bye = rec.had_bye
        self.bad = None  # ids of staff-forbidden partners, or None
        self.pos = self.h = self.sk = self.sp = self.lvl = self.part = 0


def _compatible(a: _P, b: _P) -> bool:
    """Neither a rematch nor a forbidden pair."""
    if b.id in a.opp or a.id in b.opp:
        return False
    return a.bad is None or b.id not in a.bad


def pair_round(
    players: Iterable[PlayerRecord],
    *,
    forbidden: Iterable[Iterable[PlayerId]] = frozenset(),
    seed: str | int,
    method: str = "auto",
    exact_limit: int = EXACT_LIMIT,
) -> Pairing:
    """Pair the next Swiss round. See the module docstring for what "best" means.

    `forbidden` is a collection of 2-element collections of player ids (pairs with
    a dropped or unknown player are ignored). Raises ValueError only for malformed
    input (a player listed twice, non-integer points or rank, a bad method).
    `method`: "auto" (certified least-cost at every size, or the groups pairing with
    `certified` False and a warning; a whole-event matching only up to `exact_limit`
    and FULL_LIMIT players), "exact" or "groups".
    """
    if method not in ("auto", "exact", "groups"):
        raise ValueError("method must be 'auto', 'exact' or 'groups'")
    records = list(players)
    ids = set()
    for r in records:
        if r.id in ids:
            raise ValueError(f"player {r.id!r} is listed twice")
        ids.add(r.id)
        if r.id is None:
            raise ValueError("a player id must not be None")
        if not isinstance(r.points, int) or not isinstance(r.rank, int):
            raise ValueError(f"player {r.id!r}: points and rank must be integers")
    active = [r for r in records if not r.dropped]
    active.sort(key=lambda r: (-r.points, r.rank, str(r.id)))
    ps = [_P(r) for r in active]
    n = len(ps)
    base = hashlib.blake2b(f"{seed}\x1f".encode(), digest_size=8)
    for i, p in enumerate(ps):
        p.pos = i
        p.h = n - 1 - i
        h = base.copy()
        h.update(str(p.id).encode())
        p.sk = int.from_bytes(h.digest(), "big")
    by_id = {p.id: p for p in ps}
    for pair in forbidden:
        pair = tuple(pair)
        if len(pair) != 2:
            raise ValueError(f"a forbidden pair must have two players: {pair!r}")
        a, b = pair
        if a in by_id and b in by_id and a != b:
            for x, y in ((a, b), (b, a)):
                px = by_id[x]
                if px.bad is None:
                    px.bad = set()
                px.bad.add(y)
    seeded = sorted(ps, key=lambda p: (-p.pts, p.sk, str(p.id)))
    for i, p in enumerate(seeded):
        p.sp = i

    if n == 0:
        stats = {"parts": 0, "solved_parts": 0, "largest_solved": 0}
        return Pairing(pairs=[], bye=None, method="exact", stats=stats)
    if method == "groups":
        result = _pair_groups(ps, seeded, n, seed)
        if result is None:  # only the whole event, solved exactly, will do
            pairs, bye, _ = _solve_exact(ps, n, seed, with_bye=n % 2 == 1, out_pts=None)
            used, stats = "exact", {"parts": 1, "solved_parts": 1, "largest_solved": n}
        else:
            pairs, bye, stats = result
            used = "groups"
    else:
        # "auto": the certified parts at every size (one-level parts by `_line_pairs`),
        # matchings within FULL_LIMIT's work, else the groups pairing, said so
        budget = None if method == "exact" else min(FULL_LIMIT, exact_limit)
        pairs, bye, stats, used = _exact(ps, seeded, n, seed, budget, line=method == "auto")
    pairing = _finish(ps, pairs, bye, used)
    pairing.stats = stats
    pairing.certified = used == "exact"
    if method == "auto" and not pairing.certified:
        pairing.warnings.append({"code": NOT_PROVEN})
    return pairing


# --------------------------------------------------------------------------- exact


class _NotPerfect(AssertionError):
    """`_solve_exact` found no perfect matching (only possible with `sparse`)."""


def _solve_exact(
    ps: list[_P],
    n_total: int,
    seed,
    *,
    with_bye: bool,
    out_pts: int | None,
    sparse: bool = False,
) -> tuple[list[tuple[_P, _P]], _P | None, _P | None]:
    """Least-cost pairing of `ps` (a maximum-weight matching with integer weights).

    with_bye: add a bye vertex (odd number of players). out_pts: add a vertex for
    the floater this block passes down to a group with that many points. sparse:
    leave out rematches, forbidden pairs and pairs more than one score level apart
    (`lvl`); only for blocks `_certified_blocks` proved need no others. Returns
    (pairs, bye player, outgoing floater).
    """
    k = len(ps)
    extra = 1 if (with_bye or out_pts is not None) else 0
    if (k + extra) % 2:
        raise AssertionError("odd block")
    npairs = (k + extra) // 2
    pts = [p.pts for p in ps] + ([out_pts] if out_pts is not None else [])
    spread = max(pts) - min(pts) if pts else 0
    use_u = n_total <= UNIQUE_LIMIT
    edges = k * (k - 1) // 2
    # Largest possible totals of each tier, lowest tier first; each radix exceeds them.
    u_rad = (1 << edges) if use_u else 1
    s_rad = npairs * n_total + 1
    l_rad = npairs * n_total + 1
    g2_rad = npairs * spread * spread + 1
    g1_rad = npairs * spread + 1
    y_rad = n_total + 1
    r_rad = npairs + 1
    f_rad = npairs + 1
    m_s = u_rad
    m_l = m_s * s_rad
    m_g2 = m_l * l_rad
    m_g1 = m_g2 * g2_rad
    m_y = m_g1 * g1_rad
    m_r = m_y * y_rad
    m_f = m_r * r_rad
    m_b = m_f * f_rad
    top = m_b * 4  # exceeds any single edge cost: every weight is positive

    if use_u:
        order = sorted(
            (pair_key(seed, ps[i].id, ps[j].id), i, j) for i in range(k) for j in range(i + 1, k)
        )
        u_bit = {(i, j): 1 << idx for idx, (_, i, j) in enumerate(order)}
    g = nx.Graph()
    g.add_nodes_from(range(k + extra))
    for i in range(k):
        for j in range(i + 1, k):
            a, b = (ps[i], ps[j]) if ps[i].pos < ps[j].pos else (ps[j], ps[i])
            if sparse and (b.lvl - a.lvl > 1 or not _compatible(a, b)):
                continue
            d = a.pts - b.pts
            cost = d * m_g1 + d * d * m_g2 + abs(a.sp - b.sp) * m_s
            if d:
                cost += a.h * m_l
            if b.id in a.opp or a.id in b.opp:
                cost += m_r
            if a.bad is not None and b.id in a.bad:
                cost += m_f
            if use_u:
                cost += u_bit[(i, j)]
            g.add_edge(i, j, weight=top - cost)
    if with_bye:
        for i, p in enumerate(ps):
            cost = (m_b if p.had_bye else 0) + p.h * m_y
            g.add_edge(i, k, weight=top - cost)
    elif out_pts is not None:
        for i, p in enumerate(ps):
            d = p.pts - out_pts
            cost = d * m_g1 + d * d * m_g2 + p.h * m_l
            g.add_edge(i, k, weight=top - cost)
    matching = nx.max_weight_matching(g, maxcardinality=True)
    pairs, special = [], None
    for i, j in matching:
        if i > j:
            i, j = j, i
        if j == k:
            special = ps[i]
        else:
            pairs.append((ps[i], ps[j]))
    if len(pairs) * 2 + (special is not None) != k:
        raise _NotPerfect("the matching is not perfect")
    if with_bye:
        return pairs, special, None
    return pairs, None, special


def _exact(ps: list[_P], seeded: list[_P], n: int, seed, budget: int | None, line=False):
    """The least-cost pairing, split into independent parts when that is proven.

    The groups method gives a pairing M0 in about a millisecond; `_certified_parts`
    checks whether M0 proves that the least-cost pairing splits into independent
    parts. A one-level part where M0 pairs the players 1-2, 3-4, ... in seeded
    order (the least S there is, and the only pairing that reaches it) keeps M0's
    pairs; every other part is solved exactly on its own. Without a certificate the
    whole event is one matching on the complete graph.

    `budget` (None = no limit) caps the work, counted as the sum of the cubes of
    the sizes of the matchings to solve, at that of one matching of `budget`
    players; past it, M0 itself is returned, marked "groups" (it has no avoidable
    rematch either, see `_pair_groups`). Returns (pairs, bye, stats, method).
    """
    m0 = _pair_groups(ps, seeded, n, seed) if n > 2 else None
    if m0 is not None:
        m0_pairs, bye, m0_stats = m0
        cert = _certified_parts(ps, m0_pairs, bye)
        if cert is not None:
            parts, per_level = cert
            for k, part in enumerate(parts):
                for p in part:
                    p.part = k
            kept: list[list[tuple[_P, _P]]] = [[] for _ in parts]
            for a, b in m0_pairs:
                kept[a.part].append((a, b))
            todo = []
            for k, part in enumerate(parts):
                if len(part) == 2:
                    continue
                if per_level:
                    sps = sorted(p.sp for p in part)
                    least = sum(sps[i + 1] - sps[i] for i in range(0, len(sps), 2))
                    if sum(abs(a.sp - b.sp) for a, b in kept[k]) == least:
                        continue
                todo.append(k)
            if not per_level and n > UNIQUE_LIMIT and (line or budget is None):
                # M0 is at the G1 and G2 bounds but off the L bound: weigh the floaters
                # (`_parts_by_floaters`), each part solved on the line ("auto") or by
                # matching ("exact")
                if line:
                    solve_part = _least_s_on_the_line
                else:
                    solve_part = functools.partial(_least_s_by_matching, n, seed)
                chosen = _parts_by_floaters(ps, bye, m0_pairs, solve_part)
                if chosen is not None:
                    level_parts, pairs, above_bound = chosen
                    stats = {
                        "parts": len(level_parts),
                        "solved_parts": len(level_parts),
                        "largest_solved": max(len(part) for part in level_parts),
                        "line": line,
                        "l_bound": above_bound == 0,
                        "l_above_bound": above_bound,
                    }
                    return pairs, bye, stats, "exact"
            if line and per_level and n > UNIQUE_LIMIT:
                solved = [_line_pairs(parts[k], kept[k]) for k in todo]
                if all(pairs is not None for pairs in solved):
                    for k, pairs in zip(todo, solved, strict=True):
                        kept[k] = pairs
                    stats = {
                        "parts": len(parts),
                        "solved_parts": len(todo),
                        "largest_solved": max((len(parts[k]) for k in todo), default=0),
                        "line": True,
                    }
                    return [pr for part_pairs in kept for pr in part_pairs], bye, stats, "exact"
            work = sum(len(parts[k]) ** 3 for k in todo)
            if budget is None or work <= budget**3:
                for k in todo:
                    kept[k] = _solve_exact(
                        parts[k], n, seed, with_bye=False, out_pts=None, sparse=True
                    )[0]
                stats = {
                    "parts": len(parts),
                    "solved_parts": len(todo),
                    "largest_solved": max((len(parts[k]) for k in todo), default=0),
                }
                return [pr for part_pairs in kept for pr in part_pairs], bye, stats, "exact"
        if budget is not None and (cert is not None or n > budget):
            return m0_pairs, bye, {**m0_stats, "exact_declined": True}, "groups"
    pairs, bye, _ = _solve_exact(ps, n, seed, with_bye=n % 2 == 1, out_pts=None)
    return pairs, bye, {"parts": 1, "solved_parts": 1, "largest_solved": n}, "exact"


LINE_STATES = 4096
"""The most open-player states `_line_pairs` keeps at one position before it gives up."""


def _line_pairs(
    part: list[_P], upper: list[tuple[_P, _P]] | None, excess: int | None = None
) -> list[tuple[_P, _P]] | None:
    """The least-S pairing of a one-level part without a rematch or forbidden pair, or None.

    In a part of `_certified_parts` that is one score level (plus the floater it receives),
    every tier but S is the same for every clean pairing, and S is a sum of distances on a
    line (the seeded positions sp). Sorted by sp, N pairs the players 1-2, 3-4, ...: for any
    pairing, S = sum over the gaps between neighbours of (gap length) x (pairs spanning it);
    a gap with an odd number of players to its left is spanned at least once, one with an
    even number an even number of times, so S >= S(N) ("least") and E = S(upper) - least
    bounds how far an optimum M strays from N (`upper`, the groups method's clean pairing,
    is one at most that good). The even gaps M does not span cut it into segments; a
    segment longer than one pair spans each of its inner even gaps twice or more, costing
    E >= 2 per inner gap, and holds a pair of N that is a rematch or forbidden (else N's
    pairs there would be cheaper). So M is N except within E // 2 pairs of N's bad pairs:
    each such window (windows that overlap merge) is solved exactly by a dynamic programme
    over its positions, left to right, whose state is the set of players waiting for a
    partner, keeping only states whose cost so far plus the least the remaining gaps must
    cost stays within the window's least + E. The result has the least S: an exact optimum.
    None if a position would keep more than LINE_STATES states (the caller then solves the
    part by matching or keeps `upper`, saying so). Without `upper`, `excess` is given: the
    least S within least + excess, or None when there is none.
    """
    pts = sorted(part, key=lambda p: p.sp)
    xs = [p.sp for p in pts]
    least = sum(xs[i + 1] - xs[i] for i in range(0, len(xs), 2))
    if upper is not None:
        excess = sum(abs(a.sp - b.sp) for a, b in upper) - least
    reach = max(excess, 0) // 2
    npairs = len(pts) // 2
    windows: list[list[int]] = []  # [first pair, last pair] of N, merged
    for k in range(npairs):
        if not _compatible(pts[2 * k], pts[2 * k + 1]):
            lo, hi = max(0, k - reach), min(npairs - 1, k + reach)
            if windows and lo <= windows[-1][1] + 1:
                windows[-1][1] = max(windows[-1][1], hi)
            else:
                windows.append([lo, hi])
    pairs = []
    done = 0
    for lo, hi in windows:
        pairs.extend((pts[2 * k], pts[2 * k + 1]) for k in range(done, lo))
        solved = _line_window(pts[2 * lo : 2 * hi + 2], excess)
        if solved is None:
            return None
        pairs.extend(solved)
        done = hi + 1
    pairs.extend((pts[2 * k], pts[2 * k + 1]) for k in range(done, npairs))
    return pairs


FLOAT_SLACK = 8
"""How far above the L bound `_parts_by_floaters` looks for the least L."""

FLOAT_CHOICES = 2000
"""The most choices of floaters `_parts_by_floaters` weighs before it gives up."""

SMALL_PART = LINE_STATES.bit_length() - 1
"""A part of at most this many players (12) is solved on the line with no bound on S: its
programme then keeps at most 2**SMALL_PART <= LINE_STATES states, so finding no clean
pairing proves that there is none."""


class _Unknown(Exception):
    """A part's least S was neither found nor proven not to exist (the caller gives up)."""


def _parts_by_floaters(ps: list[_P], bye: _P | None, upper: list[tuple[_P, _P]], solve_part):
    """The least-cost pairing of an event whose groups pairing `upper` is clean and at the
    G1 and G2 bounds, at the L bound or not: (parts, pairs, L above the bound) or None.

    `_certified_parts` (called before: it set each player's `lvl`) proved that every
    least-cost pairing crosses each odd boundary with exactly one pair, between the two
    levels beside it, and no other boundary. Such a pairing is a choice of floaters, one
    player f(i) of each level i above an odd boundary, and a clean pairing of each level's
    part (its members less the floater it passes down, plus the one it receives), whose
    tiers above S are the same for every choice but L = the sum of h(f(i)). L is at least
    the bound (each f(i) the lowest-ranked of its level) and, `upper` being such a pairing,
    at most L(upper) = bound + slack, so f(i) is one of the slack + 1 lowest-ranked players
    of its level. The choices are weighed by L, bound + 0, + 1, ...: the first L at which a
    choice has a clean pairing of every part is the least L, and the choice there with the
    least total of its parts' least S (`solve_part`: (S, pairs), None when the part has no
    clean pairing; it raises _Unknown when it cannot tell) has the least S: that pairing
    is least-cost on every tier. None when slack > FLOAT_SLACK, past FLOAT_CHOICES choices
    or when a part is _Unknown.
    """
    rest = [p for p in ps if p is not bye]
    if not rest:
        return None
    nlev = rest[-1].lvl + 1
    members: list[list[_P]] = [[] for _ in range(nlev)]
    for p in rest:
        members[p.lvl].append(p)  # by rank: the last is the lowest-ranked
    odd, above = [], 0
    for lv in range(nlev - 1):
        above += len(members[lv])
        if above % 2:
            odd.append(lv)
    slack = sum(a.h if a.pts > b.pts else b.h for a, b in upper if a.pts != b.pts)
    slack -= sum(members[lv][-1].h for lv in odd)
    if not 0 <= slack <= FLOAT_SLACK:
        return None
    choices = [[p for p in reversed(members[lv]) if p.h - members[lv][-1].h <= slack] for lv in odd]
    solved: dict = {}  # (level, floater in, floater out) -> (S, pairs, players) or None

    def part_keys(floaters: dict) -> list[tuple]:
        return [(lv, floaters.get(lv - 1), floaters.get(lv)) for lv in range(nlev)]

    def solve(key: tuple):
        if key not in solved:
            lv, f_in, f_out = key
            players = [p for p in members[lv] if p is not f_out]
            if f_in is not None:
                players.append(f_in)
            found = solve_part(players)
            solved[key] = None if found is None else (*found, players)
        return solved[key]

    try:
        for extra in range(slack + 1):
            best = None
            for count, floaters in enumerate(_floater_choices(odd, choices, extra)):
                if count == FLOAT_CHOICES:
                    return None
                keys = part_keys(floaters)
                if any(key in solved and solved[key] is None for key in keys):
                    continue  # a part already known to have no clean pairing
                found = [solve(key) for key in keys]
                if all(found) and (best is None or sum(f[0] for f in found) < best[0]):
                    best = (sum(f[0] for f in found), found)
            if best is not None:
                pairs = [pr for f in best[1] for pr in f[1]]
                return [f[2] for f in best[1] if f[2]], pairs, extra
    except _Unknown:
        return None
    return None


def _floater_choices(odd: list[int], choices: list[list[_P]], extra: int):
    """Every choice of floaters ({level: player}) whose h sum to the L bound + `extra`;
    `choices[k]` are the candidates of level odd[k], lowest-ranked (least h) first."""
    if not odd:
        if extra == 0:
            yield {}
        return
    low = choices[0][0].h
    for p in choices[0]:
        if p.h - low > extra:
            break
        for more in _floater_choices(odd[1:], choices[1:], extra - (p.h - low)):
            yield {odd[0]: p, **more}


def _least_s_by_matching(n: int, seed, part: list[_P]) -> tuple[int, list] | None:
    """A one-level part's least S and its clean pairing by one matching of the part (the
    method="exact" twin of `_least_s_on_the_line`); None when it has no clean pairing."""
    pts = sorted(part, key=lambda p: p.sp)
    seeded = list(zip(pts[::2], pts[1::2], strict=True))
    if all(_compatible(a, b) for a, b in seeded):  # 1-2, 3-4: the unique least S, no solving
        return sum(b.sp - a.sp for a, b in seeded), seeded
    try:
        pairs = _solve_exact(part, n, seed, with_bye=False, out_pts=None, sparse=True)[0]
    except _NotPerfect:
        return None
    return sum(abs(a.sp - b.sp) for a, b in pairs), pairs


def _least_s_on_the_line(part: list[_P]) -> tuple[int, list[tuple[_P, _P]]] | None:
    """A one-level part's least S and its clean pairing by `_line_pairs` (with a growing
    allowance above the least: the first that has a clean pairing has the least one); None
    when it has no clean pairing, _Unknown when that cannot be told within the limits."""
    part = sorted(part, key=lambda p: p.sp)  # once: `_line_pairs` sorts it again, in no time
    for excess in (0, 2, 4, 8, 16, 32, 64):
        pairs = _line_pairs(part, None, excess)
        if pairs is not None:
            return sum(abs(a.sp - b.sp) for a, b in pairs), pairs
    if len(part) > SMALL_PART:
        raise _Unknown
    sps = [p.sp for p in part]
    pairs = _line_pairs(part, None, len(part) * (max(sps) - min(sps)))  # no bound at all
    if pairs is None:
        return None
    return sum(abs(a.sp - b.sp) for a, b in pairs), pairs


def _line_window(pts: list[_P], excess: int) -> list[tuple[_P, _P]] | None:
    """The least-S clean pairing of `pts` (sorted by sp) if it costs at most least + excess."""
    m = len(pts)
    xs = [p.sp for p in pts]
    # suffix[i]: the least cost of the gaps after position i (odd gaps are spanned once)
    suffix = [0] * (m + 1)
    for i in range(m - 2, -1, -1):
        suffix[i] = suffix[i + 1] + ((xs[i + 1] - xs[i]) if i % 2 == 0 else 0)
    bound = suffix[0] + excess
    # layer: state (tuple of waiting positions) -> (cost, previous state, pair made or None)
    layers: list[dict] = []
    layer: dict = {(): (0, None, None)}
    for i in range(m):
        gap = xs[i] - xs[i - 1] if i else 0
        nxt: dict = {}
        p = pts[i]
        for state in sorted(layer):
            cost = layer[state][0] + gap * len(state)
            if cost + suffix[i] > bound:
                continue
            options = [(state + (i,), None)]
            for j in state:
                if _compatible(pts[j], p):
                    options.append((tuple(k for k in state if k != j), (j, i)))
            for new, pair in options:
                old = nxt.get(new)
                if old is None or cost < old[0]:
                    nxt[new] = (cost, state, pair)
        if len(nxt) > LINE_STATES:
            return None
        layers.append(nxt)
        layer = nxt
    if () not in layer:  # no clean pairing within the bound: cannot happen for a window
        return None
    pairs, state = [], ()
    for i in range(m - 1, -1, -1):
        _cost, prev, pair = layers[i][state]
        if pair is not None:
            pairs.append((pts[pair[0]], pts[pair[1]]))
        state = prev
    return pairs


def _certified_parts(
    ps: list[_P], pairs: list[tuple[_P, _P]], bye: _P | None
) -> tuple[list[list[_P]], bool] | None:
    """Independent parts of the exact problem that `pairs` proves, or None.

    Returns (parts, True) when the parts are single levels, (blocks, False) otherwise.

    Bounds that hold for every pairing with this bye (levels = score groups once the
    bye is removed; a boundary between two levels is "odd" when an odd number of
    players rank above it; w = the points between the two levels):
      G1 >= sum of w over odd boundaries (each must be crossed by some pair),
      G2 >= sum of w**2 over odd boundaries,
      L  >= sum over odd boundaries of h(lowest-ranked player of the level above).
    The groups method's bye is the (B, Y)-best one. If `pairs` has no rematch or
    forbidden pair and meets the G1 and G2 bounds, so does every least-cost pairing:
    it crosses each odd boundary with exactly one pair, joining adjacent levels, and
    no other boundary, so the event splits at the even boundaries. If `pairs` also
    meets the L bound, every least-cost pairing floats the lowest-ranked player of
    each level above an odd boundary, and the event splits into one part per level:
    its members, less the player it floats, plus the player floated into it.
    """
    rest = [p for p in ps if p is not bye]
    levels: list[int] = []  # points of each level, best first
    for p in rest:
        if not levels or levels[-1] != p.pts:
            levels.append(p.pts)
        p.lvl = len(levels) - 1
    odd: list[bool] = []  # boundary i lies between levels i and i + 1
    lowest: list[_P] = []  # lowest-ranked player of each level
    for k, p in enumerate(rest):
        if k + 1 == len(rest) or rest[k + 1].lvl != p.lvl:
            lowest.append(p)
            if k + 1 < len(rest):
                odd.append((k + 1) % 2 == 1)
    bound_g1 = bound_g2 = bound_l = 0
    for i, is_odd in enumerate(odd):
        if is_odd:
            w = levels[i] - levels[i + 1]
            bound_g1 += w
            bound_g2 += w * w
            bound_l += lowest[i].h
    g1 = g2 = l_ = 0
    for a, b in pairs:
        if not _compatible(a, b):
            return None
        d = a.pts - b.pts
        if d:
            g1 += abs(d)
            g2 += d * d
            l_ += a.h if d > 0 else b.h
    if g1 != bound_g1 or g2 != bound_g2:
        return None
    if l_ == bound_l:
        parts: list[list[_P]] = [[] for _ in levels]
        for p in rest:
            lv = p.lvl
            if lv < len(odd) and odd[lv] and p is lowest[lv]:
                parts[lv + 1].append(p)  # floats into the level below
            else:
                parts[lv].append(p)
        return [part for part in parts if part], True
    blocks: list[list[_P]] = [[]]
    for p in rest:
        if blocks[-1] and blocks[-1][-1].lvl != p.lvl and not odd[p.lvl - 1]:
            blocks.append([])
        blocks[-1].append(p)
    return [b for b in blocks if b], False


# -------------------------------------------------------------------------- groups


def _greedy_pairs(seq: list[_P]) -> list[tuple[_P, _P]] | None:
    """Pair `seq` 1-2, 3-4, ... skipping incompatible partners; repair at a dead end.

    Returns None when it finds no rematch-free completion (the caller then solves
    exactly): it is a fast path, not the guarantee.
    """
    remaining = list(seq)
    pairs: list[tuple[_P, _P]] = []
    i = 0
    while i < len(remaining):
        a = remaining[i]
        m = len(remaining)
        j = i + 1
        while j < m and not _compatible(a, remaining[j]):
            j += 1
        if j < m:
            if j != i + 1:
                remaining.insert(i + 1, remaining.pop(j))
            pairs.append((a, remaining[i + 1]))
            i += 2
            continue
        rest = remaining[i + 1 :]
        if not rest:
            return None
        # Dead end: a has no compatible partner left. Swap into an earlier pair
        # (c, d): a meets c (or d) and some leftover y meets the other.
        found = None
        for pk in range(len(pairs) - 1, -1, -1):
            c, d = pairs[pk]
            for y in rest:
                if _compatible(a, c) and _compatible(y, d):
                    found = (pk, (c, a), (d, y), y)
                elif _compatible(a, d) and _compatible(y, c):
                    found = (pk, (c, y), (d, a), y)
                if found:
                    break
            if found:
                break
        if found is None:
            return None
        pk, p1, p2, y = found
        pairs[pk] = p1
        pairs.append(p2)
        rest.remove(y)
        remaining = rest
        i = 0
    return pairs


def _greedy_group(
    members_by_rank: list[_P], members_seeded: list[_P], incoming: _P | None, last: bool
) -> tuple[list[tuple[_P, _P]], _P | None] | None:
    """Pair one score group (plus the floater it received); None if it fails."""
    odd = (len(members_by_rank) + (incoming is not None)) % 2 == 1
    if odd and last:
        return None
    candidates = members_by_rank[::-1][:_GREEDY_FLOAT_TRIES] if odd else [None]
    for out in candidates:
        rest = [m for m in members_seeded if m is not out] if out is not None else members_seeded
        pairs: list[tuple[_P, _P]] = []
        if incoming is not None:
            partner = next((m for m in rest if _compatible(incoming, m)), None)
            if partner is None:
                continue
            pairs.append((incoming, partner))
            rest = [m for m in rest if m is not partner]
        more = _greedy_pairs(rest)
        if more is not None:
            return pairs + more, out
    return None


def _pair_groups(ps: list[_P], seeded: list[_P], n: int, seed):
    """The large-event method; None when only the whole-event exact pairing will do."""
    bye = None
    if n % 2:
        bye = next((p for p in reversed(ps) if not p.had_bye), ps[-1])
    groups_rank: list[list[_P]] = []
    for p in ps:
        if p is bye:
            continue
        if groups_rank and groups_rank[-1][0].pts == p.pts:
            groups_rank[-1].append(p)
        else:
            groups_rank.append([p])
    groups_seeded: list[list[_P]] = []
    for p in seeded:
        if p is bye:
            continue
        if groups_seeded and groups_seeded[-1][0].pts == p.pts:
            groups_seeded[-1].append(p)
        else:
            groups_seeded.append([p])
    ng = len(groups_rank)
    # Segments: (first group, floater received, pairs, players solved exactly or 0).
    segments: list[tuple[int, _P | None, list, int]] = []
    gi, incoming = 0, None
    while gi < ng:
        last = gi == ng - 1
        res = _greedy_group(groups_rank[gi], groups_seeded[gi], incoming, last)
        if res is not None:
            pairs, out = res
            segments.append((gi, incoming, pairs, 0))
            incoming, gi = out, gi + 1
            continue
        start, end, inc = gi, gi, incoming
        while True:
            block = [inc] if inc is not None else []
            for g in range(start, end + 1):
                block.extend(groups_rank[g])
            passes = len(block) % 2 == 1
            if passes and end == ng - 1:
                raise AssertionError("odd number of players below the bye")
            out_pts = groups_rank[end + 1][0].pts if passes else None
            pairs, _, out = _solve_exact(block, n, seed, with_bye=False, out_pts=out_pts)
            if all(_compatible(a, b) for a, b in pairs):
                break
            if end < ng - 1:
                end += 1
            elif segments:  # nothing below: undo the segment above and solve both
                start, inc, _, _ = segments.pop()
            else:
                return None
        segments.append((start, inc, pairs, len(block)))
        incoming, gi = out, end + 1
    pairs = [pr for seg in segments for pr in seg[2]]
    stats = {
        "score_groups": ng,
        "exact_blocks": sum(1 for seg in segments if seg[3]),
        "exact_block_players": sum(seg[3] for seg in segments),
    }
    return pairs, bye, stats


# -------------------------------------------------------------------------- result


def _finish(ps: list[_P], pairs: list[tuple[_P, _P]], bye: _P | None, method: str) -> Pairing:
    """Order the tables, count rematches, write the notes and the warnings."""
    ordered = []
    for a, b in pairs:
        if a.pos > b.pos:
            a, b = b, a
        ordered.append((a, b))
    ordered.sort(key=lambda ab: ab[0].pos)
    notes: dict[PlayerId, str] = {}
    warnings: list[dict] = []
    rematches = forbidden = gap = 0
    for table, (a, b) in enumerate(ordered, 1):
        d = a.pts - b.pts
        gap += d
        if d:
            notes[a.id] = f"paired down: {a.pts} pts v {b.id} ({b.pts} pts), table {table}"
            notes[b.id] = f"paired up: {b.pts} pts v {a.id} ({a.pts} pts), table {table}"
        if b.id in a.opp or a.id in b.opp:
            rematches += 1
            warnings.append({"code": REMATCH, "table": table, "players": [a.id, b.id]})
        if a.bad is not None and b.id in a.bad:
            forbidden += 1
            warnings.append({"code": FORBIDDEN_PAIR, "table": table, "players": [a.id, b.id]})
    if bye is not None:
        eligible = [p for p in ps if not p.had_bye]
        if bye.had_bye:
            notes[bye.id] = "bye: second bye (every active player has had one)"
            warnings.append({"code": SECOND_BYE, "player": bye.id})
        elif bye is eligible[-1]:
            notes[bye.id] = "bye: lowest-ranked player without a bye"
        else:
            low = eligible[-1]
            notes[bye.id] = (
                f"bye: {low.id}, ranked lower, could not take it without "
                "a rematch or a forbidden pair"
            )
            warnings.append({"code": BYE_ABOVE, "player": bye.id, "lower": low.id})
    # The least score gap the groups allow: neighbours in points order, bye removed.
    pts = [p.pts for p in ps if p is not bye]
    bound = sum(pts[i] - pts[i + 1] for i in range(0, len(pts) - 1, 2))
    return Pairing(
        pairs=[(a.id, b.id) for a, b in ordered],
        bye=bye.id if bye is not None else None,
        notes=notes,
        rematches=rematches,
        warnings=warnings,
        method=method,
        forbidden_pairs=forbidden,
        score_gap=gap,
        score_gap_bound=bound,
    )
