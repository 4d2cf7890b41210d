"""Soak run: many random games without an exception, some replayed from their action logs.

    python -m engine.soak --games 10000 --replays 1000 [--seed soak] [--seats 4]

Each game: two random legal colonies (four races, one of each race pair, 15 names x 3 of
those races, 6 of them ships; R 9) drawn with the engine's own generator, two uniform
random players (`RandomBot`), played to the end (R 15). The first `replays` games keep
their action logs; each is then rebuilt with `serialize.replay(colonies, seed, log)` and
its `state_hash` compared with the original's. Returns (and prints) a summary; any
exception is recorded with its game's seed rather than stopping the run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback

from .basic_bots import RandomBot
from .colonies import load_cards, random_colony
from .game import apply, legal_actions, new_game, pending
from .rng import Rng
from .serialize import replay, state_hash


def play_one(cards, seed: str, keep_log: bool):
    rng = Rng.from_seed(f"colonies-{seed}")
    colonies = [random_colony(rng, cards), random_colony(rng, cards)]
    state = new_game(colonies, seed)
    bots = [RandomBot(f"{seed}-0"), RandomBot(f"{seed}-1")]
    log: list | None = [] if keep_log else None
    decisions = 0
    while (p := pending(state)) is not None:
        actions = legal_actions(state)
        action = actions[bots[p.player].rng.below(len(actions))]
        apply(state, action)
        decisions += 1
        if log is not None:
            log.append(action.id)
    return state, colonies, log, decisions


def soak(games: int, replays: int, seed: str = "soak", progress=None, start: int = 0) -> dict:
    """Games `start` .. `start + games - 1` of the seed; the first `replays` are replayed."""
    cards = load_cards()
    errors = []
    mismatches = []
    kept = []
    decisions = 0
    winners = [0, 0]
    started = time.perf_counter()
    for i in range(games):
        game_seed = f"{seed}-{start + i}"
        try:
            state, colonies, log, n = play_one(cards, game_seed, i < replays)
        except Exception:  # noqa: BLE001 - the point is to count them, with the seed
            errors.append({"seed": game_seed, "error": traceback.format_exc(limit=3)})
            continue
        decisions += n
        winners[state.winner] += 1
        if log is not None:
            kept.append((game_seed, colonies, log, state_hash(state)))
        if progress is not None:
            progress(i + 1, games)
    played = time.perf_counter() - started
    for game_seed, colonies, log, digest in kept:
        try:
            again = replay(colonies, game_seed, log)
        except Exception:  # noqa: BLE001
            mismatches.append({"seed": game_seed, "error": traceback.format_exc(limit=3)})
            continue
        if state_hash(again) != digest or pending(again) is not None:
            mismatches.append({"seed": game_seed, "hash": digest, "again": state_hash(again)})
    return {
        "seed": seed,
        "start": start,
        "games": games,
        "errors": errors,
        "replays": len(kept),
        "replay_mismatches": mismatches,
        "decisions": decisions,
        "seat0_wins": winners[0],
        "seat1_wins": winners[1],
        "play_seconds": round(played, 1),
        "total_seconds": round(time.perf_counter() - started, 1),
    }


def play_table(cards, n: int, seed: str, keep_log: bool):
    """One random game at a table of `n` (R 17.1): random legal colonies, random players."""
    rng = Rng.from_seed(f"colonies-{seed}")
    colonies = [random_colony(rng, cards) for _ in range(n)]
    state = new_game(colonies, seed)
    bots = [RandomBot(f"{seed}-{seat}") for seat in range(n)]
    log: list | None = [] if keep_log else None
    while (p := pending(state)) is not None:
        actions = legal_actions(state)
        action = actions[bots[p.player].rng.below(len(actions))]
        apply(state, action)
        if log is not None:
            log.append(action.id)
    return state, colonies, log


def soak_table(n: int, games: int, replays: int, seed: str = "soak-table") -> dict:
    """`soak` for tables of `n` colonies (R 17.1): games without an exception, the first
    `replays` rebuilt from their logs to the same state hash; wins counted per seat."""
    cards = load_cards()
    errors, mismatches, kept = [], [], []
    wins = [0] * n
    decisions = 0
    for i in range(games):
        game_seed = f"{seed}-{i}"
        try:
            state, colonies, log = play_table(cards, n, game_seed, i < replays)
        except Exception:  # noqa: BLE001 - counted with the seed, as soak does
            errors.append({"seed": game_seed, "error": traceback.format_exc(limit=3)})
            continue
        decisions += state.decisions
        if state.winner is not None:
            wins[state.winner] += 1
        if log is not None:
            kept.append((game_seed, colonies, log, state_hash(state)))
    for game_seed, colonies, log, digest in kept:
        again = replay(colonies, game_seed, log)
        if state_hash(again) != digest or pending(again) is not None:
            mismatches.append({"seed": game_seed, "hash": digest, "again": state_hash(again)})
    return {
        "seats": n,
        "games": games,
        "errors": errors,
        "replays": len(kept),
        "replay_mismatches": mismatches,
        "wins_by_seat": wins,
        "decisions": decisions,
    }


def _bar(done, total):
    if done == total or done % max(1, total // 100) == 0:
        width = 40
        filled = width * done // total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            sys.stderr.write("\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--replays", type=int, default=1_000)
    parser.add_argument("--seed", default="soak")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--seats", type=int, default=2, help="3-6: a multiplayer table")
    args = parser.parse_args(argv)
    if args.seats > 2:
        result = soak_table(args.seats, args.games, args.replays, args.seed)
    else:
        result = soak(args.games, args.replays, args.seed, None if args.quiet else _bar)
    print(json.dumps(result, indent=2))
    return 1 if result["errors"] or result["replay_mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())
