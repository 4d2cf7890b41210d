"""The first-edition card set as data: schema, effect vocabulary, rules text, set shape.

Plain pytest, no database: the set files are read with json and checked with
jsonschema, engine.effects and cards_data.cardtext. Each test names the rule
(RULES.md) or the design-brief point (SET-DESIGN.md) it checks.
"""

import copy
import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from cards_data.cardtext import render_text
from engine import catalog, effects

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads(
    (ROOT / "cards_data" / "schema" / "card.schema.json").read_text(encoding="utf-8")
)
SET_DIR = ROOT / "cards_data" / "sets" / "first"
FILES = sorted(SET_DIR.glob("*.json"))
DATA = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in FILES}
CARDS = [card for data in DATA.values() for card in data["cards"]]
BY_NAME = {card["name"]: card for card in CARDS}
VALIDATOR = Draft202012Validator(SCHEMA)


def by_race(race):
    return [card for card in CARDS if card["race"] == race]


def effect_names(card):
    return {
        e["effect"] for a in card.get("abilities", []) for e in effects.iter_effects(a["effects"])
    }


def all_effects(card):
    return [e for a in card.get("abilities", []) for e in effects.iter_effects(a["effects"])]


# --- files and schema -------------------------------------------------------------------


def test_schema_is_valid_draft_2020_12():
    """R 2.2: the card data model is a valid JSON Schema (draft 2020-12)."""
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_one_file_per_race():
    """R 7.1: eight set files, one per race, each `{"edition": "first", "cards": [...]}`."""
    assert sorted(DATA) == sorted(catalog.RACES)
    for race, data in DATA.items():
        assert data["edition"] == "first"
        assert {card["race"] for card in data["cards"]} == {race}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_set_file_validates_against_schema(path):
    """R 2.2: every set file validates against cards_data/schema/card.schema.json."""
    errors = [
        f"{list(e.absolute_path)}: {e.message}" for e in VALIDATOR.iter_errors(DATA[path.stem])
    ]
    assert errors == []


def test_schema_enums_follow_the_glossary():
    """R 4.1, R 7.1, R 8.1, R 8.2, R 13, §23: the schema's identifiers are the catalogue's."""
    card = SCHEMA["$defs"]["card"]["properties"]
    assert card["type"]["enum"] == list(catalog.TYPES)
    assert set(card["subtype"]["enum"]) == {s for subs in catalog.SUBTYPES.values() for s in subs}
    assert card["race"]["enum"] == [*catalog.RACES, None]
    assert card["rarity"]["enum"] == list(catalog.RARITIES)
    assert card["clan"]["enum"] == [*catalog.CLANS, None]
    assert card["keywords"]["items"]["enum"] == list(catalog.KEYWORDS)
    ability = SCHEMA["$defs"]["ability"]["properties"]
    assert ability["trigger"]["enum"] == list(effects.TRIGGERS)
    assert SCHEMA["$defs"]["effect"]["properties"]["effect"]["enum"] == list(effects.EFFECTS)
    assert set(ability["cost"]["properties"]) == set(effects.COSTS)


def _ship(**changes):
    card = {
        "code": "KG1-999",
        "name": "Próba",
        "name_en": "Test",
        "race": "human",
        "type": "ship",
        "subtype": "scout",
        "rarity": "common",
        "credit_cost": 3,
        "speed": 5,
        "firepower": 1,
        "armour": 2,
        "bombardment": 0,
    }
    card.update(changes)
    return {key: value for key, value in card.items() if value is not None}


def _schema_ok(card):
    return not list(VALIDATOR.iter_errors({"edition": "first", "cards": [card]}))


@pytest.mark.parametrize(
    ("label", "card", "ok"),
    [
        ("valid ship", _ship(), True),
        ("subtype of another type (R 4.1)", _ship(subtype="weapon"), False),
        ("ship without its stats (R 5.1.1)", _ship(bombardment=None), False),
        ("negative stat (R 1.4)", _ship(speed=-1), False),
        ("unknown keyword (R 13)", _ship(keywords=["teleport"]), False),
        ("bad code", _ship(code="KG-1"), False),
        ("stored rules text is not a field", _ship(text_hu="Kötelék."), False),
        ("variable cost (R 21.3)", _ship(credit_cost={"kind": "equals_target_cost"}), True),
        ("unknown variable cost", _ship(credit_cost={"kind": "whatever"}), False),
        (
            "keywords only on ships (R 13)",
            _ship(
                type="crew",
                subtype="captain",
                speed=None,
                firepower=None,
                armour=None,
                bombardment=None,
                keywords=["cloak"],
            ),
            False,
        ),
        (
            "'?' upgrade limit on a trap (R 4.5.6)",
            _ship(
                type="base",
                subtype="trap",
                speed=None,
                firepower=None,
                armour=None,
                bombardment=None,
                upgrade_limit="?",
            ),
            True,
        ),
        (
            "'?' upgrade limit only on traps (R 4.5.6)",
            _ship(
                type="base",
                subtype="bunker",
                speed=None,
                firepower=None,
                armour=None,
                bombardment=None,
                upgrade_limit="?",
            ),
            False,
        ),
        (
            "a base needs an upgrade limit (R 5.3.1)",
            _ship(
                type="base",
                subtype="bunker",
                speed=None,
                firepower=None,
                armour=2,
                bombardment=None,
            ),
            False,
        ),
        (
            "bonus icons only on armaments and crew (R 5.2)",
            _ship(bonus={"firepower": 1}),
            False,
        ),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_schema_rejects_malformed_cards(label, card, ok):
    """R 2.2, R 4.1, R 4.5.6, R 5: the schema enforces the card data model."""
    assert _schema_ok(card) is ok, label


# --- effect vocabulary --------------------------------------------------------------------


@pytest.mark.parametrize("card", CARDS, ids=[c["code"] for c in CARDS])
def test_every_ability_passes_the_vocabulary(card):
    """R 12.1: every structured ability is valid against engine/effects.py (with its card's type rules)."""
    assert effects.validate_card_abilities(card) == []


def test_vocabulary_is_small():
    """SET-DESIGN: a few dozen composable primitives (roughly 20-35)."""
    assert 20 <= len(effects.EFFECTS) <= 35
    assert "python" in effects.EFFECTS


def test_every_primitive_earns_its_place():
    """SET-DESIGN: a primitive exists only if at least three cards use it (python excepted)."""
    usage = effects.primitive_usage(CARDS)
    rare = {name: n for name, n in usage.items() if name != "python" and n < 3}
    assert rare == {}


def test_python_escape_hatch_is_rare():
    """SET-DESIGN: at most 10% of the set uses the registered-function escape hatch."""
    users = [card["name"] for card in CARDS if "python" in effect_names(card)]
    assert len(users) <= len(CARDS) // 10
    used = {e["function"] for card in CARDS for e in all_effects(card) if e["effect"] == "python"}
    assert used <= set(effects.PYTHON_FUNCTIONS)


@pytest.mark.parametrize(
    ("ability", "card", "fragment"),
    [
        ({"trigger": "sometimes", "effects": [{"effect": "draw", "amount": 1}]}, None, "trigger"),
        ({"trigger": "on_play", "effects": [{"effect": "teleport"}]}, None, "unknown effect"),
        (
            {
                "trigger": "on_play",
                "effects": [{"effect": "deal_damage", "target": {"kind": "ship"}}],
            },
            None,
            "needs 'amount'",
        ),
        ({"trigger": "on_play", "effects": [{"effect": "draw", "amount": -1}]}, None, "amount"),
        ({"trigger": "activated", "effects": [{"effect": "draw", "amount": 1}]}, None, "cost"),
        (
            {
                "trigger": "on_play",
                "cost": {"credits": 1},
                "effects": [{"effect": "draw", "amount": 1}],
            },
            None,
            "cost",
        ),
        (
            {
                "trigger": "on_play",
                "effects": [{"effect": "neutralize", "target": {"kind": "ship"}}],
            },
            None,
            "R 12.5",
        ),
        (
            {
                "trigger": "on_play",
                "effects": [{"effect": "destroy", "target": {"kind": "ship", "owner": "me"}}],
            },
            None,
            "owner",
        ),
        (
            {
                "trigger": "on_play",
                "effects": [
                    {"effect": "destroy", "target": {"kind": "ship", "filter": {"colour": "red"}}}
                ],
            },
            None,
            "unknown filter",
        ),
        (
            {"trigger": "on_play", "effects": [{"effect": "python", "function": "os.system"}]},
            None,
            "registered",
        ),
        (
            {
                "trigger": "static",
                "effects": [{"effect": "deal_damage", "target": {"kind": "ship"}, "amount": 2}],
            },
            {"type": "armament", "subtype": "missile"},
            "R 4.3.5",
        ),
        (
            {"trigger": "static", "effects": [{"effect": "draw", "amount": 1}]},
            {"type": "base", "subtype": "research"},
            "R 4.5.8",
        ),
        (
            {"trigger": "on_pay", "effects": [{"effect": "draw", "amount": 1}]},
            {"type": "event", "subtype": "resource"},
            "R 4.6.1",
        ),
        (
            {"trigger": "on_pay", "effects": [{"effect": "draw", "amount": "X"}]},
            {"type": "base", "subtype": "research", "upgrade_limit": 2},
            "R 4.5.5",
        ),
        (
            {
                "trigger": "static",
                "effects": [
                    {
                        "effect": "grant_keyword",
                        "target": {"kind": "carrier"},
                        "keyword": "cloak",
                        "duration": "while_in_play",
                    }
                ],
            },
            {"type": "ship", "subtype": "scout"},
            "carrying ship",
        ),
    ],
)
def test_validate_ability_reports_problems(ability, card, fragment):
    """R 4.3.5, R 4.5.5, R 4.5.8, R 4.6.1, R 12.5: malformed abilities are reported, not accepted."""
    problems = effects.validate_ability(ability, card)
    assert problems, ability
    assert any(fragment in problem for problem in problems), problems


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 30)
    | st.sampled_from(
        ["X", "all", "ship", "you", "opponent", "static", "on_play", "activated", "draw", "destroy"]
    ),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "trigger",
                    "effects",
                    "effect",
                    "target",
                    "kind",
                    "amount",
                    "cost",
                    "filter",
                    "owner",
                    "count",
                    "options",
                    "condition",
                    "function",
                    "duration",
                    "stat",
                    "by",
                ]
            ),
            children,
            max_size=5,
        )
    ),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(_JSON)
def test_validate_ability_never_raises_on_malformed_input(value):
    """R 9.7 spirit: bad card data is reported as a list of problems, never a crash."""
    problems = effects.validate_ability(value)
    assert isinstance(problems, list)
    assert all(isinstance(p, str) for p in problems)


# --- rules text ---------------------------------------------------------------------------


@pytest.mark.parametrize("card", CARDS, ids=[c["code"] for c in CARDS])
def test_rules_text_is_generated_in_both_languages(card):
    """R 13, §23: rules text comes from keywords and abilities, in Hungarian and English, naming each keyword."""
    hu, en = render_text(card, "hu"), render_text(card, "en")
    if card.get("keywords") or card.get("abilities") or card.get("hangar_size"):
        assert hu.strip() and en.strip()
        assert hu != en
    else:
        assert hu == en == ""
    for keyword in card.get("keywords", []):
        assert catalog.KEYWORDS[keyword]["hu"] in hu
        assert catalog.KEYWORDS[keyword]["en"] in en
    for effect in all_effects(card):
        if effect["effect"] == "grant_keyword":
            assert catalog.KEYWORDS[effect["keyword"]]["hu"] in hu
            assert catalog.KEYWORDS[effect["keyword"]]["en"] in en
    for text in (hu, en):
        assert "_" not in text and "None" not in text and "{" not in text
        for line in text.splitlines():
            assert line[0].isupper() or line[0].isdigit() or line[0] in "[(", line
            assert line.endswith((".", ")")), line


def test_rules_text_is_deterministic_and_language_checked():
    """R 1.3: the text printed on a card is a pure function of its data."""
    tuzer = BY_NAME["Tüzér"]
    assert render_text(tuzer, "hu") == render_text(copy.deepcopy(tuzer), "hu")
    with pytest.raises(ValueError):
        render_text(tuzer, "de")


def test_rulebook_texts_read_as_expected():
    """R 21.1: generated texts of rulebook cards say what the rulebook describes."""
    assert "+3 tűzerőt" in render_text(BY_NAME["Tüzér"], "hu")
    assert "+3 bombázást" in render_text(BY_NAME["Tüzér"], "hu")
    assert "end of the payment step" in render_text(BY_NAME["Tüzér"], "en")
    assert render_text(BY_NAME["CRX"], "en") == "Burst fire."
    assert "6" in render_text(BY_NAME["Mamut I."], "hu")
    assert "1 additional credit to initiate each attack" in render_text(BY_NAME["Aknagyűrű"], "en")
    assert (
        render_text(BY_NAME["Chazma töltet"], "en")
        == "When paid, your opponent destroys one of their ships of their choice."
    )
    assert render_text(BY_NAME["Felsőbb parancs"], "hu") == "Semlegesíts egy megszakítást."


# --- shape of the set (SET-DESIGN.md) ---------------------------------------------------------


def test_at_least_240_distinct_cards():
    """SET-DESIGN: about 30 cards per race, at least 240 in all."""
    assert len(CARDS) >= 240
    assert len({card["name"] for card in CARDS}) == len(CARDS)


@pytest.mark.parametrize("race", list(catalog.RACES))
def test_every_race_has_at_least_28_cards(race):
    """R 7.1: every race is playable on its own (at least 28 cards)."""
    assert len(by_race(race)) >= 28


def test_every_card_has_a_race():
    """R 7.1, AMB-31: the first edition designs every card with a race."""
    assert all(card["race"] in catalog.RACES for card in CARDS)


@pytest.mark.parametrize("subtype", list(catalog.SUBTYPE_TYPE))
def test_every_subtype_has_at_least_5_cards_in_several_races(subtype):
    """R 4.1, R 6.10: each of the 24 subtypes has at least 5 cards, spread over at least 3 races (bluffing)."""
    cards = [card for card in CARDS if card["subtype"] == subtype]
    assert len(cards) >= 5
    assert len({card["race"] for card in cards}) >= 3


FACE_DOWN_SUBTYPES = [s for t in ("armament", "crew", "base") for s in catalog.SUBTYPES[t]]


@pytest.mark.parametrize("subtype", FACE_DOWN_SUBTYPES)
def test_face_down_subtypes_leave_room_to_bluff(subtype):
    """R 6.10, SET-DESIGN: cards entering face down have several look-alikes at similar costs."""
    costs = sorted(c["credit_cost"] for c in CARDS if c["subtype"] == subtype)
    median = costs[len(costs) // 2]
    assert sum(abs(cost - median) <= 1 for cost in costs) >= 4, costs


@pytest.mark.parametrize("race", list(catalog.RACES))
def test_every_race_has_every_rarity(race):
    """R 8.1: all four rarities in every race, at least one ultra-rare, commons most frequent."""
    counts = Counter(card["rarity"] for card in by_race(race))
    assert set(counts) == set(catalog.RARITIES)
    assert counts["ultra_rare"] >= 1
    assert counts["common"] > counts["uncommon"] > counts["rare"] >= counts["ultra_rare"]


def test_all_three_clans_are_used_sparingly():
    """R 8.2: every clan appears; clans sit on a handful of cards."""
    clans = Counter(card.get("clan") for card in CARDS)
    assert set(catalog.CLANS) <= set(clans)
    assert sum(n for clan, n in clans.items() if clan) <= len(CARDS) // 5


@pytest.mark.parametrize("keyword", list(catalog.KEYWORDS))
def test_every_keyword_is_on_at_least_three_ships(keyword):
    """R 13: each of the eight ship abilities is printed on at least three ships."""
    ships = [card for card in CARDS if keyword in card.get("keywords", [])]
    assert len(ships) >= 3
    assert all(card["type"] == "ship" for card in ships)


def test_codes_are_unique_sorted_and_numbered_from_one():
    """R 8.3: codes carry the edition prefix, are unique and ascend within each file."""
    prefix = catalog.EDITIONS["first"]["prefix"]
    codes = [card["code"] for card in CARDS]
    assert len(set(codes)) == len(codes)
    assert all(code.startswith(prefix + "-") for code in codes)
    assert sorted(codes) == [f"{prefix}-{n:03d}" for n in range(1, len(codes) + 1)]
    for data in DATA.values():
        file_codes = [card["code"] for card in data["cards"]]
        assert file_codes == sorted(file_codes)


def test_names_are_unique():
    """R 9.2: the Hungarian name is the key of the 3-copy rule, so no two cards share it."""
    names = Counter(card["name"] for card in CARDS)
    assert [name for name, n in names.items() if n > 1] == []
    en_names = Counter(card["name_en"] for card in CARDS)
    assert [name for name, n in en_names.items() if n > 1] == []


def test_names_use_proper_hungarian_letters():
    """§23 note: stored names use ő/ű, never the OCR's õ/û."""
    for card in CARDS:
        assert not set("õûÕÛ") & set(card["name"] + card.get("flavor_hu", "")), card["name"]


def test_cost_curve():
    """SET-DESIGN: plenty at 0-3, a body at 4-7, few finishers above 8."""
    costs = [card["credit_cost"] for card in CARDS if isinstance(card["credit_cost"], int)]
    cheap = sum(cost <= 3 for cost in costs)
    middle = sum(4 <= cost <= 7 for cost in costs)
    finishers = sum(cost > 8 for cost in costs)
    assert cheap >= len(costs) // 2
    assert middle >= len(costs) // 8
    assert finishers <= len(costs) // 10


# Vanilla cost of a ship by size and stat sum, calibrated on R 21.1 (SET-DESIGN table):
# Marduk Kurios/Halálszárny 8 -> 3, Cobra Flash 10 -> 6, Mamut I. 12 -> 8 (with a
# drawback), CRX 15 -> 15 (with burst fire).
def _vanilla_cost(card):
    total = card["speed"] + card["firepower"] + card["armour"] + card["bombardment"]
    offset = {"scout": 5, "fighter": 4, "cruiser": 3, "destroyer": 2}[card["subtype"]]
    return total - offset


@pytest.mark.parametrize("card", [c for c in CARDS if c["type"] == "ship"], ids=lambda c: c["code"])
def test_ship_costs_follow_the_rulebook_calibration(card):
    """SET-DESIGN / R 21.1: a ship's cost is its vanilla cost plus what its keywords and abilities add."""
    extra = card["credit_cost"] - _vanilla_cost(card)
    premium = len(card.get("keywords", [])) + len(card.get("abilities", []))
    assert -1 <= extra <= 2 * premium + 1, (card["name"], extra)


# --- race profiles (R 7.2, SET-DESIGN mirrored pairs) -------------------------------------------


def _count(race, predicate):
    return sum(1 for card in by_race(race) if predicate(card))


def _is(type_):
    return lambda card: card["type"] == type_


def _uses(name):
    return lambda card: name in effect_names(card)


def _formation(card):
    return "formation" in card.get("keywords", []) or "formation" in json.dumps(
        card.get("abilities", [])
    )


def _leader(predicate):
    counts = {race: _count(race, predicate) for race in catalog.RACES}
    return max(counts, key=counts.get), counts


@pytest.mark.parametrize(
    ("race", "predicate", "what"),
    [
        ("human", _formation, "formation"),
        ("xeno", _is("crew"), "crew"),
        ("insectoid", _is("base"), "bases"),
        ("carnoplantus", _uses("gain_credits"), "credit income"),
        ("cerebrite", _is("event"), "events"),
        ("zarg", _is("interrupt"), "interrupts"),
        ("triciplite", _is("armament"), "armaments"),
        ("space_shark", _is("ship"), "ships"),
    ],
)
def test_each_race_leads_in_its_strength(race, predicate, what):
    """R 7.2: every race has the most cards of what it is famous for."""
    leader, counts = _leader(predicate)
    assert counts[race] == max(counts.values()), (what, counts)


MIRRORS = [
    # weak race, its opposite, what the opposite is strong at
    ("human", "xeno", _is("crew")),
    ("xeno", "human", _formation),
    ("insectoid", "carnoplantus", _uses("gain_credits")),
    ("carnoplantus", "insectoid", _is("base")),
    ("cerebrite", "zarg", _is("interrupt")),
    ("zarg", "cerebrite", _is("event")),
    ("triciplite", "space_shark", _is("ship")),
    ("space_shark", "triciplite", _is("armament")),
]


@pytest.mark.parametrize(
    ("weak", "strong", "predicate"), MIRRORS, ids=[f"{w}-{s}" for w, s, _ in MIRRORS]
)
def test_opposing_races_mirror_each_other(weak, strong, predicate):
    """R 7.1, R 7.3: a race is weak exactly where its opposite is strong (at most half as many cards)."""
    assert catalog.OPPOSING_RACE[weak] == strong
    assert _count(weak, predicate) * 2 < _count(strong, predicate)


def test_weak_races_have_few_cards_of_their_weakness():
    """R 7.2: Karnoplantusz builds few bases, Cerebrita plays few interrupts, Zarg few events,
    Triciplita few ships, Űrcápa few armaments, Ember few crew, Inszektoid never hoards credits."""
    assert _count("carnoplantus", _is("base")) <= 3
    assert _count("cerebrite", _is("interrupt")) <= 3
    assert _count("zarg", _is("event")) <= 3
    assert _count("triciplite", _is("ship")) <= 5
    assert _count("space_shark", _is("armament")) <= 4
    assert _count("human", _is("crew")) <= 4
    assert _count("insectoid", _uses("gain_credits")) == 0


def test_space_shark_armaments_are_awkward():
    """R 7.2: space sharks can hardly fit armaments: their weapons carry a penalty."""
    weapons = [
        c for c in by_race("space_shark") if c["type"] == "armament" and c["subtype"] == "weapon"
    ]
    assert weapons and all(min(c["bonus"].values()) < 0 for c in weapons)


# --- the thirteen cards of RULES §21.1 --------------------------------------------------------


def _has_effect(card, name, **params):
    return any(
        e["effect"] == name and all(e.get(k) == v for k, v in params.items())
        for e in all_effects(card)
    )


RULEBOOK_SHIPS = [
    # name, subtype, cost, SPD-FP-ARM-BMB, keywords
    ("Marduk Kurios", "scout", 3, (5, 1, 2, 0), []),
    ("Cobra Flash", "fighter", 6, (5, 2, 3, 0), []),
    ("Halálszárny", "scout", 3, (5, 1, 1, 1), []),
    ("Mamut I.", "cruiser", 8, (2, 4, 3, 3), []),
    ("CRX", "destroyer", 15, (0, 5, 5, 5), ["burst_fire"]),
]


@pytest.mark.parametrize(
    ("name", "subtype", "cost", "stats", "keywords"),
    RULEBOOK_SHIPS,
    ids=[s[0] for s in RULEBOOK_SHIPS],
)
def test_rulebook_ships_have_the_printed_stats(name, subtype, cost, stats, keywords):
    """R 21.1, R 21.2: the rulebook's ships with exactly the stats SPD-FP-ARM-BMB it gives."""
    card = BY_NAME[name]
    assert (card["type"], card["subtype"], card["credit_cost"]) == ("ship", subtype, cost)
    assert (card["speed"], card["firepower"], card["armour"], card["bombardment"]) == stats
    assert card.get("keywords", []) == keywords


def test_mamut_occupies_six_hangar_space():
    """R 21.1 #4, AMB-09: Mamut I. counts 6 toward the hangar limit; its capacity stays its size (3)."""
    card = BY_NAME["Mamut I."]
    assert card["hangar_size"] == 6
    assert catalog.SHIP_SIZE[card["subtype"]] == 3
    assert [c["name"] for c in CARDS if c.get("hangar_size")] == ["Mamut I."]


def test_holdimado():
    """R 21.1 #6, AMB-36: Holdimádó is a ship with armour 3 and firepower at least 2 (EX-3, EX-5)."""
    card = BY_NAME["Holdimádó"]
    assert card["type"] == "ship"
    assert card["armour"] == 3 and card["firepower"] >= 2
    # EX-5: Cobra Flash (armour 3) survives its return fire, so firepower stays below 3.
    assert card["firepower"] < BY_NAME["Cobra Flash"]["armour"]


def test_tuzer():
    """R 21.1 #7, R 11.4.3.3: Tüzér, personnel, 5 CR: at the end of the payment step, +3 FP or +3 BMB."""
    card = BY_NAME["Tüzér"]
    assert (card["type"], card["subtype"], card["credit_cost"]) == ("crew", "personnel", 5)
    assert "bonus" not in card  # a modal choice, not a printed icon (R 21.3)
    (ability,) = card["abilities"]
    assert ability["trigger"] == "end_of_payment"
    (choice,) = ability["effects"]
    assert choice["effect"] == "choose_one"
    options = {
        (e["stat"], e["amount"], e["target"]["kind"])
        for option in choice["options"]
        for e in option
    }
    assert options == {("firepower", 3, "carrier"), ("bombardment", 3, "carrier")}


def test_aknagyuru():
    """R 21.1 #8, AMB-35: Aknagyűrű, bunker, 0 CR, UL 4, ARM 2: attacks cost the opponent 1 credit."""
    card = BY_NAME["Aknagyűrű"]
    assert (card["type"], card["subtype"], card["credit_cost"]) == ("base", "bunker", 0)
    assert (card["upgrade_limit"], card["armour"]) == (4, 2)
    assert card["abilities"][0]["trigger"] == "static"
    assert _has_effect(card, "attack_surcharge", amount=1)


def test_chazma_toltet():
    """R 21.1 #9, R 4.5.9: Chazma töltet, trap, 3 CR: when paid, the opponent destroys one of their ships of their choice."""
    card = BY_NAME["Chazma töltet"]
    assert (card["type"], card["subtype"], card["credit_cost"]) == ("base", "trap", 3)
    (ability,) = card["abilities"]
    assert ability["trigger"] == "on_pay"
    (effect,) = ability["effects"]
    assert effect["effect"] == "destroy"
    assert effect["target"] == {"kind": "ship", "owner": "opponent", "chooser": "opponent"}


@pytest.mark.parametrize(
    ("name", "cost", "stat", "amount"),
    [("Extra találat", None, "firepower", 1), ("Durmacél célterelő", 1, "armour", 1)],
)
def test_rulebook_stat_interrupts(name, cost, stat, amount):
    """R 21.1 #10-11, EX-5: Extra találat gives +1 firepower; Durmacél célterelő (1 CR) +1 armour."""
    card = BY_NAME[name]
    assert card["type"] == "interrupt" and card["subtype"] in ("combat", "reaction")
    if cost is not None:
        assert card["credit_cost"] == cost
    assert _has_effect(card, "modify_stat", stat=stat, amount=amount)


def test_extra_talalat_is_affordable_before_felsobb_parancs():
    """R 20 EX-5: Laci pays Extra találat and then Felsőbb parancs with his last 2 credits."""
    assert isinstance(BY_NAME["Extra találat"]["credit_cost"], int)
    assert BY_NAME["Extra találat"]["credit_cost"] >= 0


@pytest.mark.parametrize(
    ("name", "cost"), [("Felsőbb parancs", 2), ("Felülbírálás", {"kind": "equals_target_cost"})]
)
def test_rulebook_neutralisers(name, cost):
    """R 21.1 #12-13, R 21.3: Felsőbb parancs (2 CR) and Felülbírálás (cost = the target's) neutralise an interrupt."""
    card = BY_NAME[name]
    assert card["type"] == "interrupt" and card["subtype"] in ("combat", "reaction")
    assert card["credit_cost"] == cost
    assert any(
        e["effect"] == "neutralize" and e["target"]["kind"] == "interrupt"
        for e in all_effects(card)
    )


LACI = ("xeno", "insectoid", "zarg", "space_shark")
DANI = ("human", "carnoplantus", "cerebrite", "space_shark")


@pytest.mark.parametrize(
    ("name", "races"),
    [
        ("Marduk Kurios", LACI),
        ("Cobra Flash", LACI),
        ("Halálszárny", LACI),
        ("Tüzér", LACI),
        ("Aknagyűrű", LACI),
        ("Extra találat", LACI),
        ("Felsőbb parancs", LACI),
        ("Mamut I.", DANI),
        ("CRX", DANI),
        ("Holdimádó", DANI),
        ("Chazma töltet", DANI),
        ("Durmacél célterelő", DANI),
        ("Felülbírálás", DANI),
    ],
)
def test_rulebook_cards_fit_the_example_colonies(name, races):
    """R 20 EX-1: each card Laci or Dani plays belongs to one of that player's four races."""
    assert BY_NAME[name]["race"] in races


def test_laci_and_dani_colonies_are_legal():
    """R 9.3, EX-1: neither player's races include an opposing pair."""
    for races in (LACI, DANI):
        assert not any(catalog.OPPOSING_RACE[race] in races for race in races)
