"""The search language's parser alone: trees, aliases, errors and their positions (no database)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards_data.search import QuerySyntaxError, parse
from cards_data.search.fields import vocabulary
from cards_data.search.parser import MAX_DEPTH, MAX_QUERY_LENGTH
from cards_data.search.tree import All, And, Code, Enum, Not, Number, Or, Text
from engine import catalog


@pytest.fixture(autouse=True)
def english():
    """These tables quote the English messages; the Hungarian ones are tested separately."""
    from django.utils import translation

    with translation.override("en"):
        yield


SHIP = Enum("type", ("ship",))


def word(value, scope="any"):
    return Text(scope, value)


# --------------------------------------------------------------------------- trees


@pytest.mark.parametrize("query", ["", "   ", "\t\n", None])
def test_empty_query_is_everything(query):
    assert parse(query) == All()


def test_field_value_is_one_term_never_a_bare_word():
    assert parse("t:ship") == SHIP
    assert parse("t:ship r:zarg") == And((SHIP, Enum("race", ("zarg",))))


def test_implicit_and_explicit_and():
    expected = And((word("cobra"), word("flash")))
    assert parse("cobra flash") == expected
    assert parse("cobra and flash") == expected
    assert parse("cobra AND flash") == expected
    assert parse("cobra és flash") == expected
    assert parse("cobra ES flash") == expected


def test_or_binds_looser_than_and():
    assert parse("a b or c") == Or((And((word("a"), word("b"))), word("c")))
    assert parse("a vagy b VAGY c") == Or((word("a"), word("b"), word("c")))
    assert parse("a OR b") == Or((word("a"), word("b")))


def test_parentheses_group():
    assert parse("a (b or c)") == And((word("a"), Or((word("b"), word("c")))))
    assert parse("((a))") == word("a")


def test_negation():
    assert parse("-t:ship") == Not(SHIP)
    assert parse("--t:ship") == SHIP
    assert parse("---t:ship") == Not(SHIP)
    assert parse("-(a or b)") == Not(Or((word("a"), word("b"))))
    assert parse('-"burst fire"') == Not(word("burst fire"))


def test_dash_inside_a_word_is_not_a_negation():
    assert parse("x-wing") == word("x-wing")
    assert parse("code:tst-001") == Code("TST-001")


def test_quoted_phrases_and_hungarian_quotes():
    assert parse('"Burst  Fire"') == word("burst fire")
    assert parse("„sorozatlövés képesség”") == word("sorozatloves kepesseg")
    assert parse('name:"Cobra Flash"') == word("cobra flash", "name")


def test_words_are_folded():
    assert parse("Űrcápa") == word("urcapa")
    assert parse("HALÁLSZÁRNY") == word("halalszarny")


@pytest.mark.parametrize(
    "query,expected",
    [
        ("name:x", word("x", "name")),
        ("n:x", word("x", "name")),
        ("név:x", word("x", "name")),
        ("NEV:x", word("x", "name")),
        ("text:x", word("x", "text")),
        ("o:x", word("x", "text")),
        ("szöveg:x", word("x", "text")),
        ("type:ship", SHIP),
        ("típus:ship", SHIP),
        ("tipus:ship", SHIP),
        ("st:scout", Enum("subtype", ("scout",))),
        ("subtype:scout", Enum("subtype", ("scout",))),
        ("altípus:scout", Enum("subtype", ("scout",))),
        ("race:zarg", Enum("race", ("zarg",))),
        ("faj:zarg", Enum("race", ("zarg",))),
        ("rar:rare", Enum("rarity", ("rare",))),
        ("ritkaság:rare", Enum("rarity", ("rare",))),
        ("klán:galactic_trade", Enum("clan", ("galactic_trade",))),
        ("e:first", Enum("edition", ("first",))),
        ("set:first", Enum("edition", ("first",))),
        ("kiadás:first", Enum("edition", ("first",))),
        ("cr:3", Number("cost", "=", 3)),
        ("ár:3", Number("cost", "=", 3)),
        ("költség:3", Number("cost", "=", 3)),
        ("sebesség:3", Number("speed", "=", 3)),
        ("spd:3", Number("speed", "=", 3)),
        ("tűzerő:3", Number("firepower", "=", 3)),
        ("fp:3", Number("firepower", "=", 3)),
        ("armor:3", Number("armour", "=", 3)),
        ("páncélzat:3", Number("armour", "=", 3)),
        ("páncél:3", Number("armour", "=", 3)),
        ("bombázás:3", Number("bombardment", "=", 3)),
        ("bmb:3", Number("bombardment", "=", 3)),
        ("méret:3", Number("size", "=", 3)),
        ("fejlesztés:3", Number("upgrade_limit", "=", 3)),
        ("upgrade_limit:3", Number("upgrade_limit", "=", 3)),
        ("képesség:cloak", Enum("keyword", ("cloak",))),
        ("kw:cloak", Enum("keyword", ("cloak",))),
        ("kód:kg1-001", Code("KG1-001")),
    ],
)
def test_field_names_in_both_languages(query, expected):
    assert parse(query) == expected


@pytest.mark.parametrize(
    "query,expected",
    [
        ("t:űrhajó", SHIP),
        ("t:urhajo", SHIP),
        ("t:Ship", SHIP),
        ("t:hajó", SHIP),
        ("t:scout", Enum("subtype", ("scout",))),
        ("t:felderítő", Enum("subtype", ("scout",))),
        ("t:csapda", Enum("subtype", ("trap",))),
        ("r:urcapa", Enum("race", ("space_shark",))),
        ("r:space_shark", Enum("race", ("space_shark",))),
        ('r:"space shark"', Enum("race", ("space_shark",))),
        ("r:space-shark", Enum("race", ("space_shark",))),
        ("r:ember", Enum("race", ("human",))),
        ("r:none", Enum("race", ("",))),
        ("r:nincs", Enum("race", ("",))),
        ("rarity:c", Enum("rarity", ("common",))),
        ("rarity:gyakori", Enum("rarity", ("common",))),
        ("rarity:u", Enum("rarity", ("uncommon",))),
        ('rarity:"nem gyakori"', Enum("rarity", ("uncommon",))),
        ("rarity:nem_gyakori", Enum("rarity", ("uncommon",))),
        ("rarity:ultra_rare", Enum("rarity", ("ultra_rare",))),
        ("rarity:ultra-rare", Enum("rarity", ("ultra_rare",))),
        ("rarity:ultraritka", Enum("rarity", ("ultra_rare",))),
        ("rarity:moon", Enum("rarity", ("common",))),
        ("rarity:bolygó", Enum("rarity", ("uncommon",))),
        ('clan:"Acél Sasok"', Enum("clan", ("steel_eagles",))),
        ("clan:acel_sasok", Enum("clan", ("steel_eagles",))),
        ("kw:burst_fire", Enum("keyword", ("burst_fire",))),
        ("kw:sorozatlövés", Enum("keyword", ("burst_fire",))),
        ('kw:"burst fire"', Enum("keyword", ("burst_fire",))),
        ('e:"első kiadás"', Enum("edition", ("first",))),
        ("e:KG1", Enum("edition", ("first",))),
        ("cost:x", Number("cost", "=", "x")),
        ("cost:X", Number("cost", "=", "x")),
        ("cost!=x", Number("cost", "!=", "x")),
        ("ul:x", Number("upgrade_limit", "=", "x")),
        ("ul:?", Number("upgrade_limit", "=", "?")),
        ("ul:4", Number("upgrade_limit", "=", 4)),
    ],
)
def test_value_aliases(query, expected):
    assert parse(query) == expected


@pytest.mark.parametrize("op", ["=", "!=", "<", "<=", ">", ">="])
def test_numeric_operators(op):
    assert parse(f"cost{op}3") == Number("cost", op, 3)


def test_colon_on_a_number_means_equals():
    assert parse("spd:4") == parse("spd=4") == Number("speed", "=", 4)


def test_every_catalogue_name_is_accepted():
    for table, field in [
        (catalog.RACES, "race"),
        (catalog.RARITIES, "rarity"),
        (catalog.CLANS, "clan"),
        (catalog.KEYWORDS, "kw"),
    ]:
        for ident, names in table.items():
            for value in (ident, names["hu"], names["en"]):
                node = parse(f'{field}:"{value}"')
                assert isinstance(node, Enum) and node.values == (ident,), (field, value)
    for type_, subtypes in catalog.SUBTYPES.items():
        assert parse(f't:"{catalog.TYPES[type_]["hu"]}"') == Enum("type", (type_,))
        for sub, names in subtypes.items():
            assert parse(f'st:"{names["hu"]}"') == Enum("subtype", (sub,))
            assert parse(f"t:{sub}") == Enum("subtype", (sub,))


def test_aliases_are_unambiguous():
    for field, table in vocabulary().aliases.items():
        for alias, targets in table.items():
            assert len(targets) == 1, (field, alias, targets)


def test_positions_are_recorded():
    node = parse("a  t:ship")
    assert (node.children[1].position, node.children[1].length) == (3, 6)


def test_control_characters_are_whitespace():
    assert parse("crx\x00flash") == And((word("crx"), word("flash")))
    assert parse('"crx\x00flash"') == word("crx flash")
    assert parse("name:crx\x00") == word("crx", "name")


def test_maximum_length_and_depth_are_accepted():
    assert parse("a" * MAX_QUERY_LENGTH) == word("a" * MAX_QUERY_LENGTH)
    assert parse("(" * MAX_DEPTH + "a" + ")" * MAX_DEPTH) == word("a")


# --------------------------------------------------------------------------- errors

ERRORS = [
    # query, 0-based position, a fragment the message must contain
    ("colour:red", 0, "Unknown field 'colour'"),
    ("t:ship colour:red", 7, "Known fields:"),
    ("(t:ship", 0, "Missing closing parenthesis"),
    ("(a (b)", 0, "Missing closing parenthesis"),
    ("t:ship)", 6, "Unexpected ')'"),
    ("()", 0, "Empty parentheses"),
    ("a ( ) b", 2, "Empty parentheses"),
    ("cost<=abc", 6, "'<=' needs a number: cost<=abc at position 7"),
    ("spd:fast", 4, "needs a number"),
    ("cost<x", 5, "needs a number"),
    ("ul>?", 3, "needs a number"),
    ("ul:abc", 3, "x / ?"),
    ("cost<=99999", 6, "too large"),
    ("r:martian", 2, "Unknown race 'martian'"),
    ("r:martian", 2, "ember/human"),
    ("r:common", 2, "Unknown race 'common'"),
    ("rarity:comm", 7, "Unknown rarity"),
    ("rarity:mon", 7, "Unknown rarity"),
    ("t:shi", 2, "Unknown type"),
    ("st:ship", 3, "Unknown subtype"),
    ("kw:flying", 3, "sorozatlövés/burst_fire"),
    ("clan:eagles", 5, "Unknown clan"),
    ("e:second", 2, "Unknown edition"),
    ("t:", 0, "needs a value"),
    ("t: ship", 0, "needs a value"),
    ('name:""', 0, "needs a value"),
    ("name<3", 4, "'<' does not work"),
    ("r!=zarg", 1, "-r:zarg"),
    ("t=ship", 1, "t:ship"),
    ("t:ship or", 7, "needs a search term after"),
    ("or t:ship", 0, "needs a search term before"),
    ("a or or b", 2, "needs a search term after"),
    ("(a or) b", 3, "needs a search term after"),
    ("a and", 2, "needs a search term after"),
    ("-", 0, "'-'"),
    ("t:ship - r:zarg", 7, "'-'"),
    ('"burst fire', 0, "Missing closing quote"),
    ('name:"burst fire', 5, "Missing closing quote"),
    ('""', 0, "Empty quotes"),
    (":ship", 0, "needs a field name"),
    ("t :ship", 2, "needs a field name"),
    ("\u0301", 0, "Nothing to search for"),
    ("x" * (MAX_QUERY_LENGTH + 1), MAX_QUERY_LENGTH, "too long"),
    ("(" * (MAX_DEPTH + 1) + "a" + ")" * (MAX_DEPTH + 1), MAX_DEPTH, "nested"),
    ("a\ud800", 1, "Invalid character"),
]


@pytest.mark.parametrize("query,position,fragment", ERRORS)
def test_malformed_queries(query, position, fragment):
    with pytest.raises(QuerySyntaxError) as info:
        parse(query)
    error = info.value
    assert fragment in error.message
    assert error.position == position, error.message
    assert 0 <= error.position <= len(query)
    assert error.length >= 0
    assert str(error) == error.message


def test_unknown_field_lists_known_fields():
    with pytest.raises(QuerySyntaxError) as info:
        parse("colour:red")
    for name in ("name", "név", "type", "típus", "race", "faj", "cost", "kw"):
        assert name in info.value.message


@pytest.mark.parametrize(
    "query,suggestion",
    [
        ("r:common", "Did you mean rarity:common?"),
        ("r:ship", "Did you mean type:ship?"),
        ("r:urcpa", "Did you mean r:urcapa?"),
        ('rarity:"nem gyakor"', 'Did you mean rarity:"nem gyakori"?'),
        ("typ:ship", "Did you mean type:?"),
    ],
)
def test_unknown_names_suggest_the_likely_one(query, suggestion):
    with pytest.raises(QuerySyntaxError) as info:
        parse(query)
    assert suggestion in info.value.message


def test_percent_signs_in_values_do_not_break_messages():
    for query in ("r:%s", "r:%(pos)s", "cost<=%d", "colour:%", "kw:%%", "t:%(x)s%"):
        with pytest.raises(QuerySyntaxError):
            parse(query)


def test_deep_negation_chain_is_not_a_recursion():
    assert parse("-" * 999 + "a") == Not(word("a"))


# --------------------------------------------------------------------------- fuzzing


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=200))
def test_random_text_parses_or_raises_query_syntax_error(query):
    try:
        parse(query)
    except QuerySyntaxError as error:
        assert isinstance(error.message, str) and error.message
        assert 0 <= error.position <= len(query)


FRAGMENTS = st.sampled_from(
    [
        "t:ship",
        "r:",
        "cost<=",
        "3",
        "x",
        "?",
        "(",
        ")",
        "-",
        "or",
        "vagy",
        "and",
        '"',
        "„",
        "”",
        ":",
        "<",
        ">=",
        "!=",
        "=",
        "name:",
        "kw:",
        "ul",
        "ul:",
        "zarg",
        "Űrcápa",
        " ",
        "  ",
        "a",
        "\x00",
    ]
)


@settings(max_examples=1000, deadline=None)
@given(st.lists(FRAGMENTS, max_size=25).map("".join))
def test_query_like_text_parses_or_raises_query_syntax_error(query):
    try:
        parse(query)
    except QuerySyntaxError as error:
        assert 0 <= error.position <= len(query)


# --------------------------------------------------------------------------- the help fragment


def _rendered_help(context):
    from django.template.loader import render_to_string

    return render_to_string("cards_data/_search_syntax.html", context)


@pytest.mark.parametrize("context", [{}, {"catalog": catalog}], ids=["plain", "with-catalog"])
def test_every_example_in_the_help_parses(context):
    import html
    import re

    rendered = _rendered_help(context)
    examples = [html.unescape(m) for m in re.findall(r'<code class="query">(.*?)</code>', rendered)]
    assert len(examples) >= 30
    for example in examples:
        parse(example)


def test_the_help_documents_every_field_name():
    from cards_data.search.fields import FIELD_DEFS
    from cards_data.search.normalize import fold

    rendered = fold(_rendered_help({"catalog": catalog}))
    for field in FIELD_DEFS:
        for name in field.names:
            assert f"<code>{fold(name)}</code>" in rendered, name


def test_errors_follow_the_active_language():
    """The same error reads in Hungarian when Hungarian is active (the site's default)."""
    from django.utils import translation

    with translation.override("hu"):
        with pytest.raises(QuerySyntaxError) as info:
            parse("colour:red")
    assert "Ismeretlen mező: 'colour'" in info.value.message
    assert info.value.position == 0
