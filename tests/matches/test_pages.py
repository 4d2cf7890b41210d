"""The play pages (matches/views.py): lobby, game page, replay page, in both languages.

Embedded default: SQLite, eager Celery; on-commit work (drain, bot moves) runs through
django_capture_on_commit_callbacks as it would after a real commit.
"""

import json
import random
import re

import pytest
from django.test import Client

from matches import services
from matches.models import Match

from .kit import play_until_over

pytestmark = pytest.mark.django_db


def initial_state(page: str) -> dict:
    found = re.search(
        r'<script id="initial-state" type="application/json">(.*?)</script>', page, re.S
    )
    return json.loads(found.group(1))


def strings(page: str) -> dict:
    found = re.search(r'<script id="strings" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(found.group(1))


def test_lobby_needs_login(client):
    response = client.get("/en/play/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_nav_has_a_play_link(client):
    assert 'href="/hu/play/"' in client.get("/hu/").content.decode()


def test_lobby_in_both_languages_lists_decks_with_legality(alice_client, decks):
    en = alice_client.get("/en/play/").content.decode()
    hu = alice_client.get("/hu/play/").content.decode()
    assert "Alice colony" in en and "Heuristic bot" in en and "Open challenges" in en
    assert "Heurisztikus bot" in hu and "Nyitott kihívások" in hu
    assert "Original (tournament) ✓" in en  # legal for the tournament ruleset (R 9)
    assert "Eredeti (verseny) ✓" in hu


def test_play_a_bot_from_the_lobby(alice_client, decks, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(
            "/en/play/",
            {"action": "bot", "bot": "random", "deck": decks[0].pk, "ruleset": "original"},
        )
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/en/play/{match.pk}/"
    assert match.status == Match.ACTIVE
    page = alice_client.get(response["Location"]).content.decode()
    state = initial_state(page)
    assert state["you"] == 0 and state["id"] == match.pk
    assert 'id="side-top"' in page and 'id="action-bar"' in page and 'id="log"' in page


def test_an_illegal_deck_shows_its_problems(alice_client, players, catalogue):
    """R 9.7: every problem is shown; the lobby answers 422, no match is created."""
    from decks.services import save_deck

    bad = save_deck(players[0], name="Too small", cards=[("KG1-001", 3), ("KG1-002", 3)])
    response = alice_client.post("/en/play/", {"action": "bot", "bot": "heuristic", "deck": bad.pk})
    assert response.status_code == 422
    page = response.content.decode()
    assert "not legal" in page and "45" in page  # R 9.1: the colony size problem, in words
    assert not Match.objects.exists()
    hu = alice_client.post("/hu/play/", {"action": "bot", "bot": "heuristic", "deck": bad.pk})
    assert hu.status_code == 422 and "nem szabályos" in hu.content.decode()


def test_lobby_bad_inputs_are_4xx_not_500(alice_client, decks):
    cases = [
        ({"action": "bot", "bot": "genius", "deck": decks[0].pk}, 400),
        ({"action": "bot", "bot": "random", "deck": ""}, 400),
        ({"action": "challenge", "opponent": "nobody-here", "deck": decks[0].pk}, 404),
        ({"action": "challenge", "opponent": "alice", "deck": decks[0].pk}, 422),
        ({"action": "accept", "match": "999", "deck": decks[0].pk}, 404),
        ({"action": "fly"}, 400),
        ({"action": "accept", "match": "x", "deck": decks[0].pk}, 404),
    ]
    for data, status in cases:
        response = alice_client.post("/en/play/", data)
        assert response.status_code == status, (data, response.status_code)
        assert 'id="lobby-error"' in response.content.decode()


def test_challenge_accept_and_decline(alice_client, players, decks):
    alice, bob = players
    bob_client = Client()
    bob_client.force_login(bob)
    alice_client.post("/en/play/", {"action": "challenge", "opponent": "bob", "deck": decks[0].pk})
    invited = Match.objects.get(status=Match.INVITED)
    page = bob_client.get("/en/play/").content.decode()
    assert "Challenges to you" in page and f'data-match="{invited.pk}"' in page
    response = bob_client.post("/en/play/", {"action": "decline", "match": invited.pk})
    assert response.status_code == 302
    invited.refresh_from_db()
    assert invited.status == Match.ABORTED
    alice_client.post("/en/play/", {"action": "challenge", "opponent": "", "deck": decks[0].pk})
    open_match = Match.objects.get(status=Match.OPEN)
    assert f'data-match="{open_match.pk}"' in bob_client.get("/en/play/").content.decode()
    response = bob_client.post(
        "/en/play/", {"action": "accept", "match": open_match.pk, "deck": decks[1].pk}
    )
    assert response.status_code == 302 and response["Location"] == f"/en/play/{open_match.pk}/"
    open_match.refresh_from_db()
    assert open_match.status == Match.ACTIVE


def test_game_page_shows_only_the_viewers_projection(players, decks):
    """R 16 / R 3.1: the page embeds the state of the viewer's own seat; a spectator's page
    holds no card of either centre, and a player's page none of the opponent's centre."""
    alice, bob = players
    match = services.create_match(
        players=(alice, bob),
        colonies=(make_colony(decks[0]), make_colony(decks[1])),
        decks=decks,
        seed=7,
    )
    spectator = Client().get(f"/en/play/{match.pk}/").content.decode()
    state = initial_state(spectator)
    assert state["you"] is None and state["legal_actions"] == []
    for player in state["view"]["players"]:  # only counts: no card, not even an id (R 16.2)
        assert player["centre"] is None and player["counts"]["centre"] == 5
    as_alice = Client()
    as_alice.force_login(alice)
    state = initial_state(as_alice.get(f"/en/play/{match.pk}/").content.decode())
    assert state["you"] == 0
    assert all("code" in c for c in state["view"]["players"][0]["centre"])
    assert state["view"]["players"][1]["centre"] is None
    bob_codes = {c for c in decks[1].entries.values_list("card__code", flat=True)}
    spectator_codes = set(re.findall(r'"code": "(KG1-\d+)"', spectator))
    assert spectator_codes.isdisjoint(bob_codes - visible_codes(state, 1))


def make_colony(deck):
    return [e.card.code for e in deck.entries.all() for _ in range(e.count)]


def visible_codes(state, seat):
    p = state["view"]["players"][seat]
    return {
        c["code"]
        for zone in ("surface", "canteen", "hangar", "trash")
        for c in p[zone]
        if "code" in c
    }


def test_game_page_strings_follow_the_language(alice_client, players, decks):
    match = services.create_match(
        players=(players[0], None), colonies=(make_colony(decks[0]),) * 2, bots=(None, "random")
    )
    hu = alice_client.get(f"/hu/play/{match.pk}/").content.decode()
    en = alice_client.get(f"/en/play/{match.pk}/").content.decode()
    assert (
        "Feladás" in hu and "Játéknapló" in hu and strings(hu)["zones"]["wasteland"] == "Pusztulat"
    )
    assert "Concede" in en and "Game log" in en and strings(en)["zones"]["wasteland"] == "Wasteland"
    assert strings(hu)["events"]["fire"] == "%(shooter)s rálő: %(target)s"


def test_unknown_match_is_404(alice_client):
    assert alice_client.get("/en/play/987654/").status_code == 404
    assert alice_client.get("/en/play/987654/replay/").status_code == 404


def test_replay_page_of_a_finished_game(
    alice_client, players, decks, django_capture_on_commit_callbacks
):
    """A finished game (R 15) can be stepped through from either seat; an active one says so."""
    with django_capture_on_commit_callbacks(execute=True):
        match = services.create_match(
            players=(players[0], None),
            colonies=(make_colony(decks[0]),) * 2,
            bots=(None, "random"),
            engine_options={"turn_limit": 4},
        )
    page = alice_client.get(f"/en/play/{match.pk}/replay/").content.decode()
    assert 'id="replay-unavailable"' in page
    play_until_over(alice_client, match.pk, random.Random(3), django_capture_on_commit_callbacks)
    for seat in ("0", "1"):
        page = alice_client.get(f"/en/play/{match.pk}/replay/?seat={seat}").content.decode()
        assert 'id="replay-controls"' in page
        assert f'data-seat="{seat}"' in page
    finished = alice_client.get("/en/play/").content.decode()
    assert f'href="/en/play/{match.pk}/replay/"' in finished


def test_game_page_of_a_challenge_not_yet_accepted(alice_client, decks):
    alice_client.post("/en/play/", {"action": "challenge", "opponent": "", "deck": decks[0].pk})
    match = Match.objects.get(status=Match.OPEN)
    response = alice_client.get(f"/en/play/{match.pk}/")
    assert response.status_code == 200
    state = initial_state(response.content.decode())
    assert state["status"] == "open" and state["view"] is None and state["legal_actions"] == []


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_named_challenge_waits_for_its_player_and_can_be_withdrawn(
    alice_client, players, decks, lang
):
    """Issue 34: the page of a challenge to bob said "...when anyone accepts" and offered no
    way back; it names bob, bob's own page sends him to accept it, and alice withdraws it."""
    alice, bob = players
    alice_client.post("/en/play/", {"action": "challenge", "opponent": "bob", "deck": decks[0].pk})
    match = Match.objects.get(status=Match.INVITED)
    page = alice_client.get(f"/{lang}/play/{match.pk}/").content.decode()
    wait = page.split('id="challenge-wait"', 1)[1].split("</div>", 1)[0]
    if lang == "en":
        assert "The game starts when bob accepts the challenge." in wait
        assert "Withdraw the challenge" in wait
    else:
        assert "A játszma akkor kezdődik, amikor bob elfogadja a kihívást." in wait
        assert "Kihívás visszavonása" in wait
    assert "anyone" not in page and "valaki" not in wait
    bob_client = Client()
    bob_client.force_login(bob)
    bobs = bob_client.get(f"/en/play/{match.pk}/").content.decode()
    assert "You are challenged" in bobs and 'id="withdraw"' not in bobs
    response = alice_client.post(f"/{lang}/play/", {"action": "cancel", "match": match.pk})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.ABORTED
    assert (
        'id="challenge-wait"' not in alice_client.get(f"/{lang}/play/{match.pk}/").content.decode()
    )


def test_an_open_challenge_waits_for_anyone_and_can_be_withdrawn(alice_client, decks):
    alice_client.post("/en/play/", {"action": "challenge", "opponent": "", "deck": decks[0].pk})
    match = Match.objects.get(status=Match.OPEN)
    page = alice_client.get(f"/en/play/{match.pk}/").content.decode()
    assert "The game starts when someone accepts the challenge." in page
    assert 'value="cancel" id="withdraw"' in page


def test_the_lobby_and_the_game_page_need_no_inline_script(alice_client, decks):
    """A Content-Security-Policy without 'unsafe-inline' must not break them: no inline event
    handler, no inline script code (json_script data blocks only); the lobby's bot buttons
    say which bot by their own value."""
    lobby = alice_client.get("/en/play/").content.decode()
    response = alice_client.post("/en/play/", {"action": "bot-heuristic", "deck": decks[0].pk})
    match = Match.objects.get()
    assert response.status_code == 302 and match.seats.get(seat=1).bot == "heuristic"
    game = alice_client.get(response["Location"]).content.decode()
    for page in (lobby, game):
        assert not re.search(r"\son[a-z]+=", page)
        scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
        assert all("src=" in attrs or 'type="application/json"' in attrs for attrs, _ in scripts)


@pytest.mark.parametrize("strength", ["easy", "normal", "hard"])
def test_the_lobby_offers_the_thinking_bot_at_three_strengths(alice_client, decks, strength):
    """Issue 18: the search bot is chosen like the other bots (a lobby button whose value
    names it), with its strength in the player's language; the seat stores its engine name."""
    labels = {"easy": "könnyű", "normal": "közepes", "hard": "nehéz"}
    lobby = alice_client.get("/hu/play/").content.decode()
    assert f'value="bot-search-{strength}"' in lobby
    assert f"Gondolkodó bot: {labels[strength]}" in lobby
    response = alice_client.post(
        "/en/play/", {"action": f"bot-search-{strength}", "deck": decks[0].pk}
    )
    match = Match.objects.get()
    assert response.status_code == 302 and match.seats.get(seat=1).bot == f"search-{strength}"
    page = alice_client.get(response["Location"]).content.decode()
    assert (
        f"thinking bot ({strength})" in page and "search-" + strength not in strings(page).values()
    )


def test_a_lobby_line_names_a_bot_in_the_language_and_shows_no_game_number(alice_client, decks):
    """A game against a bot in the lobby: the bot by its name in the player's language (not
    its engine code, not "(bot)" after an English name), and when it started, not its id."""
    match = services.challenge(decks[0].owner, decks[0], bot="search-easy")
    line = re.search(
        rf'<li class="match-item" data-match="{match.pk}">(.*?)</li>',
        alice_client.get("/hu/play/").content.decode(),
        re.S,
    ).group(1)
    text = re.sub(r"<[^>]+>", " ", line)
    assert "gondolkodó bot (könnyű)" in text
    assert "search-easy" not in text and "(bot)" not in text and f"#{match.pk}" not in text
    assert match.started.astimezone().strftime("%Y") in text  # the date it started
