"""The engine's own random generator (DESIGN.md "Randomness", NOTES.md).

Python promises a stable sequence only for ``random.random()``, not for
``shuffle``/``choice``; so the engine owns its generator: a secret 32-byte key
derived from the game's seed, a counter, and one keyed BLAKE2b hash per draw.
Integers below ``n`` use rejection sampling (no modulo bias); shuffles are
Fisher–Yates on top. The state (key + counter) is plain data, so a dumped game
continues exactly where it stopped. The key is secret: views never contain it.
"""

from hashlib import blake2b
from struct import Struct
from typing import Final

_SPAN: Final = 1 << 64
_PACK: Final = Struct(">Q").pack  # the counter as 8 big-endian bytes
_FROM_BYTES: Final = int.from_bytes
# the hash object's methods, called as functions: compiled, each draw's three calls then
# skip the look-up of the method by name (~50 ns a draw; the same speed as Python)
_COPY: Final = blake2b.copy
_UPDATE: Final = blake2b.update
_DIGEST: Final = blake2b.digest
# the rejection limit 2**64 - (2**64 % n) of each n below 256 (every list a bot picks from,
# every pile shuffled): two operations on 65-bit ints per draw fewer; larger n compute it
_LIMITS: Final = [_SPAN - (_SPAN % n) if n else 0 for n in range(256)]


def seed_key(seed) -> bytes:
    """A 32-byte key from an int, str or bytes seed (type-tagged, so 1 != "1")."""
    if isinstance(seed, bool) or not isinstance(seed, int | str | bytes):
        raise TypeError(f"seed must be an int, str or bytes, not {type(seed).__name__}")
    if isinstance(seed, int):
        raw = b"i:" + str(seed).encode()
    elif isinstance(seed, str):
        raw = b"s:" + seed.encode()
    else:
        raw = b"b:" + seed
    return blake2b(raw, digest_size=32, person=b"kgk-seed").digest()


class Rng:
    __slots__ = ("_key", "_keyed", "counter")

    def __init__(self, key: bytes, counter: int = 0):
        self.key = key
        self.counter = counter

    @property
    def key(self) -> bytes:
        return self._key

    @key.setter
    def key(self, key: bytes) -> None:
        if len(key) != 32:
            raise ValueError("the key must be 32 bytes")
        self._key = key
        # the hash state after the key block: a copy + the counter = blake2b(counter, key=key)
        self._keyed = blake2b(key=key, digest_size=8)

    def __reduce__(self):  # copy/pickle: the hash object itself cannot be copied that way
        return (Rng, (self._key, self.counter))

    @classmethod
    def from_seed(cls, seed) -> "Rng":
        return cls(seed_key(seed))

    def _next64(self) -> int:
        self.counter += 1
        h = self._keyed.copy()
        h.update(_PACK(self.counter))
        return _FROM_BYTES(h.digest(), "big")

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("n must be positive")
        if n == 1:  # one draw, never rejected (it is below 2**64), and value % 1 == 0:
            self.counter += 1  # the same counter without hashing (a quarter of the bots'
            return 0  # draws are between one legal action)
        limit = _LIMITS[n] if n < 256 else _SPAN - (_SPAN % n)
        keyed = self._keyed
        while True:
            self.counter += 1  # _next64, inlined
            h = _COPY(keyed)
            _UPDATE(h, _PACK(self.counter))
            value = _FROM_BYTES(_DIGEST(h), "big")
            if value < limit:
                return value % n

    def shuffle(self, items: list) -> None:
        """Fisher–Yates, in place (``below`` written out: the same draws)."""
        keyed = self._keyed
        counter = self.counter
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _LIMITS[n] if n < 256 else _SPAN - (_SPAN % n)
            while True:
                counter += 1
                h = _COPY(keyed)
                _UPDATE(h, _PACK(counter))
                value = _FROM_BYTES(_DIGEST(h), "big")
                if value < limit:
                    break
            j = value % n
            items[i], items[j] = items[j], items[i]
        self.counter = counter

    def choice(self, items):
        return items[self.below(len(items))]

    def to_dict(self) -> dict:
        return {"key": self.key.hex(), "counter": self.counter}

    @classmethod
    def from_dict(cls, data: dict) -> "Rng":
        return cls(bytes.fromhex(data["key"]), data["counter"])
