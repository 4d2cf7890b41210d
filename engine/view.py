"""The one projection of a game for a player or a spectator (R 16, DESIGN.md).

``view(state, viewer)`` is the only way game state should leave the server:
``viewer`` is a seat (any seat of a multiplayer table) or ``None`` for a spectator; what
is hidden is hidden between every pair of players (R 16.2, R 17.1.5). It never contains
the opponent's centre, face-down identities the viewer may not see, any
colony's order or contents, or the generator's seed. A face-down card in play
appears as ``{id, face_down, owner, zone}`` plus its public counters. A hidden
pile the viewer may not look at (another player's centre or wasteland) is only
its count: its key is ``None`` and ``counts`` has the number (R 3.13), so no id of
a card in it reaches the viewer and nobody can follow a card they know (returned,
taken back from the trash, seen in a look) into a face-down slot (R 6.10, R 16.2,
R 16.4 / AMB-53; docs/rulings.md). ``view_events`` projects the events ``apply``
returned in the same way.
"""

from . import values as V
from .game import legal_actions, pending
from .ops import public
from .state import GameState, get_card, neighbours


def _sees(card, viewer) -> bool:
    """R 3.1 "who may look": public cards; one's own centre, wasteland and face-down cards."""
    if public(card):
        return True
    if viewer is None or card.owner != viewer:
        return False
    return card.zone != "colony"


sees = _sees  # the same rule for engine.observation's (one home for "who may look")


def card_view(state: GameState, card, viewer) -> dict:
    if not _sees(card, viewer):
        out = {"id": card.id, "face_down": True, "owner": card.owner, "zone": card.zone}
        if card.zone in ("surface", "canteen", "hangar"):
            out.update(orientation=card.orientation, upgrades=card.upgrades, slot=card.slot)
        return out
    d = state.defs[card.code]
    out = {
        "id": card.id,
        "code": card.code,
        "name": d["name"],
        "name_en": d.get("name_en"),
        "type": d["type"],
        "subtype": d["subtype"],
        "owner": card.owner,
        "controller": card.controller,
        "zone": card.zone,
        "face_down": not card.face_up,
    }
    if card.zone in ("surface", "canteen", "hangar"):
        out.update(
            paid=card.paid,
            orientation=card.orientation,
            slot=card.slot,
            upgrades=card.upgrades,
            damage=card.damage,
        )
        if card.slot == "ship":
            out["stats"] = {
                "speed": V.stat(state, card, "speed"),
                "firepower": V.stat(state, card, "firepower"),
                "armour": V.armour_left(state, card),
                "full_armour": V.stat(state, card, "armour"),
                "bombardment": V.stat(state, card, "bombardment"),
            }
            out["keywords"] = sorted(V.keywords(state, card))
            out["hit"] = card.hit
        if card.slot == "base" and card.paid:
            out["armour"] = V.armour_left(state, card)
    return out


def _ship(state, card, viewer) -> dict:
    out = card_view(state, card, viewer)
    out["attachments"] = [card_view(state, state.cards[a], viewer) for a in card.attachments]
    return out


def _pile(state, player, zone, viewer) -> list | None:
    """A hidden pile: its cards for its owner, None (only the count) for anyone else."""
    if viewer is None or viewer != player.seat:
        return None
    cards = state.cards
    return [card_view(state, cards[c], viewer) for c in player.zone(zone)]


def view(state: GameState, viewer: int | None) -> dict:
    if viewer is not None and viewer not in range(len(state.players)):
        raise ValueError("viewer must be a seat or None")
    players = []
    for p in state.players:
        cards = state.cards
        players.append(
            {
                "seat": p.seat,
                "name": p.name,
                "credits": p.credits,
                "mulligan_used": p.mulligan_used,
                # R 3.13: every count is public
                "counts": {z: len(p.zone(z)) for z in ("colony", "centre", "trash", "wasteland")},
                "centre": _pile(state, p, "centre", viewer),
                "surface": [card_view(state, cards[c], viewer) for c in p.surface],
                "canteen": [card_view(state, cards[c], viewer) for c in p.canteen],
                "hangar": [_ship(state, cards[c], viewer) for c in p.hangar],
                "hangar_size": V.hangar_total(state, p.seat),
                "trash": [card_view(state, cards[c], viewer) for c in p.trash],
                "wasteland": _pile(state, p, "wasteland", viewer),
            }
        )
    out = {
        "viewer": viewer,
        "turn": state.turn,
        "active": state.active,
        "starting_player": state.starting_player,
        "phase": state.phase,
        "winner": state.winner,
        "result": state.result,
        "players": players,
        "chain": [_entry(state, e, viewer) for e in state.chain],
        "combat": _combat(state, viewer),
        "pending": None,
    }
    if state.table is not None:  # multiplayer only: a two-player view is as it was
        out["table"] = _table(state)
    waiting = pending(state)
    if waiting is not None:
        out["pending"] = {
            "player": waiting.player,
            "decision": waiting.decision,
            "info": waiting.info,
        }
        if viewer == waiting.player:
            out["actions"] = [a.to_dict() for a in legal_actions(state)]
    return out


def _table(state) -> dict:
    """The public facts of a multiplayer table (R 17.1): who is out, who eliminated whom,
    each seat's eliminations and neighbours, and the ranking once the game is over."""
    table = state.table
    return {
        "seats": len(state.players),
        "out": list(table["out"]),
        "eliminated": [dict(r) for r in table["eliminated"]],
        "eliminations": list(table["eliminations"]),
        # by seat; None for a seat that is out (R 17.1.2: whom each may attack)
        "neighbours": [
            None if seat in table["out"] else neighbours(state, seat)
            for seat in range(len(state.players))
        ],
        "ranking": None if table["ranking"] is None else list(table["ranking"]),
    }


def _entry(state, entry, viewer) -> dict:
    out = {
        "eid": entry["eid"],
        "kind": entry["kind"],
        "code": entry["code"],
        "name": state.defs[entry["code"]]["name"],
        "player": entry["ctrl"],
        "cost": entry["cost"],
        "targets": entry["targets"],
        "modes": entry["modes"],
    }
    if entry["kind"] == "ability":
        out["source"] = entry["source"]
    if "opp" in entry:
        out["opponent"] = entry["opp"]  # the neighbour its user chose (R 17.1.3)
    return out


def _combat(state, viewer):
    combat = state.combat
    if combat is None:
        return None
    target = dict(combat["target"])
    if target["card"] is not None:
        card = get_card(state, target["card"])
        target["card"] = card_view(state, card, viewer) if card is not None else None
    return {
        "attacker": combat["attacker"],
        "defender": combat["defender"],
        "target": target,
        "attackers": list(combat["attackers"]),
        "defenders": list(combat["defenders"]),
        "bombers": list(combat["bombers"]),
        "step": combat["step"],
    }


def view_event(event, viewer) -> dict:
    out = {"kind": event.kind, **event.data}
    if event.secret and viewer is not None and viewer in event.to:
        out["secret"] = event.secret
    return out


def view_events(events, viewer) -> list:
    return [view_event(e, viewer) for e in events]


__all__ = ["view", "view_event", "view_events", "card_view"]
