"""Balance report of the first-edition set (issue 4): bot games between legal four-race
colonies covering every race; per-race win rates with 95 % CIs.

    .venv/bin/python bench/engine_balance.py [--games-per-pair 8] [--out docs/balance.md]
    # issue 18: the same under stronger play, in parts on two cores, then one report with
    # the heuristic's figures beside the search bot's:
    .venv/bin/python bench/engine_balance.py --bot search-hard --games-per-pair 2 --part 0/2 --raw A.json
    .venv/bin/python bench/engine_balance.py --bot search-hard --games-per-pair 2 --part 1/2 --raw B.json
    .venv/bin/python bench/engine_balance.py --from-json A.json B.json --beside H.json

The decks: every legal four-race combination (one race of each race pair, R 9.5): 2^4 = 16
colonies, each built by `engine.simulate.build_colony` (15 names x 3 of those races, spread
over types and costs). Every unordered pair of different colonies plays
`--games-per-pair` games between two `HeuristicBot`s, half with each colony in seat 0
(the starting player is the die roll of R 10.2), stopped at turn 300 like the simulator.

Per race: the games in which exactly one side plays the race (when both do, the game says
nothing about it); its win rate is the share of those games the side with the race won,
with a 95 % Wilson interval. A race and its pair partner meet in exactly those games, so
their rates add up to 100 %. Unfinished games (turn limit) are left out and counted.
Writes docs/balance.md (the report, `--out`) and the raw games (`--raw`, by default
bench/out/engine_balance.json). docs/balance.md is the search bot's report with the
heuristic's rates beside it (docs/balance-search-hard.json holds its raw games);
docs/balance-heuristic.md is the heuristic's own report (`--out docs/balance-heuristic.md`).
"""

from __future__ import annotations

import argparse
import itertools
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.bots import make_bot  # noqa: E402
from engine.catalog import RACE_PAIRS  # noqa: E402
from engine.colonies import build_colony, load_cards  # noqa: E402
from engine.game import apply, new_game, pending  # noqa: E402
from engine.ruleset import Ruleset  # noqa: E402
from engine.simulate import wilson  # noqa: E402

TURN_LIMIT = 300


def decks(cards):
    out = []
    for races in itertools.product(*RACE_PAIRS):
        out.append((list(races), build_colony(cards, list(races))))
    return out


def play(colonies, seed, bot="heuristic"):
    state = new_game(colonies, seed, Ruleset(turn_limit=TURN_LIMIT))
    bots = [make_bot(bot, f"{seed}-0"), make_bot(bot, f"{seed}-1")]
    while (p := pending(state)) is not None:
        apply(state, bots[p.player].choose(state, p.player))
    return state.winner, state.starting_player, state.turn


def site_cards() -> list:
    """The card definitions the site plays its games with (cards_data.definitions), read
    from its database (DATABASE_URL, or the embedded default's SQLite file; `make db` loads
    the set into it): the path every online game, deck-lab run and simulated event takes."""
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardgame.settings")
    django.setup()
    from cards_data.definitions import card_dicts

    cards = sorted(card_dicts().values(), key=lambda d: d["code"])
    if len(cards) != len(load_cards()):
        raise SystemExit("the site's database does not hold the whole set: run `make db`")
    return cards


def run(games_per_pair, seed, progress=True, bot="heuristic", part=(0, 1), definitions="site"):
    """`part` (k, n): the k-th of n interleaved shares of the colony pairs (n processes).
    `definitions`: "site" (the site's, from its database) or "files" (the set files)."""
    cards = site_cards() if definitions == "site" else load_cards()
    all_decks = decks(cards)
    pairs = list(itertools.combinations(range(len(all_decks)), 2))[part[0] :: part[1]]
    total = len(pairs) * games_per_pair
    games = []
    started = time.perf_counter()
    done = 0
    for a, b in pairs:
        for k in range(games_per_pair):
            seats = (a, b) if k % 2 == 0 else (b, a)
            colonies = [all_decks[seats[0]][1], all_decks[seats[1]][1]]
            winner, start, turns = play(colonies, f"{seed}-{a}-{b}-{k}", bot)
            games.append({"decks": seats, "winner": winner, "start": start, "turns": turns})
            done += 1
            if progress and (done % 10 == 0 or done == total):
                rate = done / (time.perf_counter() - started)
                bar = "#" * (30 * done // total)
                sys.stderr.write(f"\r[{bar:<30}] {done}/{total} {rate:.1f} games/s")
    if progress:
        sys.stderr.write("\n")
    return all_decks, games, time.perf_counter() - started


def race_rates(all_decks, games):
    races = [r for pair in RACE_PAIRS for r in pair]
    out = {}
    for race in races:
        wins = n = 0
        for g in games:
            if g["winner"] is None:
                continue
            has = [race in all_decks[d][0] for d in g["decks"]]
            if has[0] == has[1]:
                continue
            n += 1
            wins += has[g["winner"]]
        out[race] = (wins, n, *wilson(wins, n))
    return out


def deck_rates(all_decks, games):
    out = []
    for i, (races, _) in enumerate(all_decks):
        wins = n = 0
        for g in games:
            if g["winner"] is None or i not in g["decks"]:
                continue
            n += 1
            wins += g["decks"][g["winner"]] == i
        out.append((races, wins, n, *wilson(wins, n)))
    return out


def bar(p, width=40):
    filled = round(p * width)
    return "█" * filled + "·" * (width - filled)


def report(
    all_decks,
    games,
    seconds,
    games_per_pair,
    seed,
    changes,
    bot="heuristic",
    beside=None,
    beside_report="docs/balance-heuristic.md",
    definitions="files",
) -> str:
    """`beside`: (bot, games) of another bot over the same colonies, its per-race rates in
    a column of their own."""
    rates = race_rates(all_decks, games)
    other = race_rates(all_decks, beside[1]) if beside else None
    players = "two `HeuristicBot`s" if bot == "heuristic" else f"two `{bot}` bots"
    command = f"--games-per-pair {games_per_pair} --seed {seed}" + (
        f" --bot {bot}" if bot != "heuristic" else ""
    )
    cards = (
        "the site's card definitions (`cards_data.definitions`, read from its database), "
        "the ones every online game, deck-lab run and simulated event is played with "
        "(issue 34: they keep every printed stat bonus and upgrade limit)"
        if definitions == "site"
        else "the set files' card definitions (`engine.simulate.load_cards`)"
    )
    finished = [g for g in games if g["winner"] is not None]
    start_wins = sum(g["winner"] == g["start"] for g in finished)
    sp = wilson(start_wins, len(finished))
    outside = [r for r, (_, _, p, lo, hi) in rates.items() if not 0.40 <= p <= 0.60]
    lines = [
        "# Balance report: the first-edition set (issue 4)"
        + ("" if bot == "heuristic" else f", played by the `{bot}` bot (issue 18)"),
        "",
        f"Produced by `bench/engine_balance.py` (`{command}`); do not edit by hand.",
        "",
        "**Method.** Every legal four-race colony (one race of each race pair, R 9.5): 16 "
        "colonies, each built by `engine.simulate.build_colony` (15 names x 3 of its races, "
        "spread over types and costs). Every pair of different colonies plays "
        f"{games_per_pair} games between {players}, each colony in seat 0 for half of "
        "them (the starting player is the die roll, R 10.2); games stop at turn 300. A race's "
        "win rate counts the games in which exactly one side plays it (when both do, the game "
        "says nothing about the race); the side with the race won that share. A race and its "
        "pair partner meet in exactly those games, so their rates add up to 100 %. "
        "Intervals are 95 % Wilson intervals.",
        "",
        f"Cards: {cards}.",
        "",
        f"Games: {len(games)} ({len(games) - len(finished)} stopped by the turn limit, left "
        f"out); {seconds:.0f} s of play in all (Python {platform.python_version()}, a machine "
        "shared with other jobs). Starting player won "
        f"{100 * sp[0]:.1f} % (95 % CI {100 * sp[1]:.1f}–{100 * sp[2]:.1f}).",
        "",
        *(
            [
                f"The last column of the race table: the same colonies and method played by "
                f"two `{beside[0]}` bots ({len(beside[1])} games; that bot's own report with "
                f"its per-colony rates: `{beside_report}`).",
                "",
            ]
            if beside
            else []
        ),
        "## Per race",
        "",
        "| race | games | wins | win rate | 95 % CI | in 40–60 %? | |"
        + (f" {beside[0]}: win rate (95 % CI) |" if other else ""),
        "|---|---:|---:|---:|---|---|---|" + ("---|" if other else ""),
    ]
    for race, (wins, n, p, lo, hi) in rates.items():
        ok = "yes" if 0.40 <= p <= 0.60 else "**no**"
        cell = ""
        if other:
            _w, _n, op, olo, ohi = other[race]
            cell = f" {100 * op:.1f} % ({100 * olo:.1f}–{100 * ohi:.1f} %) |"
        lines.append(
            f"| {race} | {n} | {wins} | {100 * p:.1f} % | {100 * lo:.1f}–{100 * hi:.1f} % "
            f"| {ok} | `{bar(p)}` |{cell}"
        )
    lines += [
        "",
        "## Per colony",
        "",
        "| races | games | win rate | 95 % CI |",
        "|---|---:|---:|---|",
    ]
    for races, _wins, n, p, lo, hi in sorted(deck_rates(all_decks, games), key=lambda r: -r[3]):
        lines.append(
            f"| {', '.join(races)} | {n} | {100 * p:.1f} % | {100 * lo:.1f}–{100 * hi:.1f} % |"
        )
    lines += ["", "## Outside 40–60 %", ""]
    if outside:
        lines.append(
            "Point estimates outside the band: "
            + ", ".join(f"{r} ({100 * rates[r][2]:.1f} %)" for r in outside)
            + "."
        )
    else:
        lines.append("No race's win rate is outside 40–60 %.")
    lines += ["", "## Changes to the set", "", changes or "None.", ""]
    return "\n".join(lines)


def load_raw(paths) -> tuple[list, list, float, dict]:
    """The games of one or more raw files (the parts of one run): decks, games, seconds,
    and the run's settings (bot, games per pair, seed)."""
    raws = [json.loads(Path(path).read_text()) for path in paths]
    games = [dict(g, decks=tuple(g["decks"])) for raw in raws for g in raw["games"]]
    settings = {k: raws[0].get(k) for k in ("bot", "games_per_pair", "seed", "definitions")}
    return (
        [(races, None) for races in raws[0]["decks"]],
        games,
        sum(r["seconds"] for r in raws),
        settings,
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games-per-pair", type=int, default=8)
    parser.add_argument("--seed", default="balance")
    parser.add_argument("--bot", default="heuristic", help="the bot on both sides (make_bot)")
    parser.add_argument("--part", default="0/1", help="k/n: play the k-th of n shares of the pairs")
    parser.add_argument("--definitions", choices=("site", "files"), default="site",
                        help="the cards as the site hands them to the engine (its database: "
                             "issue 34), or read from the set files")  # fmt: skip
    parser.add_argument("--out", default=str(ROOT / "docs" / "balance.md"))
    parser.add_argument("--raw", default=str(ROOT / "bench" / "out" / "engine_balance.json"))
    parser.add_argument(
        "--changes", default="", help="markdown: what was changed in the set and why"
    )
    parser.add_argument(
        "--from-json",
        nargs="+",
        help="write the report from raw files of earlier runs (the parts of one run; no games)",
    )
    parser.add_argument("--beside", nargs="+", help="raw files of another bot's run: a column")
    parser.add_argument("--beside-report", default="docs/balance-heuristic.md",
                        help="where the --beside bot's own report is (named in the text)")  # fmt: skip
    args = parser.parse_args()
    bot, games_per_pair, seed = args.bot, args.games_per_pair, args.seed
    if args.from_json:
        all_decks, games, seconds, settings = load_raw(args.from_json)
        bot = settings["bot"] or "heuristic"
        games_per_pair = settings["games_per_pair"] or games_per_pair
        seed = settings["seed"] or seed
        args.definitions = settings["definitions"] or "files"
    else:
        k, n = (int(x) for x in args.part.split("/"))
        all_decks, games, seconds = run(games_per_pair, seed, bot=bot, part=(k, n),
                                        definitions=args.definitions)  # fmt: skip
        raw = {"games": games, "decks": [r for r, _ in all_decks], "seconds": seconds,
               "bot": bot, "games_per_pair": games_per_pair, "seed": seed,
               "definitions": args.definitions}  # fmt: skip
        Path(args.raw).parent.mkdir(exist_ok=True)
        Path(args.raw).write_text(json.dumps(raw))
        if n > 1:
            print(f"part {k}/{n} written to {args.raw}; combine the parts with --from-json")
            return 0
    beside = None
    if args.beside:
        _decks, other_games, _seconds, other = load_raw(args.beside)
        beside = (other["bot"] or "heuristic", other_games)
    text = report(all_decks, games, seconds, games_per_pair, seed, args.changes, bot, beside,
                  args.beside_report, args.definitions)  # fmt: skip
    Path(args.out).write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
