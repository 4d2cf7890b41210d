"""The search bot's knowledge (engine.search; docs/rulings.md, "The search bot's knowledge"):
what a seat may know of a game (``observe``) and the full games drawn from it
(``determinise``).

The bot decides from what its player may know, never from the true state:

* ``observe(state, seat)`` is its only input. It is a copy of the game in which every card
  the seat may not look at (R 3.1 "who may look", exactly the rule ``engine.view`` applies:
  every colony, another player's centre and wasteland, face-down cards of others) has lost
  its identity (code ``"?"``), the generator's secret key is replaced by a fixed one, and
  the frame stack is redacted where ``engine.view`` shows less (below). Beside it:

  - the seat's **own** colony list (it built its deck, R 9), as a multiset of codes: its own
    unseen cards (its colony, in any order) are that list less the cards it sees;
  - for **each opponent a prior**, never its list (docs/rulings.md, "The search bot's
    knowledge"): the races its cards seen so far show (public zones, trash, the chain,
    face-up cards in play), the copies of each name seen (R 9.2: they count against the
    three copies), and the card pool to sample the rest from: every card of the set (the
    first edition, ``engine.colonies.load_cards``, the files the catalogue is loaded from)
    whose race may still be in that colony (R 7.1 / R 9.3: no race opposing a race seen;
    the variants of R 9.5 widen it);
  - the definitions of the whole pool plus the codes the seat sees, so nothing in them
    depends on which cards the opponent really holds.

* A *determinisation* (one per rollout sample, one per ISMCTS iteration): the seat's own
  unseen cards get the codes of its list less what it sees, shuffled; each opponent's unseen cards (exactly as many as
  the view counts in each zone) get codes from a **deck-shaped prior**: first the missing
  copies of the names already seen (a colony holds 15 names three times over, as the
  generated colonies of engine.colonies and ordinary decks do: having seen a
  card, the best guess is that its other copies are there too), then new names three copies
  each, drawn from the pool of the races that colony may hold (a race not seen yet of each
  opposing pair chosen at random per determinisation, R 9.3), a ship name with probability
  0.4 (6 of 15 names, the shape of those colonies) and otherwise any other card, uniformly.
  Uniform over all legal codes was the alternative: it makes the opponent's colony hold 45
  different cards of eight possible races, a poorer guess of what is in its centre (ships
  are what the bot must plan against) at no gain in honesty. The codes are shuffled over
  the unseen cards, and the game gets a fresh generator (draws and shuffles are sampled too).

The frame stack: while another player picks among cards the seat cannot see, the options
offered to them are redacted where they depend on those cards' identities. The one such
pick of the engine is a filtered search of one's colony (``search_colony``: "look at the
top 5, take a ship"): its options become the whole top of that colony the search looks at,
the positions everyone knows, never which of them fit the filter. The other picks among
hidden cards offer whole piles or the top of a colony by position (discards from the
centre, M8's search, returning a pile, ordering the top), which is what a player sees
across the table; they stay as they are. ``engine.view`` shows such a pick as its prompt
and the picks left only. Unseen cards keep their instance ids (frames and actions name
cards by id); an id is fresh whenever a card enters or leaves a hidden zone or its pile is
shuffled (engine/state.py): it tells where the card lies and since when, never what it is.

Codes are dealt to unseen cards in the order of the piles they lie in, and the generator of
a decision is seeded from the bot's seed and the observation with each colony's ids sorted
(a shuffled colony's fresh ids follow its order; the cut after it, R 16.1, public but
meaningless, rotates them), so the same observation always gives the same decision (with
an iteration budget; a time budget stops earlier on a slow machine): two games that differ only in cards the seat cannot see give
the same decisions (tests/engine/test_search.py).

What the bot does not use that a person has: it keeps no memory between decisions, so
cards a look showed (R 16.4) and cards it saw enter the opponent's centre (returned from
the trash, say) are not remembered: it knows less than a person there, never more.
"""

import json
from collections import Counter
from hashlib import blake2b

from .catalog import RACE_PAIRS
from .colonies import load_cards
from .deck import MAX_COPIES_PER_NAME, name_key
from .main_actions import SEARCH_DEPTH
from .rng import Rng
from .serialize import dump, load
from .state import all_cards
from .view import sees

HIDDEN = "?"  # the code of a card whose identity the observer does not know
PILES = ("colony", "centre", "surface", "canteen", "hangar", "trash", "wasteland")
SHIP_SHARE = 0.4  # the prior's share of ship names among the unseen ones (6 of 15)

_POOL: list = []  # the card set, read once (engine.colonies.load_cards)


def card_pool() -> list:
    """The card set an opponent's unseen cards are sampled from: every first-edition card
    (the set files; the catalogue is loaded from them). Read once per process."""
    if not _POOL:
        _POOL.extend(load_cards())
    return _POOL


class Prior:
    """What the seat knows of one opponent's colony: the races its seen cards show and the
    copies of each name seen; the pool to sample its unseen cards from (see the module)."""

    __slots__ = ("fixed", "open", "refill", "ships", "others")

    def __init__(self, fixed, open_pairs, refill, ships, others):
        self.fixed = fixed  # races the colony holds (seen), sorted
        self.open = open_pairs  # [(race a, race b)]: one of them may be in the colony
        self.refill = refill  # codes: the missing copies of the names seen (sorted)
        self.ships = ships  # race -> [code] of ship names not seen (sorted)
        self.others = others  # race -> [code] of the other names not seen (sorted)


class Observation:
    """What `seat` may know of a game: the redacted state (as dump text), its own list and
    a prior per opponent."""

    __slots__ = ("seat", "text", "defs", "own", "unseen", "priors")

    def __init__(self, seat, text, defs, own, unseen, priors):
        self.seat = seat
        self.text = text  # dump of the redacted state (without the card definitions)
        self.defs = defs  # the pool's definitions and those of the codes the seat sees
        self.own = own  # Counter of the codes of the seat's own colony list (its deck)
        self.unseen = unseen  # Counter: the seat's own cards it cannot see (its colony)
        self.priors = priors  # opponent seat -> Prior


def observe(state, seat: int, pool=None) -> Observation:
    """The search bot's whole input: the game as `seat` may know it (see the module)."""
    if pool is None:
        pool = card_pool()
    redacted = load(dump(state))
    seen: list[Counter[str]] = [Counter() for _ in state.players]
    own: Counter[str] = Counter()
    defs = {d["code"]: d for d in pool}
    for card in all_cards(redacted):
        if card.owner == seat:
            own[card.code] += 1  # its own list: it built its deck
            defs[card.code] = state.defs[card.code]
        if sees(card, seat):
            seen[card.owner][card.code] += 1
            defs[card.code] = state.defs[card.code]
        else:
            card.code = HIDDEN
    _redact_stack(redacted, seat)
    redacted.rng = Rng.from_seed("observation")  # the secret key never reaches the bot
    redacted.defs = {}
    # in code order: a Counter keeps the order its codes were first counted, which follows
    # the true positions of the cards
    unseen = Counter(dict(sorted((own - seen[seat]).items())))
    own = Counter(dict(sorted(own.items())))
    race_rule = state.ruleset.race_rule
    priors = {
        other: _prior(seen[other], defs, pool, race_rule)
        for other in range(len(state.players))
        if other != seat
    }
    return Observation(seat, dump(redacted), defs, own, unseen, priors)


def _prior(seen: Counter, defs: dict, pool: list, race_rule: str) -> Prior:
    races = {defs[code].get("race") for code in seen} - {None}
    copies: Counter[str] = Counter()
    for code, n in seen.items():
        copies[name_key(defs[code]["name"])] += n
    refill = []
    for code in sorted(seen):  # one code per name seen (the first in code order)
        key = name_key(defs[code]["name"])
        left = MAX_COPIES_PER_NAME - copies[key]
        if left > 0:
            refill += [code] * left
            copies[key] = MAX_COPIES_PER_NAME
    if race_rule == "original":  # R 9.3: no race opposing one seen
        fixed: list[str] = []
        open_pairs: list[tuple[str, ...]] = []
        for a, b in RACE_PAIRS:
            inside = [r for r in (a, b) if r in races]
            if inside:
                fixed += inside
            else:
                open_pairs.append((a, b))
    else:  # R 9.5.2 / 9.5.3: any race may be there (max4: sampled up to four below)
        fixed = sorted(races)
        open_pairs = [(r,) for a, b in RACE_PAIRS for r in (a, b) if r not in races]
    ships: dict = {}
    others: dict = {}
    for d in sorted(pool, key=lambda d: d["code"]):
        if copies[name_key(d["name"])]:
            continue  # seen: its missing copies are in `refill`
        table = ships if d["type"] == "ship" else others
        table.setdefault(d.get("race"), []).append(d["code"])
    return Prior(sorted(fixed), open_pairs, refill, ships, others)


def _redact_stack(state, seat: int) -> None:
    """Options of another player's pick that depend on hidden identities (see the module)."""
    stack = state.stack
    for i, frame in enumerate(stack):
        if frame.get("kind") != "choice" or frame["player"] == seat or frame["prompt"] != "search":
            continue
        below = stack[i - 1] if i > 0 else {}
        depth = SEARCH_DEPTH
        if below.get("kind") == "effects":  # search_colony: a filter on the top `depth`
            depth = below["effects"][below["i"]].get("depth", SEARCH_DEPTH)
        colony = state.players[frame["player"]].colony
        frame["options"] = list(colony[:depth])


def _sample_opponent(prior: Prior, n: int, race_rule: str, rng: Rng) -> list:
    """`n` codes for an opponent's unseen cards from its prior (see the module)."""
    refill = list(prior.refill)
    if len(refill) >= n:
        rng.shuffle(refill)
        return refill[:n]
    races = list(prior.fixed)
    if race_rule == "original":
        races += [pair[rng.below(2)] for pair in prior.open]
    elif race_rule == "max4":
        extra = [pair[0] for pair in prior.open]
        rng.shuffle(extra)
        races += extra[: max(0, 4 - len(races))]
    else:
        races += [pair[0] for pair in prior.open]
    ships = [c for r in sorted(races) for c in prior.ships.get(r, ())] + list(
        prior.ships.get(None, ())
    )
    others = [c for r in sorted(races) for c in prior.others.get(r, ())] + list(
        prior.others.get(None, ())
    )
    out = refill
    while len(out) < n and (ships or others):
        pick_ship = ships and (not others or rng.below(10) < int(SHIP_SHARE * 10))
        names = ships if pick_ship else others
        code = names.pop(rng.below(len(names)))
        out += [code] * MAX_COPIES_PER_NAME
    while len(out) < n:  # a pool too small for the count (never with the real set)
        out.append(out[rng.below(len(out))] if out else prior.refill[0])
    rng.shuffle(out)
    return out[:n]


def determinise(obs: Observation, rng: Rng):
    """A full game consistent with the observation: the seat's own unseen cards get the codes
    of its list less what it sees; each opponent's get codes sampled from its prior; the
    game's generator is fresh."""
    state = load(obs.text)
    state.defs = obs.defs
    by_owner: dict[int, list] = {}
    for card in _by_position(state):
        if card.code == HIDDEN:
            by_owner.setdefault(card.owner, []).append(card)
    race_rule = state.ruleset.race_rule
    for owner in sorted(by_owner):
        cards = by_owner[owner]
        if owner == obs.seat:
            # sorted: a Counter's order is the order its codes were first counted, which
            # follows the true positions of the cards (the twins test caught that leak)
            pool = sorted(obs.unseen.elements())
            rng.shuffle(pool)  # the bot's generator
        else:
            pool = _sample_opponent(obs.priors[owner], len(cards), race_rule, rng)
        for card, code in zip(cards, pool, strict=False):
            card.code = code
    state.rng = Rng.from_seed(f"det:{rng.below(1 << 62)}")
    return state


def _by_position(state) -> list:
    """The cards in the order of the piles they lie in (seat, zone, position), then the rest
    (attached, on the chain) by id. Codes are dealt to unseen cards in this order, not by id:
    the ids of a shuffled colony are fresh in position order, and the cut after it (R 16.1, a
    public event) rotates them, so two games that differ only in a cut deal the same codes
    to the same positions."""
    order = []
    placed = set()
    for player in state.players:
        for zone in PILES:
            for cid in getattr(player, zone):
                order.append(state.cards[cid])
                placed.add(cid)
    order += [card for card in all_cards(state) if card.id not in placed]  # in id order
    return order


def observation_key(obs: Observation) -> str:
    """The key of the decision's generator: the observation, with each colony's ids in sorted
    order (their rotation says where the last cut was, R 16.1, public and meaningless), so
    the same position after another cut gets the same decision."""
    data = json.loads(obs.text)
    for player in data["players"]:
        player["colony"] = sorted(player["colony"])
    text = json.dumps(data, sort_keys=True)
    return blake2b(text.encode(), digest_size=16).hexdigest()
