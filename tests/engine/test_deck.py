"""R 9: colony construction, through engine.deck.check_deck (pure, no database)."""

import pytest

from engine.deck import RULESETS, DeckProblem, Ruleset, check_deck, mentions_speed_or_return_fire


def card(name, race, **extra):
    return {"name": name, "race": race, "code": f"T-{name}", **extra}


def colony(races, copies=3, total=45):
    """A colony of `total` cards spread over `races`, `copies` of each name."""
    cards, index = [], 0
    while sum(n for _, n in cards) < total:
        race = races[index % len(races)]
        count = min(copies, total - sum(n for _, n in cards))
        cards.append((card(f"{race} card {index}", race), count))
        index += 1
    return cards


def codes(problems):
    return sorted(p.code for p in problems)


LACI = ["xeno", "insectoid", "zarg", "space_shark"]  # R 20 EX-1
DANI = ["human", "carnoplantus", "cerebrite", "space_shark"]  # R 20 EX-1


@pytest.mark.parametrize("races", [LACI, DANI], ids=["laci", "dani"])
def test_ex1_example_colonies_are_legal(races):
    """R 20 EX-1 assertion 1: both colonies validate."""
    assert check_deck(colony(races)) == []


def test_ex1_dani_plus_a_xeno_card_breaks_the_opposition_rule():
    """R 9.3 / EX-1: adding one Xeno card to Dani's list -> OPPOSING_RACES(human, xeno)."""
    deck = colony(DANI, total=44) + [(card("Xeno intruder", "xeno"), 1)]
    assert check_deck(deck) == [DeckProblem("OPPOSING_RACES", {"pair": ["human", "xeno"]})]


@pytest.mark.parametrize("total", [44, 46, 0, 90])
def test_r9_1_exactly_45_cards(total):
    deck = colony(LACI, total=total) if total else []
    assert check_deck(deck) == [DeckProblem("DECK_SIZE", {"count": total, "required": 45})]


def test_r9_2_fourth_copy_of_a_name():
    deck = colony(LACI, total=41) + [(card("Cobra Flash", "zarg"), 4)]
    assert check_deck(deck) == [
        DeckProblem("COPY_LIMIT", {"name": "Cobra Flash", "count": 4, "max": 3})
    ]


def test_r9_2_copies_are_counted_by_name_across_printings():
    """AMB-41: two printings (codes) of one name share the limit."""
    first = card("Halálszárny", "zarg", code="KG1-001")
    reprint = card("Halálszárny", "zarg", code="KG2-001")
    deck = colony(LACI, total=41) + [(first, 2), (reprint, 2)]
    assert codes(check_deck(deck)) == ["COPY_LIMIT"]


def test_r9_2_names_compare_after_nfc_normalisation():
    """R 21.3: a decomposed 'ű' is the same name as the composed one."""
    composed = card("Aknagyűrű", "insectoid")
    decomposed = card("Aknagy\u0075\u030br\u0075\u030b", "insectoid")
    deck = colony(LACI, total=41) + [(composed, 2), (decomposed, 2)]
    assert codes(check_deck(deck)) == ["COPY_LIMIT"]


@pytest.mark.parametrize(
    "pair",
    [
        ("human", "xeno"),
        ("insectoid", "carnoplantus"),
        ("cerebrite", "zarg"),
        ("triciplite", "space_shark"),
    ],
)
def test_r9_3_every_opposing_pair(pair):
    deck = colony(list(pair))
    assert check_deck(deck) == [DeckProblem("OPPOSING_RACES", {"pair": list(pair)})]


def test_r9_3_five_races_always_include_an_opposing_pair():
    deck = colony(["human", "insectoid", "cerebrite", "triciplite", "xeno"])
    assert codes(check_deck(deck)) == ["OPPOSING_RACES"]


def test_r9_4_raceless_cards_are_unrestricted():
    """R 9.4 / AMB-31."""
    deck = colony(LACI, total=42) + [(card("Neutral relic", None), 3)]
    assert check_deck(deck) == []
    assert (
        check_deck(
            colony(["human", "insectoid", "cerebrite", "triciplite"], total=42)
            + [(card("Relic", None), 3)],
            "max4",
        )
        == []
    )


def test_r9_5_2_max4_allows_opposing_races_but_not_five():
    assert check_deck(colony(["human", "xeno"]), "max4") == []
    five = colony(["human", "xeno", "zarg", "cerebrite", "insectoid"])
    problems = check_deck(five, "max4")
    assert problems == [
        DeckProblem(
            "TOO_MANY_RACES",
            {"races": sorted(["human", "xeno", "zarg", "cerebrite", "insectoid"]), "max": 4},
        )
    ]


def test_r9_5_3_free_has_no_race_restriction():
    assert (
        check_deck(
            colony(list(["human", "xeno", "zarg", "cerebrite", "insectoid", "carnoplantus"])),
            "free",
        )
        == []
    )


def test_r9_5_4_simplified_combat_bans_speed_and_return_fire_cards():
    """R 9.5.4, R 17.2.3, AMB-45."""
    speedy = card(
        "Hajtómű",
        "zarg",
        abilities=[
            {"trigger": "static", "effects": [{"op": "modify_stat", "stat": "speed", "amount": 1}]}
        ],
    )
    rapid = card("Villám", "zarg", keywords=["rapid_fire"])
    plain = card(
        "Páncél",
        "zarg",
        abilities=[
            {"trigger": "static", "effects": [{"op": "modify_stat", "stat": "armour", "amount": 1}]}
        ],
    )
    assert mentions_speed_or_return_fire(speedy) and mentions_speed_or_return_fire(rapid)
    assert not mentions_speed_or_return_fire(plain)
    deck = colony(LACI, total=39) + [(speedy, 2), (rapid, 2), (plain, 2)]
    assert check_deck(deck) == []
    problems = check_deck(deck, "simplified")
    assert sorted(p.data["name"] for p in problems) == ["Hajtómű", "Villám"]
    assert {p.code for p in problems} == {"SIMPLIFIED_COMBAT_CARD"}


def test_r9_6_tournaments_use_the_original_rules():
    assert RULESETS["original"] == Ruleset(race_rule="original", simplified_combat=False)


def test_r9_7_unknown_card_is_reported_with_the_rest():
    deck = colony(LACI, total=44) + [("KG1-999", 1)]
    assert check_deck(deck) == [DeckProblem("UNKNOWN_CARD", {"card": "KG1-999", "count": 1})]


def test_r9_7_every_problem_is_reported_at_once():
    deck = colony(["human", "xeno", "zarg", "cerebrite"], total=40) + [
        (card("Cobra Flash", "zarg"), 5),
        ("nonsense", 2),
    ]
    assert codes(check_deck(deck)) == [
        "COPY_LIMIT",
        "DECK_SIZE",
        "OPPOSING_RACES",
        "OPPOSING_RACES",
        "UNKNOWN_CARD",
    ]


def test_unknown_ruleset_is_an_error():
    with pytest.raises(ValueError, match="race_rule"):
        Ruleset(race_rule="anything")
