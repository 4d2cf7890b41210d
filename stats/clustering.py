"""Archetypes found in decklists (docs/stats.md, "Archetypes"): pure functions over lists
of {code: copies}, no Django. tests/stats/test_archetypes.py checks them on hand-built
lists whose clusters are obvious.

The method, and why:
1. Each list gets its **race pair**: the (at most two) races holding at least PAIR_SHARE of
   its copies. Lists are only ever compared within one pair, so an archetype never mixes
   races that oppose each other: a Zarg-Xeno list and a Zarg-Human list may share their
   Zarg half, and still play differently.
2. Within a pair, a list is its vector of **card shares** (copies / the list's copies), and
   two lists are as far apart as the **cosine distance** of their vectors: it compares what
   fraction of each list a card is, so a 45-card and a 60-card version of the same idea sit
   together, and cards neither list plays do not make them alike (unlike a Euclidean
   distance over hundreds of zero columns).
3. **Agglomerative clustering with average linkage** (scikit-learn) merges the two closest
   groups until the mean distance between any two of their lists would pass
   MERGE_DISTANCE. No number of archetypes is chosen in advance (k-means would need one),
   every list is placed (HDBSCAN would call a small meta's lists noise), and it is
   deterministic: the same lists in the same order give the same archetypes, with no
   random state to fix.
4. A cluster of fewer than MIN_LISTS lists is no archetype: its lists go to the pair's
   "other" group, so a one-off brew does not name an archetype.
"""

from collections import Counter
from collections.abc import Mapping, Sequence
from statistics import median_low

import numpy as np

PAIR_SHARE = 0.2  # a race is part of a list's pair from a fifth of its copies
MERGE_DISTANCE = 0.5  # average cosine distance at which two groups stay apart
MIN_LISTS = 3  # an archetype needs this many lists; fewer go to the pair's "other"
TYPICAL_SHARE = 0.5  # a typical card: played by at least half the archetype's lists
SIGNATURE = 2  # cards that name an archetype
OTHER = -1  # the label of a pair's lists in no archetype of their own

List = Mapping[str, int]


def race_pair(cards: List, races: Mapping[str, str]) -> tuple[str, ...]:
    """The races (alphabetical, at most two) holding PAIR_SHARE of the list's copies; the
    two with the most copies when three qualify; () for a list of raceless cards."""
    copies: Counter = Counter()
    for code, count in cards.items():
        if races.get(code):
            copies[races[code]] += count
    total = sum(cards.values())
    qualified = sorted(
        (-count, race) for race, count in copies.items() if total and count / total >= PAIR_SHARE
    )
    return tuple(sorted(race for _count, race in qualified[:2]))


def share_vectors(lists: Sequence[List], codes: Sequence[str]) -> np.ndarray:
    """One row a list: each code's part of the list's copies."""
    column = {code: i for i, code in enumerate(codes)}
    vectors = np.zeros((len(lists), len(codes)))
    for row, cards in enumerate(lists):
        total = sum(cards.values()) or 1
        for code, count in cards.items():
            if code in column:
                vectors[row, column[code]] = count / total
    return vectors


def cluster(lists: Sequence[List]) -> list[int]:
    """A label per list (one race pair's lists): 0 for the biggest archetype, 1 for the
    next (ties: the one whose first list comes first), OTHER for lists in no archetype."""
    if len(lists) < MIN_LISTS:
        return [OTHER] * len(lists)
    # Imported here, not at the top: scikit-learn takes over a second to import, and every
    # process that loads the stats app (web, workers, each manage.py command) would pay it
    # for a refresh that runs only after events and in rebuild_stats.
    from sklearn.cluster import AgglomerativeClustering

    codes = sorted({code for cards in lists for code in cards})
    found = AgglomerativeClustering(
        n_clusters=None,
        metric="cosine",
        linkage="average",
        distance_threshold=MERGE_DISTANCE,
    ).fit_predict(share_vectors(lists, codes))
    return _relabelled(list(found))


def _relabelled(found: list[int]) -> list[int]:
    sizes = Counter(found)
    first = {label: found.index(label) for label in sizes}
    big = [label for label in sizes if sizes[label] >= MIN_LISTS]
    kept = sorted(big, key=lambda label: (-sizes[label], first[label]))
    order = {label: rank for rank, label in enumerate(kept)}
    return [order.get(label, OTHER) for label in found]


def typical_list(members: Sequence[List]) -> list[tuple[str, int, float]]:
    """(code, typical copies, share of the lists playing it) of the cards at least
    TYPICAL_SHARE of the lists play; copies: the median among those lists (the lower
    middle of an even count: a real list's number). Most played first."""
    playing: dict[str, list[int]] = {}
    for cards in members:
        for code, count in cards.items():
            playing.setdefault(code, []).append(count)
    rows = [
        (code, median_low(counts), len(counts) / len(members))
        for code, counts in playing.items()
        if len(counts) / len(members) >= TYPICAL_SHARE
    ]
    return sorted(rows, key=lambda row: (-row[2], -row[1], row[0]))


def signature(typical: Sequence[tuple[str, int, float]], pair_lists: Sequence[List]) -> list[str]:
    """The archetype's most characteristic cards: the typical cards whose share of its
    lists most exceeds their share of all the pair's lists (a card every list of the pair
    plays names nothing)."""
    played = Counter(code for cards in pair_lists for code in cards)
    lift = [
        (share - played[code] / len(pair_lists), share, code) for code, _copies, share in typical
    ]
    ranked = sorted(lift, key=lambda row: (-row[0], -row[1], row[2]))
    return [code for _lift, _share, code in ranked[:SIGNATURE]]


def nearest(lists: Sequence[List], centroids: Mapping[int, List]) -> list[int | None]:
    """For each list, the archetype whose mean shares are closest (cosine), if within
    MERGE_DISTANCE; None when no archetype is that close. One matrix product for all."""
    if not centroids or not lists:
        return [None] * len(lists)
    labels = sorted(centroids)
    codes = sorted(set().union(*lists, *centroids.values()))
    placed = _unit_rows(share_vectors(lists, codes))
    means = _unit_rows(share_vectors([centroids[label] for label in labels], codes))
    similarity = placed @ means.T
    best = similarity.argmax(axis=1)
    return [
        labels[b] if 1 - similarity[row, b] <= MERGE_DISTANCE else None
        for row, b in enumerate(best)
    ]


def _unit_rows(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1
    return vectors / norms


def centroid(members: Sequence[List]) -> dict[str, float]:
    """The mean card shares of the lists (each list's shares summing to one)."""
    total: Counter = Counter()
    for cards in members:
        copies = sum(cards.values()) or 1
        for code, count in cards.items():
            total[code] += count / copies / len(members)
    return dict(total)
