"""Deck advice's games (decklab/advice.py, issue 39): candidate changes, common random
numbers, the fresh-seed re-measurement, and a planted weakness found by a real race.
Pure engine games, no database: the card definitions come from the set files."""

from functools import cache

import pytest

from decklab import advice, racing, simulation
from decklab.reference import reference_decks
from engine.colonies import load_cards
from engine.deck import RULESETS, check_deck
from engine.ruleset import Ruleset

RULES = Ruleset(turn_limit=simulation.TURN_LIMIT)

# Three of the Vanguard colony's cards swapped for weak ones of the same type (each costs
# the colony about 10 points against the gauntlet alone: bench/RESULTS.md "Deck advice").
PLANTED = [
    ("KG1-018", "KG1-019"),  # Training Camp -> Coordination Centre (base)
    ("KG1-075", "KG1-136"),  # Mine Ring -> Senate (base)
    ("KG1-002", "KG1-126"),  # Escort Cutter -> Imperial Flagship (ship)
]


@cache
def cards() -> dict:
    return {c["code"]: c for c in load_cards()}


def colony(entries) -> list[dict]:
    return [cards()[code] for code, n in entries for _copy in range(n)]


def vanguard() -> list[list]:
    return [list(e) for e in reference_decks()[0]["cards"]]


def opponents() -> list:
    return [(ref["key"], colony(ref["cards"])) for ref in reference_decks()]


def games_of(entries, candidates, seed="t") -> advice.Games:
    changed = [colony(change.apply(entries)) for change in candidates]
    return advice.Games(colony(entries), changed, opponents(), seed=seed, ruleset=RULES)


def planted() -> list[list]:
    entries = vanguard()
    for out, into in PLANTED:
        entries = advice.Change(out, into, 3).apply(entries)
    return entries


def test_a_change_keeps_45_cards_and_proposals_are_legal_R_9_1_R_9_2_R_9_5():
    entries = vanguard()
    changes = advice.propose(entries, cards(), deck_rules=RULESETS["original"])
    assert 0 < len(changes) <= advice.MAX_CANDIDATES
    for change in changes:
        changed = change.apply(entries)
        assert sum(n for _c, n in changed) == 45
        assert not check_deck([(cards()[c], n) for c, n in changed], RULESETS["original"])


def test_swaps_try_the_same_type_first_and_come_from_the_collection_when_asked():
    entries = vanguard()
    changes = advice.propose(entries, cards(), deck_rules=RULESETS["original"])
    swaps = [c for c in changes if not c.removal(entries)]
    assert all(cards()[c.out]["type"] == cards()[c.into]["type"] for c in swaps)
    owned = {"KG1-016": 3, "KG1-131": 3, "KG1-013": 1}  # two crews, one armament too few
    mine = advice.propose(entries, cards(), deck_rules=RULESETS["original"], owned=owned)
    assert {c.into for c in mine if not c.removal(entries)} <= {"KG1-016", "KG1-131"}


def test_the_same_seed_plays_the_same_game_common_random_numbers_R_10_1():
    """Game i of the deck and of a candidate share the seed, the opponent and the side
    (R 10.2 overridden by the lab); the same seed replays a game exactly."""
    entries = vanguard()
    games = games_of(entries, [advice.Change("KG1-018", "KG1-019", 3)])
    for i in range(6):
        key, _theirs, on_play = games.pairing(i)
        assert key == reference_decks()[i % 4]["key"]
        assert on_play == ((i // 4) % 2 == 0)
    first = [games.play(games.deck, i) for i in range(8)]
    again = [games.play(games.deck, i) for i in range(8)]
    assert first == again
    identical = games_of(entries, [advice.Change("KG1-018", "KG1-018", 0)])
    tally = identical.play_round(0, 8, [0])[0]
    assert (tally.games, tally.total, tally.squares) == (8, 0.0, 0.0)


def test_the_deck_plays_each_game_once_however_many_candidates_share_it():
    entries = vanguard()
    two = [advice.Change("KG1-018", "KG1-019", 3), advice.Change("KG1-075", "KG1-136", 3)]
    games = games_of(entries, two)
    games.play_round(0, 4, [0, 1])
    games.play_round(0, 4, [1])
    assert games.games_played == 4 + 8 + 4


def test_the_re_measurement_plays_fresh_seeds(monkeypatch):
    seeds = []
    real = simulation.play_one

    def recording(colonies, seed, *args):
        seeds.append(seed)
        return real(colonies, seed, *args)

    monkeypatch.setattr(simulation, "play_one", recording)
    entries = vanguard()
    games = games_of(entries, [advice.Change("KG1-018", "KG1-019", 3)], seed="s")
    games.play_round(0, 4, [0])
    raced = set(seeds)
    seeds.clear()
    tally = advice.remeasure(games, colony(entries), count=4)
    assert tally.games == 4
    assert raced == {f"s-{i}" for i in range(4)}
    assert set(seeds) == {f"s-fresh-{i}" for i in range(4)}
    assert tally.total == 0.0  # the deck against itself on the same fresh seeds


def test_a_gain_that_does_not_hold_up_on_fresh_games_is_said_so(monkeypatch):
    """A race's winner re-measured at no gain: `holds` is False (the page says so)."""
    entries = vanguard()
    change = advice.Change("KG1-018", "KG1-018", 0)  # no change at all
    games = games_of(entries, [change])
    state = racing.Race(1, budget=100)
    state.verdicts = [racing.BETTER]  # as if luck had made it look better in the race
    state.tallies[0].add(1.0)
    found = advice.recommend(games, state, entries, [change], colony)
    monkeypatch.undo()
    assert found["games"] == advice.FRESH_GAMES
    assert found["change"] == 0.0 and found["holds"] is False


@pytest.mark.slow
def test_a_planted_weakness_is_found_and_its_fix_holds_up_on_fresh_seeds():
    """The Vanguard colony with three cards swapped for weak ones: the advice, racing six
    candidates with the heuristic bot, finds at least two of the three, and the deck it
    recommends is better on fresh seeds."""
    entries = planted()
    archetype = [ref["cards"] for ref in reference_decks()]
    changes = advice.propose(
        entries, cards(), deck_rules=RULESETS["original"], archetype=archetype, limit=6
    )
    games = games_of(entries, changes, seed="planted")
    state = advice.race(games, budget=2400)
    found = advice.recommend(games, state, entries, changes, colony)
    weak = {into for _out, into in PLANTED}
    fixed = {c["out"] for c in found["changes"]} & weak
    assert len(fixed) >= 2, (state.verdicts, [c.as_dict() for c in changes])
    assert found["change"] > 0 and found["holds"]
