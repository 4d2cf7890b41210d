"""Every bot by name: the site, the deck lab, the tournaments and the simulator seat bots by
these names (``make_bot(name, seed)``). A bot is an object with ``choose(state, seat) ->
Action``; the two without search are in engine.basic_bots, the search bots in
engine.search, which plays its rollouts with the basic ones (so this registry sits above
both)."""

from .basic_bots import HeuristicBot, RandomBot
from .search import SEARCH_BOTS

BOTS: dict = {"random": RandomBot, "heuristic": HeuristicBot}
BOTS.update(SEARCH_BOTS)  # "search-easy", "search-normal", "search-hard" (engine.search)


def make_bot(name: str, seed=0):
    return BOTS[name](seed)
