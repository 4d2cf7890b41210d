"""The game as printed, online (issue 34): a position set up with the site's own card
definitions (cards_data.definitions), played by two people over the HTTP API, each move
applied by the drain (a real Celery worker process on PostgreSQL and Redis; and the
embedded default's eager drain). What the table shows is what the rules say:

- R 5.2 / R 4.3.3: a paid armament's printed bonuses add to its ship's values: speed,
  firepower, armour, bombardment, and negative ones (floored at 0, R 5.1.3);
- R 4.4.3 / R 4.4.4: paid crew aboard a ship in combat add theirs;
- R 4.5.4: a base is paid only with as many upgrades as its limit; R 4.5.5 / AMB-17: an
  "X" base may be paid with none.
"""

import time

import pytest

from cards_data.definitions import card_dicts
from engine import notation
from matches import services
from matches.models import Match

from .kit import legal_colony, logged_in, put_position

ALICE, BOB = 0, 1


@pytest.fixture(
    params=[
        # a worker reads what the test commits: no test transaction around it
        pytest.param(
            "worker", marks=[pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
        ),
        pytest.param("embedded"),
    ]
)
def table(request):
    """(alice's client, bob's client, play) where play(match, seat, action id) posts the
    move and returns the match's payload for that seat once the move is applied."""
    if request.param == "worker":  # first: its database is a transactional one
        request.getfixturevalue("celery_worker_process")
    clients = [logged_in(user) for user in request.getfixturevalue("players")]
    if request.param == "worker":

        def applied(post, match_id, version):
            post()
            deadline = time.monotonic() + 60
            while Match.objects.get(pk=match_id).version <= version:
                assert time.monotonic() < deadline, "the worker did not apply the move"
                time.sleep(0.01)
    else:
        capture = request.getfixturevalue("django_capture_on_commit_callbacks")

        def applied(post, match_id, version):
            with capture(execute=True):
                post()

    def play(match_id, seat, action_id):
        client = clients[seat]
        payload = client.get(f"/api/matches/{match_id}/").json()
        assert action_id in [a["id"] for a in payload["legal_actions"]], (
            action_id,
            [a["id"] for a in payload["legal_actions"]],
        )
        body = {
            "client_action_id": f"t{payload['version']}",
            "expected_version": payload["version"],
            "action": action_id,
        }

        def post():
            response = client.post(f"/api/matches/{match_id}/actions/", body, "application/json")
            assert response.status_code in (200, 202), response.json()

        applied(post, match_id, payload["version"])
        return client.get(f"/api/matches/{match_id}/").json()

    return clients, play


def set_position(players, text: str):
    """A match between alice and bob whose game is the position `text` (engine.notation),
    its cards the site's definitions; returns (match, the engine state of the position)."""
    match = services.create_match(
        players=players, colonies=[legal_colony(1), legal_colony(2)], seed=34
    )
    state = notation.parse(text, list(card_dicts().values()))
    return put_position(match, state), state


def ship(payload, name_code: str) -> dict:
    for player in payload["view"]["players"]:
        for card in player["hangar"] or []:
            if card["code"] == name_code:
                return card
    raise AssertionError(f"no {name_code} in a hangar")


def stats(card) -> str:
    s = card["stats"]
    return f"{s['speed']}-{s['firepower']}-{s['armour']}-{s['bombardment']}"


def card_id(state, name: str) -> int:
    return notation.find(state, name)


def pass_until_main(play, match_id, payload):
    """Both players let the chain resolve (R 12.2): pass until alice decides in her main
    phase again."""
    for _ in range(6):
        waiting = payload["pending"]
        if waiting["decision"] == "main" and waiting["player"] == ALICE:
            return payload
        payload = play(match_id, waiting["player"], "pass")
    raise AssertionError(f"still {payload['pending']}")


VASOKOL, BASTYA = "KG1-006", "KG1-007"  # Vasököl 4-3-2-0, Bástya 2-3-4-2 (as printed)

ARMAMENTS = """
kgk players=alice,bob turn=4 active=alice
alice credits=20
alice colony: Járőr-7*20
alice hangar: Vasököl [Célzóradar (down), Nehézágyú (down)], Bástya [Páncéllemez (down), Bombakioldó (down), Hajtóműtuning (down)]
bob credits=0
bob colony: Járőr-7*20
bob hangar: Kísérőnaszád
"""


def test_r5_2_paid_armaments_add_their_printed_bonuses_online(table, players):
    """R 5.2 / R 4.3.3 / R 5.1.3, each bonus kind in turn, as the table shows them:
    Célzóradar FP +1, Nehézágyú SPD -2 FP +3 (negative), Páncéllemez ARM +2,
    Bombakioldó BMB +2, Hajtóműtuning SPD +2."""
    _clients, play = table
    match, state = set_position(players, ARMAMENTS)
    steps = [
        ("Célzóradar", VASOKOL, "4-4-2-0"),
        ("Nehézágyú", VASOKOL, "2-7-2-0"),
        ("Páncéllemez", BASTYA, "2-3-6-2"),
        ("Bombakioldó", BASTYA, "2-3-6-4"),
        ("Hajtóműtuning", BASTYA, "4-3-6-4"),
    ]
    for name, carrier, expected in steps:
        payload = play(match.pk, ALICE, f"pay:card={card_id(state, name)}")
        payload = pass_until_main(play, match.pk, payload)
        assert stats(ship(payload, carrier)) == expected, name
    assert payload["view"]["players"][ALICE]["credits"] == 20 - (1 + 2 + 2 + 2 + 1)


CREW = """
kgk players=alice,bob turn=4 active=alice
alice credits=5
alice colony: Járőr-7*20
alice canteen: Harci droid, Lázadó hadnagy
alice hangar: Bástya
bob credits=0
bob colony: Járőr-7*20
bob hangar: Kísérőnaszád
"""


def test_r4_4_3_crew_aboard_add_their_bonuses_and_fight_with_them_online(table, players):
    """R 4.4.3 / R 4.4.4: Harci droid (FP +1 ARM +1) and Lázadó hadnagy (SPD -1 FP +2)
    board Bástya (2-3-4-2) in the equip step: 2-4-5-2, then 1-6-5-2. Kísérőnaszád's
    1-damage shot leaves it 4 armour of 5 (R 5.4.1), and Bástya's 6 firepower destroys the
    2-armour Kísérőnaszád (R 11.4.4)."""
    _clients, play = table
    match, state = set_position(players, CREW)
    bastya, droid = card_id(state, "Bástya"), card_id(state, "Harci droid")
    lieutenant, escort = card_id(state, "Lázadó hadnagy"), card_id(state, "Kísérőnaszád")
    payload = play(match.pk, ALICE, "attack:target=colony")
    if payload["pending"]["decision"] == "attackers":  # with the help off (KGK_ASSIST=0)
        payload = play(match.pk, ALICE, f"choose:value={bastya}")
    # Bástya, her only ship, attacks: a choice with one answer, taken for her (issue 34)
    assert payload["pending"]["decision"] == "board"
    payload = play(match.pk, ALICE, f"board:card={droid},ship={bastya}")
    assert stats(ship(payload, BASTYA)) == "2-4-5-2"
    payload = play(match.pk, ALICE, f"board:card={lieutenant},ship={bastya}")
    assert stats(ship(payload, BASTYA)) == "1-6-5-2"
    play(match.pk, BOB, f"choose:value={escort}")
    play(match.pk, BOB, f"fire:ship={escort},target={bastya}")
    payload = play(match.pk, ALICE, "hold_fire")  # R 11.4.4.6.2: no return fire
    assert ship(payload, BASTYA)["stats"]["armour"] == 4  # 5 less the 1 damage
    payload = play(match.pk, ALICE, f"fire:ship={bastya},target={escort}")
    bob_hangar = payload["view"]["players"][BOB]["hangar"]
    assert [c["code"] for c in bob_hangar] == []  # 6 firepower through 2 armour


BASES = """
kgk players=alice,bob turn=4 active=alice
alice credits=6
alice colony: Járőr-7*20
alice surface: Kiképzőtábor (down u1), Genetikai kutatás (down)
alice hangar: Vasököl
bob credits=0
bob colony: Járőr-7*20
bob hangar: Kísérőnaszád
"""


def test_r4_5_4_a_base_is_paid_only_with_its_upgrades_online(table, players):
    """R 4.5.4: Kiképzőtábor (limit 3) with 1 upgrade cannot be paid; two upgrades bought
    this turn (R 4.5.2: at most 2) make 3 and it can. R 4.5.5 / AMB-17: Genetikai kutatás
    (limit X) can be paid with none."""
    _clients, play = table
    match, state = set_position(players, BASES)
    camp, research = card_id(state, "Kiképzőtábor"), card_id(state, "Genetikai kutatás")
    payload = play(match.pk, ALICE, f"upgrade:card={camp}")
    offered = [a["id"] for a in payload["legal_actions"]]
    assert f"pay:card={camp}" not in offered  # 2 of 3 upgrades
    assert f"pay:card={research}" in offered  # X: no requirement
    payload = play(match.pk, ALICE, f"upgrade:card={camp}")
    offered = [a["id"] for a in payload["legal_actions"]]
    assert f"pay:card={camp}" in offered  # 3 of 3
    assert f"upgrade:card={camp}" not in offered  # two bought this turn (R 4.5.2)
