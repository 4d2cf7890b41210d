"""cardgame.params.whole_number: the one reader of a request's ids, counts and versions
(issue 35). A bad value is a BadNumber (a ValueError) with a sentence, never another error."""

import pytest

from cardgame.params import (
    INTEGER_MAX,
    BadNumber,
    optional_whole_number,
    record_id,
    whole_number,
)

HUGE = "1" * 4301


@pytest.mark.parametrize(
    "value",
    ["²", "١٢", "-1", "1e3", HUGE, 2**31, 2**63, "", "abc", "0x10", "1_000", "+1", " ", None,
     True, 1.0, [1], {"a": 1}, str(2**31), "9" * 25],
)  # fmt: skip
def test_a_bad_id_is_a_bad_number_with_a_sentence(value):
    with pytest.raises(BadNumber) as raised:
        record_id(value, "deck")
    assert raised.value.message.startswith("deck must be a whole number")


@pytest.mark.parametrize(
    "value, expected",
    [("7", 7), (" 42 ", 42), (7, 7), ("0007", 7), (str(INTEGER_MAX), INTEGER_MAX)],
)
def test_a_good_id_is_read(value, expected):
    assert record_id(value, "deck") == expected


def test_the_range_is_the_callers():
    assert whole_number("-3", "x", low=-5, high=5) == -3
    assert whole_number("0", "after") == 0
    with pytest.raises(BadNumber, match="from 3 to 6"):
        whole_number("7", "seats", low=3, high=6)
    assert optional_whole_number("", "seats") is None and optional_whole_number(None, "s") is None


def test_the_refusal_is_in_hungarian_too():
    from django.utils import translation

    with translation.override("hu"), pytest.raises(BadNumber) as raised:
        record_id("²", "deck")
    assert "egész szám" in raised.value.message
