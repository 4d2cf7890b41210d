"""Deck lists in and out (decks.textformat): text, JSON, share codes, uploads.

Pure pytest, no database: the card index is built from the real first-edition set
files, read directly. Legality stays with engine.deck.check_deck (R 9); these tests
only check that what a user wrote becomes the right (code, count) pairs, or an
error naming the line.
"""

import json
import re
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decks.textformat import (
    MAX_COUNT,
    TYPE_HEADERS,
    CardIndex,
    DecklistError,
    LineError,
    ParseResult,
    decode_share_code,
    decode_upload,
    encode_share_code,
    export_json,
    export_text,
    parse_decklist,
    parse_json,
    sort_entries,
)
from engine.deck import DeckProblem, check_deck

SET_DIR = Path(__file__).resolve().parents[2] / "cards_data" / "sets" / "first"
CARDS = [
    card
    for path in sorted(SET_DIR.glob("*.json"))
    for card in json.loads(path.read_text(encoding="utf-8"))["cards"]
]
INDEX = CardIndex(CARDS)
BY_NAME = {card["name"]: card for card in CARDS}
CODE = {name: card["code"] for name, card in BY_NAME.items()}
COBRA = CODE["Cobra Flash"]  # KG1-214

# R 21.1: the rulebook's cards, with the accents and the trailing dot they are printed with.
RULEBOOK = {
    "Halálszárny": "Deathwing",
    "Aknagyűrű": "Mine Ring",
    "Tüzér": "Gunner",
    "Felülbírálás": "Override",
    "Mamut I.": "Mammoth I",
    "Cobra Flash": "Cobra Flash",
    "CRX": "CRX",
}


def parse(text, **kwargs) -> ParseResult:
    return parse_decklist(text, INDEX, **kwargs)


def expected(entries):
    """(card, count) pairs as parse results: codes, in export order."""
    return [(card["code"], count) for card, count in sort_entries(entries)]


def test_the_real_set_is_loaded():
    assert len(CARDS) == 240
    assert BY_NAME["Cobra Flash"]["code"] == "KG1-214"
    for name, english in RULEBOOK.items():
        assert BY_NAME[name]["name_en"] == english


# --------------------------------------------------------------------------- card index


@pytest.mark.parametrize("name", RULEBOOK)
def test_r21_rulebook_cards_resolve_by_any_spelling(name):
    """R 21.1/21.3: accented names, accent-free, upper-case, English and code."""
    card = BY_NAME[name]
    english = card["name_en"]
    spellings = [
        name,
        name.upper(),
        name.lower(),
        _strip_accents(name),
        _strip_accents(name).upper(),
        english,
        english.upper(),
        english.lower(),
        card["code"],
        card["code"].lower(),
        f"  {name}  ",
    ]
    for spelling in spellings:
        assert INDEX.resolve(spelling) is card, spelling


def _strip_accents(text):
    table = str.maketrans("áéíóöőúüűÁÉÍÓÖŐÚÜŰ", "aeiooouuuAEIOOOUUU")
    return text.translate(table)


def test_every_card_resolves_by_code_and_both_names():
    for card in CARDS:
        assert INDEX.get(card["code"]) is card
        assert INDEX.resolve(card["name"]) is card
        assert INDEX.resolve(card["name_en"]) is card


def test_punctuation_is_optional_when_unambiguous():
    assert INDEX.resolve("Mamut I") is BY_NAME["Mamut I."]
    assert INDEX.resolve("Queens Barge")["name_en"] == "Queen's Barge"
    assert INDEX.resolve("Quorx Merchant Prince")["name_en"] == "Quorx, Merchant Prince"
    assert INDEX.resolve("jaror 7") is BY_NAME["Járőr-7"]
    assert INDEX.resolve("Nonexistent") is None
    assert INDEX.resolve("") is None


def test_duplicate_codes_are_refused():
    with pytest.raises(ValueError, match="duplicate"):
        CardIndex([CARDS[0], dict(CARDS[0])])


# --------------------------------------------------------------------------- line shapes


@pytest.mark.parametrize(
    "line, count",
    [
        ("3 Cobra Flash", 3),
        ("3x Cobra Flash", 3),
        ("3X Cobra Flash", 3),
        ("3 x Cobra Flash", 3),
        ("3 × Cobra Flash", 3),
        ("Cobra Flash x3", 3),
        ("Cobra Flash x 3", 3),
        ("Cobra Flash", 1),
        ("3 KG1-214", 3),
        ("3 kg1-214", 3),
        ("KG1-214 x2", 2),
        ("3\tCobra Flash", 3),
        ("   3   Cobra   Flash   ", 3),
        ("3 COBRA FLASH", 3),
        ("03 Cobra Flash", 3),
        ("45 Cobra Flash", 45),
    ],
)
def test_accepted_line_shapes(line, count):
    assert parse(line) == ParseResult([(COBRA, count)], [])


@pytest.mark.parametrize(
    "line",
    [
        "2 Mamut I.",
        "2x Mamut I.",
        "Mamut I. x2",
        "2 MAMUT I.",
        "2 mamut i.",
        "2 Mamut I",
        "2 Mammoth I",
    ],
)
def test_r21_mamut_trailing_dot_parses(line):
    """R 21.1 #4: "Mamut I." keeps its dot; it is not a sentence end or a header."""
    assert parse(line).entries == [(CODE["Mamut I."], 2)]
    assert parse(line + " # cruiser").entries == [(CODE["Mamut I."], 2)]


@pytest.mark.parametrize(
    "text, code",
    [
        ("3 Halálszárny", "Halálszárny"),
        ("3 halalszarny", "Halálszárny"),
        ("3 HALALSZARNY", "Halálszárny"),
        ("3 Deathwing", "Halálszárny"),
        ("1 Aknagyűrű", "Aknagyűrű"),
        ("1 AKNAGYURU", "Aknagyűrű"),
        ("1 Mine Ring", "Aknagyűrű"),
        ("2 Tüzér", "Tüzér"),
        ("2 tuzer", "Tüzér"),
        ("2 Gunner", "Tüzér"),
        ("1 Felülbírálás", "Felülbírálás"),
        ("1 felulbiralas", "Felülbírálás"),
        ("1 Override", "Felülbírálás"),
    ],
)
def test_r21_accents_and_english_names(text, code):
    count = int(text.split()[0])
    assert parse(text) == ParseResult([(CODE[code], count)], [])


def test_comments_blank_lines_and_headers_are_skipped():
    text = "\n".join(
        [
            "# Laci's colony",
            "// built for EX-6",
            "",
            "   ",
            "Ships:",
            "Űrhajók (12)",
            "Ships (12):",
            "3 Cobra Flash   # the fast one",
            "2 Halálszárny // cheap",
            "Legénység:",
            "2 Tüzér#no space",
        ]
    )
    result = parse(text)
    assert result.errors == []
    assert result.entries == [(COBRA, 3), (CODE["Halálszárny"], 2), (CODE["Tüzér"], 2)]


@pytest.mark.parametrize("lang", ["hu", "en"])
@pytest.mark.parametrize("type_", list(TYPE_HEADERS))
def test_section_headers_in_both_languages(type_, lang):
    header = TYPE_HEADERS[type_][lang]
    for line in (f"{header}:", f"{header} (12)", f"{header} (12):", f"{header.upper()}:"):
        assert parse(line) == ParseResult([], []), line


@pytest.mark.parametrize(
    "line, example",
    [
        ("Cobra Flash (3)", "3 Cobra Flash"),
        ("Cobra Flash:", "1 Cobra Flash"),
        ("3 Cobra Flash:", "3 Cobra Flash"),
        ("Tüzér (2)", "2 Tüzér"),
        ("KG1-214 (2):", "2 KG1-214"),
    ],
)
def test_a_header_that_names_a_card_is_an_error_not_skipped(line, example):
    result = parse("2 Tüzér\n" + line)
    assert result.entries == [(CODE["Tüzér"], 2)]
    [error] = result.errors
    assert error.line_no == 2
    assert error.message.startswith("Line 2: ")
    assert example in error.message


@pytest.mark.parametrize("line", ["Cobra Flsh:", "Halalszarni (3)", "12 Ships:"])
def test_a_header_within_a_typo_of_a_card_or_with_a_count_is_reported(line):
    [error] = parse(line).errors
    assert error.line_no == 1
    assert "unknown card" in error.message


def test_repeated_cards_are_merged():
    """R 9.2 counts copies by name; the parser only sums what was written. A 4th
    copy is check_deck's business (COPY_LIMIT), not a parse error."""
    result = parse("2 Cobra Flash\n1 cobra flash\nKG1-214\n2 Tüzér")
    assert result == ParseResult([(COBRA, 4), (CODE["Tüzér"], 2)], [])
    problems = check_deck([(INDEX.get(code), n) for code, n in result.entries])
    assert DeckProblem("COPY_LIMIT", {"name": "Cobra Flash", "count": 4, "max": 3}) in problems


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("count", ["0", "-1", "46", "-0", "000", "99999999999999999999999"])
def test_r9_1_counts_outside_1_to_45_are_errors(count):
    result = parse(f"3 Tüzér\n{count} Cobra Flash\n2 Halálszárny")
    assert result.entries == [(CODE["Tüzér"], 3), (CODE["Halálszárny"], 2)]
    [error] = result.errors
    assert (error.line_no, error.line) == (2, f"{count} Cobra Flash")
    assert "between 1 and 45" in error.message


def test_counts_in_suffix_form_are_checked_too():
    for line in ("Cobra Flash x0", "Cobra Flash x46", "Cobra Flash x-1"):
        [error] = parse(line).errors
        assert "between 1 and 45" in error.message


def test_a_card_adding_up_past_45_copies_is_an_error():
    result = parse("30 Cobra Flash\n15 Cobra Flash\n1 Cobra Flash")
    assert result.entries == [(COBRA, 45)]
    [error] = result.errors
    assert error.line_no == 3 and "46" in error.message


def test_a_collection_reads_the_same_lines_with_its_own_counts():
    """The collection form reads its lines with this grammar: 0 copies (removes the card)
    to 999, the count required; comments and section headers as in a deck list."""
    from decks.forms import OWNED_COUNTS

    text = "# Ships\nŰrhajók (3)\n0 Cobra Flash\nTüzér x120 // mine\n999 Halálszárny"
    result = parse(text, counts=OWNED_COUNTS)
    assert result.ok
    assert result.entries == [(COBRA, 0), (CODE["Tüzér"], 120), (CODE["Halálszárny"], 999)]
    bare, too_many, past = parse(
        "Cobra Flash\n1000 Tüzér\n999 Halálszárny\n1 Halálszárny", counts=OWNED_COUNTS
    ).errors
    assert bare.line_no == 1 and 'write how many you own, e.g. "2 Cobra Flash"' in bare.message
    assert too_many.line_no == 2 and "between 0 and 999" in too_many.message
    assert past.line_no == 4 and "1000" in past.message


def test_unknown_card_suggests_the_closest_names():
    [error] = parse("2 Tüzér\n\n3 Cobra Flsh").errors
    assert error == LineError(
        3,
        "3 Cobra Flsh",
        'Line 3: unknown card "Cobra Flsh". Did you mean: Cobra Flash?',
        ("Cobra Flash",),
    )


@pytest.mark.parametrize(
    "typo, suggestion",
    [
        ("Halálszárni", "Halálszárny"),  # Hungarian typo -> Hungarian name
        ("halalszarni", "Halálszárny"),  # accent-free typo -> shown with accents
        ("Deathwng", "Deathwing"),  # English typo -> English name
        ("Mammut I.", "Mamut I."),
        ("Felulbiralsa", "Felülbírálás"),
        ("Gunnr", "Gunner"),
    ],
)
def test_suggestions_are_in_the_language_that_matched(typo, suggestion):
    [error] = parse(f"1 {typo}").errors
    assert error.suggestions[0] == suggestion
    assert len(error.suggestions) <= 3
    assert suggestion in error.message


def test_at_most_three_suggestions():
    [error] = parse("1 Imperial").errors
    assert len(error.suggestions) == 3
    assert all(name.startswith("Imperial") for name in error.suggestions)


def test_no_suggestions_for_nonsense():
    [error] = parse("2 Qwxzzy").errors
    assert error.suggestions == ()
    assert error.message == 'Line 1: unknown card "Qwxzzy".'


@pytest.mark.parametrize("line", ["3", "----", "===", "(3)", ":", "3 ---", "-"])
def test_unparsable_lines_are_errors(line):
    [error] = parse(f"1 Tüzér\n{line}").errors
    assert error.line_no == 2
    assert "cannot read" in error.message


@pytest.mark.parametrize(
    "char", ["\x00", "\x07", "\x1b", "\x7f", "\x85", "\u200b", "\u202e", "\u2028"]
)
def test_control_characters_are_errors_naming_line_and_character(char):
    result = parse(f"3 Tüzér\n2 Cobra{char} Flash\n1 Halálszárny")
    assert result.entries == [(CODE["Tüzér"], 3), (CODE["Halálszárny"], 1)]
    [error] = result.errors
    assert error.line_no == 2
    assert f"U+{ord(char):04X}" in error.message
    assert char not in error.message and char not in error.line  # never echoed raw


def test_nul_inside_a_comment_is_still_an_error():
    [error] = parse("3 Tüzér # \x00").errors
    assert "U+0000" in error.message


def test_line_endings_bom_and_tabs():
    text = "\ufeff3 Tüzér\r\n2\tCobra Flash\r1 Halálszárny\n"
    assert parse(text).entries == [(CODE["Tüzér"], 3), (COBRA, 2), (CODE["Halálszárny"], 1)]
    assert parse(text).errors == []


def test_overlong_line_is_an_error():
    [error] = parse("3 " + "a" * 500).errors
    assert error.line_no == 1 and "characters long" in error.message
    assert len(error.line) <= 200


def test_10000_lines_is_one_error_and_nothing_parsed():
    text = "\n".join("1 Cobra Flash" for _ in range(10_000))
    result = parse(text)
    assert result.entries == []
    [error] = result.errors
    assert error.line_no == 1001
    assert "10000 lines" in error.message and "1000" in error.message


def test_max_lines_is_a_parameter_and_10000_lines_parse_quickly():
    names = [card["name"] if i % 2 else card["name_en"] for i, card in enumerate(CARDS)]
    text = "\n".join(f"1 {names[i % len(names)]}" for i in range(10_000))
    started = time.perf_counter()
    result = parse(text, max_lines=10_000)
    elapsed = time.perf_counter() - started
    assert result.errors == []
    assert sum(count for _, count in result.entries) == 10_000
    assert len(result.entries) == 240
    assert elapsed < 5


def test_a_list_of_junk_is_bounded_in_time():
    text = "\n".join(f"3 Unknown card number {i}" for i in range(1000))
    started = time.perf_counter()
    result = parse(text)
    assert len(result.errors) == 1000
    assert time.perf_counter() - started < 5


def test_exactly_max_lines_is_accepted_and_a_trailing_newline_is_not_a_line():
    text = "1 Tüzér\n" * 1000
    result = parse(text)
    assert result.errors[0].line_no == 46  # past 45 copies, not "too many lines"
    assert len(parse("1 Tüzér\n" * 1001).errors) == 1


# Lines made of card names, counts, punctuation and words: the property "nothing is
# silently dropped" -- every line that is not blank, a comment or a header naming no
# card gives exactly one entry or exactly one error.
_FRAGMENTS = st.sampled_from(
    [
        *(card["name"] for card in CARDS[::7]),
        *(card["name_en"] for card in CARDS[::11]),
        "Mamut I.",
        "KG1-214",
        "3",
        "0",
        "-1",
        "46",
        "x",
        "x3",
        "3x",
        ":",
        "(2)",
        "(",
        ")",
        "#",
        "//",
        "-",
        ".",
        "Ships",
        "Űrhajók",
        "foo",
        "Cobra Flsh",
    ]
)
_LINES = st.lists(_FRAGMENTS, min_size=1, max_size=4).map(" ".join)


def _header_naming_no_card(body):
    for pattern in (r"(.*):", r"(.*?)\s*\(\s*[0-9]+\s*\)\s*:?"):
        match = re.fullmatch(pattern, body)
        if match and INDEX.resolve(match.group(1).strip()) is None:
            return True
    return False


@settings(max_examples=400, deadline=None)
@given(_LINES)
def test_nothing_is_silently_dropped(line):
    result = parse(line)
    body = re.split(r"#|//", line, maxsplit=1)[0].strip()
    outcomes = len(result.entries) + len(result.errors)
    if not body:
        assert outcomes == 0
    elif outcomes == 0:
        assert _header_naming_no_card(body), f"{line!r} vanished"
    else:
        assert outcomes == 1, (line, result)
        for error in result.errors:
            assert error.line_no == 1 and error.message.startswith("Line 1: ")


def test_a_parsed_colony_goes_to_check_deck():
    """R 9.1/9.3 via check_deck: 15 different human/insectoid cards x 3 = 45, legal."""
    chosen = [c for c in CARDS if c["race"] in ("human", "insectoid")][:15]
    text = "\n".join(f"3 {card['name']}" for card in chosen)
    result = parse(text)
    assert result.errors == []
    assert check_deck([(INDEX.get(code), count) for code, count in result.entries]) == []


# --------------------------------------------------------------------------- uploads


def test_upload_utf8_with_and_without_bom():
    text = "3 Tüzér\n2 Aknagyűrű\n"
    assert decode_upload(text.encode("utf-8")) == text
    assert decode_upload(b"\xef\xbb\xbf" + text.encode("utf-8")) == text


@pytest.mark.parametrize("encoding", ["latin-1", "cp1250"])
def test_upload_not_utf8_names_the_byte_offset(encoding):
    data = "3 Cobra Flash\n2 Tüzér\n".encode(encoding)
    with pytest.raises(DecklistError) as raised:
        decode_upload(data)
    offset = data.index("ü".encode(encoding))
    assert raised.value.offset == offset
    assert f"offset {offset}" in str(raised.value)
    assert "line 2" in str(raised.value)
    assert "UTF-8" in str(raised.value)


def test_upload_utf16_and_oversized_files_are_refused_clearly():
    with pytest.raises(DecklistError, match="UTF-16"):
        decode_upload("3 Tüzér".encode("utf-16"))
    with pytest.raises(DecklistError, match="at most 10 "):
        decode_upload(b"x" * 11, max_bytes=10)


def test_upload_with_nul_decodes_then_the_parser_reports_the_line():
    text = decode_upload(b"3 Tuzer\n\x00\n")
    [error] = parse(text).errors
    assert error.line_no == 2 and "U+0000" in error.message


# --------------------------------------------------------------------------- export


def _deck(names_and_counts):
    return [(BY_NAME[name], count) for name, count in names_and_counts]


def test_export_text_groups_by_type_in_rulebook_order():
    deck = _deck(
        [
            ("Felülbírálás", 1),
            ("Tüzér", 2),
            ("Aknagyűrű", 1),
            ("Cobra Flash", 3),
            ("Halálszárny", 3),
            ("Mamut I.", 2),
        ]
    )
    assert export_text(deck, "hu") == (
        "# Űrhajók (8)\n3 Halálszárny\n3 Cobra Flash\n2 Mamut I.\n\n"
        "# Legénység (2)\n2 Tüzér\n\n"
        "# Bázisok (1)\n1 Aknagyűrű\n\n"
        "# Megszakítások (1)\n1 Felülbírálás\n"
    )
    assert export_text(deck, "en") == (
        "# Ships (8)\n3 Deathwing\n3 Cobra Flash\n2 Mammoth I\n\n"
        "# Crew (2)\n2 Gunner\n\n"
        "# Bases (1)\n1 Mine Ring\n\n"
        "# Interrupts (1)\n1 Override\n"
    )


def test_export_text_refuses_bad_input():
    with pytest.raises(ValueError):
        export_text(_deck([("Tüzér", 1)]), "de")
    with pytest.raises(ValueError):
        export_text(_deck([("Tüzér", 0)]))
    assert export_text([]) == ""


def test_export_writes_the_code_for_a_name_that_would_not_read_back():
    odd = {"code": "KG9-001", "name": "Ships:", "name_en": "A # B", "type": "ship"}
    index = CardIndex([*CARDS, odd])
    for lang in ("hu", "en"):
        text = export_text([(odd, 2)], lang)
        assert "2 KG9-001" in text
        assert parse_decklist(text, index).entries == [("KG9-001", 2)]


decks = st.lists(
    st.tuples(st.sampled_from(CARDS), st.integers(min_value=1, max_value=MAX_COUNT)),
    max_size=40,
    unique_by=lambda entry: entry[0]["code"],
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decks, st.sampled_from(["hu", "en"]))
def test_text_round_trip(deck, lang):
    """parse_decklist(export_text(x)) == x, in both languages, over the real set."""
    result = parse(export_text(deck, lang))
    assert result == ParseResult(expected(deck), [])


@settings(max_examples=150, deadline=None)
@given(
    decks,
    st.text(max_size=40).filter(lambda s: s.isprintable()),
    st.sampled_from(["original", "free", "max4", "simplified"]),
)
def test_json_round_trip(deck, name, ruleset):
    text = export_json(deck, {"name": name, "ruleset": ruleset})
    result = parse_json(text, INDEX)
    assert result == ParseResult(expected(deck), [], {"name": name, "ruleset": ruleset})


def test_json_export_shape():
    document = json.loads(
        export_json(_deck([("Tüzér", 2)]), {"name": "Laci", "ruleset": "original"})
    )
    assert document == {
        "format": "kgk-deck",
        "version": 1,
        "name": "Laci",
        "ruleset": "original",
        "cards": [{"code": CODE["Tüzér"], "count": 2, "name": "Tüzér"}],
    }


def _json(cards, **extra):
    return json.dumps({"format": "kgk-deck", "version": 1, "cards": cards, **extra})


def test_json_code_wins_over_name():
    """Lossless across printings (NOTES): the code picks the printing."""
    result = parse_json(_json([{"code": COBRA, "count": 2, "name": "Tüzér"}]), INDEX)
    assert result.entries == [(COBRA, 2)]


def test_json_code_wins_even_when_two_printings_share_a_name():
    """AMB-41: a reprint with the same name; name-based import would pick the first."""
    reprint = dict(BY_NAME["Halálszárny"], code="KG2-061")
    index = CardIndex([*CARDS, reprint])
    deck = [(reprint, 2), (BY_NAME["Halálszárny"], 1)]
    result = parse_json(export_json(deck), index)
    assert sorted(result.entries) == [(CODE["Halálszárny"], 1), ("KG2-061", 2)]


def test_json_name_is_used_without_a_known_code():
    cards = [{"name": "tuzer", "count": 2}, {"code": "KG9-999", "name": "Deathwing", "count": 1}]
    result = parse_json(_json(cards), INDEX)
    assert result == ParseResult(
        [(CODE["Tüzér"], 2), (CODE["Halálszárny"], 1)], [], {"name": "", "ruleset": "original"}
    )


def test_json_entry_errors_name_the_card_position():
    cards = [
        {"code": COBRA, "count": 3},
        {"name": "Cobra Flsh", "count": 1},
        {"code": COBRA, "count": 0},
        {"code": COBRA, "count": True},
        {"code": COBRA, "count": 46},
        {"code": COBRA, "count": "3"},
        {"count": 1},
        "Cobra Flash",
    ]
    result = parse_json(_json(cards), INDEX)
    assert result.entries == [(COBRA, 3)]
    assert [e.line_no for e in result.errors] == [2, 3, 4, 5, 6, 7, 8]
    assert result.errors[0].suggestions == ("Cobra Flash",)
    assert result.errors[0].message.startswith('Card 2 in "cards": unknown card "Cobra Flsh"')
    for error in result.errors[1:5]:
        assert "1 to 45" in error.message


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("{", "not valid JSON"),
        ("[]", "must be an object"),
        ('{"format": "mtg", "version": 1, "cards": []}', '"format" must be'),
        ('{"format": "kgk-deck", "version": 2, "cards": []}', "version 2"),
        ('{"format": "kgk-deck", "version": true, "cards": []}', "version true"),
        ('{"format": "kgk-deck", "version": 1, "cards": {}}', '"cards" must be a list'),
        ('{"format": "kgk-deck", "version": 1, "cards": [], "ruleset": "x"}', '"ruleset"'),
        ('{"format": "kgk-deck", "version": 1, "cards": [], "ruleset": [1]}', '"ruleset"'),
        ('{"format": "kgk-deck", "version": 1, "cards": [], "ruleset": ""}', '"ruleset"'),
        ('{"format": "kgk-deck", "version": 1, "cards": [], "name": 5}', '"name"'),
        ("[" * 100_000, "nested too deeply"),
        ('{"version": ' + "9" * 5000 + "}", "cannot be read"),
    ],
)
def test_json_document_errors(text, fragment):
    result = parse_json(text, INDEX)
    assert result.entries == []
    [error] = result.errors
    assert fragment in error.message


def test_json_too_many_cards():
    cards = [{"code": COBRA, "count": 1}] * 1001
    [error] = parse_json(_json(cards), INDEX).errors
    assert "1001 cards" in error.message


# --------------------------------------------------------------------------- share codes


@settings(max_examples=300, deadline=None)
@given(decks)
def test_share_code_round_trip(deck):
    code = encode_share_code(deck)
    assert re.fullmatch(r"1[A-Za-z0-9_-]*", code)  # URL-safe, no padding
    result = decode_share_code(code, INDEX)
    assert result.errors == []
    assert dict(result.entries) == {card["code"]: count for card, count in deck}
    assert sorted(result.entries) == result.entries  # canonical order


@settings(max_examples=100, deadline=None)
@given(decks, st.randoms(use_true_random=False))
def test_share_code_ignores_entry_order_and_accepts_codes(deck, rng):
    shuffled = list(deck)
    rng.shuffle(shuffled)
    as_codes = [(card["code"], count) for card, count in shuffled]
    assert encode_share_code(shuffled) == encode_share_code(deck) == encode_share_code(as_codes)


def test_share_code_is_short_for_a_45_card_colony():
    chosen = [c for c in CARDS if c["race"] in ("zarg", "xeno")][:15]
    code = encode_share_code([(card, 3) for card in chosen])
    assert len(code) <= 40
    assert decode_share_code(code, INDEX).entries == sorted((c["code"], 3) for c in chosen)


def test_share_code_carries_the_edition_prefix():
    """Future editions: KG2 cards next to KG1 cards decode to their own codes."""
    future = {"code": "KG2-007", "name": "Jövő", "name_en": "Future", "type": "ship"}
    long_number = {"code": "KGX9-1234", "name": "Távoli", "name_en": "Far", "type": "event"}
    index = CardIndex([*CARDS, future, long_number])
    deck = [(future, 2), (BY_NAME["Tüzér"], 3), (long_number, 1)]
    result = decode_share_code(encode_share_code(deck), index)
    assert result == ParseResult([("KG1-043", 3), ("KG2-007", 2), ("KGX9-1234", 1)], [])
    # an index without the new edition reports the unknown codes, keeps the rest
    result = decode_share_code(encode_share_code(deck), INDEX)
    assert result.entries == [("KG1-043", 3)]
    assert [e.line for e in result.errors] == ["KG2-007", "KGX9-1234"]
    assert "unknown card code" in result.errors[0].message


def test_empty_deck_share_code():
    assert decode_share_code(encode_share_code([]), INDEX) == ParseResult([], [])


@pytest.mark.parametrize(
    "bad", [("KG1-14", 1), ("kg1-214", 1), ("KG1214", 1), ("KG1-214", 0), ("KG1-214", 46)]
)
def test_share_code_refuses_what_it_cannot_encode(bad):
    with pytest.raises(DecklistError):
        encode_share_code([bad])


def _corruptions(code):
    flipped = code[:5] + ("A" if code[5] != "A" else "B") + code[6:]
    yield flipped, "damaged"
    yield code[:-3], "damaged"
    yield code[:-1], "damaged"
    yield code[:3] + "$" + code[4:], "invalid character '$' at position 4"
    yield "2" + code[1:], "should start with '1'"
    yield "", "empty"
    yield "   ", "empty"
    yield "1", "damaged"
    yield "1" + "A" * 5000, "at most"
    yield "https://example.org/deck/" + code, "should start with '1'"


@pytest.mark.parametrize("index", range(10))
def test_corrupt_share_codes_give_one_clear_error(index):
    code = encode_share_code(_deck([("Cobra Flash", 3), ("Tüzér", 2), ("Aknagyűrű", 1)]))
    bad, fragment = list(_corruptions(code))[index]
    result = decode_share_code(bad, INDEX)
    assert result.entries == []
    [error] = result.errors
    assert fragment in error.message


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet="1ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", max_size=60
    )
)
def test_random_share_codes_never_raise(code):
    result = decode_share_code(code, INDEX)
    assert result.ok or len(result.errors) >= 1
    for card_code, count in result.entries:
        assert INDEX.get(card_code) is not None and 1 <= count <= MAX_COUNT


def test_readers_take_text_not_bytes():
    with pytest.raises(TypeError):
        parse_decklist(b"3 Cobra Flash", INDEX)
    with pytest.raises(TypeError):
        parse_json(b"{}", INDEX)
