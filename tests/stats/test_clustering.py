"""The archetypes' method (stats/clustering.py, docs/stats.md) on hand-built lists whose
clusters are obvious, with each figure computed by hand. Pure: no database."""

from stats.clustering import (
    OTHER,
    centroid,
    cluster,
    nearest,
    race_pair,
    signature,
    typical_list,
)

RACES = {"z1": "zarg", "z2": "zarg", "x1": "xeno", "h1": "human", "n1": ""}


def test_a_list_s_race_pair_is_the_races_with_a_fifth_of_its_copies():
    # zarg 12 of 21 copies, xeno 6 (29%), human 3 (14%: under a fifth), raceless 0
    assert race_pair({"z1": 6, "z2": 6, "x1": 6, "h1": 3}, RACES) == ("xeno", "zarg")
    # human 3 of 15 is exactly a fifth: in; three races qualify: the two with most copies
    assert race_pair({"z1": 6, "x1": 6, "h1": 3}, RACES) == ("xeno", "zarg")
    assert race_pair({"z1": 6, "x1": 3, "h1": 3}, RACES) == ("human", "zarg")  # tie: alphabet
    assert race_pair({"z1": 9, "n1": 3}, RACES) == ("zarg",)
    assert race_pair({"n1": 3}, RACES) == ()


AGGRO = [
    {"a1": 3, "a2": 3, "a3": 3, "a4": 3},
    {"a1": 3, "a2": 3, "a3": 3, "a5": 2},
    {"a1": 3, "a2": 2, "a3": 3, "a4": 3},
    {"a1": 3, "a2": 3, "a4": 3, "a5": 3},
]
CONTROL = [
    {"c1": 3, "c2": 3, "c3": 3},
    {"c1": 3, "c2": 3, "c3": 2, "c4": 1},
    {"c1": 2, "c2": 3, "c3": 3},
]
LONER = {"l1": 3, "l2": 3, "a1": 1}


def test_two_obvious_families_and_a_loner():
    """Aggro's lists share most of their cards, control's too, the two none; the loner
    shares one copy with aggro: too far from anything, and one list is no archetype."""
    lists = [CONTROL[0], *AGGRO[:2], LONER, *CONTROL[1:], *AGGRO[2:]]
    labels = cluster(lists)
    # the biggest archetype is 0 (aggro's four lists), then control (three), the loner other
    assert labels == [1, 0, 0, OTHER, 1, 1, 0, 0]
    assert cluster(lists) == labels, "the same lists give the same archetypes"


def test_too_few_lists_are_the_pair_s_other_lists():
    assert cluster(AGGRO[:2]) == [OTHER, OTHER]
    assert cluster([*AGGRO[:2], *CONTROL[:2]]) == [OTHER] * 4  # two families of two


def test_the_typical_list_by_hand():
    # a1: in 4 of 4, copies 3 3 3 3 -> 3; a2: 4 of 4, 3 3 2 3 -> 3; a3: 3 of 4, 3 3 3 -> 3;
    # a4: 3 of 4 -> 3; a5: 2 of 4 (half: in), copies 2 and 3, the lower middle -> 2
    assert typical_list(AGGRO) == [
        ("a1", 3, 1.0),
        ("a2", 3, 1.0),
        ("a3", 3, 0.75),
        ("a4", 3, 0.75),
        ("a5", 2, 0.5),
    ]


def test_the_signature_is_the_cards_that_set_it_apart_from_its_pair():
    """Across aggro and control (7 lists) a1 is in 4 + 0 (the loner aside): aggro's share
    of it (1.0) exceeds the pair's (4/7) by 0.43; a3 by 0.75 - 3/7 = 0.32; so a1 and a2
    (a tie with a1 broken by the code) name it."""
    typical = typical_list(AGGRO)
    assert signature(typical, [*AGGRO, *CONTROL]) == ["a1", "a2"]
    # a card every list of the pair plays names nothing: with a1 everywhere, a2 leads
    everywhere = [*AGGRO, *({**c, "a1": 1} for c in CONTROL)]
    assert signature(typical, everywhere) == ["a2", "a3"]


def test_a_list_is_placed_by_its_nearest_archetype_within_reach():
    centroids = {0: centroid(AGGRO), 1: centroid(CONTROL)}
    assert centroid([{"a": 1, "b": 3}, {"a": 2}]) == {"a": 0.625, "b": 0.375}
    placed = [{"a1": 3, "a2": 3, "a3": 3, "x9": 1}, {"c1": 3, "c2": 2}, LONER]
    assert nearest(placed, centroids) == [0, 1, None]
    assert nearest(AGGRO[:1], {}) == [None]
