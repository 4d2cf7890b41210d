"""The rules' continuation: a stack of small JSON-able frames, and events.

The engine has the OpenSpiel shape (NOTES.md): the state knows the pending
decision, ``legal_actions`` lists it, ``apply`` feeds one action and runs the
rules forward to the next decision. "Running forward" is a driver loop over a
stack of frames (plain dicts, so a state dumps to JSON at any decision). Each
frame kind has a handler:

- ``run(state, frame, ev)`` does one step: it sets ``frame["await"]`` (a
  decision of one player), pushes frames, or pops itself; the driver calls it
  again whenever the frame is on top and not waiting;
- ``legal(state, frame)`` lists the actions of the awaited decision;
- ``check(state, frame, action)`` returns a reason code or None (default:
  membership in ``legal``);
- ``act(state, frame, action, ev)`` applies a legal action.
"""

from dataclasses import dataclass
from typing import ClassVar, Final

from .actions import DONE, Action, choose
from .state import GameState


class Handler:
    kind: ClassVar[str] = ""

    def run(self, state: GameState, frame: dict, ev: list):  # pragma: no cover - interface
        raise NotImplementedError

    def legal(self, state: GameState, frame: dict) -> list:
        return []

    def check(self, state: GameState, frame: dict, action: Action):
        return None if action in self.legal(state, frame) else "NOT_A_LEGAL_CHOICE"

    def act(
        self, state: GameState, frame: dict, action: Action, ev: list
    ):  # pragma: no cover - interface
        raise NotImplementedError

    def info(self, state: GameState, frame: dict) -> dict:
        """Public description of the awaited decision (never hidden identities)."""
        return {}


# frame kind -> its handler (typed: the compiled engine calls a handler's methods directly)
HANDLERS: Final[dict[str, Handler]] = {}


def register(cls):
    """``register(Kind)`` after the class (a call, not a class decorator: a decorated class
    would not be a native class of the compiled engine, engine/_build.py)."""
    HANDLERS[cls.kind] = cls()
    return cls


# --- events --------------------------------------------------------------------------


@dataclass(slots=True, init=False)
class Event:
    """Something that happened. `data` is public; `secret` is shown only to `to`."""

    kind: str
    data: dict
    secret: dict | None
    to: tuple

    def __init__(self, kind: str, data: dict, secret: dict | None = None, to: tuple = ()):
        # written out: compiled with the class (engine/_build.py), ~2 events per decision
        self.kind = kind
        self.data = data
        self.secret = secret
        self.to = to

    def to_dict(self) -> dict:
        return {"kind": self.kind, "data": self.data, "secret": self.secret, "to": list(self.to)}

    @classmethod
    def from_dict(cls, d: dict) -> "Event":
        return cls(d["kind"], d["data"], d.get("secret"), tuple(d.get("to") or ()))


_new_object: Final = object.__new__
_NATIVE: Final = not __file__.endswith(".py")  # compiled (engine/_build.py): no object.__new__


def emit(ev: list, kind: str, secret: dict | None = None, audience=(), **data) -> None:
    """Append an event; `secret` is seen only by the seats in `audience`."""
    event(ev, kind, data, secret, tuple(audience))


def event(ev: list, kind: str, data: dict, secret: dict | None = None, to: tuple = ()) -> None:
    """``emit`` with the data as a dict (its keys in the order emit's keywords would give):
    the hot callers use it, since keyword arguments make a compiled call a generic one.

    ``Event(kind, data, secret, to)`` with its slots set here: the same object without a
    call of the dataclass's ``__init__`` (~2 events per decision)."""
    if _NATIVE:
        ev.append(Event(kind, data, secret, to))
        return
    made = _new_object(Event)
    made.kind = kind
    made.data = data
    made.secret = secret
    made.to = to
    ev.append(made)


# --- stack helpers -------------------------------------------------------------------


def push(state: GameState, frame: dict) -> dict:
    state.stack.append(frame)
    return frame


def pop(state: GameState, frame: dict) -> None:
    top = state.stack[-1]
    if top is not frame:
        raise RuntimeError(f"pop of {frame['kind']} while {top['kind']} is on top")
    state.stack.pop()


def wait(frame: dict, player: int, decision: str) -> None:
    frame["await"] = {"player": player, "decision": decision}


def top(state: GameState) -> dict | None:
    return state.stack[-1] if state.stack else None


def parent(state: GameState, frame: dict) -> dict:
    for i in range(len(state.stack) - 1, -1, -1):
        if state.stack[i] is frame:
            return state.stack[i - 1]
    raise RuntimeError("frame not on the stack")


MAX_STEPS: Final = 100_000


# --- a generic pick: one decision per pick, plus "done" when optional ---------------------


def ask(
    state,
    player: int,
    prompt: str,
    options: list,
    store: str,
    n: int = 1,
    minimum: int | None = None,
    info: dict | None = None,
) -> dict:
    """Push a choice of `n` distinct values out of `options` for `player`.

    The picks land in ``answers[store]`` of the frame below. With ``minimum`` <
    ``n`` the player may say "done" early (NOTES.md: multi-picks are one
    decision per pick plus "done").
    """
    return push(
        state,
        {
            "kind": "choice",
            "player": player,
            "prompt": prompt,
            "options": list(options),
            "n": min(n, len(options)),
            "min": min(n, len(options)) if minimum is None else minimum,
            "picks": [],
            "store": store,
            "info": info or {},
        },
    )


def settle_targets(
    state,
    frame: dict,
    targets: dict,
    chooser: int,
    eff: dict,
    options: list,
    path: str,
    key: str,
    code: str,
) -> None:
    """The targets of `eff` (at `path` of the card `code`) chosen as it is played (R 1.6):
    when it takes all of `options`, they are its `targets[path]` at once and `frame`'s need
    is met; otherwise `chooser` picks them (the answers land under `key`)."""
    n = min(eff["target"].get("count", 1), len(options))
    if n == len(options):
        targets[path] = options
        frame.pop("need")
        return
    info = {"effect": eff["effect"], "card": code}
    ask(state, chooser, "target", options, key, n=n, info=info)


def answer(frame: dict, key: str, default=None):
    return frame.get("answers", {}).get(key, default)


def clear_answers(frame: dict) -> None:
    frame.pop("answers", None)


class Choice(Handler):
    kind = "choice"

    def run(self, state: GameState, frame: dict, ev: list):
        if len(frame["picks"]) >= frame["n"]:
            self._finish(state, frame)
            return
        wait(frame, frame["player"], frame["prompt"])

    def legal(self, state: GameState, frame: dict):
        picks = frame["picks"]
        out = [choose(v) for v in frame["options"] if v not in picks]
        if len(picks) >= frame["min"]:
            out.append(DONE)
        return out

    def act(self, state: GameState, frame: dict, action: Action, ev: list):
        if action.kind == "done":
            self._finish(state, frame)
            return
        frame["picks"].append(action.get("value"))
        frame.pop("await", None)

    def _finish(self, state: GameState, frame: dict):
        pop(state, frame)
        below = state.stack[-1]
        below.setdefault("answers", {})[frame["store"]] = list(frame["picks"])

    def info(self, state: GameState, frame: dict):
        return {
            "prompt": frame["prompt"],
            "picks_left": frame["n"] - len(frame["picks"]),
            **frame["info"],
        }


register(Choice)
