"""Actions (structured decisions with stable ids) and the two engine errors.

An action is a kind plus a few int/str parameters. Its id is a canonical string
(``"fire:ship=12,target=30"``) that stays the same for the same decision, so a
client can echo it back and an action log replays. ``MalformedAction`` means the
request cannot be understood at all (HTTP 400); ``IllegalAction`` means it is
understood but not allowed now (HTTP 409/422). Both carry a reason ``code``.
"""

from typing import Any, Final

# kind -> {param: (type, required)}
SCHEMA: Final[dict[str, dict[str, tuple[type, bool]]]] = {
    "mulligan": {},  # R 10.5
    "keep": {},
    "cut": {"at": (int, True)},  # R 16.1
    "place": {"card": (int, True), "to": (str, True), "ship": (int, False)},  # M1
    "play": {"card": (int, True)},  # M4 / interrupts in a window
    "pay": {"card": (int, True)},  # M5, combat payment step, trap (R 4.5.9)
    "upgrade": {"card": (int, True)},  # M6
    "cash": {"a": (int, True), "b": (int, True)},  # M3
    "draw": {},  # M7
    "search": {},  # M8
    "wasteland_draw": {},  # M9
    "attack": {"target": (str, True), "card": (int, False), "player": (int, False)},  # M2
    "activate": {"card": (int, True), "ability": (int, True)},  # R 12.1c
    "end_turn": {},  # R 1.8
    "choose": {"value": (int, True)},
    "done": {},
    "pass": {},
    "board": {"card": (int, True), "ship": (int, True)},  # R 11.4.2.2
    "fire": {"ship": (int, True), "target": (int, True)},  # R 11.4.4.4a
    "stealth": {"ship": (int, True)},  # R 13.6
    "heavy_weapons": {"ship": (int, True)},  # R 13.7
    "ordnance": {"ship": (int, True)},  # R 13.9
    "return_fire": {},  # R 11.4.4.6.2
    "hold_fire": {},
    "decline": {},
}

PLACE_TO: Final = ("surface", "canteen", "ship")
ATTACK_TARGETS: Final = ("colony", "centre", "crew", "base")


class EngineError(Exception):
    def __init__(self, code: str, message: str = ""):
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message


class MalformedAction(EngineError):
    """The action cannot be parsed (unknown kind, missing or mistyped parameter)."""


class IllegalAction(EngineError):
    """The action is well formed but not allowed in this state; ``code`` says why."""


ACTION_CACHE: Final[dict] = {}  # (kind, key, value, ...) -> Action (Action.cached)
# compiled by mypyc (engine/_build.py): Action is a native class, its Final attributes have
# no setter (read-only, as the frozen dataclass it was); as Python, a __setattr__ refuses
# every assignment, so the engine sets its slots through object.__setattr__
_NATIVE: Final = not __file__.endswith(".py")
_set: Final = object.__setattr__


class Action:
    """A decision: `kind` and its parameters, a tuple of (key, value) pairs sorted by key.

    An immutable value (equal and hashed by kind and params; ``id`` is derived; assigning
    an attribute raises AttributeError). A plain class with its methods written out, not a
    frozen dataclass: compiled (engine/_build.py), its ``__init__``, ``__eq__`` and
    ``__hash__`` are native code, where a dataclass's stay Python, and new Actions are made
    at many decisions (card ids are drawn afresh)."""

    __slots__ = ("kind", "params", "_ident")

    kind: Final[str]
    params: Final[tuple]
    # the id, made at its first use (`id`): action logs and clients read it at every
    # decision, and most Actions are shared (``cached``). Not part of the value.
    _ident: str | None

    def __init__(self, kind: str, params: tuple = ()) -> None:
        if _NATIVE:
            self.kind = kind
            self.params = params
            self._ident = None
        else:
            _set(self, "kind", kind)
            _set(self, "params", params)
            _set(self, "_ident", None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self.kind == other.kind and self.params == other.params

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self.kind != other.kind or self.params != other.params

    def __hash__(self) -> int:
        return hash((self.kind, self.params))

    def __repr__(self) -> str:
        return f"Action(kind={self.kind!r}, params={self.params!r})"

    def __reduce__(self):  # copy/pickle: the value only (the id is made again)
        return (Action, (self.kind, self.params))

    @classmethod
    def make(cls, kind: str, **params) -> "Action":
        """The action `kind` with `params` (None values left out, keys sorted). Actions of
        plain int/str values are shared (``cached``): equal ones are the same object."""
        items = [(k, v) for k, v in params.items() if v is not None]
        if type(kind) is not str:
            return cls(kind, tuple(sorted(items)))
        if not items:
            action = ACTION_CACHE.get((kind,))
            return action if action is not None else cls.cached(kind)
        if len(items) == 1:
            k, v = items[0]
            if type(v) is int or type(v) is str:
                action = ACTION_CACHE.get((kind, k, v))
                return action if action is not None else cls.cached(kind, k, v)
            return cls(kind, tuple(items))
        items.sort()
        kv: list = []
        for k, v in items:
            if type(v) is not int and type(v) is not str:
                return cls(kind, tuple(items))
            kv += (k, v)
        return cls.cached(kind, *kv)

    @classmethod
    def cached(cls, kind: str, *kv) -> "Action":
        """``make`` for hot paths: kv alternates keys and values, keys already sorted and
        no value None. Actions are immutable, so equal ones are shared (a bounded cache)."""
        key = (kind, *kv)
        action = ACTION_CACHE.get(key)
        if action is None:
            action = cls(kind, tuple(zip(kv[::2], kv[1::2], strict=True)))
            if len(ACTION_CACHE) >= 50_000:  # card ids grow during a game: start afresh
                ACTION_CACHE.clear()
            ACTION_CACHE[key] = action
        return action

    def get(self, key: str, default: Any = None) -> Any:
        # typed pairs: compiled, the keys are read and compared natively (read at most decisions)
        params: tuple[tuple[str, Any], ...] = self.params
        for k, v in params:
            if k is key or k == key:  # the keys are mostly the same interned strings
                return v
        return default

    @property
    def id(self) -> str:
        ident = self._ident
        if ident is None:
            if not self.params:
                ident = self.kind
            else:
                ident = self.kind + ":" + ",".join(f"{k}={v}" for k, v in self.params)
            if _NATIVE:
                self._ident = ident  # set once, as computed
            else:
                _set(self, "_ident", ident)
        return ident

    def to_dict(self) -> dict:
        return {"id": self.id, "kind": self.kind, **dict(self.params)}

    def __str__(self) -> str:
        return self.id


def _frozen(action: Action, name: str, value: Any) -> None:
    raise AttributeError(f"cannot assign to field {name!r}")  # as a frozen dataclass's


if not _NATIVE:
    setattr(Action, "__setattr__", _frozen)  # noqa: B010 (compiled: read-only attributes)

_CHOICES: Final[dict[int, Action]] = {}  # value -> choose:value=value (choose)


def choose(value) -> Action:
    """``Action.make("choose", value=value)`` (hot: the picks of every choice). Int values
    are looked up by the int itself (no key tuple to build, hash and compare)."""
    if type(value) is int:
        action = _CHOICES.get(value)
        if action is None:
            if len(_CHOICES) >= 20_000:  # card ids grow during a game: start afresh
                _CHOICES.clear()
            action = _CHOICES[value] = Action.cached("choose", "value", value)
        return action
    return Action.make("choose", value=value)


DONE: Final = Action.make("done")
PASS: Final = Action.make("pass")

_CHECKED: Final[dict] = {}  # id(action) -> action: Action objects that passed parse_action as is


def parse_action(obj: Any) -> Action:
    """An Action from an Action, an id string or a dict ({"id": ...} or {"kind": ..., ...})."""
    if _CHECKED.get(id(obj)) is obj:  # the very object checked before (kept alive here)
        return obj  # type: ignore[return-value]
    if isinstance(obj, Action):
        kind, params = obj.kind, dict(obj.params)
    elif isinstance(obj, str):
        kind, params = _parse_id(obj)
    elif isinstance(obj, dict):
        if "kind" in obj:
            kind = obj["kind"]
            # an optional parameter may be given as null (JSON) / None
            params = {k: v for k, v in obj.items() if k not in ("kind", "id") and v is not None}
        elif "id" in obj and len(obj) == 1:
            kind, params = _parse_id(obj["id"])
        else:
            raise MalformedAction("NO_KIND", "an action needs a 'kind' or an 'id'")
    else:
        raise MalformedAction("NOT_AN_ACTION", f"cannot read an action from {type(obj).__name__}")
    if not isinstance(kind, str) or kind not in SCHEMA:
        raise MalformedAction("UNKNOWN_KIND", f"unknown action kind {kind!r}")
    schema = SCHEMA[kind]
    for key, value in params.items():
        if key not in schema:
            raise MalformedAction("UNKNOWN_PARAM", f"{kind} takes no parameter {key!r}")
        expected = schema[key][0]
        if isinstance(value, bool) or not isinstance(value, expected):
            raise MalformedAction("BAD_PARAM", f"{kind}.{key} must be {expected.__name__}")
    for key, (_, required) in schema.items():
        if required and key not in params:
            raise MalformedAction("MISSING_PARAM", f"{kind} needs {key!r}")
    if kind == "place":
        if params["to"] not in PLACE_TO:
            raise MalformedAction("BAD_PARAM", "place.to must be surface, canteen or ship")
        if (params["to"] == "ship") != ("ship" in params):
            raise MalformedAction("BAD_PARAM", "place.ship is needed exactly when to=ship")
    if kind == "attack":
        if params["target"] not in ATTACK_TARGETS:
            raise MalformedAction("BAD_PARAM", "attack.target: colony, centre, crew or base")
        if (params["target"] in ("crew", "base")) != ("card" in params):
            raise MalformedAction("BAD_PARAM", "attack.card is needed exactly for crew/base")
    action = Action.make(kind, **params)
    if action == obj and type(obj) is Action:
        if all(
            type(v) is type(w) for (_, v), (_, w) in zip(obj.params, action.params, strict=True)
        ):
            if len(_CHECKED) >= 50_000:
                _CHECKED.clear()
            _CHECKED[id(obj)] = obj  # shared Actions (Action.cached) are checked once
    return action


def _parse_id(text: str):
    kind, _, rest = text.partition(":")
    params: dict = {}
    if rest:
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            if not eq or not key:
                raise MalformedAction("BAD_ID", f"cannot read {text!r}")
            schema = SCHEMA.get(kind, {})
            expected = schema.get(key, (str,))[0]
            if expected is int:
                try:
                    params[key] = int(value)
                except ValueError:
                    raise MalformedAction("BAD_PARAM", f"{kind}.{key} must be int") from None
            else:
                params[key] = value
    return kind, params
