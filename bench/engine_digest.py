"""The same games, decision for decision: a digest of the engine's random games.

    .venv/bin/python bench/engine_digest.py [--games 100] [--runs 3] [--check]

Plays the games `bench/engine_bench.py --games N --runs R` plays (seeds `bench-{run}-{i}`,
the EX-1 colonies `laci` vs `dani`, `RandomBot`s seeded `{run}-{i}-{seat}`, the pick drawn
as the bench draws it), plus 5 heuristic games and 5 four-seat tables, and hashes every
pending decision (seat, decision, info), every legal-action list (ids, in order), every
chosen action, every event (`to_dict`) and each game's final `state_hash`. A change that
only makes the engine faster leaves the digest as it is.

`REFERENCE` is the digest of the pure-Python engine on main before issue 18 (8c20b83) with
the defaults; `--check` fails when the engine in use (compiled or pure, see engine/_build.py)
gives another. `tests/engine/test_digest.py` runs a smaller share of it on every build.
"""

from __future__ import annotations

import argparse
import json
import sys
from hashlib import blake2b
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.basic_bots import HeuristicBot, RandomBot  # noqa: E402
from engine.colonies import PRESETS, build_colony, load_cards  # noqa: E402
from engine.game import apply, legal_actions, new_game, pending  # noqa: E402
from engine.ruleset import Ruleset  # noqa: E402
from engine.serialize import state_hash  # noqa: E402

# --games 100 --runs 3 on main at 8c20b83 (pure Python), before any change of issue 18
REFERENCE = "cac2e75bf62596793982ea7d0fb479f9"


def _encode(obj) -> bytes:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, default=repr).encode()


def _feed(h, state, action_id, events) -> None:
    h.update(action_id.encode())
    for event in events:
        h.update(_encode(event.to_dict()))


def random_game(h, colonies, seed, bot_seed) -> int:
    state = new_game(colonies, seed)
    bots = [RandomBot(f"{bot_seed}-{s}") for s in range(len(colonies))]
    n = 0
    while (p := pending(state)) is not None:
        h.update(_encode([p.player, p.decision, p.info]))
        actions = legal_actions(state)
        h.update(_encode([a.id for a in actions]))
        action = actions[bots[p.player].rng.below(len(actions))]  # as engine_bench
        _feed(h, state, action.id, apply(state, action))
        n += 1
    h.update(state_hash(state).encode())
    h.update(_encode([state.winner, state.result]))
    return n


def heuristic_game(h, colonies, seed, bot_seed) -> int:
    state = new_game(colonies, seed, Ruleset(turn_limit=300))
    bots = [HeuristicBot(f"{bot_seed}-{s}") for s in range(len(colonies))]
    n = 0
    while (p := pending(state)) is not None:
        action = bots[p.player].choose(state, p.player)
        _feed(h, state, action.id, apply(state, action))
        n += 1
    h.update(state_hash(state).encode())
    return n


def digest(games: int = 100, runs: int = 3, extra: int = 5) -> tuple[str, int]:
    cards = load_cards()
    pair = [build_colony(cards, PRESETS["laci"]), build_colony(cards, PRESETS["dani"])]
    h = blake2b(digest_size=16)
    decisions = 0
    for r in range(runs):
        for i in range(games):
            decisions += random_game(h, pair, f"bench-{r}-{i}", f"{r}-{i}")
    four = [pair[s % 2] for s in range(4)]
    for i in range(extra):
        decisions += heuristic_game(h, pair, f"bench-h-0-{i}", f"0-{i}")
        decisions += random_game(h, four, f"bench-4p-{i}", f"4p-{i}")
    return h.hexdigest(), decisions


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--check", action="store_true", help="fail unless it is REFERENCE")
    args = parser.parse_args(argv)
    try:
        from engine._build import BUILD
    except ImportError:  # (an engine before issue 18)
        BUILD = "pure"

    value, decisions = digest(args.games, args.runs)
    print(f"{value} ({decisions} decisions; engine build: {BUILD})")
    if args.check and value != REFERENCE:
        print(f"DIFFERENT from the reference {REFERENCE}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
