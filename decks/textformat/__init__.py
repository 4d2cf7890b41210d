"""Colony (deck) lists in and out: plain text, JSON and share codes.

No database access and no request (Django only for translation and the ruleset
list of decks.play), so that the views, the API, scripts and tests all read and
write decks the same way. Nothing here decides
legality (R 9): a parsed list is handed to `engine.deck.check_deck`. The only
bound enforced here is input sanity: one line may not ask for more copies of a
card than a whole colony holds (R 9.1, 45), which also keeps share codes small;
a caller reading another kind of list (the collection form) passes its own
`CountRule`.

Readers never raise on bad content. They return a `ParseResult` whose `errors`
say, line by line, what could not be read: nothing is silently dropped (every
non-blank, non-comment line is an entry or an error). `DecklistError` is raised
only where there is no text to speak of yet (`decode_upload`) or by the writers
when given impossible input.

The package: `common` (limits, messages, results, uploads), `index` (which card a
user meant), `collector` (entries and errors; the count rules), `text` (the one
card-line grammar, read and written), `jsonformat` and `sharecode`. Callers import
from the package.
"""

from .collector import DECK_COUNTS, CountRule
from .common import (
    MAX_COUNT,
    MAX_LINES,
    MAX_UPLOAD_BYTES,
    MESSAGES,
    DecklistError,
    LineError,
    ParseResult,
    decode_upload,
    message,
)
from .index import CardIndex
from .jsonformat import export_json, parse_json
from .sharecode import decode_share_code, encode_share_code
from .text import TYPE_HEADERS, export_text, parse_decklist, sort_entries

__all__ = [
    "DECK_COUNTS",
    "MAX_COUNT",
    "MAX_LINES",
    "MAX_UPLOAD_BYTES",
    "MESSAGES",
    "TYPE_HEADERS",
    "CardIndex",
    "CountRule",
    "DecklistError",
    "LineError",
    "ParseResult",
    "decode_share_code",
    "decode_upload",
    "encode_share_code",
    "export_json",
    "export_text",
    "message",
    "parse_decklist",
    "parse_json",
    "sort_entries",
]
