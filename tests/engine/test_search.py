"""The search bot (issue 18, engine.search): it decides from what its player may know only.

* Tag and search (R 16.2, R 3.1 "who may look"): every card the seat may not look at gets a
  unique tag code in the true state; no tag reaches the observation the bot decides from,
  nor the true generator's key.
* Twins (R 16.2): at every decision of a game, a twin of the true state that differs only
  in the opponent's hidden cards, the order of the bot's own colony and the game's
  generator (its view is the same) makes the bot take the same decision.
* It is a bot like the others: make_bot("search-easy" / "search-normal" / "search-hard"),
  legal decisions through a whole game, and an explanation of its top three options.
"""

from engine.bots import BOTS, HeuristicBot, RandomBot, make_bot
from engine.game import apply, legal_actions, new_game, pending
from engine.rng import Rng
from engine.search import HIDDEN, SearchBot, determinise, observe
from engine.serialize import clone, dump
from engine.simulate import load_cards
from engine.soak import random_colony
from engine.view import sees, view

SMALL = {"iterations": 12, "seconds": None, "depth": 12}


def _game(seed, turns):
    """A heuristic game up to `turns` and both centres holding cards (a mid-game position)."""
    cards = load_cards()
    rng = Rng.from_seed(f"search-{seed}")
    state = new_game([random_colony(rng, cards), random_colony(rng, cards)], f"search-{seed}")
    bots = [HeuristicBot(f"a{seed}"), HeuristicBot(f"b{seed}")]
    while (p := pending(state)) is not None and not (
        state.turn >= turns and all(player.centre for player in state.players)
    ):
        apply(state, bots[p.player].choose(state, p.player))
    return state


def _twin(state, seat, seed):
    """The same game with the unseen cards of `seat` re-dealt: the opponent's hidden cards
    (centre, colony, wasteland, face down in play) shuffled among themselves, the seat's own
    colony in another order, and another generator."""
    twin = clone(state)
    rng = Rng.from_seed(f"twin-{seed}")
    by_owner = {}
    for card in twin.cards.values():
        if not sees(card, seat):
            by_owner.setdefault(card.owner, []).append(card)
    for cards in by_owner.values():
        codes = [c.code for c in cards]
        rng.shuffle(codes)
        for card, code in zip(cards, codes, strict=True):
            card.code = code
    twin.rng = Rng.from_seed(f"twin-generator-{seed}")
    return twin


def test_tagged_hidden_identities_never_reach_the_observation():
    """R 16.2 / R 3.1: tag each card `seat` may not look at with its own code (and a
    definition for it); none of the tags, nor the generator's key, is in the observed
    state. The tags reach the bot only in the colony lists, as multisets of codes (the
    open-decklist assumption, docs/rulings.md): never tied to a card, zone or position."""
    state = _game(1, 8)
    for seat in (0, 1):
        tagged = clone(state)
        tagged.defs = dict(tagged.defs)  # (loaded definitions are shared: not in place)
        tags = []
        for card in tagged.cards.values():
            if not sees(card, seat):
                tag = f"TAG{card.id:05d}X"
                tagged.defs[tag] = dict(tagged.defs[card.code], code=tag)
                card.code = tag
                tags.append(tag)
        assert len(tags) > 30  # two colonies and the other centre at least
        assert tagged.players[1 - seat].centre  # the opponent holds cards
        obs = observe(tagged, seat)
        for tag in tags:
            assert tag not in obs.text
        assert tagged.rng.to_dict()["key"] not in obs.text
        # where each unseen card is stays unknown: the observation holds only their count
        hidden = sum(1 for c in tagged.cards.values() if not sees(c, seat))
        assert obs.text.count(f'"{HIDDEN}"') == hidden
        assert sum(sum(u.values()) for u in obs.unseen) == hidden


def test_a_determinisation_is_consistent_with_the_view():
    """R 16.2: a sampled game looks exactly like the true one to the seat (same view), and
    each owner's cards are its colony list."""
    state = _game(2, 10)
    seat = state.active
    obs = observe(state, seat)
    for k in range(3):
        sample = determinise(obs, Rng.from_seed(f"d{k}"))
        assert view(sample, seat) == view(state, seat)
        for owner in (0, 1):
            mine = sorted(c.code for c in sample.cards.values() if c.owner == owner)
            true = sorted(c.code for c in state.cards.values() if c.owner == owner)
            assert mine == true


def test_same_decision_when_only_hidden_cards_differ_at_every_step():
    """R 16.2: the bot (seat 0) against the heuristic bot; at each of its decisions a twin
    that differs in the opponent's hidden cards and the deck order gives the same action."""
    cards = load_cards()
    rng = Rng.from_seed("twins")
    state = new_game([random_colony(rng, cards), random_colony(rng, cards)], "twins")
    bot = SearchBot("twins", "easy", **SMALL)
    other = HeuristicBot("other")
    checked = differed = 0
    while (p := pending(state)) is not None and state.turn <= 8:
        if p.player == 0:
            twin = _twin(state, 0, checked)
            assert view(twin, 0) == view(state, 0)
            differed += any(twin.cards[cid].code != card.code for cid, card in state.cards.items())
            action = bot.choose(state, 0)
            assert bot.choose(twin, 0).id == action.id, (state.turn, p.decision)
            checked += 1
        else:
            action = other.choose(state, 1)
        apply(state, action)
    assert checked >= 20 and differed == checked


def test_search_bots_are_bots_like_the_others():
    """make_bot names (the simulator, the deck lab and matches pick bots by these names)."""
    for strength in ("easy", "normal", "hard"):
        assert f"search-{strength}" in BOTS
        bot = make_bot(f"search-{strength}", 3)
        assert isinstance(bot, SearchBot) and bot.strength == strength


def test_a_whole_game_of_legal_decisions_with_explanations():
    """R 15: a complete game (a small budget) against the random bot; every decision is one
    of the legal actions, and each searched decision explains its top three options."""
    cards = load_cards()
    rng = Rng.from_seed("whole")
    state = new_game([random_colony(rng, cards), random_colony(rng, cards)], "whole")
    bot = SearchBot("whole", "easy", **SMALL)
    other = RandomBot("whole")
    explained = 0
    while (p := pending(state)) is not None:
        if p.player == 1:
            legal = {a.id for a in legal_actions(state)}
            action = bot.choose(state, 1)
            assert action.id in legal
            top = bot.explain()
            assert 1 <= len(top) <= 3 and top[0]["action"] == action.id
            if len(legal) > 1:
                explained += 1
                assert all(0.0 <= t["win_rate"] <= 1.0 for t in top)
                assert [t["visits"] for t in top] == sorted(
                    (t["visits"] for t in top), reverse=True
                )
        else:
            action = other.choose(state, 0)
        apply(state, action)
    assert state.winner is not None and explained > 10
    assert dump(state)  # the game is a normal game
