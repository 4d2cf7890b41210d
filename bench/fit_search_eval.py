"""Fit the search bot's cut-off evaluation (issue 18, engine.search WEIGHTS): a logistic
model of "this seat wins" on feature differences, from heuristic-bot games.

    .venv/bin/python bench/fit_search_eval.py --games 1000 [--seed 1]

Games between two `HeuristicBot`s with legal four-race colonies (one race of each pair,
`engine.simulate.build_colony`, as bench/bot_strength.py builds them) drawn at random;
positions sampled at random decisions (one in `--every`), each seen from both seats,
labelled with the game's winner (unfinished games are left out). The games are split by
index: four in five to fit (Newton's method on the mean log loss, features standardised, a
small L2 penalty), one in five held out. Prints the weights (in the raw units, for
WEIGHTS) and the held-out log loss and accuracy of the fit, of the old material sigmoid
(`engine.search.evaluate`) and of a coin.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot_strength import COMBOS  # noqa: E402

from engine.basic_bots import HeuristicBot  # noqa: E402
from engine.colonies import build_colony, load_cards  # noqa: E402
from engine.game import apply, new_game, pending  # noqa: E402
from engine.rng import Rng  # noqa: E402
from engine.ruleset import Ruleset  # noqa: E402
from engine.search import FEATURES, evaluate, features  # noqa: E402


def positions(games, seed, every):
    cards = load_cards()
    rng = Rng.from_seed(f"fit-eval:{seed}")
    out = []  # (game index, diff seat 0 - seat 1, seat 0 won, material estimate of seat 0)
    for g in range(games):
        races = [COMBOS[rng.below(len(COMBOS))] for _ in range(2)]
        state = new_game(
            [build_colony(cards, r) for r in races], f"fit-{seed}-{g}", Ruleset(turn_limit=300)
        )
        bots = [HeuristicBot(f"fit-{seed}-{g}-0"), HeuristicBot(f"fit-{seed}-{g}-1")]
        sampled = []
        while (p := pending(state)) is not None:
            if rng.below(every) == 0:
                a, b = features(state, 0), features(state, 1)
                sampled.append(([x - y for x, y in zip(a, b, strict=True)], evaluate(state, 0)))
            apply(state, bots[p.player].choose(state, p.player))
        if state.winner is None:
            continue
        for diff, material in sampled:
            out.append((g, diff, state.winner == 0, material))
    return out


def fit(rows, steps=8, l2=1e-3):
    """Newton's method (iteratively reweighted least squares) on standardised features."""
    n_f = len(rows[0][0])
    mean = [sum(r[0][i] for r in rows) / len(rows) for i in range(n_f)]
    sd = [
        math.sqrt(sum((r[0][i] - mean[i]) ** 2 for r in rows) / len(rows)) or 1.0
        for i in range(n_f)
    ]
    xs = [[1.0] + [(r[0][i] - mean[i]) / sd[i] for i in range(n_f)] for r in rows]
    ys = [1.0 if r[1] else 0.0 for r in rows]
    k = n_f + 1
    w = [0.0] * k
    for _ in range(steps):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in zip(xs, ys, strict=True):
            z = sum(wi * xi for wi, xi in zip(w, x, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            e, v = p - y, p * (1.0 - p)
            for i in range(k):
                grad[i] += e * x[i]
                vi = v * x[i]
                row = hess[i]
                for j in range(i, k):
                    row[j] += vi * x[j]
        n = len(xs)
        for i in range(k):
            grad[i] = grad[i] / n + (l2 * w[i] if i else 0.0)
            for j in range(i, k):
                hess[i][j] = hess[i][j] / n + (l2 if i == j and i else 0.0)
                hess[j][i] = hess[i][j]
        w = [a - b for a, b in zip(w, solve(hess, grad), strict=True)]
    raw = [w[i + 1] / sd[i] for i in range(n_f)]
    intercept = w[0] - sum(raw[i] * mean[i] for i in range(n_f))
    return [intercept, *raw]


def solve(a, b):
    """a x = b by Gaussian elimination with partial pivoting (a small dense system)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for j in range(c, n + 1):
                m[r][j] -= f * m[c][j]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][j] * x[j] for j in range(r + 1, n))) / m[r][r]
    return x


def predict(weights, diff):
    z = weights[0] + sum(w * x for w, x in zip(weights[1:], diff, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def scores(pairs):
    eps = 1e-6
    loss = -sum(math.log(max(eps, p)) if y else math.log(max(eps, 1 - p)) for p, y in pairs) / len(
        pairs
    )
    accuracy = sum((p > 0.5) == y for p, y in pairs) / len(pairs)
    return loss, accuracy


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--every", type=int, default=15, help="sample one decision in N")
    args = parser.parse_args(argv)
    started = time.process_time()
    rows = positions(args.games, args.seed, args.every)
    played = time.process_time() - started
    # both seats: the difference and the label flipped for seat 1 (the model is symmetric
    # but for "active", which flips with the seat as it should)
    both = []
    for g, diff, won, material in rows:
        both.append((g, diff, won, material))
        both.append((g, [-x for x in diff], not won, 1.0 - material))
    train = [(d, w) for g, d, w, _ in both if g % 5 != 0]
    test = [(d, w, m) for g, d, w, m in both if g % 5 == 0]
    started = time.process_time()
    weights = fit(train)
    fitting = time.process_time() - started
    print(
        f"{len(rows)} positions of {args.games} games ({played:.1f} s CPU to play, "
        f"{fitting:.1f} s to fit)"
    )
    print("WEIGHTS = (")
    print(f"    {weights[0]:.4f},  # intercept")
    for name, w in zip(FEATURES, weights[1:], strict=True):
        print(f"    {w:.4f},  # {name}")
    print(")")
    fitted = scores([(predict(weights, d), w) for d, w, _ in test])
    material = scores([(m, w) for _, w, m in test])
    coin = scores([(0.5, w) for _, w, _ in test])
    print(f"held out ({len(test)} positions): log loss / accuracy")
    print(f"  fitted   {fitted[0]:.4f} / {fitted[1]:.3f}")
    print(f"  material {material[0]:.4f} / {material[1]:.3f}")
    print(f"  coin     {coin[0]:.4f} / {coin[1]:.3f}")


if __name__ == "__main__":
    main()
