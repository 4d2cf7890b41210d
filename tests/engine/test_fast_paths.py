"""The engine's fast paths give the same values as the plain definitions they replace.

Checked after every decision of random games between random colonies (all races, so
conditional static abilities, cost modifiers, surcharges and activated abilities occur):
static abilities by effect, stats and costs without a given static list, activatable
abilities, the armour check of ``ops.check_state``, the combat's participants, the
pending decision, and that every listed action passes its handler's check (``apply`` takes
an action of the list it was just offered without checking it again).
"""

import pytest
from engine_kit import do, pass_windows, position, random_colony, random_game

from engine import combat as C
from engine import notation as N
from engine import ops
from engine import resolve as R
from engine import values as V
from engine.actions import Action, IllegalAction
from engine.announce import activatable, can_activate
from engine.flow import HANDLERS, Event
from engine.game import Pending, _was_offered, apply, legal_actions, new_game, pending
from engine.main_actions import (
    _attacks_on,
    _base_lists,
    _candidates,
    _find_candidates,
    _fit_tables,
    _pay_reason,
    main_actions,
    main_candidates,
)
from engine.main_phase import check_main
from engine.rng import Rng
from engine.state import cards_in_play, mark, marked_cards

EFFECTS = ("modify_stat", "cost_modifier", "attack_surcharge", "grant_keyword")


def reference_statics(state):
    """values.static_abilities as first written: a walk over every card in play."""
    out = []
    for card in cards_in_play(state):
        if not V.effective(state, card):
            continue
        for ability in V.abilities(state, card):
            if ability["trigger"] == "static" and V.condition_ok(
                state, ability.get("condition"), card, card.controller
            ):
                out.append((card, ability))
    return out


def reference_activatable(state, seat):
    out = []
    for card in cards_in_play(state, seat):
        if not card.paid:
            continue
        for i, ability in enumerate(V.abilities(state, card)):
            if ability["trigger"] == "activated" and can_activate(state, seat, card, i):
                out.append((card.id, i))
    return out


def key(pairs):
    return [(card.id, id(ability)) for card, ability in pairs]


def check_events(events):
    """flow.emit sets an Event's slots without its __init__: the same value."""
    for event in events:
        plain = Event(event.kind, event.data, event.secret, tuple(event.to))
        assert type(event) is Event and event == plain and repr(event) == repr(plain)
        assert event.to_dict() == plain.to_dict()


def check_fast_paths(state, action=None, events=None):
    check_events(events or ())
    full = V.static_abilities(state)
    assert sorted(key(full)) == sorted(key(reference_statics(state)))
    for effect in EFFECTS:
        subset = [p for p in full if any(e["effect"] == effect for e in p[1]["effects"])]
        assert key(V.static_abilities(state, effect)) == key(subset)
    for seat in (0, 1):
        for card in cards_in_play(state, seat):
            for stat in V.STAT_NAMES:
                assert V.stat(state, card, stat) == V.stat(state, card, stat, full)
        for cid in state.players[seat].centre + state.players[seat].surface:
            card = state.cards[cid]
            assert V.card_cost(state, seat, card) == V.card_cost(state, seat, card, statics=full)
        for what, base in (("upgrade", 1), ("draw", 1)):
            assert V.action_cost(state, seat, what, base) == V.action_cost(
                state, seat, what, base, full
            )
        assert V.attack_surcharge(state, seat) == V.attack_surcharge(state, seat, full)
        assert activatable(state, seat) == reference_activatable(state, seat)
    armoured = all(
        V.armour_left(state, state.cards[cid], ()) > 0 for p in state.players for cid in p.hangar
    )
    assert ops._all_armoured(state, V.state_info(state)) == armoured
    if state.combat is not None:  # R 11.4: each side's ships still in the combat
        for seat in (0, 1):
            plain = [C.in_hangar(state, cid, seat) for cid in C.side(state.combat, seat)]
            fast = C.participants(state, seat)
            assert [id(c) for c in fast] == [id(c) for c in plain if c is not None]
    check_pending(state)
    check_offered(state)
    check_main_list(state)
    check_candidates(state)
    check_base_lists(state)
    check_marked(state)


def check_offered(state):
    """apply takes an action of the list legal_actions just returned without its handler's
    check: that check must accept every listed action."""
    if pending(state) is None:
        return
    frame = state.stack[-1]
    handler = HANDLERS[frame["kind"]]
    for action in legal_actions(state):
        assert handler.check(state, frame, action) is None, action.id
        assert action.id == plain_id(action)  # kept on the Action once made


def plain_id(action):
    """Action.id as first written: made at every read."""
    if not action.params:
        return action.kind
    return action.kind + ":" + ",".join(f"{k}={v}" for k, v in action.params)


def reference_main_actions(state, seat):
    """main_actions as a plain definition: the candidates check_main accepts, in the
    order of main_actions (what the random bot picks by index): end turn; the centre's
    plays and places; pays and activations in the order of cards_in_play; every upgrade,
    then every cash pair, in id order; draws; attacks."""
    legal = [a for a in main_candidates(state, seat) if check_main(state, seat, a) is None]
    bases = [a for a in legal if a.kind in ("upgrade", "cash")]
    head = legal[: legal.index(bases[0])] if bases else legal
    tail = legal[len(head) + len(bases) :]
    upgrades = sorted((a for a in bases if a.kind == "upgrade"), key=lambda a: a.get("card"))
    pairs = sorted((a for a in bases if a.kind == "cash"), key=lambda a: (a.get("a"), a.get("b")))
    return head + upgrades + pairs + tail


def check_main_list(state):
    """main_actions: the same list, in the same order, as its plain definition; its shared
    actions (built once per card id, kept in tables) equal to actions made afresh."""
    p = pending(state)
    if p is None or p.decision != "main" or state.stack[-1]["kind"] != "turn":
        return
    fast = main_actions(state, p.player)
    assert [a.id for a in fast] == [a.id for a in reference_main_actions(state, p.player)]
    for action in fast:
        fresh = Action.make(action.kind, **dict(action.params))
        assert fresh == action and fresh.id == action.id


def check_candidates(state):
    """game._candidates (kept on the state while state.card_epoch and the zone lists stand
    still) equals its recomputation, for both seats, after every decision."""
    info = V.state_info(state)
    for seat in (0, 1):
        ships = [state.cards[c] for c in state.players[seat].hangar]
        kept = _candidates(state, seat, info)
        fresh = _find_candidates(state, state.players[seat], ships, info)
        plain = [
            c
            for c in cards_in_play(state, seat)
            if (
                c.code in info.activated
                if c.paid
                else V.ctype(state, c) == c.slot
                and _pay_reason(state, seat, c, 10**9)
                not in ("TRAP_ONLY_WHEN_BOMBARDED", "MISSILE_ONLY_IN_COMBAT")
            )
        ]
        assert [id(c) for c in kept] == [id(c) for c in fresh] == [id(c) for c in plain]


def check_base_lists(state):
    """game._base_lists (kept on the state while state.upgrade_epoch and the surface stand
    still, patched by main-phase upgrades and cashes) equals its plain definition."""
    for seat in (0, 1):
        surface = sorted(state.players[seat].surface)
        plain = (
            [c for c in surface if state.cards[c].bought < 2],
            [c for c in surface if state.cards[c].upgrades > 0],
        )
        assert _base_lists(state, seat) == plain


def check_marked(state):
    """state.marked_cards (the cards noted by state.mark, in id order) is the scan of every
    card it replaces, in the order of state.cards (which stays the order of the ids)."""
    plain = [c for c in state.cards.values() if c.boarded or c.hit or c.mods or c.grants]
    assert [id(c) for c in marked_cards(state)] == [id(c) for c in plain]
    assert list(state.cards) == sorted(state.cards)


def check_pending(state):
    """game.pending's Pending: an immutable value, equal to one made from its fields."""
    p = pending(state)
    if p is None:
        return
    plain = Pending(p.player, p.decision, p.info)
    assert type(p) is Pending and p == plain
    assert repr(p) == repr(plain) and p._asdict() == plain._asdict()
    assert repr(p).startswith(f"Pending(player={p.player}, decision={p.decision!r}, info=")
    with pytest.raises(AttributeError):  # frozen (a dataclass's FrozenInstanceError is one)
        p.player = 1 - p.player


@pytest.mark.parametrize("seed", [3, 17, 29, 41])
def test_fast_paths_match_their_definitions(seed):
    random_game(seed, on_step=check_fast_paths, max_decisions=700)


def test_a_list_offered_for_an_earlier_decision_is_not_taken_as_checked():
    """The actions are shared objects (a pass is the same object at every window): what
    ties a list to its decision is the decision's ``await`` dict, new at every decision."""
    rng = Rng.from_seed("offered")
    state = new_game([random_colony(rng), random_colony(rng)], "offered")
    for _ in range(300):
        if pending(state) is None:
            break
        actions = legal_actions(state)
        waiting = state.stack[-1]["await"]
        assert all(_was_offered(state, waiting, a) for a in actions)
        with pytest.raises(IllegalAction) as refused:  # offered, but to the other player
            apply(state, actions[0], player=1 - waiting["player"])
        assert refused.value.code == "NOT_YOUR_DECISION" and "await" in state.stack[-1]
        apply(state, actions[rng.below(len(actions))])
        if pending(state) is not None:
            waiting = state.stack[-1]["await"]
            assert not any(_was_offered(state, waiting, a) for a in actions)
    bad = Action.make("cash", a=10_000, b=10_001)  # never listed: checked, and refused
    if pending(state) is not None:
        with pytest.raises(IllegalAction):
            apply(state, bad)


def test_shared_main_actions_are_made_again_after_their_table_is_cleared():
    """The tables of shared main-phase actions are made on first use: a cleared table
    makes its actions again, equal to those of before."""
    from engine import main_actions as game

    def read():
        game._fit_tables(10)
        upgrade = game._UPGRADE[7] or game._made(game._UPGRADE, 7, "upgrade")
        return upgrade, game._cash(game._CASH_ROWS[7], 7, 9), game._PLACE_SHIP[7, 9]

    before = read()
    for table in (*game._BY_ID, game._CASH_ROWS, game._PLACE_SHIP):
        table.clear()
    after = read()
    assert after == before
    assert [a.id for a in after] == [
        "upgrade:card=7",
        "cash:a=7,b=9",
        "place:card=7,ship=9,to=ship",
    ]


def test_shared_board_actions_are_the_made_ones_and_kept_per_crew():
    """combat's boarding actions come from a table (crew id -> ship id): equal to
    Action.make's, the same object when read again, grown for a larger id, made again after
    the table is cleared."""
    from engine import combat

    first = combat._board_action(12, 40)
    assert first == Action.make("board", card=12, ship=40)
    assert first.id == "board:card=12,ship=40"
    assert combat._board_action(12, 40) is first
    assert combat._board_action(3, 900) == Action.make("board", card=3, ship=900)
    assert combat._board_action(12, 40) is first  # crew 12's row kept while others grow
    combat._BOARD_ROWS.clear()
    again = combat._board_action(12, 40)
    assert again == first and again is not first


def test_a_draw_below_one_is_the_hashed_draw():
    """Rng.below(1) skips the hash: its one draw is never rejected (it is below 2**64) and
    any value % 1 is 0. The same result and counter as the hashed draw, and the draws after
    it are the same."""
    fast, plain = Rng.from_seed("below-1"), Rng.from_seed("below-1")
    for n in (1, 3, 1, 1, 7, 2, 1, 5):
        if n == 1:
            value = plain._next64()
            assert value < 2**64 and fast.below(1) == value % 1 == 0
        else:
            assert fast.below(n) == plain.below(n)
        assert fast.counter == plain.counter


def _defined_below(key: bytes, counter: int, n: int) -> tuple[int, int]:
    """rng.py's definition written plainly: blake2b(counter, key=key, digest_size=8) per draw,
    rejection sampling below 2**64 - (2**64 % n); (value, counter after)."""
    from hashlib import blake2b

    limit = 2**64 - 2**64 % n
    while True:
        counter += 1
        value = int.from_bytes(
            blake2b(counter.to_bytes(8, "big"), key=key, digest_size=8).digest(), "big"
        )
        if value < limit:
            return value % n, counter


def test_the_draws_are_the_defined_ones_with_the_limits_table_and_without():
    """Rng.below and Rng.shuffle read the rejection limit of n < 256 from a table (rng.py
    _LIMITS) and call the hash's methods as functions: the same numbers as the definition,
    for n in the table, at its edge and beyond it (computed), and the shuffle's draws."""
    rng = Rng.from_seed("defined")
    counter = 0
    for n in (2, 3, 7, 40, 255, 256, 257, 1000, 2**31 + 11, 2**63 + 5):
        want, counter = _defined_below(rng.key, counter, n)
        assert rng.below(n) == want and rng.counter == counter
    items = list(range(300))  # a shuffle draws n = 300 down to 2: both sides of the table
    expected = list(items)
    for i in range(len(expected) - 1, 0, -1):
        j, counter = _defined_below(rng.key, counter, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    rng.shuffle(items)
    assert items == expected and rng.counter == counter


def check_armoured(state):
    """ops.check_state skips the armour walk while its key stands still: every ship must
    then still have armour left (without the static abilities, which only add here)."""
    info = V.state_info(state)
    if ops.armour_kept(state, info):
        assert ops._all_armoured(state, info)
        assert all(
            V.armour_left(state, state.cards[c], ()) > 0 for p in state.players for c in p.hangar
        )


def check_kept(state, action=None, events=None):
    """The lists kept on the state between decisions, against recomputation."""
    check_armoured(state)
    check_marked(state)
    check_base_lists(state)
    check_candidates(state)
    check_attacks(state)


def check_attacks(state):
    """game._attacks_on (the last list kept while the id lists stay equal) equals the
    plain attack actions on those crew cards and bases, for both opponents."""
    _fit_tables(state.next_id)  # as main_actions does before it
    for opp in state.players:
        plain = [Action.make("attack", target="crew", card=c) for c in opp.canteen]
        plain += [Action.make("attack", target="base", card=c) for c in opp.surface]
        assert _attacks_on(opp.canteen, opp.surface) == plain


@pytest.mark.parametrize("seed", range(100, 120))
def test_kept_lists_match_their_recomputation(seed):
    """Rarer moves change them too (modify_stat, grant_keyword, heavy weapons, upgrades
    added or removed by effects and ability costs): more whole games (seed 116 uses heavy
    weapons)."""
    random_game(seed, on_step=check_kept)


def test_kept_base_lists_follow_an_ability_that_costs_upgrades():
    """Alagútrendszer's ability costs an upgrade (R 12.8): the kept base lists follow."""
    state = position(
        "kgk players=laci,dani turn=4 active=laci\nlaci credits=5\n"
        "laci colony: Rozsdafog*20\ndani colony: Pilótahal*20\n"
        "laci surface: Alagútrendszer (u1 b2), Mélyvár (u1)\nlaci hangar: Marduk Kurios"
    )
    base = N.find(state, "Alagútrendszer")
    check_main_list(state)  # the lists are kept from here
    assert _base_lists(state, 0)[1] == sorted([base, N.find(state, "Mélyvár")])
    do(state, "activate", card="Alagútrendszer", ability=0)
    pass_windows(state)
    assert state.cards[base].upgrades == 0
    check_base_lists(state)
    check_main_list(state)


def test_check_state_sees_an_armour_modifier_run_out():
    """check_state keeps "every ship has armour" while nothing it reads changes: a modifier
    running out (expire) is such a change (AMB-34: the ship at 0 armour is destroyed)."""
    state = position(
        "kgk players=laci,dani turn=4 active=laci\nlaci credits=5\n"
        "laci colony: Rozsdafog*20\ndani colony: Pilótahal*20\nlaci hangar: Marduk Kurios"
    )
    ship = state.cards[N.find(state, "Marduk Kurios")]
    ship.mods.append(["armour", 1, "until_end_of_combat", None])  # by hand, then noted:
    ship.damage = V.state_info(state).armour[ship.code]
    mark(state, ship)
    state.armour_epoch += 1
    ops.check_state(state, [])
    assert ship.zone == "hangar" and state.armoured is not None  # the modifier holds it
    R.expire(state, "until_end_of_combat")
    ops.check_state(state, [])
    assert ship.zone == "trash"


def test_a_cached_action_is_the_action_it_stands_for():
    """Action.cached builds new Actions as Action(kind, params) does: the same value."""
    made = Action.cached("cash", "a", 987_654, "b", 987_655)
    plain = Action("cash", (("a", 987_654), ("b", 987_655)))
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    assert made.id == plain.id == "cash:a=987654,b=987655"


def test_an_action_cannot_be_changed():
    """Actions are shared (Action.cached, the main phase's tables): assigning to one raises
    AttributeError on both builds, as the frozen dataclass it was did."""
    action = Action.cached("cash", "a", 987_654, "b", 987_655)
    with pytest.raises(AttributeError):
        action.kind = "upgrade"
    with pytest.raises(AttributeError):
        action.params = ()
    assert action.kind == "cash" and action.id == "cash:a=987654,b=987655"
