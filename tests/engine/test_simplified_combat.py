"""The simplified combat system (R 17.2), a ruleset option: `Ruleset(simplified_combat=True)`."""

import pytest
from engine_kit import CARDS, card, decision, do, ids, pass_windows, position, random_game

from engine import values as V
from engine.deck import mentions_speed_or_return_fire
from engine.game import new_game
from engine.rng import Rng
from engine.ruleset import Ruleset

LACI, DANI = 0, 1
SIMPLE = Ruleset(simplified_combat=True)

DUEL = """
kgk players=laci,dani turn=4 active=laci
laci colony: Rozsdafog*10
laci hangar: Mamut I.
dani colony: Rozsdafog*10
dani hangar: Halálszárny, Pilótahal
"""


def to_firing(state):
    do(state, "attack", target="colony")
    pass_windows(state)
    do(state, "choose", value="Mamut I.")
    do(state, "choose", value="Halálszárny")
    do(state, "choose", value="Pilótahal")
    pass_windows(state)


def test_r17_2_2_the_attacker_fires_first_whatever_the_speed():
    """R 17.2.2: speed is ignored; the attacker fires first (normally the speed-5 defenders
    would act before the speed-2 Mamut I., R 11.4.4.2)."""
    normal = position(DUEL)
    to_firing(normal)
    assert decision(normal) == (DANI, "fire")
    state = position(DUEL, ruleset=SIMPLE)
    to_firing(state)
    assert decision(state) == (LACI, "fire")


def test_r17_2_2_no_returning_fire():
    """R 17.2.2: the target is never offered return fire (the normal system asks, R
    11.4.4.6.2)."""
    normal = position(DUEL)
    to_firing(normal)
    do(normal, "fire", ship="Halálszárny", target="Mamut I.")
    assert decision(normal) == (LACI, "return_fire")
    assert ids(normal, "return_fire") == ["return_fire"]
    state = position(DUEL, ruleset=SIMPLE)
    to_firing(state)
    do(state, "fire", ship="Mamut I.", target="Pilótahal")
    assert decision(state) != (DANI, "return_fire")
    assert ids(state, "return_fire") == []
    assert card(state, "Pilótahal").orientation == "active"  # it did not fire back


def test_r17_2_2_killed_ships_still_fire_and_leave_at_the_end_of_the_firing_step():
    """R 17.2.2: players alternate, attacker first; Halálszárny, reduced to 0 armour by
    Mamut I., stays until the end of the firing step and still deals its damage; then it
    goes to the trash and the hit Mamut I. turns damaged (R 17.2.4 -> R 11.4.4.8)."""
    state = position(DUEL, ruleset=SIMPLE)
    to_firing(state)
    do(state, "fire", ship="Mamut I.", target="Halálszárny")
    pass_windows(state)
    halal = card(state, "Halálszárny")
    assert halal.zone == "hangar" and V.armour_left(state, halal) == 0  # "killed", not gone
    assert decision(state) == (DANI, "fire")  # alternation: now the defender
    do(state, "fire", ship="Halálszárny", target="Mamut I.")
    pass_windows(state)
    assert decision(state) == (DANI, "fire")  # Laci has no active ship left: Dani goes on
    do(state, "fire", ship="Pilótahal", target="Mamut I.")
    pass_windows(state)
    mamut = card(state, "Mamut I.")
    assert halal.zone == "trash"
    assert card(state, "Pilótahal").zone == "hangar"
    assert mamut.zone == "hangar" and V.armour_left(state, mamut) == 1  # 3 - 1 - 1
    assert mamut.orientation == "damaged"


def test_r17_2_3_decks_with_speed_or_return_fire_cards_are_refused():
    """R 17.2.3 / R 9.5.4: new_game checks the colonies against the simplified ban."""
    banned = next(c for c in CARDS if mentions_speed_or_return_fire(c))
    colony = random_colonies(Rng.from_seed("ban"), [banned["race"]])[0]
    if banned not in colony:
        colony = [banned] * 3 + colony[3:]
    with pytest.raises(ValueError, match="SIMPLIFIED_COMBAT_CARD"):
        new_game([colony, colony], "ban", SIMPLE)
    new_game([colony, colony], "ban")  # legal under the normal system


def random_colonies(rng, must=()):
    """Two legal 45-card colonies without any card the simplified system bans."""
    from engine.catalog import RACE_PAIRS

    out = []
    for _ in range(2):
        races = [pair[rng.below(2)] for pair in RACE_PAIRS]
        for race in must:
            for i, pair in enumerate(RACE_PAIRS):
                if race in pair:
                    races[i] = race
        pool = [c for c in CARDS if c["race"] in races and not mentions_speed_or_return_fire(c)]
        ships = [c for c in pool if c["type"] == "ship"]
        rest = [c for c in pool if c["type"] != "ship"]
        rng.shuffle(ships)
        rng.shuffle(rest)
        out.append([c for c in ships[:6] + rest[:9] for _ in range(3)])
    return out


@pytest.mark.parametrize("seed", range(12))
def test_r17_2_4_random_simplified_games_finish(seed):
    """R 17.2.4: everything else follows the normal rules; random games run to the end."""
    colonies = random_colonies(Rng.from_seed(f"simple-{seed}"))
    state, log = random_game(f"simple-{seed}", colonies=colonies, ruleset=SIMPLE)
    assert state.winner is not None and state.result == "colony"
    assert len(log) > 50
