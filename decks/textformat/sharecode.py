"""Share codes: a deck as a short URL-safe code, and back."""

import base64
import hashlib
import re
from collections.abc import Iterable

from .collector import Collector
from .common import (
    MAX_COUNT,
    MAX_LINES,
    MAX_SHARE_CODE_LENGTH,
    SHARE_CODE_VERSION,
    DecklistError,
    ParseResult,
    document_error,
    echo,
    is_int,
    message,
)
from .index import CardIndex

# --------------------------------------------------------------------------- share codes
#
# "1" + base64url (no padding) of:
#   per edition prefix, sorted:  u8 length, ASCII prefix ("KG1"),
#                                varint number of count groups,
#                                per count, ascending: varint count, varint n,
#                                    n varints: gap to the previous card number - 1
#                                    (numbers ascending; the first gap is from -1)
#   2 bytes: BLAKE2b-16 digest of everything before (catches typos and truncation)
# Card codes are "<prefix>-<number>", number zero-padded to 3 digits (R 8.3).

_CARD_CODE = re.compile(r"([A-Z][A-Z0-9]{0,15})-([0-9]{3,7})")
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")
_CHECKSUM_BYTES = 2
_MAX_VARINT_BYTES = 4


def _split_code(code: str) -> tuple[str, int]:
    match = _CARD_CODE.fullmatch(code)
    if not match or f"{match.group(1)}-{int(match.group(2)):03d}" != code:
        raise DecklistError(f"cannot put card code {code!r} in a share code")
    return match.group(1), int(match.group(2))


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _checksum(payload: bytes) -> bytes:
    return hashlib.blake2b(payload, digest_size=_CHECKSUM_BYTES).digest()


def encode_share_code(entries: Iterable[tuple[dict | str, int]]) -> str:
    """A short URL-safe code for a deck given as (card or code, count) pairs.

    The same deck always gives the same code, whatever the order of its entries.
    """
    editions: dict[str, dict[int, int]] = {}
    for card, count in entries:
        code = card["code"] if isinstance(card, dict) else card
        if not is_int(count) or not 1 <= count <= MAX_COUNT:
            raise DecklistError(f"count for {code!r} must be 1 to {MAX_COUNT}: {count!r}")
        prefix, number = _split_code(code)
        numbers = editions.setdefault(prefix, {})
        numbers[number] = numbers.get(number, 0) + count
        if numbers[number] > MAX_COUNT:
            raise DecklistError(f"more than {MAX_COUNT} copies of {code!r}")
    payload = bytearray()
    for prefix in sorted(editions):
        payload += bytes([len(prefix)]) + prefix.encode("ascii")
        by_count: dict[int, list[int]] = {}
        for number, count in editions[prefix].items():
            by_count.setdefault(count, []).append(number)
        payload += _varint(len(by_count))
        for count in sorted(by_count):
            numbers = sorted(by_count[count])
            payload += _varint(count) + _varint(len(numbers))
            previous = -1
            for number in numbers:
                payload += _varint(number - previous - 1)
                previous = number
    payload += _checksum(bytes(payload))
    return SHARE_CODE_VERSION + base64.urlsafe_b64encode(bytes(payload)).rstrip(b"=").decode()


class _Corrupt(Exception):
    pass


class _Reader:
    def __init__(self, data: bytes):
        self.data, self.position = data, 0

    def byte(self) -> int:
        if self.position >= len(self.data):
            raise _Corrupt("it ends too early")
        self.position += 1
        return self.data[self.position - 1]

    def varint(self) -> int:
        value = 0
        for shift in range(0, 7 * _MAX_VARINT_BYTES, 7):
            byte = self.byte()
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
        raise _Corrupt("a number is too long")

    def text(self, length: int) -> str:
        if self.position + length > len(self.data):
            raise _Corrupt("it ends too early")
        chunk = self.data[self.position : self.position + length]
        self.position += length
        return chunk.decode("ascii", errors="replace")


def _decode_share_payload(payload: bytes, max_cards: int) -> list[tuple[str, int]]:
    reader = _Reader(payload)
    entries: list[tuple[str, int]] = []
    seen_prefixes: set[str] = set()
    while reader.position < len(payload):
        prefix = reader.text(reader.byte())
        if not re.fullmatch(r"[A-Z][A-Z0-9]{0,15}", prefix) or prefix in seen_prefixes:
            raise _Corrupt("bad edition prefix")
        seen_prefixes.add(prefix)
        numbers: dict[int, int] = {}
        for _ in range(reader.varint()):
            count = reader.varint()
            if not 1 <= count <= MAX_COUNT:
                raise _Corrupt(f"a card count of {count}")
            previous = -1
            for _ in range(reader.varint()):
                number = previous + 1 + reader.varint()
                if number in numbers:
                    raise _Corrupt("a card is listed twice")
                numbers[number] = count
                previous = number
                if len(entries) + len(numbers) > max_cards:
                    raise _Corrupt("too many cards")
        entries += [(f"{prefix}-{number:03d}", numbers[number]) for number in sorted(numbers)]
    return entries


def decode_share_code(code: str, index: CardIndex, max_cards: int = MAX_LINES) -> ParseResult:
    """Read `encode_share_code` output. A damaged code gives one error (line 0);
    codes of cards not in `index` give one error each (numbered in code order)."""
    text = code.strip() if isinstance(code, str) else ""
    if not text:
        return document_error(message("share_empty"))
    if len(text) > MAX_SHARE_CODE_LENGTH:
        return document_error(
            message("share_too_long", length=len(text), max=MAX_SHARE_CODE_LENGTH)
        )
    if text[0] != SHARE_CODE_VERSION:
        problem = message("share_version", expected=SHARE_CODE_VERSION, version=echo(text[0]))
        return document_error(problem)
    body = text[1:].rstrip("=")
    if not _BASE64URL.fullmatch(body):
        position = next(i for i, ch in enumerate(body) if not _BASE64URL.fullmatch(ch))
        problem = message("share_bad_character", char=echo(body[position]), position=position + 2)
        return document_error(problem)
    if len(body) % 4 == 1:
        return document_error(message("share_corrupt", detail="its length is impossible"))
    raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    payload, checksum = raw[:-_CHECKSUM_BYTES], raw[-_CHECKSUM_BYTES:]
    if len(raw) < _CHECKSUM_BYTES or _checksum(payload) != checksum:
        return document_error(message("share_corrupt", detail="the checksum does not match"))
    try:
        decoded = _decode_share_payload(payload, max_cards)
    except _Corrupt as error:
        return document_error(message("share_corrupt", detail=str(error)))
    collector = Collector("at_share")
    for position, (card_code, count) in enumerate(decoded, 1):
        card = index.get(card_code)
        if card is None:
            collector.error(position, card_code, message("share_unknown_card", code=card_code))
        else:
            collector.add(position, card_code, card, count)
    return collector.result()
