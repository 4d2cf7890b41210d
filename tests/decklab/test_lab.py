"""Deck lab: the gauntlet, splitting a run into chunks, playing them, the results and the API.

Runs here use the embedded default (eager Celery): every chunk is played inside the request.
"""

import json
import re

import pytest
from django.urls import reverse

from decklab import chunks, services, simulation
from decklab.models import LabChunk, LabRun
from decklab.reference import DATA_FILE, build_reference_decks, reference_decks
from decklab.selectors import rate, run_results
from decks import play
from decks.play import expand as colony_codes
from engine.catalog import RACE_PAIRS, RACES
from engine.colonies import load_cards
from engine.deck import check_deck

API = "/api/decklab/runs/"
EN = {"accept-language": "en"}  # the API answers in the request's language (default hu)


def test_reference_colonies_are_legal_and_cover_every_race():
    """R 9.1-9.3: 45 cards, at most 3 per name, no opposing pair; R 7.1: all eight races."""
    by_code = {card["code"]: card for card in load_cards()}
    covered = set()
    for deck in reference_decks():
        pairs = [(by_code[code], n) for code, n in deck["cards"]]
        assert check_deck(pairs) == [], deck["key"]
        assert len(colony_codes(deck["cards"])) == 45
        assert {by_code[c]["race"] for c, _ in deck["cards"]} - {None} <= set(deck["races"])
        covered |= set(deck["races"])
        for a, b in RACE_PAIRS:
            assert not {a, b} <= set(deck["races"])
    assert covered == set(RACES)


def test_reference_file_is_what_the_builder_makes_from_the_card_set():
    stored = json.loads(DATA_FILE.read_text(encoding="utf-8"))["decks"]
    assert stored == build_reference_decks(load_cards())


@pytest.mark.parametrize("games", [1, 3, 4, 7, 100, 1000, 5000])
def test_split_spreads_every_game_once_over_the_opponents(games):
    chunks = services.split_games(games, ["a", "b", "c", "d"])
    assert sum(n for _, _, n in chunks) == games
    assert all(0 < n <= services.CHUNK_GAMES for _, _, n in chunks)
    per = {k: sum(n for o, _, n in chunks if o == k) for k in "abcd"}
    assert max(per.values()) - min(per.values()) <= 1
    for key in "abcd":  # the first-game indexes tile 0..share-1 without gaps
        firsts = sorted((f, n) for o, f, n in chunks if o == key)
        assert [f for f, _ in firsts] == list(range(0, per[key], services.CHUNK_GAMES))


def test_wilson_interval_matches_the_textbook_value():
    """5 wins of 10: p = 0.5, 95 % Wilson interval 0.2366-0.7634."""
    assert rate(5, 10) == {"wins": 5, "games": 10, "rate": 50.0, "low": 23.7, "high": 76.3}
    assert rate(0, 0)["rate"] is None


def test_the_same_seed_plays_the_same_games():
    """Games replay from their seeds (DESIGN: randomness from the engine's own generator)."""
    cards = load_cards()
    by_code = {c["code"]: c for c in cards}
    refs = reference_decks()
    colonies = [[by_code[c] for c in colony_codes(r["cards"])] for r in refs[:2]]
    ruleset = play.game_ruleset("original", turn_limit=simulation.TURN_LIMIT)
    first = simulation.play_games(colonies, seed="s", first=0, games=4, ruleset=ruleset)
    again = simulation.play_games(colonies, seed="s", first=0, games=4, ruleset=ruleset)
    first.pop("seconds"), again.pop("seconds")
    assert first == again
    # R 10.2 overridden: the lab's deck starts every even game, so 4 games are 2 + 2
    assert first["play_games"] + first["unfinished"] >= 2 - first["unfinished"]
    assert first["play_games"] + first["draw_games"] + first["unfinished"] == 4


def test_a_run_plays_every_game_and_splits_play_and_draw(lab_deck, alice, on_commit):
    with on_commit(execute=True):
        run = services.start_run(alice, lab_deck, 10)
    run.refresh_from_db()
    assert run.status == LabRun.DONE and run.finished is not None
    result = run_results(run)
    assert result["done"] == 10 and result["percent"] == 100.0
    assert len(result["opponents"]) == len(reference_decks())
    assert sum(o["played"] for o in result["opponents"]) == 10
    on_play, on_draw = result["on_play"]["games"], result["on_draw"]["games"]
    assert on_play + on_draw + result["overall"]["unfinished"] == 10
    # 10 games over 4 opponents: 3, 3, 2, 2; even game indexes on the play -> 2+2+1+1
    assert on_play + sum(c.unfinished for c in run.chunks.all()) >= 6 - 0
    assert result["overall"]["wins"] == result["on_play"]["wins"] + result["on_draw"]["wins"]
    for side in ("on_play", "on_draw"):  # per opponent too, adding up to the totals
        assert sum(o[side]["games"] for o in result["opponents"]) == result[side]["games"]
        assert sum(o[side]["wins"] for o in result["opponents"]) == result[side]["wins"]
    assert run.colony == sorted([e.card.code, e.count] for e in lab_deck.entries.all())


def test_a_redelivered_chunk_is_counted_once(lab_deck, alice, on_commit):
    """acks_late may deliver a task twice: the second delivery finds the chunk done."""
    with on_commit(execute=True):
        run = services.start_run(alice, lab_deck, 4)
    before = run_results(run)
    chunk = run.chunks.first()
    chunks.play_chunk(chunk.pk)
    LabChunk.objects.filter(pk=chunk.pk).update(status=LabChunk.PENDING)
    chunks._store(chunk.pk, run.pk, {"play_games": 0})  # a late copy: it finds PENDING...
    chunk.refresh_from_db()
    assert chunk.status == LabChunk.DONE
    LabChunk.objects.filter(pk=chunk.pk).update(play_games=before["on_play"]["games"])
    chunks.play_chunk(chunk.pk)  # ...and a done chunk is never played again
    assert run_results(run)["done"] == before["done"]


# ---------------------------------------------------------------------------------- API


@pytest.mark.parametrize(
    "games",
    [0, -5, 5001, 10**12, "abc", "", None, 2.5, True, [10], {"n": 3}],
    ids=[
        "zero",
        "negative",
        "too-many",
        "huge",
        "word",
        "empty",
        "null",
        "fraction",
        "bool",
        "list",
        "object",
    ],
)
def test_a_bad_number_of_games_is_a_clear_400(client, lab_deck, alice, games):
    client.force_login(alice)
    response = client.post(
        API, {"deck": lab_deck.pk, "games": games}, content_type="application/json", headers=EN
    )
    assert response.status_code == 400
    assert "games" in response.json()["detail"].lower()
    assert not LabRun.objects.exists()


def test_a_bad_body_or_deck_id_is_a_400(client, lab_deck, alice):
    client.force_login(alice)
    for body in ("[1, 2]", '"x"', json.dumps({"deck": "one", "games": 5})):
        response = client.post(API, body, content_type="application/json", headers=EN)
        assert response.status_code == 400, body
        assert response.json()["detail"]


def test_an_illegal_deck_is_422_with_its_problems(client, illegal_deck, alice):
    """R 9.7: every problem is listed."""
    client.force_login(alice)
    response = client.post(
        API, {"deck": illegal_deck.pk, "games": 5}, content_type="application/json", headers=EN
    )
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "deck_not_legal"
    assert {"DECK_SIZE", "OPPOSING_RACES"} <= {p["code"] for p in body["problems"]}


def test_a_second_run_while_one_is_in_progress_is_409(client, lab_deck, alice):
    LabRun.objects.create(deck=lab_deck, owner=alice, colony=[], games=5, status=LabRun.RUNNING)
    client.force_login(alice)
    response = client.post(
        API, {"deck": lab_deck.pk, "games": 5}, content_type="application/json", headers=EN
    )
    assert response.status_code == 409
    assert response.json()["code"] == "run_in_progress"


def test_anonymous_cannot_start_and_private_decks_stay_hidden(client, illegal_deck, bob):
    response = client.post(
        API, {"deck": illegal_deck.pk, "games": 5}, content_type="application/json", headers=EN
    )
    assert response.status_code in (401, 403)
    client.force_login(bob)
    response = client.post(
        API, {"deck": illegal_deck.pk, "games": 5}, content_type="application/json", headers=EN
    )
    assert response.status_code == 404  # alice's private deck does not exist for bob


def test_api_runs_a_deck_and_reports_results(client, lab_deck, alice, bob, on_commit):
    client.force_login(bob)  # anyone may test a public deck
    with on_commit(execute=True):
        response = client.post(
            API, {"deck": lab_deck.pk, "games": "8"}, content_type="application/json", headers=EN
        )
    assert response.status_code == 201
    data = response.json()
    assert data["status"] == "queued"  # the chunks are queued after commit
    detail = client.get(f"{API}{data['id']}/").json()
    assert detail["status"] == "done" and detail["done"] == 8
    assert detail["overall"]["played"] == 8
    for row in [*detail["opponents"], detail["on_play"], detail["on_draw"]]:
        if row["games"]:
            assert row["low"] <= row["rate"] <= row["high"]
    client.logout()
    assert client.get(f"{API}{data['id']}/").status_code == 200  # public deck, public run


# -------------------------------------------------------------------------------- pages


def test_deck_page_links_to_the_lab(client, lab_deck):
    for lang, label in (("en", "Deck lab"), ("hu", "Paklilabor")):
        page = client.get(f"/{lang}/decks/{lab_deck.pk}/").content.decode()
        assert f'href="/{lang}/lab/decks/{lab_deck.pk}/"' in page
        assert label in page


def test_lab_page_in_both_languages(client, lab_deck, alice):
    client.force_login(alice)
    en = client.get(f"/en/lab/decks/{lab_deck.pk}/").content.decode()
    hu = client.get(f"/hu/lab/decks/{lab_deck.pk}/").content.decode()
    assert "Run the simulation" in en and "Vanguard" in en
    assert "Szimuláció indítása" in hu and "Élcsapat" in hu


def test_lab_form_starts_a_run_and_shows_the_chart(client, lab_deck, alice, on_commit):
    client.force_login(alice)
    with on_commit(execute=True):
        response = client.post(f"/en/lab/decks/{lab_deck.pk}/", {"games": "6"})
    run = LabRun.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/en/lab/runs/{run.pk}/"
    page = client.get(response["Location"]).content.decode()
    assert 'id="lab-progress"' in page and 'value="6"' in page
    assert page.count('class="wr-bar"') >= 3  # opponents with finished games, play, draw, all
    assert "On the play" in page and "On the draw" in page
    assert page.count('class="split"') == len(reference_decks())
    hu = client.get(f"/hu/lab/runs/{run.pk}/").content.decode()
    assert "Kezdőként" in hu
    assert "," not in hu.split('class="wr-bar"')[1].split("</svg>")[0]  # SVG numbers: dots
    # the numbers a person reads: a decimal comma in Hungarian ("66,7"), a point in English
    splits = "".join(re.findall(r'class="split">([^<]+)<', hu))
    shown = re.findall(r'class="num rate">([^<]+)<', hu) + re.findall(r"\d+[.,]\d", splits)
    assert shown and all("." not in n for n in shown), shown
    assert all("," not in n for n in re.findall(r'class="num rate">([^<]+)<', page))


def test_lab_form_bad_number_rerenders_with_400(client, lab_deck, alice):
    client.force_login(alice)
    response = client.post(f"/en/lab/decks/{lab_deck.pk}/", {"games": "-3"})
    assert response.status_code == 400
    assert "between 1 and 5000" in response.content.decode()
    response = client.post(f"/hu/lab/decks/{lab_deck.pk}/", {"games": "sok"})
    assert response.status_code == 400
    assert "egész szám" in response.content.decode()
    assert not LabRun.objects.exists()


def test_lab_page_shows_problems_of_an_illegal_deck(client, illegal_deck, alice):
    client.force_login(alice)
    page = client.get(f"/en/lab/decks/{illegal_deck.pk}/").content.decode()
    assert 'id="lab-problems"' in page and "OPPOSING_RACES" in page
    response = client.post(f"/en/lab/decks/{illegal_deck.pk}/", {"games": "5"})
    assert response.status_code == 422


def test_run_fragment_is_just_the_results(client, lab_deck, alice, on_commit):
    client.force_login(alice)
    with on_commit(execute=True):
        run = services.start_run(alice, lab_deck, 4)
    fragment = client.get(reverse("decklab:run", args=[run.pk]) + "?fragment=1")
    assert fragment.status_code == 200
    assert "<html" not in fragment.content.decode() and "wr-table" in fragment.content.decode()


def test_a_private_decks_runs_are_as_private_as_the_deck(client, illegal_deck, alice, bob):
    run = LabRun.objects.create(deck=illegal_deck, owner=alice, colony=[], games=4)
    client.force_login(bob)
    assert client.get(f"{API}{run.pk}/").status_code == 404
    assert client.get(f"/en/lab/runs/{run.pk}/").status_code == 404
    client.force_login(alice)
    assert client.get(f"{API}{run.pk}/").status_code == 200


def test_a_chunk_that_fails_stops_the_run_with_a_message(client, lab_deck, alice):
    """An engine error must not leave the progress bar spinning forever."""
    run = LabRun.objects.create(deck=lab_deck, owner=alice, colony=[["KG1-001", 45]], games=2)
    chunk = LabChunk.objects.create(run=run, index=0, opponent="no-such-colony", first=0, games=2)
    chunks.play_chunk(chunk.pk)
    run.refresh_from_db()
    chunk.refresh_from_db()
    assert run.status == LabRun.FAILED and "KeyError" in run.error
    assert chunk.status == LabChunk.FAILED
    client.force_login(alice)
    page = client.get(f"/en/lab/runs/{run.pk}/").content.decode()
    assert "stopped because of an error" in page
    assert client.get(f"{API}{run.pk}/").json()["status"] == "failed"
