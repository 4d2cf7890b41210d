"""Random games: no exceptions, and the invariants hold after every decision.

The 10,000-game run is ``bench/engine_soak.py`` (``engine.soak``; a smaller soak test is
marked ``soak``, see test_soak.py).
"""

from engine_kit import random_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import values as V
from engine.game import legal_actions, pending
from engine.main_actions import main_actions, main_candidates
from engine.main_phase import check_main
from engine.ruleset import Ruleset
from engine.state import IN_PLAY

COLONY = 45


def locations(state) -> dict:
    """card id -> number of places holding it (zones, ships, chain)."""
    where = {}
    for p in state.players:
        for zone in ("colony", "centre", "surface", "canteen", "hangar", "trash", "wasteland"):
            for cid in p.zone(zone):
                where[cid] = where.get(cid, 0) + 1
                card = state.cards[cid]
                holder = card.controller if zone in IN_PLAY else card.owner
                assert holder == p.seat and card.zone == zone, (cid, zone)
                if zone == "hangar":
                    for aid in card.attachments:
                        where[aid] = where.get(aid, 0) + 1
                        assert state.cards[aid].attached_to == cid
    for entry in state.chain:
        if entry["kind"] == "card":
            where[entry["card"]] = where.get(entry["card"], 0) + 1
    return where


def check_invariants(state):
    where = locations(state)
    # every card of each player is somewhere exactly once
    assert set(where) == set(state.cards), set(where) ^ set(state.cards)
    assert all(n == 1 for n in where.values())
    for seat in range(len(state.players)):  # two seats, or a multiplayer table (R 17.1)
        assert sum(1 for c in state.cards.values() if c.owner == seat) == COLONY
    # R 1.4: no value below 0
    for p in state.players:
        assert p.credits >= 0
    for card in state.cards.values():
        assert card.damage >= 0 and card.upgrades >= 0 and 0 <= card.bought <= 2
        if card.zone == "hangar" and card.attached_to is None:
            for stat in V.STAT_NAMES:
                assert V.stat(state, card, stat) >= 0
            assert V.armour_left(state, card) >= 0
            assert len(card.attachments) <= V.size(state, card)  # R 4.2.4
        if card.zone not in IN_PLAY:
            assert card.damage == 0 and card.upgrades == 0 and not card.mods  # R 3.12
    # only the deciding player has legal actions
    p = pending(state)
    if p is not None:
        for other in range(len(state.players)):
            if other != p.player:
                assert legal_actions(state, other) == []
        assert legal_actions(state, p.player)
        if p.decision == "main":
            fast = sorted(a.id for a in main_actions(state, p.player))
            slow = sorted(
                a.id
                for a in main_candidates(state, p.player)
                if check_main(state, p.player, a) is None
            )
            assert fast == slow


def end_of_turn_limits(state, action, events):
    for e in events:
        if e.kind == "end_turn":
            seat = e.data["player"]
            player = state.players[seat]
            assert len(player.centre) <= 5  # R 11.5.1
            assert V.hangar_total(state, seat) <= 12  # R 11.5.2
            assert player.credits <= 20  # R 11.5.3


def checked_game(seed, ruleset=None, max_decisions=2500):
    def on_step(state, action, events):
        check_invariants(state)
        end_of_turn_limits(state, action, events)

    return random_game(seed, ruleset=ruleset, on_step=on_step, max_decisions=max_decisions)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**9))
def test_invariants_after_every_decision(seed):
    checked_game(seed)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=10**9),
    rules=st.builds(
        Ruleset,
        armour_reset_scope=st.sampled_from(["all", "own"]),
        rotate_shooter_on_declare=st.booleans(),
        cloak_blocks_fire=st.booleans(),
        burst_cap_by_armour=st.booleans(),
        burst_return_fire_scope=st.sampled_from(["always", "when_firing"]),
        trap_payable_vs_stealth=st.booleans(),
        heavy_weapons_cap=st.sampled_from(["total", "increase"]),
        ordnance_cap=st.sampled_from(["total", "increase"]),
        hangar_limit_on_play=st.booleans(),
        active_requires_paid_for_boarding=st.booleans(),
        passenger_exempt_from_return_used=st.booleans(),
        neutralize_payment_removes_card=st.booleans(),
    ),
)
def test_invariants_under_other_rulesets(seed, rules):
    checked_game(seed, ruleset=rules, max_decisions=1500)


def test_a_few_hundred_random_games_finish_without_errors():
    finished = 0
    for seed in range(200):
        state, log = random_game(seed)
        assert pending(state) is None or len(log) >= 20000
        finished += state.winner is not None
    assert finished >= 190


def test_every_card_of_the_set_takes_part_in_random_games():
    """Each race's 30 cards split into two colonies; random games play, pay or activate
    most cards of the set (a smoke test of every card's structured abilities)."""
    from engine_kit import CARDS

    from engine.catalog import RACES

    used = set()

    def on_step(state, action, events):
        for e in events:
            if e.kind in ("play", "pay", "activate") and "card" in e.data:
                used.add(e.data["card"].get("code"))

    for i, race in enumerate(RACES):
        pool = sorted((c for c in CARDS if c["race"] == race), key=lambda c: c["code"])
        colonies = [
            [c for c in pool[:15] for _ in range(3)],
            [c for c in pool[15:] for _ in range(3)],
        ]
        for seed in range(5):
            random_game(100 * i + seed, colonies, on_step=on_step, max_decisions=4000)
    assert len(used) >= 150, sorted({c["code"] for c in CARDS} - used)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**9))
def test_invariants_under_simplified_combat(seed):
    """R 17.2: the same invariants with the simplified combat system (colonies without the
    cards it bans, R 17.2.3)."""
    from test_simplified_combat import random_colonies

    from engine.rng import Rng

    colonies = random_colonies(Rng.from_seed(f"simple-inv-{seed}"))
    rules = Ruleset(simplified_combat=True)

    def on_step(state, action, events):
        check_invariants(state)
        end_of_turn_limits(state, action, events)

    random_game(seed, colonies, ruleset=rules, on_step=on_step, max_decisions=2500)
