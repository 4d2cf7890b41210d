"""One reader for every id, count and version that arrives in a request (issue 35).

A URL's query, a form field or a JSON body: "²" passes `str.isdigit()` and then fails
`int()`; a 4,301-digit number passes both checks' first half and fails Python's integer
string limit; 2**31 passes both and fails PostgreSQL's `integer` column. Each was a 500.
`whole_number` reads a value once, refuses all of these with a sentence a person can act
on (BadNumber, a ValueError), and bounds it by the column it is going to meet.

This module imports no app code (the apps import it); each caller turns BadNumber into its
own 400 (matches' BadRequest, the deck lab's BadInput, a form error).
"""

from django.utils.translation import gettext as _

from cardgame.hungarian import articles

# The database columns' ranges (PostgreSQL; SQLite stores up to 2**63 - 1).
INTEGER_MAX = 2**31 - 1  # IntegerField, PositiveIntegerField, AutoField (every id here)
SMALLINT_MAX = 2**15 - 1  # SmallIntegerField, PositiveSmallIntegerField
BIGINT_MAX = 2**63 - 1  # BigIntegerField, BigAutoField

_MAX_DIGITS = 20  # more ASCII digits than any column holds: refused before int() reads them
_ASCII_DIGITS = frozenset("0123456789")


class BadNumber(ValueError):
    """A request's number that is not one: `message` is the sentence for the person;
    `out_of_range`: it was a whole number, outside the range (a caller may word that)."""

    def __init__(self, message: str, *, out_of_range: bool = False):
        message = articles(message)  # the Hungarian "a(z) <name>" settled (issue 34)
        super().__init__(message)
        self.message = message
        self.out_of_range = out_of_range


def whole_number(value, name: str, *, low: int = 0, high: int = INTEGER_MAX) -> int:
    """`value` (a JSON int, or the text of a query/form/JSON field) as an int in [low, high].

    Text is ASCII digits with an optional leading minus sign and surrounding spaces: no
    "²", "١", "1e3", "0x10", "1_000" or "+1". A JSON `true` is not 1, a float is not a
    whole number. Anything else, or a number out of range, raises BadNumber naming `name`.
    """
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise BadNumber(_("%(name)s must be a whole number.") % {"name": name})
    if isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text.startswith("-") else text
        if not digits or not set(digits) <= _ASCII_DIGITS:
            raise BadNumber(
                _("%(name)s must be a whole number written with the digits 0-9.") % {"name": name}
            )
        if len(digits.lstrip("0")) > _MAX_DIGITS:
            raise _out_of_range(name, low, high)
        value = int(text)
    if not low <= value <= high:
        raise _out_of_range(name, low, high)
    return value


def optional_whole_number(value, name: str, *, low: int = 0, high: int = INTEGER_MAX):
    """As `whole_number`, but None or "" (an empty form field) is None."""
    if value is None or value == "":
        return None
    return whole_number(value, name, low=low, high=high)


def record_id(value, name: str) -> int:
    """A database row's id (an AutoField: 1 to 2**31 - 1)."""
    return whole_number(value, name, low=1, high=INTEGER_MAX)


def _out_of_range(name: str, low: int, high: int) -> BadNumber:
    return BadNumber(
        _("%(name)s must be a whole number from %(low)d to %(high)d.")
        % {"name": name, "low": low, "high": high},
        out_of_range=True,
    )
