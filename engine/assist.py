"""What a person need not be asked, and what to suggest (issue 34: "a person decides only
what is theirs to decide").

Two read-only helpers over the rules; neither changes the game (the site decides whether
to apply what they say, matches/services.py):

- ``forced_action(state)``: the one meaningful answer to the decision now, or None. A
  decision has one when it has exactly one legal action, or when every legal action names
  the same thing up to *which of identical copies* (same card, same state, nothing in the
  combat, the chain or the frames points at either copy). Never an answer picked among
  meaningfully different ones.
- ``suggestion(state)``: the heuristic bot's choice for the deciding seat in a combat
  decision, with the same seat's following choices of that same decision (e.g. every
  attacker, then "done"), played forward on a copy. The heuristic bot reads only what its
  seat may know (engine/bots.py), so the suggestion tells the person nothing hidden.

``PUBLIC_DECISIONS``: decisions whose legal actions follow from public information alone
(ships, crew and bases in play, credits): whether such a decision is forced is something
every player can see. Any other decision (a response window, the main phase, a discard)
may be forced only because of the cards in a hand; see docs/matches-api.md for when the
site takes those.
"""

from typing import Final

from .basic_bots import HeuristicBot
from .game import apply, legal_actions, pending
from .serialize import clone

# combat decisions (R 11.4): who attacks / defends / boards, payments, shots, return fire,
# bombers, the damage of a burst, the trap of a bombarded base
PUBLIC_DECISIONS: Final = frozenset(
    {
        "attackers",
        "defenders",
        "board",
        "payments",
        "fire",
        "return_fire",
        "burst_return_fire",
        "bombers",
        "distribute",
        "trap",
    }
)
# suggested decisions whose next step is the same seat's same decision (a list built pick by
# pick): the suggestion runs on to its end, so one click takes the whole list
CHAINED: Final = frozenset({"attackers", "defenders", "board", "payments", "bombers", "distribute"})
SUGGESTED: Final = PUBLIC_DECISIONS
MAX_CHAIN: Final = 12

_CARD_PARAMS: Final = ("card", "ship", "target", "value", "a", "b")
_HIDDEN_ORDER: Final = frozenset({"colony"})  # a pile whose order matters: no copy is like another


def _ints(node, out: set) -> None:
    """Every int in a JSON-like tree (the card ids a frame, the combat or the chain names)."""
    if isinstance(node, bool):
        return
    if isinstance(node, int):
        out.add(node)
    elif isinstance(node, dict):
        for value in node.values():
            _ints(value, out)
    elif isinstance(node, (list, tuple)):
        for value in node:
            _ints(value, out)


def _referenced(state) -> set:
    """Ids the rules hold on to now (combat, chain, frames): such a card is never "just a
    copy" of another, whatever its fields say."""
    out: set = set()
    _ints(state.combat, out)
    _ints(state.chain, out)
    for frame in state.stack:
        _ints({k: v for k, v in frame.items() if k != "await"}, out)
    return out


def _copy_key(state, cid: int, referenced: set):
    """What a card is to the decision: its printed card and every field of its state, or
    its own id when it may not be told apart by those alone."""
    if cid < 0 or cid >= len(state.cards):
        return ("id", cid)
    card = state.cards[cid]
    if card is None or cid in referenced or card.zone in _HIDDEN_ORDER:
        return ("id", cid)
    if card.attachments or card.attached_to is not None or card.mods or card.grants:
        return ("id", cid)
    return (
        "copy",
        card.code,
        card.owner,
        card.controller,
        card.zone,
        card.face_up,
        card.paid,
        card.orientation,
        card.damage,
        card.upgrades,
        card.bought,
        card.slot,
        card.boarded,
        card.hit,
        card.x,
    )


def _meaning(state, action, referenced: set):
    params = []
    for key, value in action.params:
        if key in _CARD_PARAMS and isinstance(value, int) and not isinstance(value, bool):
            params.append((key, _copy_key(state, value, referenced)))
        else:
            params.append((key, value))
    return (action.kind, tuple(params))


def forced_action(state):
    """The decision's one meaningful answer (an Action of ``legal_actions``), or None."""
    actions = legal_actions(state)
    if not actions:
        return None
    if len(actions) == 1:
        return actions[0]
    referenced = _referenced(state)
    first = _meaning(state, actions[0], referenced)
    for action in actions[1:]:
        if _meaning(state, action, referenced) != first:
            return None
    return actions[0]  # interchangeable copies: the first is as good as any


def suggestion(state, seed="") -> list:
    """The heuristic bot's answer for the deciding seat, as a list of Actions: one, or for a
    list built pick by pick (``CHAINED``) every pick to the end of that decision, while the
    same seat keeps deciding it. Empty when the decision is not a suggested one."""
    waiting = pending(state)
    if waiting is None or waiting.decision not in SUGGESTED:
        return []
    seat, decision = waiting.player, waiting.decision
    bot = HeuristicBot(seed=f"suggest:{seed}")
    first = bot.choose(state, seat)
    if decision not in CHAINED:
        return [first]
    out = [first]
    copy = clone(state)
    action = first
    while len(out) < MAX_CHAIN:
        apply(copy, action)
        now = pending(copy)
        if now is None or now.player != seat or now.decision != decision:
            break
        action = bot.choose(copy, seat)
        out.append(action)
    return out


__all__ = ["PUBLIC_DECISIONS", "forced_action", "suggestion"]
