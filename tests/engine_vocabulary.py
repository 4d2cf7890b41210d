"""The engine's own names, read from its source: every decision kind, event kind, combat step,
zone, phase, window scope, action kind and result reason it can produce. The presentation
tests check each one has a rendering, and the browser tests that none reaches a page; a name
added to the engine later is caught here without anybody updating a list.

Names only a multiplayer table (R 17.1, issue 17) produces are in MULTIPLAYER_ONLY. The online
table seats three to six too now (matches/, issue 17's online part), so `vocabulary()` is every
name and its pages render these as well; `vocabulary(multiplayer=False)` is a two-player
table's names only.
"""

import ast
from functools import cache
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "engine"

# decision: which neighbour is "the opponent" (R 17.1.3); event and result reason: a player is
# eliminated, the game ends with a ranking (AMB-44, R 17.1.6)
MULTIPLAYER_ONLY = {"decisions": {"opponent"}, "events": {"eliminated"}, "reasons": {"elimination"}}


def _calls(tree, name):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if called == name:
                yield node


def _const(node):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _arg(call, index):
    return _const(call.args[index]) if len(call.args) > index else None


def vocabulary(multiplayer: bool = True) -> dict[str, frozenset]:
    """Every name of the engine (a two-player table's, unless `multiplayer`)."""
    found = _vocabulary()
    if multiplayer:
        return found
    return {k: v - MULTIPLAYER_ONLY.get(k, set()) for k, v in found.items()}


@cache
def _vocabulary() -> dict[str, frozenset]:
    found = {k: set() for k in ("decisions", "events", "steps", "phases", "reasons")}
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found["decisions"] |= {_arg(c, 2) for c in _calls(tree, "wait")}
        found["decisions"] |= {_arg(c, 2) for c in _calls(tree, "ask")}
        found["events"] |= {_arg(c, 1) for c in _calls(tree, "emit")}
        for call in _calls(tree, "emit"):
            for kw in call.keywords:
                if kw.arg == "reason" and _const(kw.value):
                    found["reasons"].add(kw.value.value)
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and _const(node.value):
                for target in node.targets:
                    key = getattr(target, "slice", None)
                    if _const(key) == "step" and path.name == "combat.py":
                        found["steps"].add(node.value.value)
                    if getattr(target, "attr", None) == "phase":
                        found["phases"].add(node.value.value)
                    if getattr(target, "attr", None) == "result":
                        found["reasons"].add(node.value.value)
            if isinstance(node, ast.Dict) and path.name == "combat.py":
                for k, v in zip(node.keys, node.values, strict=True):
                    if k is not None and _const(k) == "step" and _const(v):
                        found["steps"].add(v.value)
    from engine.actions import ATTACK_TARGETS, PLACE_TO, SCHEMA
    from engine.resolve import WINDOW_SUBTYPES
    from engine.state import ZONES

    found["zones"] = set(ZONES) | set(PLACE_TO) | set(ATTACK_TARGETS)
    found["windows"] = set(WINDOW_SUBTYPES)
    found["actions"] = set(SCHEMA)
    found["phases"].add("setup")
    return {k: frozenset(v - {None}) for k, v in found.items()}


def all_tokens() -> set[str]:
    return set().union(*vocabulary().values())
