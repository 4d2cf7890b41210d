"""The multiplayer table (R 17.1, AMB-44, AMB-54): three to six colonies in a circle.

A two-player game never comes here (``state.table`` is None): its rules (R 10.6, 10.7,
15.1) stay in engine.game. At a multiplayer table

- turns pass clockwise and eliminated seats are skipped (engine.state's seat helpers);
- nobody attacks in their own first turn, income is 5 from the first turn on (R 17.1.4);
- a player attacks one of their two neighbours (R 17.1.2), the action names whom;
- "the opponent" of a card is a neighbour its user chooses (R 17.1.3, `opponent_choices`);
- at the end of each end phase the active player eliminates every neighbour whose colony
  is empty (AMB-44); the game ends when one player is left, ranked by R 17.1.6.
"""

from typing import Any, Final

from . import ops
from .flow import answer, ask, clear_answers, emit
from .state import CardInstance, GameState, live_seats, neighbours

# --- turns and attacks (R 17.1.2, R 17.1.4) ------------------------------------------------


def first_turn(state: GameState, seat: int) -> bool:
    """Is this `seat`'s own first turn (no attack then: R 10.7, R 17.1.4)? Two players:
    only game turn 1 (the starting player's); the other player may attack in turn 2."""
    if state.table is None:
        return state.turn == 1
    return state.table["turns"][seat] <= 1


def defenders(state: GameState, seat: int) -> list:
    """Whom `seat` may attack: its neighbours still in the game (R 17.1.2)."""
    return neighbours(state, seat)


# --- "the opponent" of a card (R 17.1.3) ----------------------------------------------------


def combat_foe(state: GameState, seat: int) -> int | None:
    """The other side of the current combat, if `seat` is one side and the ruleset reads
    "the opponent" of a combatant's card as the player it is fighting (docs/rulings.md)."""
    combat = state.combat
    if combat is None or state.ruleset.combat_opponent != "combatant":
        return None
    if seat == combat["attacker"]:
        return combat["defender"]
    if seat == combat["defender"]:
        return combat["attacker"]
    return None


def opponent_choices(state: GameState, seat: int) -> list:
    """The seats the user of a card may mean by "the opponent" now (R 17.1.3): the combat
    foe inside a combat, otherwise either neighbour."""
    foe = combat_foe(state, seat)
    return [foe] if foe is not None else neighbours(state, seat)


_OPPONENT_WORDS: Final = ("owner", "player", "chooser", "by")


def mentions_opponent(effects) -> bool:
    """Does this effect list name "the opponent" anywhere (targets, players, amounts such as
    "for each enemy ship", choose_one options)? attack_surcharge names it by default;
    taking control of a ship is the one Python effect that does (executors._gain_control)."""
    for eff in effects:
        if eff.get("effect") == "attack_surcharge" and eff.get("player", "opponent") == "opponent":
            return True
        if eff.get("effect") == "python" and eff.get("function") == "gain_control_of_ship":
            return True
        if _names_opponent(eff):
            return True
    return False


def _names_opponent(node) -> bool:
    if isinstance(node, list):
        return any(_names_opponent(item) for item in node)
    if isinstance(node, dict):
        for key, value in node.items():
            if key in _OPPONENT_WORDS and value == "opponent":
                return True
            if isinstance(value, dict | list) and _names_opponent(value):
                return True
    return False


def ability_mentions_opponent(ability: dict) -> bool:
    cond = ability.get("condition") or {}
    return mentions_opponent(ability["effects"]) or cond.get("player") == "opponent"


# --- elimination and ranking (AMB-44, R 17.1.6) -------------------------------------------


def eliminate_neighbours(state: GameState, seat: int, ev: list) -> None:
    """AMB-44: at the end of `seat`'s end phase every neighbour whose colony is empty is
    eliminated, credited to `seat`. With ``elimination_repeat`` the new neighbours are
    checked again at once; by default they wait for the next end phase."""
    while True:
        doomed = [s for s in neighbours(state, seat) if s != seat and not state.players[s].colony]
        for out in doomed:
            eliminate(state, out, seat, ev)
        if not doomed or len(live_seats(state)) <= 1 or not state.ruleset.elimination_repeat:
            break
    if len(live_seats(state)) <= 1:
        finish(state, ev)


def eliminate(state: GameState, seat: int, by: int, ev: list) -> None:
    """`seat` leaves the game: it takes no more turns, answers no window, and its cards
    leave play (paid ones to its trash, the rest face down to its wasteland, R 14.1), so no
    effect of a player out of the game goes on. Its piles stay (every card stays counted)."""
    table: Any = state.table
    table["out"].append(seat)
    table["eliminated"].append({"seat": seat, "by": by, "turn": state.turn})
    table["eliminations"][by] += 1
    emit(ev, "eliminated", player=seat, by=by, turn=state.turn)
    player = state.players[seat]
    for cid in list(player.hangar) + list(player.surface) + list(player.canteen):
        card = state.cards[cid]
        for aid in list(card.attachments):
            _off_the_table(state, state.cards[aid], ev)
        _off_the_table(state, card, ev)
    state.armour_epoch += 1


def _off_the_table(state: GameState, card: CardInstance, ev: list) -> None:
    """A card of an eliminated player leaves play as a destroyed card would (R 14.1), but
    without its on_destroyed abilities: its player is no longer in the game."""
    if card.paid:
        ops.relocate(state, card, "trash", ev, "eliminated", face_up=True)
    else:
        ops.relocate(state, card, "wasteland", ev, "eliminated")


def ranking(state: GameState) -> list:
    """R 17.1.6 / AMB-44: most eliminations first; on a tie, who stayed longer (a player
    still in beats everyone out; the later eliminated beats the earlier). Players out at
    the same moment with as many eliminations: the one who would have played sooner,
    clockwise from the eliminating player, ranks higher (docs/rulings.md)."""
    table: Any = state.table
    n = len(state.players)
    left = {}  # seat -> (turn out, clockwise distance from its eliminator, negated)
    for record in table["eliminated"]:
        distance = (record["seat"] - record["by"]) % n
        left[record["seat"]] = (record["turn"], -distance)
    never = (float("inf"), 0)
    return sorted(
        range(n),
        key=lambda s: (table["eliminations"][s], left.get(s, never)),
        reverse=True,
    )


def finish(state: GameState, ev: list) -> None:
    """One player is left: the game is over; the winner heads the ranking (R 17.1.6)."""
    order = ranking(state)
    state.table["ranking"] = order  # type: ignore[index]
    state.winner = order[0]
    state.result = "elimination"
    state.phase = "over"
    state.stack.clear()
    emit(ev, "game_over", winner=order[0], reason="elimination", ranking=order)


__all__ = [
    "ability_mentions_opponent",
    "combat_foe",
    "defenders",
    "eliminate",
    "eliminate_neighbours",
    "finish",
    "first_turn",
    "mentions_opponent",
    "opponent_choices",
    "ranking",
]


def settle_opponent(state: GameState, frame: dict, holder: dict, ctrl: int, options, code) -> bool:
    """R 17.1.3: "the opponent" of what `holder` resolves is the neighbour `ctrl` picks out of
    `options` (nothing to ask when there is one). False after asking."""
    picked = answer(frame, "opp")
    if picked is not None:
        clear_answers(frame)
        holder["opp"] = picked[0]
        return True
    if len(options) == 1:
        holder["opp"] = options[0]
        return True
    ask(state, ctrl, "opponent", options, "opp", info={"card": code})
    return False
