"""A compact text notation for positions, so a rule test reads like the rulebook.

python-chess's FEN is the model: one text describes a whole position at a
decision point (here: the active player's main phase). It is omniscient (it
names face-down cards), so it is for tests, tools and judges, never for a
client (clients get ``engine.view``). Example (R 20 EX-2)::

    kgk players=laci,dani turn=4 active=laci
    laci credits=7
    laci colony: Rozsdafog*40
    laci centre: Tüzér
    laci surface: Aknagyűrű (down u2)
    laci hangar: Marduk Kurios
    dani credits=3
    dani colony: Rozsdafog*40
    dani surface: Chazma töltet (down)

Lines: a header ``kgk key=value ...`` (``players``, ``turn``, ``active``,
``start``, ``seed``); ``<player> credits=N [mulligan=used]``; ``<player>
<zone>: card, card, ...`` for the zones of R 3.1. A card is its name (or code),
``*N`` for N copies, flags in parentheses and, for a ship, its armaments and
crew in brackets: ``Marduk Kurios (used dmg1) [Tüzér (down), Páncéllemez]``.
Flags: ``down`` (face down, unpaid), ``used``, ``damaged``, ``uN`` (upgrades),
``bN`` (upgrades bought this turn), ``dmgN`` (damage), ``xN`` (locked X). Colony
lists are top first; trash and wasteland bottom first.

Three to six ``players`` make a multiplayer table (R 17.1), seated clockwise in the
order named; each seat is taken to have begun the turns a clockwise round from the
starting player gives it by ``turn`` (so ``turn=4`` with three players: the starting
player is in their second turn, everyone else has had one; R 17.1.4).
"""

from . import values as V
from .actions import SCHEMA, Action, parse_action
from .game import Pending, pending  # noqa: F401  (re-exported for tests)
from .rng import Rng
from .ruleset import DEFAULT, Ruleset
from .state import CardInstance, CardTable, GameState, PlayerState, new_id, new_table

ZONE_ORDER = ("colony", "centre", "surface", "canteen", "hangar", "trash", "wasteland")


def _split(text: str) -> list:
    """Split on commas outside brackets and parentheses."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def _card_index(cards) -> dict:
    index = {}
    for d in cards:
        index[d["name"]] = d
        index[d["code"]] = d
    return index


def _parse_item(item: str):
    """-> (name, count, flags, attachments text)"""
    attachments = ""
    if item.endswith("]"):
        start = item.index("[")
        attachments = item[start + 1 : -1]
        item = item[:start].strip()
    flags = []
    if item.endswith(")"):
        start = item.rindex("(")
        flags = item[start + 1 : -1].split()
        item = item[:start].strip()
    count = 1
    if "*" in item:
        item, _, n = item.rpartition("*")
        count = int(n)
        item = item.strip()
    return item, count, flags, attachments


def parse(text: str, cards, ruleset: Ruleset = DEFAULT) -> GameState:
    """A position in the active player's main phase, ready for `apply`."""
    index = _card_index(cards)
    header = {}
    body = []
    for raw in text.strip().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("kgk"):
            for token in line.split()[1:]:
                key, _, value = token.partition("=")
                header[key] = value
        else:
            body.append(line)
    names = header.get("players", "p1,p2").split(",")
    seat_of = {n: i for i, n in enumerate(names)}
    state = GameState(
        ruleset=ruleset,
        defs={},
        players=[PlayerState(seat, name) for seat, name in enumerate(names)],
        cards=CardTable(),
        rng=Rng.from_seed(header.get("seed", "notation")),
        table=new_table(len(names)) if len(names) > 2 else None,
    )
    state.turn = int(header.get("turn", 3))
    state.active = seat_of[header.get("active", names[0])]
    if "start" in header:
        state.starting_player = seat_of[header["start"]]
    else:
        state.starting_player = (state.active - state.turn + 1) % len(state.players)
    if state.table is not None:
        n = len(names)
        for seat in range(n):  # turns begun going round clockwise from the starting player
            distance = (seat - state.starting_player) % n
            state.table["turns"][seat] = max(0, -(-(state.turn - distance) // n))
    for p in state.players:
        p.mulligan_used = True  # the opening is over
    for line in body:
        who, _, rest = line.partition(" ")
        seat = seat_of[who]
        player = state.players[seat]
        if ":" not in rest:
            for token in rest.split():
                key, _, value = token.partition("=")
                if key == "credits":
                    player.credits = int(value)
                elif key == "mulligan":
                    player.mulligan_used = value == "used"
                else:
                    raise ValueError(f"unknown player field {key!r}")
            continue
        zone, _, items = rest.partition(":")
        zone = zone.strip()
        if zone not in ZONE_ORDER:
            raise ValueError(f"unknown zone {zone!r}")
        for item in _split(items):
            _add(state, index, seat, zone, item, None)
    state.phase = "main"
    state.stack = [
        {"kind": "turns"},
        {"kind": "turn", "step": "main", "await": {"player": state.active, "decision": "main"}},
    ]
    return state


def _add(state, index, seat, zone, item, ship):
    name, count, flags, attachments = _parse_item(item)
    if name not in index:
        raise ValueError(f"unknown card {name!r}")
    d = index[name]
    state.defs[d["code"]] = d
    for _ in range(count):
        card = CardInstance(
            id=new_id(state), code=d["code"], owner=seat, controller=seat, zone=zone
        )
        state.cards.add(card)
        in_play = zone in ("surface", "canteen", "hangar")
        card.face_up = zone in ("trash",) or (in_play and "down" not in flags)
        card.paid = in_play and "down" not in flags
        if in_play:
            card.slot = {"surface": "base", "canteen": "crew"}.get(zone, "ship")
        for flag in flags:
            if flag in ("used", "damaged"):
                card.orientation = flag
            elif flag.startswith("dmg"):
                card.damage = int(flag[3:])
            elif flag.startswith("u"):
                card.upgrades = int(flag[1:])
            elif flag.startswith("b"):
                card.bought = int(flag[1:])
            elif flag.startswith("x"):
                card.x = int(flag[1:])
            elif flag != "down":
                raise ValueError(f"unknown flag {flag!r}")
        if ship is not None:
            card.zone = "hangar"
            card.attached_to = ship.id
            card.slot = "armament" if d["type"] != "crew" else "crew"
            card.boarded = d["type"] == "crew"
            ship.attachments.append(card.id)
            continue
        state.players[seat].zone(zone).append(card.id)
        for sub in _split(attachments):
            if zone != "hangar":
                raise ValueError("only ships carry cards")
            _add(state, index, seat, "hangar", sub, card)


def _flags(card: CardInstance) -> str:
    out = []
    if card.zone in ("surface", "canteen", "hangar") and not card.paid:
        out.append("down")
    if card.orientation != "active":
        out.append(card.orientation)
    if card.upgrades:
        out.append(f"u{card.upgrades}")
    if card.bought:
        out.append(f"b{card.bought}")
    if card.damage:
        out.append(f"dmg{card.damage}")
    if card.x is not None:
        out.append(f"x{card.x}")
    return f" ({' '.join(out)})" if out else ""


def _item(state, card) -> str:
    text = state.defs[card.code]["name"] + _flags(card)
    if card.attachments:
        text += " [" + ", ".join(_item(state, state.cards[a]) for a in card.attachments) + "]"
    return text


def _compress(items: list) -> list:
    out = []
    for item in items:
        if out and out[-1][0] == item:
            out[-1][1] += 1
        else:
            out.append([item, 1])
    return [f"{i}*{n}" if n > 1 else i for i, n in out]


def to_text(state: GameState) -> str:
    """The omniscient notation of a position (never send it to a client)."""
    names = [p.name for p in state.players]
    lines = [
        f"kgk players={','.join(names)} turn={state.turn} active={names[state.active]} "
        f"start={names[state.starting_player]}"
    ]
    for player in state.players:
        extra = " mulligan=used" if player.mulligan_used else ""
        lines.append(f"{player.name} credits={player.credits}{extra}")
        for zone in ZONE_ORDER:
            ids = player.zone(zone)
            if ids:
                items = [_item(state, state.cards[c]) for c in ids]
                lines.append(f"{player.name} {zone}: {', '.join(_compress(items))}")
    return "\n".join(lines)


# --- names instead of ids (tests and tools) ----------------------------------------------


def find(state: GameState, name: str, seat: int | None = None, zone: str | None = None) -> int:
    """The id of the unique card called `name` (optionally of `seat`, in `zone`)."""
    found = [
        c.id
        for c in state.cards.values()
        if state.defs[c.code]["name"] == name
        and (seat is None or c.owner == seat)
        and (zone is None or c.zone == zone)
    ]
    if len(found) != 1:
        raise LookupError(f"{len(found)} cards called {name!r}")
    return found[0]


def action(state: GameState, kind: str, **params) -> Action:
    """An Action whose card parameters may be given by name (resolved omnisciently)."""
    seat = None
    p = pending(state)
    if p is not None:
        seat = p.player
    resolved = {}
    for key, value in params.items():
        expected = SCHEMA.get(kind, {}).get(key, (str,))[0]
        if key == "player" and isinstance(value, str):  # a seat, by the player's name
            value = [p.name for p in state.players].index(value)
        elif isinstance(value, str) and expected is int:
            try:
                value = find(state, value)
            except LookupError:
                value = find(state, value, seat=seat)
        resolved[key] = value
    return parse_action({"kind": kind, **resolved})


def stats(state: GameState, name: str) -> str:
    """SPD-FP-ARM-BMB of a ship as now (armour = current armour, R 5.4.1)."""
    card = state.cards[find(state, name)]
    spd, fp, bmb = (V.stat(state, card, s) for s in ("speed", "firepower", "bombardment"))
    return f"{spd}-{fp}-{V.armour_left(state, card)}-{bmb}"
