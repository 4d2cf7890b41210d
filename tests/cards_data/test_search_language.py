"""The search language against a small synthetic catalogue in the database.

The same table runs on SQLite and on PostgreSQL (DATABASE_URL=postgres://...) and must
give the same answers on both: every text comparison is folded-column `__contains`.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards_data.models import Card, Edition, Keyword
from cards_data.search import QuerySyntaxError, compile_query, fold, parse, search_cards
from engine import catalog

pytestmark = pytest.mark.django_db

# code, name, name_en, race, type, subtype, rarity, clan, cost, (spd, fp, arm, bmb), ul, keywords,
# text_hu, text_en, flavor_hu, edition
CARDS = [
    ("TST-001", "Halálszárny", "Deathwing", "space_shark", "ship", "scout", "common", "", 3,
     (5, 1, 1, 1), "", [], "Villámgyors vadász.", "Lightning-fast hunter.",
     "A halál szárnyain érkezik.", "first"),
    ("TST-002", "Cobra Flash", "Cobra Flash", "human", "ship", "fighter", "uncommon",
     "steel_eagles", 6, (5, 2, 3, 0), "", ["formation"], "Kötelékben repül.",
     "Flies in formation.", "", "first"),
    ("TST-003", "Mamut I.", "Mammoth I", "zarg", "ship", "cruiser", "rare", "", 8,
     (2, 4, 3, 3), "", [], "Hat méretegységnyi helyet foglal a hangárban.",
     "Occupies 6 size units of hangar space.", "", "first"),
    ("TST-004", "CRX", "CRX", "xeno", "ship", "destroyer", "ultra_rare", "", 15,
     (0, 5, 5, 5), "", ["burst_fire", "heavy_weapons"], "Sorozatlövés. Nehézfegyverzet.",
     "Burst fire. Heavy weapons.", "", "first"),
    ("TST-005", "Marduk Kurios", "Marduk Kurios", "space_shark", "ship", "scout", "uncommon",
     "", 3, (5, 1, 2, 0), "", ["cloak"], "Álcázás. Az Űrcápák kedvenc felderítője.",
     "Cloak. The favourite scout of the sharks.", "", "first"),
    ("TST-006", "Tüzér", "Gunner", "human", "crew", "personnel", "common", "", 5,
     (None, None, None, None), "", [], "Fedélzeten +3 tűzerőt vagy +3 bombázást ad.",
     "Aboard a ship, gives +3 firepower or +3 bombardment.", "", "first"),
    ("TST-007", "Aknagyűrű", "Mine Ring", "insectoid", "base", "bunker", "common", "", 0,
     (None, None, 2, None), "4", [],
     "Az ellenfélnek 1 creditet kell fizetnie minden támadás indításáért.",
     "Your opponent must pay 1 credit to initiate an attack.", "", "first"),
    ("TST-008", "Chazma töltet", "Chazma Charge", "zarg", "base", "trap", "rare", "", 3,
     (None, None, 0, None), "?", [], "Az ellenfél megsemmisíti egy saját űrhajóját.",
     "The opponent destroys one of their own ships.", "", "first"),
    ("TST-009", "Kutatóállomás", "Research Station", "cerebrite", "base", "research",
     "uncommon", "", 2, (None, None, 0, None), "X", [], "Húzz egy lapot minden fejlesztésért.",
     "Draw a card for each upgrade.", "", "first"),
    ("TST-010", "Extra találat", "Extra Hit", "triciplite", "interrupt", "combat", "common",
     "", 1, (None, None, None, None), "", [], "Egy űrhajó +1 tűzerőt kap.",
     "A ship gets +1 firepower.", "", "first"),
    ("TST-011", "Durmacél célterelő", "Durmasteel Target Deflector", "triciplite",
     "interrupt", "reaction", "uncommon", "galactic_trade", 1, (None, None, None, None), "",
     [], "Egy űrhajó +1 páncélzatot kap.", "A ship gets +1 armour.", "", "first"),
    ("TST-012", "Felsőbb parancs", "Higher Command", "cerebrite", "interrupt", "general",
     "rare", "granite_snakes", 2, (None, None, None, None), "", [],
     "Semlegesíts egy megszakítást.", "Neutralise an interrupt.", "", "first"),
    ("TST-013", "Felülbírálás", "Override", "", "interrupt", "reaction", "common", "", None,
     (None, None, None, None), "", [],
     "Semlegesíts egy megszakítást; annyiba kerül, amennyibe az került.",
     "Neutralise an interrupt; costs as much as it did.", "", "first"),
    ("TST-014", "Plazmaágyú", "Plasma Cannon", "triciplite", "armament", "weapon", "common",
     "", 2, (None, None, None, None), "", [], "A hordozó űrhajó sorozatlövés képességet kap.",
     "The carrying ship gains burst fire.", "", "first"),
    ("TST-015", "Holdimádó", "Moon Worshipper", "carnoplantus", "ship", "cruiser", "common",
     "", 7, (3, 2, 3, 2), "", ["repair", "formation"], "Javítás. Kötelék.",
     "Repair. Formation.", "", "promo"),
    ("TST-016", "Ellátmány", "Supplies", "carnoplantus", "event", "resource", "uncommon", "",
     0, (None, None, None, None), "", [], "Kapsz 3 creditet.", "Gain 3 credits.", "", "first"),
    ("TST-017", "Aknamező", "Minefield", "insectoid", "base", "building", "common",
     "steel_eagles", 4, (None, None, 3, None), "2", [],
     "Minden támadó űrhajó 1 sebzést kap.", "Every attacking ship takes 1 damage.", "",
     "first"),
]  # fmt: skip

ALL = {row[0] for row in CARDS}
SHIPS = {"TST-001", "TST-002", "TST-003", "TST-004", "TST-005", "TST-015"}
BASES = {"TST-007", "TST-008", "TST-009", "TST-017"}
COMMON = {"TST-001", "TST-006", "TST-007", "TST-010", "TST-013", "TST-014", "TST-015", "TST-017"}
UNCOMMON = {"TST-002", "TST-005", "TST-009", "TST-011", "TST-016"}
SHARKS = {"TST-001", "TST-005"}
HUMANS = {"TST-002", "TST-006"}
FAST = {"TST-001", "TST-002", "TST-005"}


def tst(*numbers):
    return {f"TST-{n:03d}" for n in numbers}


@pytest.fixture
def cards(db):
    editions = {
        code: Edition.objects.create(
            code=code, name_hu=names["hu"], name_en=names["en"], prefix=names["prefix"]
        )
        for code, names in catalog.EDITIONS.items()
    }
    # an edition the catalogue does not know, so that `-e:first` has something to find
    editions["promo"] = Edition.objects.create(
        code="promo", name_hu="Promóciós", name_en="Promo", prefix="PRM"
    )
    keywords = {
        slug: Keyword.objects.create(slug=slug, name_hu=names["hu"], name_en=names["en"])
        for slug, names in catalog.KEYWORDS.items()
    }
    for row in CARDS:
        (code, name, name_en, race, type_, subtype, rarity, clan, cost, stats, ul, kws,
         text_hu, text_en, flavor_hu, edition) = row  # fmt: skip
        speed, firepower, armour, bombardment = stats
        card = Card.objects.create(
            code=code,
            name=name,
            name_en=name_en,
            race=race,
            type=type_,
            subtype=subtype,
            rarity=rarity,
            clan=clan,
            edition=editions[edition],
            credit_cost=cost,
            cost_kind="" if cost is not None else "equals_target_cost",
            speed=speed,
            firepower=firepower,
            armour=armour,
            bombardment=bombardment,
            size=catalog.SHIP_SIZE.get(subtype) if type_ == "ship" else None,
            hangar_size=6 if code == "TST-003" else None,
            upgrade_limit=ul,
            upgrade_limit_value=int(ul) if ul.isdigit() else None,
            bonus_firepower=2 if code == "TST-014" else None,
            text_hu=text_hu,
            text_en=text_en,
            flavor_hu=flavor_hu,
            search_name=fold(f"{name} {name_en}"),
            search_text=fold(f"{text_hu} {text_en} {flavor_hu}"),
        )
        card.keywords.set([keywords[k] for k in kws])
    return Card.objects.all()


CASES = [
    # types and subtypes: `t:` matches either, in both languages, accent-insensitively
    ("t:ship", SHIPS),
    ("type:űrhajó", SHIPS),
    ("t:urhajo", SHIPS),
    ("TÍPUS:Ship", SHIPS),
    ("t:hajó", SHIPS),
    ("t:scout", tst(1, 5)),
    ("t:felderítő", tst(1, 5)),
    ("st:cruiser", tst(3, 15)),
    ("altípus:csapda", tst(8)),
    ("t:bunker", tst(7)),
    ("t:armament or t:crew", tst(6, 14)),
    ("t:event st:attack", set()),
    # a bare word is text, never a type: `ship` finds "Moon Worshipper" and rules texts
    ("ship", tst(6, 8, 10, 11, 14, 15, 17)),
    ("Űrhajó", tst(8, 10, 11, 14, 17)),
    # races
    ("r:urcapa", SHARKS),
    ("faj:Űrcápa", SHARKS),
    ("race:space_shark", SHARKS),
    ('r:"Space Shark"', SHARKS),
    ("urcapa", tst(5)),  # bare word: only the card whose text names the sharks
    ("r:ember", HUMANS),
    ("r:HUMAN", HUMANS),
    ("r:nincs", tst(13)),
    # names and texts
    ("név:halalszarny", tst(1)),
    ("name:deathwing", tst(1)),
    ("halálszárny", tst(1)),
    ("HALALSZARNY", tst(1)),
    ('n:"cobra flash"', tst(2)),
    ("mine", tst(7, 17)),
    ("o:semlegesits", tst(12, 13)),
    ('szöveg:"burst fire"', tst(4, 14)),
    ("sorozatlövés", tst(4, 14)),
    ('o:"size units"', tst(3)),
    ('"+3 firepower"', tst(6)),
    ('"vagy"', tst(6)),
    ("szarnyain", tst(1)),  # flavour text is searched too
    ("cobra OR crx", tst(2, 4)),
    ("crx\x00", tst(4)),  # a control character is whitespace, also on PostgreSQL
    ('"cobra\x00flash"', tst(2)),  # even inside quotes
    ("name:cobra\x00", tst(2)),
    # keywords are enumerated, not text: the Plasma Cannon only mentions burst fire
    ("kw:burst_fire", tst(4)),
    ("képesség:sorozatlövés", tst(4)),
    ('kw:"burst fire"', tst(4)),
    ("kw:javitas", tst(15)),
    ("kw:formation kw:repair", tst(15)),  # both, on one card
    ("kw:formation or kw:cloak", tst(2, 5, 15)),
    ("-kw:formation t:ship", tst(1, 3, 4, 5)),
    # rarity matches exactly: common is never uncommon
    ("rarity:common", COMMON),
    ("rarity:gyakori", COMMON),
    ("rarity:hold", COMMON),
    ("rarity:uncommon", UNCOMMON),
    ('rarity:"nem gyakori"', UNCOMMON),
    ("ritkaság:nem_gyakori", UNCOMMON),
    ("rar:u", UNCOMMON),
    ("rarity:rare", tst(3, 8, 12)),
    ("rarity:ultraritka", tst(4)),
    ("rarity:ultra_rare", tst(4)),
    # numbers; a missing value (variable cost, a base's speed) never satisfies a comparison
    ("cost<=3", tst(1, 5, 7, 8, 9, 10, 11, 12, 14, 16)),
    ("cost:x", tst(13)),
    ("cost!=x", ALL - tst(13)),
    ("ár>=8", tst(3, 4)),
    ("cost=0", tst(7, 16)),
    ("cost>15", set()),
    ("cost!=3 t:ship", tst(2, 3, 4, 15)),
    ("spd>=4", FAST),
    ("-speed>=4", ALL - FAST),
    ("sebesség<4", tst(3, 4, 15)),
    ("fp>3", tst(3, 4)),
    ("armour:3", tst(2, 3, 15, 17)),
    ("páncél<1", tst(8, 9)),
    ("bmb=0", tst(2, 5)),
    ("size>=3", tst(3, 4, 15)),
    ("méret:1", tst(1, 5)),
    ("fp:1 spd:5 bmb>0", tst(1)),
    ("t:ship fp<=2 arm>=2", tst(2, 5, 15)),
    # upgrade limits: a number, X or ?
    ("ul:4", tst(7)),
    ("ul:x", tst(9)),
    ("ul:?", tst(8)),
    ("ul<=3", tst(17)),
    ("fejlesztés>=2", tst(7, 17)),
    ("ul!=?", tst(7, 9, 17)),
    # clans, editions, codes
    ("clan:galactic_trade", tst(11)),
    ('klán:"acél sasok"', tst(2, 17)),
    ("clan:none t:ship", tst(1, 3, 4, 5, 15)),
    ("e:first", ALL - tst(15)),
    ("-set:first", tst(15)),
    ('kiadás:"első kiadás" t:ship', SHIPS - tst(15)),
    ("code:tst-004", tst(4)),
    ("kód:TST-001 or code:TST-002", tst(1, 2)),
    # boolean structure
    ("t:ship (r:zarg or r:xeno)", tst(3, 4)),
    ("t:base r:zarg or r:human", tst(2, 6, 8)),
    ("t:base (r:zarg or r:human)", tst(8)),
    ("t:ship vagy t:base", SHIPS | BASES),
    ("t:interrupt and r:triciplite", tst(10, 11)),
    ("t:interrupt és -r:triciplite", tst(12, 13)),
    ("-(t:ship or t:base)", tst(6, 10, 11, 12, 13, 14, 16)),
    ("--t:ship", SHIPS),
    ("t:ship -cobra", SHIPS - tst(2)),
    ("((((t:ship))))", SHIPS),
    ("", ALL),
    ("   ", ALL),
]


@pytest.mark.parametrize("query,expected", CASES, ids=[repr(q) for q, _ in CASES])
def test_search(cards, query, expected):
    found = set(search_cards(query).values_list("code", flat=True))
    assert found == expected


def test_enough_cases():
    assert len(CASES) >= 45


def test_search_narrows_a_given_queryset(cards):
    ships = Card.objects.filter(type="ship")
    assert set(search_cards("r:urcapa", ships).values_list("code", flat=True)) == SHARKS
    assert search_cards("", ships).count() == len(SHIPS)


def test_results_have_no_duplicates(cards):
    results = search_cards("kw:formation or kw:repair or kw:burst_fire or t:ship")
    codes = list(results.values_list("code", flat=True))
    assert len(codes) == len(set(codes)) == len(SHIPS)


def test_compile_query_is_a_q_usable_anywhere(cards):
    q = compile_query(parse("t:ship r:urcapa"))
    assert set(Card.objects.filter(q).values_list("code", flat=True)) == SHARKS
    assert set(Card.objects.exclude(q).values_list("code", flat=True)) == ALL - SHARKS


MALFORMED = [
    # query, 0-based position of the offending part
    ("colour:red", 0),
    ("t:ship colour:red", 7),
    ("r:common", 2),  # `r:` is race; rarity is `rarity:`
    ("rarity:comm", 7),  # no prefixes or substrings of enumerated values
    ("r:martian", 2),
    ("kw:flying", 3),
    ("cost<=abc", 6),
    ("cost<x", 5),
    ("name>=3", 4),
    ("t:", 0),
    ("(t:ship r:zarg", 0),
    ("t:ship)", 6),
    ("()", 0),
    ("t:ship or", 7),
    ("or t:ship", 0),
    ('"burst fire', 0),
    ("t:ship -", 7),
    ("x" * 1001, 1000),
    ("(" * 21 + "x" + ")" * 21, 20),
]


@pytest.mark.parametrize("query,position", MALFORMED, ids=[q[:30] for q, _ in MALFORMED])
def test_malformed_queries_raise_query_syntax_error(cards, query, position):
    with pytest.raises(QuerySyntaxError) as info:
        list(search_cards(query))
    assert info.value.position == position, info.value.message
    assert info.value.message


FRAGMENTS = st.sampled_from(
    [
        "t:ship",
        "t:base",
        "r:urcapa",
        "rarity:c",
        "kw:formation",
        "kw:burst_fire",
        "e:first",
        "clan:none",
        "code:TST-001",
        "cost<=",
        "cost:x",
        "ul:?",
        "spd>",
        "fp!=",
        "3",
        "0",
        "(",
        ")",
        "-",
        " or ",
        " ",
        '"',
        "ship",
        "Űrcápa",
        "%",
        "_",
        "\\",
        "'",
        "\x00",
    ]
)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(query=st.lists(FRAGMENTS, max_size=12).map("".join))
def test_any_query_either_runs_or_raises_query_syntax_error(cards, query):
    try:
        found = set(search_cards(query).values_list("code", flat=True))
    except QuerySyntaxError:
        return
    assert found <= ALL
