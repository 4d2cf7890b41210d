"""The issue's soak run: 10,000 random games without an exception, 1,000 of them replayed
from their action logs with identical final state hashes (engine.soak).

    .venv/bin/python bench/engine_soak.py [--games 10000] [--replays 1000]

Writes bench/out/engine_soak.json (the summary, with CPU time) and prints it. The pytest
soak test (tests/engine/test_soak.py, marker `soak`, `make test-soak`) runs a smaller
number of games of the same kind.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.soak import _bar, soak  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--replays", type=int, default=1_000)
    parser.add_argument("--seed", default="soak")
    parser.add_argument("--start", type=int, default=0, help="first game number (split runs)")
    args = parser.parse_args()
    cpu = time.process_time()
    result = soak(args.games, args.replays, args.seed, _bar, args.start)
    result["cpu_seconds"] = round(time.process_time() - cpu, 1)
    result["python"] = platform.python_version()
    out = ROOT / "bench" / "out"
    out.mkdir(exist_ok=True)
    (out / f"engine_soak-{args.start}.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))
    return 1 if result["errors"] or result["replay_mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())
