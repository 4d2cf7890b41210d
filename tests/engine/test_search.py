"""The search bot (issue 18, engine.search): it decides from what its player may know only.

* Tag and search (R 16.2, R 3.1 "who may look"): every card the seat may not look at
  carries a unique tag code in the true state; no tag of an opponent's hidden card reaches
  anything the bot decides from (the observed state, the definitions, the priors), nor the
  true generator's key; the seat's own colony is known to it only as its list (R 9).
* Twins (R 16.2): games whose opponents hold different hidden cards (other codes of the same
  races, not only another order) and whose views are identical make the bot take the same
  decision at every step, also when both games are driven on with the same actions.
* The frame stack: another player's filtered search of their colony (the options offered
  to them depend on their hidden cards) looks the same to the bot whatever fits the filter.
* The prior: a sampled opponent colony keeps R 9.2 (three copies a name, the seen ones
  counted) and R 9.3 (no race opposing one seen), with exactly the unseen count per zone.
* It is a bot like the others: make_bot("search-easy" / "search-normal" / "search-hard"),
  legal decisions through a whole game, and an explanation of its top three options.
"""

from collections import Counter

import pytest

from engine.basic_bots import HeuristicBot, RandomBot
from engine.bots import BOTS, make_bot
from engine.catalog import OPPOSING_RACE
from engine.colonies import load_cards, random_colony
from engine.executors import EXEC
from engine.flow import HANDLERS
from engine.game import apply, legal_actions, new_game, pending
from engine.observation import HIDDEN, card_pool, determinise, observe
from engine.rng import Rng
from engine.search import WIN_MARGIN, SearchBot, outcome
from engine.serialize import clone, dump
from engine.view import sees, view

from .engine_kit import tagged_colony

# the tree search (ISMCTS, `method` "ismcts") with a small budget
SMALL = {"method": "ismcts", "iterations": 12, "seconds": None, "depth": 12, "playout": "random"}
# the rollouts of "hard" with a small budget, every decision searched (minor ones too)
ROLLOUTS = {"rollouts": 8, "seconds": None, "depth": 60, "minor": 0.5}


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
    """The same game as `seat` sees it with other hidden cards: each card of an opponent that
    `seat` may not look at gets another code of the same race (a different card, not only
    another place), the seat's own colony another order, and the game another generator."""
    twin = clone(state)
    twin.defs = dict(twin.defs)  # (loaded definitions are shared: not in place)
    rng = Rng.from_seed(f"twin-{seed}")
    by_race = {}
    for d in card_pool():
        by_race.setdefault(d["race"], []).append(d)
    own = []
    for card in twin.cards.values():
        if sees(card, seat):
            continue
        if card.owner == seat:
            own.append(card)
            continue
        others = [d for d in by_race[twin.defs[card.code]["race"]] if d["code"] != card.code]
        new = others[rng.below(len(others))]
        twin.defs.setdefault(new["code"], new)
        card.code = new["code"]
    codes = [c.code for c in own]
    rng.shuffle(codes)
    for card, code in zip(own, codes, strict=True):
        card.code = code
    twin.rng = Rng.from_seed(f"twin-generator-{seed}")
    return twin


def _hidden_from(state, seat):
    return [c for c in state.cards.values() if c.owner != seat and not sees(c, seat)]


def _everything(obs) -> str:
    """All the bot decides from, as text: the state, the definitions, its list, the priors."""
    parts = [getattr(obs, k) for k in obs.__slots__]  # every field, whatever it is called
    priors = getattr(obs, "priors", {})
    parts += [[getattr(p, k) for k in p.__slots__] for p in priors.values()]
    return repr(parts)


def test_tagged_hidden_identities_never_reach_the_observation():
    """R 16.2 / R 3.1: a whole game between colonies whose 45 cards each carry a unique tag
    (code and name). At every decision, for each seat: no tag of a card of the other seat
    that it may not look at is anywhere in what the bot gets (the state, the definitions,
    the priors), nor is the generator's key; its own colony's tags only as its own list."""
    rng = Rng.from_seed("tags")
    state = new_game([tagged_colony(rng, 0), tagged_colony(rng, 1)], "tags")
    bots = [HeuristicBot("t0"), HeuristicBot("t1")]
    checked = 0
    while (p := pending(state)) is not None and state.turn <= 12:
        if state.decisions % 3 == 0:
            for seat in (0, 1):
                obs = observe(state, seat)
                everything = _everything(obs)
                hidden = _hidden_from(state, seat)
                assert hidden  # at least the other colony
                for card in hidden:
                    assert card.code not in everything, (seat, card.zone)
                    assert state.defs[card.code]["name"] not in everything
                for card in state.cards.values():
                    if card.owner == seat and not sees(card, seat):  # its own colony
                        assert card.code not in obs.text
                        assert obs.unseen[card.code] == 1 and obs.own[card.code] == 1
                assert state.rng.to_dict()["key"] not in everything
                # where each unseen card is stays unknown: the state holds only their count
                unseen = sum(1 for c in state.cards.values() if not sees(c, seat))
                assert obs.text.count(f'"{HIDDEN}"') == unseen
                checked += 1
        apply(state, bots[p.player].choose(state, p.player))
    assert checked > 100


def test_a_determinisation_is_consistent_with_the_view():
    """R 16.2: a sampled game looks exactly like the true one to the seat (same view, so the
    same count of unseen cards in every zone); the seat's own cards are its list; an
    opponent's are a guess, not its list."""
    state = _game(2, 10)
    seat = state.active
    obs = observe(state, seat)
    guessed_right = []
    for k in range(3):
        sample = determinise(obs, Rng.from_seed(f"d{k}"))
        assert view(sample, seat) == view(state, seat)
        mine = sorted(c.code for c in sample.cards.values() if c.owner == seat)
        assert mine == sorted(c.code for c in state.cards.values() if c.owner == seat)
        theirs = Counter(c.code for c in sample.cards.values() if c.owner != seat)
        true = Counter(c.code for c in state.cards.values() if c.owner != seat)
        guessed_right.append(theirs == true)
    assert not any(guessed_right)


def test_the_prior_keeps_the_colony_rules():
    """R 9.2 / R 9.3: each sampled opponent colony holds at most three copies of a name (the
    seen copies counted) and no race opposing one of its races seen; the seat sees the same
    cards as before."""
    for seed in (3, 4):
        state = _game(seed, 12)
        seat = 0
        obs = observe(state, seat)
        seen = [c.code for c in state.cards.values() if c.owner != seat and sees(c, seat)]
        races = {state.defs[code]["race"] for code in seen}
        assert seen and races
        for k in range(5):
            sample = determinise(obs, Rng.from_seed(f"p{seed}-{k}"))
            names = Counter(
                sample.defs[c.code]["name"] for c in sample.cards.values() if c.owner != seat
            )
            assert max(names.values()) <= 3
            for c in sample.cards.values():
                if c.owner != seat:
                    assert OPPOSING_RACE[sample.defs[c.code]["race"]] not in races
            assert view(sample, seat) == view(state, seat)


@pytest.mark.parametrize(
    ("strength", "budget"), [("easy", SMALL), ("hard", ROLLOUTS)], ids=["ismcts", "rollouts"]
)
def test_same_decision_when_only_hidden_cards_differ_at_every_step(strength, budget):
    """R 16.2: the bot (seat 0) against the heuristic bot. A twin game holds other hidden
    cards of the opponent (other codes of the same races) and the bot's colony in another
    order; it is driven with the same actions as the true game while the bot's view of both
    stays the same (made again from the true game when the view or the legal actions part),
    and at every decision of the bot both games give the same action, with the same visits
    and estimated win rates of its top three options. Both methods: the tree search (easy)
    and the rollouts (normal, hard)."""
    cards = load_cards()
    rng = Rng.from_seed("twins")
    state = new_game([random_colony(rng, cards), random_colony(rng, cards)], "twins")
    bot = SearchBot("twins", strength, **budget)
    other = HeuristicBot("other")
    twin = None
    checked = differed = carried = made = 0
    while (p := pending(state)) is not None and state.turn <= 10:
        if twin is None or view(twin, 0) != view(state, 0):
            twin = _twin(state, 0, made)
            made += 1
        else:
            carried += 1
        assert view(twin, 0) == view(state, 0)
        if p.player == 0:
            hidden = _hidden_from(state, 0)
            differed += any(twin.cards[c.id].code != c.code for c in hidden)
            action = bot.choose(state, 0)
            explained = bot.explain()
            assert bot.choose(twin, 0).id == action.id, (state.turn, p.decision)
            # the whole decision is the same: every visit count and estimated win rate
            assert bot.explain() == explained, (state.turn, p.decision)
            checked += 1
        else:
            action = other.choose(state, 1)
        apply(state, action.id)
        if action.id in {a.id for a in legal_actions(twin)}:
            apply(twin, action.id)
        else:
            twin = None
    assert checked >= 20 and differed == checked and carried > 50


def _searching(state, seat, codes):
    """`seat` in the middle of a filtered search of its colony (Bányászbázis-like: the top
    5, take a ship): the top of its colony gets `codes` first."""
    s = clone(state)
    colony = s.players[seat].colony
    for cid, code in zip(colony, codes, strict=False):
        s.cards[cid].code = code
    eff = {"effect": "search_colony", "depth": 5, "filter": {"type": "ship"}}
    frame = {"kind": "effects", "effects": [eff], "i": 0, "ctx": {"ctrl": seat, "path": ""}}
    s.stack.append(frame)
    assert EXEC["search_colony"](s, frame, eff, "0", []) is False  # it asks
    HANDLERS["choice"].run(s, s.stack[-1], [])  # what the driver does next: it waits
    assert pending(s).player == seat and pending(s).decision == "search"
    return s


def test_another_players_filtered_search_shows_no_hidden_identities():
    """R 16.2 / R 16.4: the options of the opponent's search among its hidden colony cards
    depend on which fit the filter; the bot's observation of two such searches, where other
    cards fit, is the same (the view too)."""
    state = _game(5, 6)
    seat, other = 0, 1
    ours = [c.code for c in state.cards.values() if c.owner == other]
    ships = [code for code in ours if state.defs[code]["type"] == "ship"]
    rest = [code for code in ours if state.defs[code]["type"] != "ship"]
    a = _searching(state, other, [ships[0], rest[0], ships[1], rest[1], rest[2]])
    b = _searching(state, other, [rest[0], ships[0], rest[1], rest[2], ships[1]])
    assert a.stack[-1]["options"] != b.stack[-1]["options"]  # the true options differ
    assert view(a, seat) == view(b, seat)
    assert observe(a, seat).text == observe(b, seat).text
    # a sampled game goes on: the opponent's search has options, the bot still decides
    sample = determinise(observe(a, seat), Rng.from_seed("s"))
    assert legal_actions(sample)
    # the searching player's own observation keeps its real options
    assert observe(a, other).text != observe(b, other).text


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


def test_rollouts_search_the_main_decisions_and_leave_the_rest_to_the_heuristic():
    """R 11.3 / R 15: "hard" (a small budget) against the random bot for a whole game: every
    decision is legal; a main decision (R 11.3.1) with a choice is searched: its top option
    is the one taken, with rollouts shared by its candidates (common samples: the survivors
    of the halving have the same count) and a reward in [0, 1]; any other decision is the
    heuristic bot's choice (one of its best-scored actions), not searched."""
    cards = load_cards()
    rng = Rng.from_seed("flat")
    state = new_game([random_colony(rng, cards), random_colony(rng, cards)], "flat")
    bot = SearchBot("flat", "hard", rollouts=8, seconds=None, depth=40, minor=0.0)
    other = RandomBot("flat")
    scorer = HeuristicBot("scorer")
    searched = minor = 0
    while (p := pending(state)) is not None:
        if p.player == 0:
            actions = legal_actions(state)
            action = bot.choose(state, 0)
            assert action.id in {a.id for a in actions}
            top = bot.explain()
            assert top[0]["action"] == action.id
            if len(actions) > 1 and p.decision == "main":
                searched += 1
                assert bot.last_iterations >= 8
                assert top[0]["visits"] > 0 and 0.0 <= top[0]["win_rate"] <= 1.0
                assert top[0]["visits"] >= max(t["visits"] for t in top)
            elif len(actions) > 1:
                minor += 1
                assert top == [{"action": action.id, "visits": 0, "win_rate": None}]
                scores = {a.id: scorer.score(state, 0, p.decision, a) for a in actions}
                assert scores[action.id] == max(scores.values())
        else:
            action = other.choose(state, 1)
        apply(state, action)
    assert state.winner is not None and searched > 10 and minor > 3


def test_a_rollouts_reward_is_mostly_the_result_then_the_margin():
    """R 15.1: a finished rollout is worth at least 1 - WIN_MARGIN to the winner and at most
    WIN_MARGIN to the loser; a win keeping more colony cards is worth more, a loss to a
    winner keeping fewer is worth more (closer)."""
    state = _game(7, 6)
    wide, narrow = clone(state), clone(state)
    for s, kept in ((wide, 30), (narrow, 3)):
        s.winner = 0
        colony = s.players[0].colony
        del colony[kept:]
        assert len(colony) == kept
    assert 1.0 >= outcome(wide, 0) > outcome(narrow, 0) >= 1.0 - WIN_MARGIN
    assert 0.0 <= outcome(wide, 1) < outcome(narrow, 1) <= WIN_MARGIN
