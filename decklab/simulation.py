"""Playing a chunk of lab games: pure engine code (no Django), so a worker, a test and the
bench run exactly the same games from the same seeds."""

import time

from engine.bots import make_bot
from engine.collector import collector_paused
from engine.game import apply, new_game, pending
from engine.ruleset import Ruleset

TURN_LIMIT = 300  # a game that reaches it is counted as unfinished, never as a result

# The bots a lab run may choose (issue 18). The chosen bot plays BOTH sides of every game
# (docs/rulings.md "Deck lab: the bot plays both sides"): the win rate then measures the
# decks with equal pilots, not one bot against another.
BOTS = ("heuristic", "search-easy", "search-normal", "search-hard")
DEFAULT_BOT = "heuristic"


def starts(game_index: int) -> bool:
    """The lab's deck is on the play in even games, on the draw in odd ones (R 10.2 overridden)."""
    return game_index % 2 == 0


def make_bots(bot: str, seed: str) -> list:
    """The two players of one game: `bot` (one of BOTS) in both seats, seeded per seat."""
    if bot not in BOTS:
        raise ValueError(f"unknown lab bot {bot!r}: one of {BOTS}")
    return [make_bot(bot, f"{seed}-0"), make_bot(bot, f"{seed}-1")]


def play_one(colonies, seed: str, lab_starts: bool, ruleset: Ruleset, bot: str = DEFAULT_BOT):
    """One game, the lab's deck in seat 0; returns (winner seat or None, turns, the name of
    the bots that played it, as the bot objects call themselves)."""
    state = new_game(colonies, seed, ruleset, starting_player=0 if lab_starts else 1)
    bots = make_bots(bot, seed)
    with collector_paused():  # a game makes no reference cycles: engine/collector.py
        while (p := pending(state)) is not None:
            apply(state, bots[p.player].choose(state, p.player))
    return state.winner, state.turn, "/".join(sorted({b.name for b in bots}))


def play_games(
    colonies, *, seed: str, first: int, games: int, ruleset: Ruleset, bot: str = DEFAULT_BOT
) -> dict:
    """Tallies of games first..first+games-1 of one pairing; game i is seeded `seed-i`.
    `bot` chooses the bots (BOTS); the tally's "bot" is the name the bot objects that played
    carry (e.g. "search-easy"), so a stored chunk says which bot really played it."""
    tally = {"play_games": 0, "play_wins": 0, "draw_games": 0, "draw_wins": 0}
    tally.update(unfinished=0, turns=0, bot="")
    started = time.perf_counter()
    for i in range(first, first + games):
        on_play = starts(i)
        winner, turns, played_by = play_one(colonies, f"{seed}-{i}", on_play, ruleset, bot)
        tally["bot"] = played_by
        tally["turns"] += turns
        if winner is None:
            tally["unfinished"] += 1
            continue
        side = "play" if on_play else "draw"
        tally[f"{side}_games"] += 1
        tally[f"{side}_wins"] += winner == 0
    tally["seconds"] = time.perf_counter() - started
    return tally
