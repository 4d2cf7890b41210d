"""Playing a chunk of lab games: pure engine code (no Django), so a worker, a test and the
bench run exactly the same games from the same seeds."""

import time

from engine.bots import HeuristicBot
from engine.game import apply, new_game, pending
from engine.ruleset import Ruleset

TURN_LIMIT = 300  # a game that reaches it is counted as unfinished, never as a result


def starts(game_index: int) -> bool:
    """The lab's deck is on the play in even games, on the draw in odd ones (R 10.2 overridden)."""
    return game_index % 2 == 0


def play_one(colonies, seed: str, lab_starts: bool, ruleset: Ruleset):
    """One game, the lab's deck in seat 0; returns (winner seat or None, turns)."""
    state = new_game(colonies, seed, ruleset, starting_player=0 if lab_starts else 1)
    bots = [HeuristicBot(f"{seed}-0"), HeuristicBot(f"{seed}-1")]
    while (p := pending(state)) is not None:
        apply(state, bots[p.player].choose(state, p.player))
    return state.winner, state.turn


def play_games(colonies, *, seed: str, first: int, games: int, ruleset: Ruleset) -> dict:
    """Tallies of games first..first+games-1 of one pairing; game i is seeded `seed-i`."""
    tally = {"play_games": 0, "play_wins": 0, "draw_games": 0, "draw_wins": 0}
    tally.update(unfinished=0, turns=0)
    started = time.perf_counter()
    for i in range(first, first + games):
        on_play = starts(i)
        winner, turns = play_one(colonies, f"{seed}-{i}", on_play, ruleset)
        tally["turns"] += turns
        if winner is None:
            tally["unfinished"] += 1
            continue
        side = "play" if on_play else "draw"
        tally[f"{side}_games"] += 1
        tally[f"{side}_wins"] += winner == 0
    tally["seconds"] = time.perf_counter() - started
    return tally
