"""Every card of the first set is played (or paid, or activated) and its effect checked.

Generated per card from its structured abilities: each card is put into the same
position twice, once as printed and once with its abilities removed (the *control*),
and driven through ``legal_actions``/``apply`` in the same way (first legal choice,
both players pass every window). The difference between the two runs is what the
abilities did; each effect primitive asserts its own signature in that difference
(credits changed by the amount, a stat changed by the amount, a card destroyed, cards
drawn, a keyword granted, ...). Cards without abilities are checked against their
printed stats (a ship in the hangar, an armament or crew adding its bonus to its ship).

Crew that act on the ship they are aboard (and crew without abilities, whose bonus goes to
that ship), missiles and combat interrupts are checked in a combat instead
(``_run_combat``): laci attacks, boards the crew, pays the missile in the payment step or
plays the interrupt in the first window it can, and the difference is observed at the first
fire decision (or once the interrupt has resolved). Cards whose effects need other combat
situations, a chain to answer or a bombardment are in UNCOVERED with the reason; each of them
is played and checked by hand in test_every_card_combat.py (or the test its HAND_TESTS names).
"""

import pytest
from engine_kit import CARDS

from engine import notation as N
from engine import values as V
from engine.game import apply, legal_actions, pending

ME, OPP = 0, 1
STATS4 = ("speed", "firepower", "armour", "bombardment")

HEAD = """
kgk players=laci,dani turn=4 active=laci
laci credits=40
laci colony: Páncéllemez, Pilótahal*6
laci trash: Pilótahal, Jó üzlet, Páncéllemez
laci wasteland: Pilótahal*4
laci surface: Hidrogénkút (u1), Üvegház (u3)
laci hangar: Indás vadász (used dmg1), Járőr-7, Kísérőnaszád (damaged dmg1), \
Kalapácsfej [Páncéllemez]{ship}
dani credits=10
dani colony: Kitinvadász*10
dani centre: Kitinvadász, Kitinvadász
dani wasteland: Kitinvadász*4
dani surface: Chazma töltet (u2), Aknagyűrű (down)
dani hangar: Holdimádó (used), Diplomatahajó (dmg1), Halálszárny, Kitinvadász (damaged dmg1)
"""

# Triggers a main-phase position can make happen; the rest need a combat or a turn change.
RUN_TRIGGERS = ("on_play", "on_pay", "static", "activated", "start_of_turn")

# Combat interrupts the one combat of _run_combat cannot show (name -> why).
_AFTER_SHOTS = (
    "its only window in _run_combat's combat comes after the shots, when an effect on a "
    "ship in combat for the shot or the combat no longer shows"
)
COMBAT_EXCEPTIONS = {
    "Óvóhely": "protects a base: needs an attack on a base (R 11.4.5)",
    "Gyors regeneráció": "the first target offered is the undamaged attacker: needs a setup",
    "Tűzfegyelem": "needs formation ships in the combat",
    "Orvtámadás": "the defender (Holdimádó, 5 CR) costs more than 3",
    "Kettős csapás": "needs a used ship of its own in the combat",
}

# name -> why its effect is not checked by this file.
UNCOVERED = {}
for _d in CARDS:
    _abs = _d.get("abilities") or []
    _why = None
    if _d["name"] in COMBAT_EXCEPTIONS:
        _why = COMBAT_EXCEPTIONS[_d["name"]]
    elif _d["type"] == "interrupt" and any(
        ((e.get("target") or {}).get("filter", {}).get("in_combat") and _d["subtype"] != "combat")
        or e["effect"] in ("neutralize", "choose_one", "end_combat")
        for a in _abs
        for e in a["effects"]
    ):
        _why = "interrupt that needs a combat or a card on the chain to answer"
    elif _d["type"] == "base" and _d.get("subtype") == "trap":
        _why = "trap: paid only when its base is bombarded (R 4.5.9)"
    elif _d["type"] == "armament" and _d.get("subtype") == "missile":
        if any(a["trigger"] != "end_of_payment" for a in _abs):
            _why = "missile with an ability other than end_of_payment"
    elif _d["type"] != "armament" and any(a["trigger"] not in RUN_TRIGGERS for a in _abs):
        _why = f"trigger {sorted({a['trigger'] for a in _abs} - set(RUN_TRIGGERS))} needs a combat"
    elif any((a.get("condition") or {}).get("kind") == "in_combat" for a in _abs):
        _why = "its condition needs the card in a combat"
    elif _d["type"] == "crew" and any(
        a["trigger"] == "activated"
        for a in _abs
        if any(e.get("target", {}).get("kind") == "carrier" for e in a["effects"])
    ):
        _why = "crew ability used on its carrier: needs it boarded and a window in a combat"
    elif any(e["effect"] == "python" for a in _abs for e in a["effects"]):
        _why = "python escape hatch (tested by hand in test_effects.py)"
    if _why:
        UNCOVERED[_d["name"]] = _why
# 32 on 2026-11-23 (40 before the combat steps had response windows: eight combat interrupts
# are now played in the equip step's window and checked here). Every one of them is played
# and checked by hand in test_every_card_combat.py (HAND_TESTS) or the test named there.
# Shrinking this list is progress; growing it needs a reason.
UNCOVERED_COUNT = 32


COMBAT_HEAD = """
kgk players=laci,dani turn=4 active=laci
laci credits=40
laci colony: Pilótahal*8
laci hangar: Tüskevirág{ship}
dani credits=10
dani colony: Kitinvadász*10
dani hangar: Holdimádó
"""


def _in_combat(d) -> bool:
    """Crew (boarded, R 4.4.4) and missiles (paid in the payment step, R 4.3.5a) act only
    in a combat: laci attacks with Tüskevirág, dani defends with Holdimádó."""
    if d["type"] == "armament":
        return d.get("subtype") == "missile"
    if d["type"] == "interrupt":
        return d["subtype"] == "combat"
    abilities = d.get("abilities") or []
    return d["type"] == "crew" and (
        not abilities
        or any(
            e.get("target", {}).get("kind") == "carrier" for a in abilities for e in a["effects"]
        )
    )


def _run_combat(d, cards):
    """-> (state at the first fire decision, events, obs of the start, carrier id)."""
    if d["type"] == "crew":
        text = COMBAT_HEAD.format(ship="") + f"laci canteen: {d['name']}\n"
    elif d["type"] == "interrupt":
        text = COMBAT_HEAD.format(ship=", Járőr-7 (used dmg1)") + f"laci centre: {d['name']}\n"
    else:
        text = COMBAT_HEAD.format(ship=f" [{d['name']} (down)]")
    state = N.parse(text, cards)
    before = _obs(state)
    ship = state.players[ME].hangar[0]
    if d["type"] == "interrupt":
        cid = state.players[ME].centre[0]
    elif d["type"] == "crew":
        cid = state.players[ME].canteen[0]
    else:
        cid = state.cards[ship].attachments[0]
    subject_card = state.cards[cid]  # the same object when a move gives it a fresh id (R 16.2)
    events = apply(state, "attack:target=colony")
    paid_step = False
    played = False
    for _ in range(40):
        p = pending(state)
        if d["type"] == "interrupt":  # played in the first combat window it can be
            acts = legal_actions(state)
            if not played and f"play:card={cid}" in [a.id for a in acts]:
                events += apply(state, f"play:card={cid}")
                played = True
                continue
            if played and p.player == ME and p.decision != "respond":
                if not state.chain:  # resolved: observe before anything else happens
                    subject[:] = [subject_card.id, None]
                    return state, events, before, ship
            assert p.decision != "main", "the combat ended before it could be played"
            if p.decision == "respond" or (played and p.decision not in ("target", "choose")):
                events += apply(state, "pass" if p.decision == "respond" else acts[0])
            else:
                events += apply(state, ([a for a in acts if a.kind != "done"] or acts)[0])
            continue
        p = pending(state)
        assert p is not None and (p.decision != "main" or paid_step), "the combat ended early"
        if p.decision in ("fire", "main"):  # main: the missile destroyed the only defender
            subject[:] = [subject_card.id, None]
            assert paid_step or d["type"] == "crew"
            return state, events, before, ship
        acts = legal_actions(state)
        ids = [a.id for a in acts]
        if p.decision == "board":
            want = f"board:card={cid},ship={ship}"
            events += apply(state, want if want in ids else "done")
        elif p.decision == "payments":
            want = f"pay:card={cid}"
            paid_step = paid_step or want in ids
            events += apply(state, want if want in ids else "done")
        elif p.decision == "respond":
            events += apply(state, "pass")
        else:
            events += apply(state, ([a for a in acts if a.kind != "done"] or acts)[0])
    raise AssertionError("no fire step")


def _cards_without_abilities(name):
    return [{**d, "abilities": []} if d["name"] == name else d for d in CARDS]


def _extra(d):
    t, name = d["type"], d["name"]
    if t in ("ship", "event", "interrupt"):
        return "", f"laci centre: {name}\n"
    if t == "base":
        limit = d.get("upgrade_limit")
        return "", f"laci surface: {name} (down u{limit if isinstance(limit, int) else 2})\n"
    if t == "crew":
        return "", f"laci canteen: {name} (down)\n"
    return f", Holdimádó [{name} (down)]", ""


def _subject(state, d):
    """The id of the card under test."""
    me = state.players[ME]
    if d["type"] in ("ship", "event", "interrupt"):
        return me.centre[-1] if me.centre else None
    if d["type"] == "armament":
        return state.cards[me.hangar[-1]].attachments[-1]
    zone = {"base": me.surface, "crew": me.canteen}[d["type"]]
    return [c for c in zone if state.cards[c].code == d["code"]][-1]


def _drive(state, play_in_window=None):
    """Make the choices (first legal one) and pass windows until laci's main phase again;
    play_in_window: a card id laci plays in the first window where it can."""
    events = []
    for _ in range(60):
        p = pending(state)
        if p is None or (p.player == ME and p.decision == "main"):
            return events
        acts = legal_actions(state)
        mine = [a for a in acts if a.kind == "play" and a.get("card") == play_in_window]
        if p.player == ME and state.active == ME and mine:
            events += apply(state, mine[0])
            play_in_window = None
        elif p.decision == "respond":
            events += apply(state, "pass")
        elif p.decision == "main":  # the opponent's turn: end it
            events += apply(state, "end_turn")
        else:
            events += apply(state, ([a for a in acts if a.kind != "done"] or acts)[0])
    raise AssertionError("no return to the main phase")


def _obs(state):
    players = [
        {
            "credits": p.credits,
            **{z: len(getattr(p, z)) for z in ("colony", "centre", "trash", "wasteland")},
        }
        for p in state.players
    ]
    cards = {}
    for c in state.cards.values():
        if c.zone in ("hangar", "surface", "canteen") and c.face_up:
            cards[c.id] = {
                "controller": c.controller,
                "type": V.ctype(state, c),
                "orientation": c.orientation,
                "damage": c.damage,
                "upgrades": c.upgrades,
                "stats": {s: V.stat(state, c, s) for s in STATS4},
                "keywords": set(V.keywords(state, c)),
            }
        elif c.zone in ("hangar", "surface", "canteen"):
            cards[c.id] = {"controller": c.controller, "upgrades": c.upgrades, "face_down": 1}
    surcharge = [V.attack_surcharge(state, s) for s in (ME, OPP)]
    costs = {}
    for seat in (ME, OPP):
        for action in ("card", "upgrade", "draw"):
            for d in CARDS:
                costs[seat, action, d["code"]] = V._cost_delta(state, seat, d, action)
    return {"players": players, "cards": cards, "surcharge": surcharge, "costs": costs}


subject = [None, None]  # after the last _run: the card's id in play, its upgrades when paid


def _run(d, cards, ability=None):
    """The position, the card played/paid (and its ability activated); -> (state, events, obs)."""
    ship, centre = _extra(d)
    state = N.parse(HEAD.format(ship=ship) + centre, cards)
    before = _obs(state)
    cid = _subject(state, d)
    state_ids = set(state.cards)
    x_upgrades = state.cards[cid].upgrades  # X of an X base (R 4.5.5) if it is one
    kind = "play" if d["type"] in ("ship", "event", "interrupt") else "pay"
    if d["type"] == "interrupt" and d["subtype"] == "start":  # R 4.7.3.1: next start phase
        events = apply(state, "end_turn")
        events += _drive(state, play_in_window=cid)
        assert any(e.kind == "play" and e.data.get("player") == ME for e in events)
        assert cid not in state.players[ME].centre, "not played"
        return state, events, before
    acts = [a for a in legal_actions(state) if a.kind == kind and a.get("card") == cid]
    assert acts, f"{d['name']}: cannot {kind} it in the position"
    events = apply(state, acts[0])
    events += _drive(state)
    trigger = {a["trigger"] for a in d.get("abilities") or []}
    if d["type"] == "ship":  # the card left the centre: it has a fresh id (R 16.2)
        cid = next(
            c for c in state.cards if c not in state_ids and state.cards[c].code == d["code"]
        )
    subject[:] = [cid, x_upgrades]
    if ability is not None:
        act = [
            a
            for a in legal_actions(state)
            if a.kind == "activate" and a.get("card") == cid and a.get("ability") == ability
        ]
        if act:
            events += apply(state, act[0])
            events += _drive(state)
    if "start_of_turn" in trigger:
        events += apply(state, "end_turn")
        events += _drive(state)
    return state, events, before


def _seats(who):
    return {"you": [ME], "opponent": [OPP], "each": [ME, OPP], None: [ME]}[who]


def _owner_seats(target):
    return {"you": [ME], "opponent": [OPP]}.get((target or {}).get("owner"), [ME, OPP])


def _amount(eff, key="amount"):
    value = eff.get(key)
    return value if isinstance(value, int) else None


def _card_deltas(a, b, key, seats):
    """Per card in play in both runs, controlled by one of seats: b[key] - a[key]."""
    out = []
    for cid, ca in a["cards"].items():
        cb = b["cards"].get(cid)
        if cb is None or key not in ca or key not in cb or ca["controller"] not in seats:
            continue
        out.append((cid, ca[key], cb[key]))
    return out


def check_effect(eff, real, ctrl, events, d):
    """Assert the signature of one effect in the difference real - ctrl (observations)."""
    kind = eff["effect"]
    amount = _amount(eff)
    pr, pc = real["players"], ctrl["players"]
    if kind in ("gain_credits", "lose_credits"):
        for s in _seats(eff.get("player")):
            delta = pr[s]["credits"] - pc[s]["credits"]
            if kind == "gain_credits":
                assert delta == amount if amount is not None else delta > 0, (s, delta)
            else:
                want = -min(amount, pc[s]["credits"]) if amount is not None else None
                assert delta == want if want is not None else delta < 0, (s, delta)
    elif kind == "draw":
        for s in _seats(eff.get("player")):
            assert pr[s]["centre"] - pc[s]["centre"] == amount
            if not _has(d, "return_to_colony"):
                assert pr[s]["colony"] - pc[s]["colony"] == -amount
    elif kind == "discard_from_colony":
        for s in _seats(eff.get("player")):
            assert pr[s]["colony"] - pc[s]["colony"] == -amount
            assert pr[s]["wasteland"] - pc[s]["wasteland"] == amount
    elif kind == "discard_from_centre":
        for s in _seats(eff.get("player")):
            want = -min(amount, pc[s]["centre"]) if amount is not None else None
            delta = pr[s]["centre"] - pc[s]["centre"]
            assert delta == want if want is not None else delta < 0
    elif kind == "return_to_colony":  # (a later draw of the same card may take some back)
        back = pr[ME]["colony"] - pc[ME]["colony"] + pr[ME]["centre"] - pc[ME]["centre"]
        assert back == amount
        assert pr[ME][eff["from"]] - pc[ME][eff["from"]] == -amount
    elif kind == "search_colony":
        assert pr[ME]["centre"] - pc[ME]["centre"] == eff.get("amount", 1)
    elif kind in ("deal_damage", "destroy"):
        seats = _owner_seats(eff["target"])
        gone = [c for c, v in ctrl["cards"].items() if c not in real["cards"]]
        gone = [c for c in gone if ctrl["cards"][c]["controller"] in seats]
        hit = [c for c, x, y in _card_deltas(ctrl, real, "damage", seats) if y - x == (amount or 0)]
        if kind == "destroy":
            assert gone, "nothing destroyed"
        else:
            assert gone or hit, "no damage dealt"
    elif kind == "repair_damage":
        fixed = _card_deltas(ctrl, real, "damage", _owner_seats(eff["target"]))
        assert any(y < x for c, x, y in fixed), "nothing repaired"
    elif kind in ("add_upgrades", "remove_upgrades"):
        sign = 1 if kind == "add_upgrades" else -1
        seats = _owner_seats(eff["target"])
        deltas = [y - x for c, x, y in _card_deltas(ctrl, real, "upgrades", seats)]
        assert any(v * sign > 0 and (amount is None or abs(v) <= amount) for v in deltas), deltas
    elif kind == "rotate":
        seats = _owner_seats(eff["target"])
        turned = [
            c for c, x, y in _card_deltas(ctrl, real, "orientation", seats) if y == eff["to"] != x
        ]
        assert turned, "nothing rotated"
    elif kind == "modify_stat":
        if eff["stat"] == "upgrade_limit":
            raise AssertionError("no generated check for upgrade_limit")  # no such card yet
        seats = _owner_seats(eff["target"])
        if eff["target"]["kind"] in ("self", "carrier"):
            seats = [ME]
        deltas = []
        for _cid, x, y in _card_deltas(ctrl, real, "stats", seats):
            deltas.append(y[eff["stat"]] - x[eff["stat"]])
        assert (amount in deltas) if amount is not None else any(deltas), deltas
    elif kind == "grant_keyword":
        seats = (
            [ME] if eff["target"]["kind"] in ("self", "carrier") else _owner_seats(eff["target"])
        )
        got = [
            c for c, x, y in _card_deltas(ctrl, real, "keywords", seats) if eff["keyword"] in y - x
        ]
        assert got, "keyword not granted"
    elif kind == "attack_surcharge":
        delta = sum(real["surcharge"]) - sum(ctrl["surcharge"])
        assert delta == amount if amount is not None else delta > 0, delta
    elif kind == "cost_modifier":
        seat = OPP if eff.get("player") == "opponent" else ME
        action = eff.get("action", "card")
        flt = eff.get("filter")
        matching = [c for c in CARDS if flt is None or _def_matches(c, flt)]
        assert matching
        changed = {
            real["costs"][seat, action, c["code"]] - ctrl["costs"][seat, action, c["code"]]
            for c in matching
        }
        assert changed == {eff["amount"]}, changed
    elif kind == "peek":
        looks = [e for e in events if e.kind == "reveal" and e.data.get("zone") == eff["zone"]]
        assert looks and all(e.to == (ME,) for e in looks), "no look"
    elif kind == "return_to_centre":
        seats = _owner_seats(eff["target"])
        assert any(pr[s]["centre"] > pc[s]["centre"] for s in seats)
    elif kind == "choose_one":
        for sub in eff["options"][0]:
            check_effect(sub, real, ctrl, events, d)
    else:
        raise AssertionError(f"no generated check for {kind}")


def _has(d, primitive):
    return any(e["effect"] == primitive for a in d.get("abilities") or [] for e in a["effects"])


def _def_matches(d, flt):
    for key, value in flt.items():
        if key in ("type", "subtype", "race") and d.get(key) != value:
            return False
        if key == "keyword" and value not in (d.get("keywords") or []):
            return False
    return True


COVERED = [d for d in CARDS if d["name"] not in UNCOVERED]


@pytest.mark.parametrize("d", COVERED, ids=[d["code"] for d in COVERED])
def test_card_effect(d):
    abilities = d.get("abilities") or []
    if _in_combat(d):
        _check_in_combat(d)
        return
    if not abilities:
        _check_printed(d)
        return
    activated = [i for i, a in enumerate(abilities) if a["trigger"] == "activated"]
    runs = [None] if not activated else activated
    checked = 0
    for index in runs:
        state, events, _ = _run(d, CARDS, index)
        x = subject[1]
        control, _, _ = _run(d, _cards_without_abilities(d["name"]), index)
        real, ctrl = _obs(state), _obs(control)
        for i, ability in enumerate(abilities):
            if ability["trigger"] == "activated" and i != index:
                continue
            for eff in ability["effects"]:
                if eff.get("amount") == "X":  # R 4.5.5: the upgrades locked when paid
                    eff = {**eff, "amount": x}
                check_effect(eff, real, ctrl, events, d)
                checked += 1
    assert checked


def _check_in_combat(d):
    state, events, before, ship = _run_combat(d, CARDS)
    card = state.cards[subject[0]]
    if d["type"] == "crew":
        assert card.boarded and card.attached_to == ship, "not aboard"
    if d["type"] == "interrupt":
        assert card.zone in ("trash", "wasteland"), "not resolved"
    real = _obs(state)
    if not d.get("abilities"):  # its bonus reaches the ship it is aboard (R 4.4.3)
        for s in STATS4:
            delta = real["cards"][ship]["stats"][s] - before["cards"][ship]["stats"][s]
            assert delta == (d.get("bonus") or {}).get(s, 0), (s, delta)
        assert any((d.get("bonus") or {}).values())
        return
    control, _, _, _ = _run_combat(d, _cards_without_abilities(d["name"]))
    ctrl = _obs(control)
    for ability in d["abilities"]:
        for eff in ability["effects"]:
            check_effect(eff, real, ctrl, events, d)


def _check_printed(d):
    """A card without abilities: its printed stats reach the table."""
    state, _, before = _run(d, CARDS)
    cid = subject[0]
    if d["type"] == "ship":
        assert cid is not None and state.cards[cid].zone == "hangar"
        for s in STATS4:
            assert V.stat(state, state.cards[cid], s) == d[s]
        return
    card = state.cards[cid]
    assert card.paid and card.face_up
    after = _obs(state)
    if d["type"] == "armament":
        ship = card.attached_to
        for s in STATS4:
            delta = after["cards"][ship]["stats"][s] - before["cards"][ship]["stats"][s]
            assert delta == (d.get("bonus") or {}).get(s, 0), (s, delta)


def test_coverage_is_reported():
    """The uncovered list is explicit and every card is on exactly one side."""
    names = {d["name"] for d in CARDS}
    assert set(UNCOVERED) <= names
    assert len(UNCOVERED) <= UNCOVERED_COUNT
    assert len(COVERED) + len({d["name"] for d in CARDS if d["name"] in UNCOVERED}) == len(CARDS)
    assert len(COVERED) >= 208  # 135 with abilities + 73 without (41 ships, 20 armaments, 12 crew)


def test_checks_fail_when_the_abilities_are_removed(monkeypatch):
    """No generated check passes vacuously: with the card's abilities stripped in the
    real run too, every card's test must fail."""
    real_run = _run

    def stripped(d, cards, ability=None):
        return real_run(d, _cards_without_abilities(d["name"]), ability)

    real_combat = _run_combat

    def stripped_combat(d, cards):
        return real_combat(d, _cards_without_abilities(d["name"]))

    monkeypatch.setattr(f"{__name__}._run", stripped)
    monkeypatch.setattr(f"{__name__}._run_combat", stripped_combat)
    vacuous = []
    for d in COVERED:
        if not d.get("abilities"):
            continue
        try:
            test_card_effect(d)
        except AssertionError:
            continue
        vacuous.append(d["name"])
    assert vacuous == []
