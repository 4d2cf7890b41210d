"""Multiplayer KGK (issue 17): three to six colonies at one table.

R 17.1.1 seats in a circle, turns clockwise, the cut counter-clockwise; R 17.1.2 attacks on
the two neighbours only; R 17.1.3 "the opponent" of a card is a neighbour its user chooses;
R 17.1.4 no attack in one's own first turn, 5 credits in every start phase; R 17.1.5 nothing
about a centre or an unpaid card reaches another player; R 17.1.6 / AMB-44 elimination and
ranking; AMB-54 three to six players (the upper bound a ruleset option). The rulings where
RULES.md is silent are in docs/rulings.md ("Multiplayer").
"""

import json

import pytest
from engine_kit import BY_NAME, CARDS, card, do, ids, pass_windows, position, random_colony

from engine import table as T
from engine.actions import IllegalAction
from engine.game import apply, legal_actions, new_game, pending, settle
from engine.ops import effects_frame
from engine.rng import Rng
from engine.ruleset import Ruleset
from engine.state import neighbours
from engine.view import view

ANN, BOB, CID, DAN, EVE = 0, 1, 2, 3, 4

# Four players, everyone past their first turn (turn 9: ann's third turn, R 17.1.4).
FOUR = """
kgk players=ann,bob,cid,dan turn=9 active=ann
ann credits=20
ann colony: Katona*10
ann hangar: Holdimádó
bob credits=5
bob colony: Katona*10
bob hangar: Holdimádó
bob surface: Aknagyűrű (u3)
cid credits=5
cid colony: Katona*10
cid hangar: Holdimádó
cid surface: Aknagyűrű (u3)
dan credits=5
dan colony: Katona*10
dan hangar: Holdimádó
dan surface: Aknagyűrű (u3)
"""


def colonies(n, seed="mp"):
    rng = Rng.from_seed(f"colonies-{seed}")
    return [random_colony(rng) for _ in range(n)]


def reason(state, kind, **params):
    with pytest.raises(IllegalAction) as err:
        do(state, kind, **params)
    return err.value.code


def play_until(state, stop, limit=5000):
    """Keep, pass and end turns (the first legal choice elsewhere) until `stop(state)`;
    returns the events."""
    events = []
    for _ in range(limit):
        if stop(state) or pending(state) is None:
            return events
        p = pending(state)
        acts = {a.kind: a for a in legal_actions(state)}
        for kind in ("keep", "pass", "end_turn", "done", "decline"):
            if kind in acts:
                events += apply(state, acts[kind])
                break
        else:
            events += apply(state, legal_actions(state)[0])
        del p
    raise AssertionError("never stopped")


# --- R 17.1.1 / AMB-54: seats, turns clockwise, the cut counter-clockwise ---------------------


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_r17_1_1_turns_pass_clockwise_from_the_starting_player(n):
    state = new_game(colonies(n), f"clockwise-{n}")
    assert state.table is not None and len(state.players) == n
    events = play_until(state, lambda s: s.turn > 2 * n)
    order = [e.data["player"] for e in events if e.kind == "turn"]
    start = state.starting_player
    assert order[: 2 * n] == [(start + i) % n for i in range(2 * n)]


@pytest.mark.parametrize("n", [3, 4, 6])
def test_r17_1_1_the_cut_passes_counter_clockwise(n):
    """R 16.1 with the cut chosen: each colony is cut by the player on its owner's right."""
    state = new_game(colonies(n), f"cut-{n}", Ruleset(cut="choose"))
    cuts = 0
    while pending(state).decision == "cut":
        frame = state.stack[-1]
        assert pending(state).player == (frame["owner"] - 1) % n
        apply(state, legal_actions(state)[0])
        cuts += 1
    assert cuts == n


def test_amb_54_three_to_six_players_and_a_configurable_upper_bound():
    for n in (2, 3, 4, 5, 6):
        assert len(new_game(colonies(n), "count").players) == n
    assert new_game(colonies(2), "two").table is None  # two players: no multiplayer table
    for n in (1, 7):
        with pytest.raises(ValueError):
            new_game(colonies(n), "count")
    with pytest.raises(ValueError):
        new_game(colonies(5), "count", Ruleset(max_players=4))
    with pytest.raises(ValueError):
        Ruleset(max_players=7)
    assert len(new_game(colonies(4), "count", Ruleset(max_players=4)).players) == 4


# --- R 17.1.2: attacks on the neighbours only ------------------------------------------------


def test_r17_1_2_a_player_attacks_only_their_two_neighbours():
    state = position(FOUR)
    attacked = {a.get("player") for a in legal_actions(state) if a.kind == "attack"}
    assert attacked == {BOB, DAN}  # not cid, across the table
    assert reason(state, "attack", target="colony", player="cid") == "NOT_A_NEIGHBOUR"
    assert reason(state, "attack", target="colony") == "NOT_A_NEIGHBOUR"  # whom? (R 17.1.2)
    do(state, "attack", target="colony", player="dan")
    assert (state.combat["attacker"], state.combat["defender"]) == (ANN, DAN)


def test_r17_1_2_with_three_players_both_others_are_neighbours():
    state = position(
        FOUR.replace("players=ann,bob,cid,dan", "players=ann,bob,cid").split("dan ")[0]
    )
    attacked = {a.get("player") for a in legal_actions(state) if a.kind == "attack"}
    assert attacked == {BOB, CID}


def test_r17_1_2_amb_44_neighbours_are_recomputed_after_an_elimination():
    """bob's colony is empty: ann's end phase eliminates him (AMB-44); from then on ann's
    neighbours are cid and dan, and the turn passes from ann straight to cid."""
    state = position(FOUR.replace("bob colony: Katona*10\n", ""))
    assert neighbours(state, ANN) == [BOB, DAN]
    events = do(state, "end_turn")
    assert [(e.data["player"], e.data["by"]) for e in events if e.kind == "eliminated"] == [
        (BOB, ANN)
    ]
    assert neighbours(state, ANN) == [CID, DAN]
    assert neighbours(state, CID) == [DAN, ANN]
    assert state.active == CID
    assert state.players[BOB].hangar == state.players[BOB].surface == []  # left play
    play_until(state, lambda s: pending(s).decision == "main")
    attacked = {a.get("player") for a in legal_actions(state) if a.kind == "attack"}
    assert attacked == {DAN, ANN}


# --- R 17.1.3: "the opponent" is a neighbour the card's user chooses --------------------------


def test_r17_1_3_an_event_naming_the_opponent_asks_which_neighbour():
    """Kiutasítás returns "an enemy ship": ann chooses dan among her neighbours (not cid,
    across the table); only dan's ship can be the target."""
    state = position(FOUR + "ann centre: Kiutasítás\n")
    do(state, "play", card="Kiutasítás")
    p = pending(state)
    assert (p.player, p.decision) == (ANN, "opponent")
    assert sorted(a.get("value") for a in legal_actions(state)) == [BOB, DAN]
    do(state, "choose", value=DAN)
    pass_windows(state)
    assert [state.cards[c].code for c in state.players[DAN].centre] == [
        BY_NAME["Holdimádó"]["code"]
    ]
    for seat in (BOB, CID):
        assert len(state.players[seat].hangar) == 1
    assert view(state, None)["chain"] == []


def test_r17_1_3_the_chosen_neighbour_is_public_on_the_chain():
    state = position(FOUR + "ann centre: Kiutasítás\nbob centre: Felsőbb parancs\n")
    do(state, "play", card="Kiutasítás")
    do(state, "choose", value=BOB)
    assert view(state, CID)["chain"][0]["opponent"] == BOB


def test_r17_1_3_a_triggered_ability_asks_as_it_resolves():
    """Beépített ügynök (start of turn: look at the opponent's centre): ann chooses a
    neighbour when it triggers; only that player's centre is shown to her."""
    text = FOUR.replace("turn=9 active=ann", "turn=8 active=dan")
    state = position(text + "ann canteen: Beépített ügynök\nbob centre: Katona\ndan centre: Katona")
    events = do(state, "end_turn")
    events += play_until(state, lambda s: pending(s).decision == "opponent")
    assert pending(state).player == ANN
    assert sorted(a.get("value") for a in legal_actions(state)) == [BOB, DAN]
    events = do(state, "choose", value=BOB)
    reveals = [e for e in events if e.kind == "reveal"]
    assert [e.data["player"] for e in reveals] == [BOB] and reveals[0].to == (ANN,)


def test_r17_1_3_inside_a_combat_the_opponent_is_the_other_side():
    """docs/rulings.md: a combatant's card means the player it is fighting (no question);
    a player outside the combat, or the ruleset flag combat_opponent="choose", chooses."""
    state = position(FOUR)
    do(state, "attack", target="colony", player="bob")
    assert T.opponent_choices(state, ANN) == [BOB]
    assert T.opponent_choices(state, BOB) == [ANN]
    assert T.opponent_choices(state, CID) == [DAN, BOB]
    flagged = position(FOUR, ruleset=Ruleset(combat_opponent="choose"))
    do(flagged, "attack", target="colony", player="bob")
    assert T.opponent_choices(flagged, ANN) == [BOB, DAN]


def test_r17_1_3_static_opponent_effects_touch_each_neighbour():
    """Birodalmi tisztviselő makes "the opponent's" interrupts cost 1 more: at a table both
    neighbours pay, the player across does not (static_opponent="all": everyone else)."""
    from engine import values as V

    text = FOUR + "ann canteen: Birodalmi tisztviselő\n"
    for seat in (BOB, CID, DAN):
        text += f"{['ann', 'bob', 'cid', 'dan'][seat]} centre: Felsőbb parancs\n"
    for rules, paying in ((Ruleset(), {BOB, DAN}), (Ruleset(static_opponent="all"), {1, 2, 3})):
        state = position(text, ruleset=rules)
        costs = {
            seat: V.card_cost(state, seat, state.cards[state.players[seat].centre[0]])
            for seat in (BOB, CID, DAN)
        }
        assert {seat for seat, cost in costs.items() if cost == 3} == paying


def test_r17_1_3_amb_35_aknagyuru_surcharges_attacks_on_its_controller():
    """Every neighbour of ann has a paid Aknagyűrű: attacking bob or dan costs 1 more; the
    surcharge is on attacks against its controller only (docs/rulings.md)."""
    state = position(FOUR.replace("dan surface: Aknagyűrű (u3)\n", ""))
    do(state, "attack", target="colony", player="dan")
    assert state.players[ANN].credits == 20
    state = position(FOUR)
    do(state, "attack", target="colony", player="bob")
    assert state.players[ANN].credits == 19


def names_an_opponent(d) -> bool:
    """Does the card's printed text (cards_data.cardtext) name an opponent or an enemy?"""
    from cards_data.cardtext import render_text

    text = render_text(d, "en").lower()
    return "opponent" in text or "enem" in text


OPPONENT_CARDS = sorted((d for d in CARDS if names_an_opponent(d)), key=lambda d: d["code"])


def opponent_abilities(d) -> list:
    return [a for a in d.get("abilities") or () if T.ability_mentions_opponent(a)]


def is_static(d) -> bool:
    return all(a["trigger"] == "static" for a in opponent_abilities(d))


# A table where every kind of target exists at every seat: ships of 5 and 7 CR with a
# face-down and a paid armament, paid and face-down bases and crew, cards in every pile.
EVERYTHING = """
{who} credits=30
{who} colony: Katona*8
{who} centre: Katona, Stratéga
{who} surface: Aknagyűrű (u3), Chazma töltet (down u1)
{who} canteen: Katona, Stratéga (down)
{who} hangar: Holdimádó [Páncéllemez, Tüskekilövő (down)], Birodalmi őrhajó
{who} trash: Katona
{who} wasteland: Katona
"""


def snapshot(state, seat) -> str:
    """What an effect could change of a player (their cards by position, not by id)."""
    p = state.players[seat]
    cards = []
    for zone in ("surface", "canteen", "hangar"):
        for cid in p.zone(zone):
            c = state.cards[cid]
            cards.append(
                (zone, c.code, c.orientation, c.damage, c.upgrades, c.paid, c.controller, c.mods)
            )
            for a in c.attachments:
                cards.append(("on", state.cards[a].code, state.cards[a].paid))
    counts = [len(p.zone(z)) for z in ("colony", "centre", "trash", "wasteland")]
    return json.dumps([p.credits, counts, cards])


def use(state, d) -> list:
    """Put `d` to use at ann's turn: play it from the centre, or else (a permanent's
    abilities) run each ability naming the opponent through the effect vocabulary as its
    trigger or activation would. Returns the decisions asked on the way."""
    asked = []
    code = d["code"]
    ann = state.players[ANN]

    def go(action):
        apply(state, action)
        while pending(state) is not None and pending(state).decision != "main":
            p = pending(state)
            asked.append(
                (p.player, p.decision, sorted(a.get("value", -1) for a in legal_actions(state)))
            )
            if p.decision == "opponent":
                apply(state, next(a for a in legal_actions(state) if a.get("value") == DAN))
                continue
            acts = legal_actions(state)
            apply(state, next((a for a in acts if a.kind in ("pass", "keep")), acts[0]))

    in_centre = [c for c in ann.centre if state.cards[c].code == code]
    playable = [a for a in legal_actions(state) if a.kind == "play" and a.get("card") in in_centre]
    if playable and any(a["trigger"] == "on_play" for a in opponent_abilities(d)):
        go(playable[0])
        return asked
    for ability in opponent_abilities(d):
        source = state.cards[in_centre[0]] if in_centre else None
        state.stack.append(effects_frame(ability["effects"], source, ANN))
        settle(state, [])
        if pending(state).decision != "main":
            p = pending(state)
            asked.append(
                (p.player, p.decision, sorted(a.get("value", -1) for a in legal_actions(state)))
            )
            go(next(a for a in legal_actions(state) if a.get("value") == DAN))
    return asked


STATIC_TABLE = """
kgk players=ann,bob,cid,dan turn=9 active=ann
ann colony: Katona*20
ann {zone}: {name}
bob colony: Katona*{bob}
cid colony: Katona*{cid}
dan colony: Katona*20
"""


@pytest.mark.parametrize("d", [d for d in OPPONENT_CARDS if is_static(d)], ids=lambda d: d["code"])
def test_r17_1_3_every_static_card_naming_an_opponent_at_a_four_player_table(d):
    """A continuous "opponent" effect has no user to choose: it touches each neighbour of its
    controller and nobody across the table (docs/rulings.md; static_opponent="all" is the
    alternative): cost changes for bob and dan, Aknagyűrű-like surcharges on attacks against
    ann, a condition on "the opponent's" colony read at the neighbours."""
    from engine import values as V

    zone = {"ship": "hangar", "crew": "canteen", "base": "surface"}[d["type"]]
    text = STATIC_TABLE.format(
        zone=zone, name=d["name"] + " (u9)" * (zone == "surface"), bob=20, cid=20
    )
    state = position(text)
    assert state.cards[state.players[ANN].zone(zone)[0]].paid
    for eff in (e for a in opponent_abilities(d) for e in a["effects"]):
        if eff["effect"] == "cost_modifier":
            probe = next(c for c in CARDS if c["type"] == eff["filter"]["type"])
            plus = {s: V._cost_delta(state, s, probe, "card") for s in (BOB, CID, DAN)}
            assert plus == {BOB: 1, CID: 0, DAN: 1}
        elif eff["effect"] == "attack_surcharge":
            assert [V.attack_surcharge(state, s, None, ANN) for s in (BOB, DAN)] == [1, 1]
            assert V.attack_surcharge(state, BOB, None, CID) == 0
        elif eff["effect"] == "modify_stat":  # Az Örök Éhség: an opponent's colony <= 10
            ship = state.cards[state.players[ANN].hangar[0]]
            base = V.stat(state, ship, "firepower")
            near = position(STATIC_TABLE.format(zone=zone, name=d["name"], bob=10, cid=20))
            far = position(STATIC_TABLE.format(zone=zone, name=d["name"], bob=20, cid=10))
            boosted = [
                V.stat(s, s.cards[s.players[ANN].hangar[0]], "firepower") for s in (near, far)
            ]
            assert boosted == [base + eff["amount"], base]
        else:
            raise AssertionError(f"no check for {eff['effect']}")


def test_the_opponent_cards_are_the_ones_whose_text_names_one():
    """R 17.1.3 is applied by the effect vocabulary (engine.table.mentions_opponent), not
    card by card: the cards it finds are exactly those whose text names an opponent."""
    found = {
        d["code"]
        for d in CARDS
        if any(T.ability_mentions_opponent(a) for a in d.get("abilities") or ())
    }
    assert found == {d["code"] for d in OPPONENT_CARDS}
    assert len(OPPONENT_CARDS) >= 50


@pytest.mark.parametrize(
    "d", [d for d in OPPONENT_CARDS if not is_static(d)], ids=lambda d: d["code"]
)
def test_r17_1_3_every_card_naming_an_opponent_at_a_four_player_table(d):
    """Each card whose text names an opponent, used by ann at a four-player table: ann is
    asked which neighbour (bob or dan, never cid across the table) before anything names one,
    she takes dan, and nothing of bob's or cid's changes (R 17.1.2, 17.1.3)."""
    text = "kgk players=ann,bob,cid,dan turn=9 active=ann\n"
    for who in ("ann", "bob", "cid", "dan"):
        text += EVERYTHING.format(who=who)
    text += f"ann centre: {d['name']}\n"
    state = position(text)
    before = {seat: snapshot(state, seat) for seat in (BOB, CID)}
    asked = use(state, d)
    choices = [options for player, decision, options in asked if decision == "opponent"]
    assert choices, f"{d['name']}: nobody was asked which opponent"
    assert all(options == [BOB, DAN] for options in choices)
    assert all(player == ANN for player, decision, _ in asked if decision == "opponent")
    each = '"each"' in json.dumps(d.get("abilities"))
    if not each:  # "each player" effects touch everybody by design
        assert {seat: snapshot(state, seat) for seat in (BOB, CID)} == before, d["name"]


# --- R 17.1.4: no attack in one's own first turn; 5 credits from the first turn on -------------


def test_r17_1_4_nobody_attacks_in_their_own_first_turn():
    text = FOUR.replace("turn=9 active=ann", "turn=3 active=cid start=ann")
    state = position(text)
    assert state.table["turns"] == [1, 1, 1, 0]
    assert ids(state, "attack") == []  # cid's first turn, with an active ship
    assert reason(state, "attack", target="colony", player="bob") == "FIRST_TURN_NO_ATTACK"
    do(state, "end_turn")
    play_until(state, lambda s: pending(s).decision == "main")
    assert state.active == DAN and ids(state, "attack") == []  # dan's first turn too
    do(state, "end_turn")
    play_until(state, lambda s: pending(s).decision == "main")
    assert state.active == ANN and ids(state, "attack")  # ann's second turn


@pytest.mark.parametrize("n", [3, 5])
def test_r17_1_4_everyone_gets_5_credits_in_every_start_phase(n):
    state = new_game(colonies(n), f"income-{n}")
    events = play_until(state, lambda s: s.turn > 2 * n)
    income = [
        (e.data["player"], e.data["change"])
        for e in events
        if e.kind == "credits" and e.data["why"] == "income"
    ]
    start = state.starting_player
    assert income[: 2 * n] == [((start + i) % n, 5) for i in range(2 * n)]  # not 1/2/3/4


# --- R 17.1.5: no information about centres or unpaid cards between any two players -------------


def test_r17_1_5_every_pair_of_players_keeps_centres_and_unpaid_cards_secret():
    text = "kgk players=ann,bob,cid,dan turn=9 active=ann\n"
    secret = {ANN: "Tüzér", BOB: "Felsőbb parancs", CID: "Kiutasítás", DAN: "Kaszás"}
    unpaid = {ANN: "Páncéllemez", BOB: "Chazma töltet", CID: "Stratéga", DAN: "Tüskekilövő"}
    for seat, who in enumerate(("ann", "bob", "cid", "dan")):
        text += f"{who} colony: Katona*5\n{who} centre: {secret[seat]}\n"
        text += f"{who} hangar: Holdimádó [{unpaid[seat]} (down)]\n"
    state = position(text)
    for viewer in (ANN, BOB, CID, DAN, None):
        shown = json.dumps(view(state, viewer), ensure_ascii=False)
        for seat in (ANN, BOB, CID, DAN):
            if seat != viewer:
                assert secret[seat] not in shown and unpaid[seat] not in shown, (viewer, seat)
            else:
                assert secret[seat] in shown and unpaid[seat] in shown


# --- R 17.1.6 / AMB-44: elimination and ranking ----------------------------------------------


def test_amb_44_only_neighbours_are_eliminated_at_the_end_of_an_end_phase():
    """cid (across from ann) has an empty colony: ann's end phase does not eliminate him;
    bob's does, and bob is credited."""
    state = position(FOUR.replace("cid colony: Katona*10\n", ""))
    events = do(state, "end_turn")
    assert not [e for e in events if e.kind == "eliminated"]
    events = play_until(state, lambda s: s.table["out"] or s.active == DAN)
    assert [(e.data["player"], e.data["by"]) for e in events if e.kind == "eliminated"] == [
        (CID, BOB)
    ]
    assert state.table["eliminations"] == [0, 1, 0, 0] and state.table["out"] == [CID]


@pytest.mark.parametrize("repeat, out", [(False, [BOB]), (True, [BOB, CID])])
def test_amb_44_the_new_neighbours_wait_for_the_next_end_phase(repeat, out):
    """Five players, bob and cid empty: ann eliminates bob; cid becomes her neighbour only
    then, so he is eliminated at the next neighbour's end phase (the flag
    elimination_repeat=True checks the new neighbours at once)."""
    text = "kgk players=ann,bob,cid,dan,eve turn=9 active=ann\n"
    for who in ("ann", "dan", "eve"):
        text += f"{who} colony: Katona*5\n"
    state = position(text, ruleset=Ruleset(elimination_repeat=repeat))
    do(state, "end_turn")
    assert state.table["out"] == out


def test_r17_1_6_the_game_ends_with_one_player_left_and_a_full_ranking():
    """Three players; bob and cid are both empty when ann's end phase ends: both out at
    once, ann wins. Tied (no eliminations, out together): bob, the sooner clockwise from
    ann, ranks above cid (docs/rulings.md)."""
    state = position("kgk players=ann,bob,cid turn=9 active=ann\nann colony: Katona*3\n")
    events = do(state, "end_turn")
    assert pending(state) is None
    assert (state.winner, state.result) == (ANN, "elimination")
    assert state.table["ranking"] == [ANN, BOB, CID]
    over = [e for e in events if e.kind == "game_over"]
    assert over[0].data == {"winner": ANN, "reason": "elimination", "ranking": [ANN, BOB, CID]}
    assert view(state, BOB)["table"]["ranking"] == [ANN, BOB, CID]


def test_r17_1_6_most_eliminations_wins_even_if_out_and_ties_go_to_who_stayed_longer():
    state = position("kgk players=ann,bob,cid,dan turn=9 active=ann\n")
    table = state.table
    # ann eliminated bob and cid, then dan eliminated ann: ann has more eliminations
    table["eliminated"] = [
        {"seat": BOB, "by": ANN, "turn": 10},
        {"seat": CID, "by": ANN, "turn": 14},
        {"seat": ANN, "by": DAN, "turn": 20},
    ]
    table["out"] = [BOB, CID, ANN]
    table["eliminations"] = [2, 0, 0, 1]
    assert T.ranking(state) == [ANN, DAN, CID, BOB]  # cid stayed longer than bob
    table["eliminations"] = [1, 0, 0, 1]  # a tie on eliminations: dan stayed longer
    assert T.ranking(state)[:2] == [DAN, ANN]


def test_amb_44_an_eliminated_player_takes_no_turn_and_answers_nothing():
    state = position(FOUR.replace("bob colony: Katona*10\n", "") + "bob centre: Felsőbb parancs\n")
    do(state, "end_turn")
    asked = set()
    for _ in range(400):
        p = pending(state)
        if p is None or state.turn > 20:
            break
        asked.add(p.player)
        acts = legal_actions(state)
        apply(state, next((a for a in acts if a.kind in ("pass", "end_turn")), acts[0]))
    assert BOB not in asked
    assert legal_actions(state, BOB) == []


# --- response windows (R 12.2 at a table; docs/rulings.md) ----------------------------------


def window_order(state) -> list:
    """Who is asked, passing each time, until the window closes or its chain resolves."""
    order = []
    window, chain = state.stack[-1], len(state.chain)
    while state.stack[-1] is window and len(state.chain) >= chain:
        order.append(pending(state).player)
        apply(state, "pass")
    return order


def test_r12_2_a_window_asks_everyone_clockwise_from_the_actor_and_closes_after_all_pass():
    """Everyone holds a card (so nobody passes by themselves, NOTES.md): after ann plays an
    event, bob, cid and dan are asked in turn, then ann; all four passes close the window."""
    text = FOUR + "ann centre: Fejpénz, Katona\nbob centre: Katona\ncid centre: Katona\n"
    state = position(text + "dan centre: Katona\n")
    do(state, "play", card="Fejpénz")
    do(state, "choose", value=BOB)
    assert window_order(state) == [BOB, CID, DAN, ANN]
    assert state.chain == []  # resolved (then a new window opens, AMB-13)
    assert state.players[ANN].credits == 20 - 1 + 1  # one ship of bob's (R 17.1.3)


def test_a_window_skips_a_seat_with_nothing_to_play_on_public_information():
    text = FOUR + "ann centre: Fejpénz, Katona\nbob centre: Katona\ndan centre: Katona\n"
    state = position(text)
    do(state, "play", card="Fejpénz")
    do(state, "choose", value=DAN)
    assert window_order(state) == [BOB, DAN, ANN]  # cid's centre is empty: he passes


def test_responders_combatants_flag_keeps_the_others_out_of_a_combat():
    text = FOUR + "bob centre: Katona\ncid centre: Katona\ndan centre: Katona\n"
    state = position(text, ruleset=Ruleset(responders="combatants"))
    do(state, "attack", target="colony", player="bob")
    assert set(window_order(state)) <= {ANN, BOB}
    state = position(text)
    do(state, "attack", target="colony", player="bob")
    assert window_order(state) == [BOB, CID, DAN]  # ann's centre is empty


def test_two_player_games_keep_their_opponent():
    """The two-player game is the special case: no table, the other seat is the opponent."""
    state = new_game(colonies(2), "two")
    assert state.table is None and state.other(0) == 1
    assert "table" not in view(state, 0)
    four = new_game(colonies(4), "four")
    with pytest.raises(AssertionError):
        four.other(0)


def test_card_helper_finds_cards_per_seat():
    state = position(FOUR)
    assert card(state, "Holdimádó", seat=CID).owner == CID


def test_the_multiplayer_only_names_are_the_engine_s_new_ones():
    """tests/engine_vocabulary.py keeps the names only a table produces apart (a two-player
    table never meets them): they are engine names, and nothing else is set apart."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from engine_vocabulary import MULTIPLAYER_ONLY, vocabulary

    every, two = vocabulary(multiplayer=True), vocabulary(multiplayer=False)
    for kind, names in MULTIPLAYER_ONLY.items():
        assert names <= every[kind] and not names & two[kind]
    assert {k: every[k] - two[k] for k in every if every[k] != two[k]} == MULTIPLAYER_ONLY
