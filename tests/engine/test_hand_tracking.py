"""Issue 11 item 9 (R 6.10, R 16.2, R 16.4 / AMB-53): a card another player knows -- returned
to the centre by an effect, taken back from the public trash, or seen in a look -- cannot be
followed by id into a face-down slot, so nobody learns what a bluff base or a face-down
armament really is.

`Watcher` is the adversary: it reads only one viewer's `view` and `view_events`, remembers
every id it has seen with a card's identity, and links ids the way a client could: a move
event's ``was`` (the id a card had in play), and one known id vanishing from its listing of
another player's cards in the same step as exactly one new face-down id appears. Knowing a
face-down card by an id seen on that very card (a look at it, R 16.4) is allowed; knowing it
through a link across a change of zone is the leak.
"""

from engine_kit import Watcher, do, position

from engine.game import apply, legal_actions, pending
from engine.view import view, view_events

LACI, DANI = 0, 1


def step(state, watchers, action):
    events = apply(state, action)
    for w in watchers:
        w.observe(state, events)
    return events


def to_main_phase(state, seat, watchers):
    """Pass windows and end turns (first legal choice elsewhere) until `seat`'s main phase."""
    for _ in range(80):
        p = pending(state)
        if p.decision == "main" and p.player == seat:
            return
        if p.decision == "respond":
            step(state, watchers, "pass")
        elif p.decision == "main":
            step(state, watchers, "end_turn")
        else:
            acts = legal_actions(state)
            step(state, watchers, ([a for a in acts if a.kind != "done"] or acts)[0])
    raise AssertionError("never reached the main phase")


def place_face_down(state, watchers, code, to, ship=None):
    seat = pending(state).player
    ids = [c for c in state.players[seat].centre if state.cards[c].code == code]
    assert ids, f"{code} is not in the centre"
    acts = [
        a
        for a in legal_actions(state)
        if a.kind == "place" and a.get("card") == ids[0] and a.get("to") == to
        if ship is None or a.get("ship") == ship
    ]
    assert acts, f"cannot place {code} on the {to}"
    step(state, watchers, acts[0])


def test_a_ship_returned_to_the_centre_cannot_be_followed_into_a_bluff_base():
    """R 6.10 / R 16.2: dani returns laci's ship to laci's centre (Kiutasítás); laci places it
    face down as a bluff base; dani cannot tell which face-down card it is."""
    state = position(
        """
        kgk players=laci,dani turn=5 active=dani
        laci credits=20
        laci colony: Rozsdafog*10
        laci centre: Tüzér, Befektetés
        laci hangar: Marduk Kurios
        dani credits=20
        dani colony: Pilótahal*10
        dani centre: Kiutasítás
        """
    )
    dani = Watcher(state, DANI)
    watchers = [dani]
    marduk = state.cards[state.players[LACI].hangar[0]].code
    step(state, watchers, next(a for a in legal_actions(state) if a.kind == "play"))
    while pending(state).decision != "main" or pending(state).player != DANI:
        acts = legal_actions(state)
        step(state, watchers, "pass" if pending(state).decision == "respond" else acts[0])
    assert state.cards[state.players[LACI].centre[-1]].code == marduk  # back in the centre
    to_main_phase(state, LACI, watchers)
    place_face_down(state, watchers, marduk, "surface")
    assert not dani.followed(state)
    assert view(state, DANI)["players"][LACI]["centre"] is None  # a count only


def test_an_armament_taken_back_from_the_trash_cannot_be_followed_onto_a_ship():
    """R 16.2: laci takes Páncéllemez back from the public trash (Fegyverkovácsműhely) and
    places it face down on a ship; dani saw it leave the trash but cannot find it."""
    state = position(
        """
        kgk players=laci,dani turn=4 active=laci
        laci credits=20
        laci colony: Rozsdafog*10
        laci centre: Tüzér, Aknagyűrű
        laci surface: Fegyverkovácsműhely
        laci hangar: Marduk Kurios
        laci trash: Páncéllemez
        dani credits=3
        dani colony: Pilótahal*10
        """
    )
    dani = Watcher(state, DANI)
    watchers = [dani]
    armament = state.cards[state.players[LACI].trash[0]].code
    step(state, watchers, next(a for a in legal_actions(state) if a.kind == "activate"))
    while pending(state).decision != "main":
        acts = legal_actions(state)
        step(state, watchers, "pass" if pending(state).decision == "respond" else acts[0])
    assert not state.players[LACI].trash  # taken back (R 16.5: dani saw it go)
    ship = state.players[LACI].hangar[0]
    place_face_down(state, watchers, armament, "ship", ship=ship)
    assert not dani.followed(state)


def test_a_card_seen_in_a_look_cannot_be_followed_into_a_face_down_slot():
    """R 16.4: laci looks at dani's centre (Gondolatolvasó állomás); dani then places one of
    those cards face down; laci cannot tell which face-down card it is."""
    state = position(
        """
        kgk players=laci,dani turn=4 active=laci
        laci credits=5
        laci colony: Rozsdafog*10
        laci surface: Gondolatolvasó állomás
        dani credits=20
        dani colony: Pilótahal*10
        dani centre: Aknagyűrű, Tüzér, Befektetés
        dani surface: Chazma töltet (down)
        """
    )
    laci = Watcher(state, LACI)
    watchers = [laci]
    step(state, watchers, next(a for a in legal_actions(state) if a.kind == "activate"))
    while pending(state).decision == "respond":
        step(state, watchers, "pass")
    assert {laci.seen.get(c) for c in state.players[DANI].centre} == {
        state.cards[c].code for c in state.players[DANI].centre
    }  # the look showed laci the whole centre
    to_main_phase(state, DANI, watchers)
    aknagyuru = next(
        state.cards[c].code
        for c in state.players[DANI].centre
        if state.defs[state.cards[c].code]["name"] == "Aknagyűrű"
    )
    place_face_down(state, watchers, aknagyuru, "surface")
    assert not laci.followed(state)


def test_r16_2_a_hidden_card_never_keeps_its_id_across_a_change_of_zone():
    """The id a card had in a centre is gone once it is face down in play, and the move event
    names no id of a card in the centre (only the owner's secret does)."""
    state = position(
        """
        kgk players=laci,dani turn=4 active=laci
        laci credits=5
        laci colony: Rozsdafog*10
        laci centre: Aknagyűrű
        dani colony: Pilótahal*10
        """
    )
    card = state.cards[state.players[LACI].centre[0]]
    in_centre = card.id
    events = do(state, "place", card="Aknagyűrű", to="surface")
    assert card.zone == "surface" and card.id != in_centre and in_centre not in state.cards
    events += do(state, "draw")
    drawn = [e for e in view_events(events, DANI) if e["kind"] == "move" and e["to"] == "centre"]
    assert drawn and all("id" not in e["card"] for e in drawn)
    own = [e for e in view_events(events, LACI) if e["kind"] == "move" and e["to"] == "centre"]
    assert [e["secret"]["id"] for e in own] == state.players[LACI].centre[-len(own) :]
