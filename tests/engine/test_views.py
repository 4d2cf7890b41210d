"""R 16 hidden information: engine.view is the one projection (DESIGN.md, NOTES.md)."""

import json
import re

from engine_kit import Watcher, card, do, position, random_game, tagged_colony
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.game import pending
from engine.ops import public
from engine.rng import Rng
from engine.view import view, view_events

LACI, DANI = 0, 1

TABLE = """
kgk players=laci,dani turn=4 active=laci seed=secret-seed
laci credits=7
laci colony: Rozsdafog*10
laci centre: Tüzér, Befektetés
laci surface: Aknagyűrű (down u2)
laci hangar: Marduk Kurios [Páncéllemez (down)]
laci wasteland: Kaszás
dani credits=3
dani colony: Pilótahal*10
dani centre: Felülbírálás
dani surface: Chazma töltet (down)
dani trash: Cobra Flash
dani wasteland: Halálszárny
"""


def dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False)


def test_r16_2_opponent_centre_and_face_down_cards_are_hidden():
    state = position(TABLE)
    laci, dani, spectator = (dump(view(state, v)) for v in (LACI, DANI, None))
    for hidden in ("Felülbírálás", "Chazma töltet", "Halálszárny", "Pilótahal"):
        assert hidden not in laci
    for hidden in ("Tüzér", "Befektetés", "Aknagyűrű", "Páncéllemez", "Kaszás", "Rozsdafog"):
        assert hidden not in dani
    for name in ("Tüzér", "Aknagyűrű", "Páncéllemez", "Kaszás"):
        assert name in laci  # one's own centre, face-down cards and wasteland (R 3.1)
    assert "Rozsdafog" not in laci  # nobody looks at a colony, not even its owner
    assert "Cobra Flash" in dani and "Cobra Flash" in laci and "Cobra Flash" in spectator  # R 16.5
    assert "Marduk Kurios" in spectator
    for name in ("Tüzér", "Felülbírálás", "Chazma", "Aknagyűrű", "Páncéllemez"):
        assert name not in spectator
    for text in (laci, dani, spectator):
        assert "secret-seed" not in text and '"key"' not in text


def test_r3_13_counts_are_public_and_hidden_cards_keep_only_public_fields():
    state = position(TABLE)
    v = view(state, DANI)
    laci = v["players"][LACI]
    assert laci["counts"] == {"colony": 10, "centre": 2, "trash": 0, "wasteland": 1}
    assert laci["credits"] == 7
    base = laci["surface"][0]
    assert set(base) == {"id", "face_down", "owner", "zone", "orientation", "upgrades", "slot"}
    assert base["upgrades"] == 2 and base["face_down"]
    # another player's centre and wasteland are only counts: no ids (R 16.2 / AMB-53)
    assert laci["centre"] is None and laci["wasteland"] is None
    assert "colony" not in laci  # no colony order or contents (only its count)
    assert [c["code"] for c in view(state, LACI)["players"][LACI]["centre"]]  # the owner's own


def test_only_the_decider_sees_legal_actions():
    state = position(TABLE)
    assert "actions" in view(state, LACI)
    assert "actions" not in view(state, DANI)
    assert "actions" not in view(state, None)


def test_events_keep_secrets_for_their_owner():
    state = position(TABLE)
    events = do(state, "draw")
    assert "Rozsdafog" in dump(view_events(events, LACI))
    assert "Rozsdafog" not in dump(view_events(events, DANI))
    assert "Rozsdafog" not in dump(view_events(events, None))


def test_a_revealed_card_is_public_from_then_on():
    state = position(TABLE)
    do(state, "upgrade", card="Aknagyűrű")
    do(state, "upgrade", card="Aknagyűrű")
    do(state, "pay", card="Aknagyűrű")
    assert card(state, "Aknagyűrű").face_up
    assert "Aknagyűrű" in dump(view(state, DANI))


# --- the tag test: every view and event of random games ---------------------------------------
# Tags: no hidden identity appears in a projection. Watchers: no known card is followed by id
# into a face-down slot (a returned card, one taken back from the trash, one seen in a look:
# tests/engine/test_hand_tracking.py shows each); no hidden card keeps its id across a move.

TAG = re.compile(r"⟨p(\d)c(\d+)⟩")


def tags(obj) -> set:
    return {m.group(0) for m in TAG.finditer(dump(obj))}


def check_game_never_leaks(seed):
    rng = Rng.from_seed(f"tags-{seed}")
    colonies = [tagged_colony(rng, 0), tagged_colony(rng, 1)]
    known = {0: set(), 1: set(), None: set()}  # tags a viewer has legitimately seen

    def tag_of(state, card_):
        return TAG.search(state.defs[card_.code]["name"]).group(0)

    def own(seat):
        return {f"⟨p{seat}c{i}⟩" for i in range(45)}

    watchers = {}  # viewer -> Watcher, the id-following adversary (R 16.2 / AMB-53)
    places = {}  # id(card object) -> (instance id, zone, hidden, boarded)

    def on_step(state, action, events):
        check_no_hidden_id_survives_a_move(state, events, places)
        if not watchers:
            watchers.update({v: Watcher(state, v) for v in (0, 1, None)})
        public_now = {tag_of(state, c) for c in state.cards.values() if public(c)}
        for viewer in (0, 1, None):
            v, evs = view(state, viewer), view_events(events, viewer)
            watchers[viewer].observe(state, events, v, evs)
            followed = watchers[viewer].followed(state)
            assert not followed, f"viewer {viewer} followed {followed} after {action.id}"
            for e in events:  # a reveal (R 16.4) shows cards to its viewer only
                if e.kind == "reveal" and viewer in e.to:
                    known[viewer] |= tags(e.secret)
            allowed = known[viewer] | public_now | (own(viewer) if viewer is not None else set())
            seen = tags(v) | tags(evs)
            leaked = seen - allowed
            assert not leaked, f"viewer {viewer} saw {sorted(leaked)} after {action.id}"
            known[viewer] |= public_now

    state, _ = random_game(seed, colonies, on_step=on_step, max_decisions=3000)
    return state


def check_no_hidden_id_survives_a_move(state, events, places):
    """R 16.2: a card that is hidden before or after a change of zone has a new id after it.
    Excepted: crew boarding for a combat and coming back (everyone watches that card move),
    and a card turned face up where it was before it moved (a payment: its id was public)."""
    shown = {
        (e.data["card"]["id"], e.data["card"]["zone"])
        for e in events
        if isinstance(e.data.get("card"), dict) and "code" in e.data["card"]
    }
    for c in state.cards.values():
        hidden = not public(c)
        now = (c.id, c.zone, hidden, c.boarded)
        was = places.get(id(c))
        places[id(c)] = now
        if was is None or was[1] == c.zone or not (was[2] or hidden):
            continue
        if was[3] or c.boarded or (not hidden and (was[0], was[1]) in shown):
            continue
        assert c.id != was[0], f"{c.code} kept id {c.id} from {was[1]} to {c.zone}"


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**9))
def test_no_view_or_event_ever_shows_a_hidden_opposing_card(seed):
    check_game_never_leaks(seed)


def test_tag_check_catches_a_leak():
    """The tag test itself works: a view that printed a hidden card would be caught."""
    rng = Rng.from_seed("tags-self-test")
    from engine.game import new_game

    state = new_game([tagged_colony(rng, 0), tagged_colony(rng, 1)], 7)
    hidden = state.cards[state.players[1].centre[0]]
    assert not public(hidden)
    assert TAG.search(state.defs[hidden.code]["name"]).group(0) not in tags(view(state, 0))
    assert pending(state) is not None
