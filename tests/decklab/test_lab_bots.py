"""Deck lab, issue 18: the bot that plays a run (heuristic or the thinking bot at a strength),
its validation, what it stores, and the expected run time shown before the run starts."""

import re

import pytest
from django.utils import translation

from decklab import chunks, services, simulation
from decklab.models import LabRun
from decklab.selectors import run_results
from decklab.views import duration

API = "/api/decklab/runs/"
EN = {"accept-language": "en"}


def selected(page: str) -> str:
    """The bot option the page's form has selected."""
    return re.search(r'<option value="([^"]+)"[^>]* selected>', page).group(1)


@pytest.fixture
def short_games(monkeypatch):
    """A thinking-bot game to the end takes seconds to minutes: these runs stop each game at
    turn 2 (the lab's own turn limit, counted as unfinished) so the test plays a few real
    decisions of the real bot, not a whole game."""
    monkeypatch.setattr(simulation, "TURN_LIMIT", 2)


def test_a_run_at_search_easy_is_played_by_the_search_bot(
    client, lab_deck, alice, on_commit, short_games
):
    """The choice is stored with the run and reaches the worker: every chunk records the
    name the bot objects that played it carry (engine.search.SearchBot.name), both sides."""
    client.force_login(alice)
    with on_commit(execute=True):
        response = client.post(
            API,
            {"deck": lab_deck.pk, "games": 2, "bot": "search-easy"},
            content_type="application/json",
            headers=EN,
        )
    assert response.status_code == 201, response.json()
    run = LabRun.objects.get()
    assert run.bot == "search-easy" and run.status == LabRun.DONE
    chunks = list(run.chunks.all())
    assert len(chunks) == 2  # one game per chunk for the thinking bot
    assert {c.bot for c in chunks} == {"search-easy"}
    assert sum(c.unfinished for c in chunks) == 2  # stopped at turn 2, never a result
    detail = client.get(f"{API}{run.pk}/", headers=EN).json()
    assert detail["bot"] == "search-easy" and detail["bot_label"] == "Thinking bot: easy"
    page = client.get(f"/hu/lab/runs/{run.pk}/").content.decode()
    assert 'data-bot="search-easy"' in page and "Gondolkodó bot: könnyű" in page


def test_without_a_choice_the_heuristic_bot_plays_as_before(client, lab_deck, alice, on_commit):
    client.force_login(alice)
    with on_commit(execute=True):
        response = client.post(f"/en/lab/decks/{lab_deck.pk}/", {"games": "4"})
    assert response.status_code == 302
    run = LabRun.objects.get()
    assert run.bot == "heuristic"
    assert {c.bot for c in run.chunks.all()} == {"heuristic"}
    assert run_results(run)["bot_label"] == "Heuristic bot"
    page = client.get(response["Location"]).content.decode()
    assert "Heuristic bot" in page


@pytest.mark.parametrize("bot", ["search-impossible", "random", "SEARCH-EASY", 3, ["heuristic"]])
def test_an_unknown_bot_is_a_clear_400(client, lab_deck, alice, bot):
    client.force_login(alice)
    response = client.post(
        API, {"deck": lab_deck.pk, "games": 4, "bot": bot}, content_type="application/json",
        headers=EN,
    )  # fmt: skip
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_input"
    assert body["detail"].startswith("Unknown bot") and "search-hard" in body["detail"]
    assert not LabRun.objects.exists()


def test_the_thinking_bot_has_a_lower_cap_on_games(client, lab_deck, alice):
    client.force_login(alice)
    high = services.MAX_GAMES_BY_BOT["search-hard"]
    response = client.post(
        API, {"deck": lab_deck.pk, "games": high + 1, "bot": "search-hard"},
        content_type="application/json", headers=EN,
    )  # fmt: skip
    assert response.status_code == 400
    assert f"between 1 and {high}" in response.json()["detail"]
    assert "thinking bot" in response.json()["detail"]
    assert not LabRun.objects.exists()


def test_the_form_refuses_a_bad_bot_with_400_in_both_languages(client, lab_deck, alice):
    client.force_login(alice)
    response = client.post(f"/en/lab/decks/{lab_deck.pk}/", {"games": "5", "bot": "robot"})
    assert response.status_code == 400
    assert "Unknown bot" in response.content.decode()
    response = client.post(f"/hu/lab/decks/{lab_deck.pk}/", {"games": "500", "bot": "search-hard"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "A gondolkodó bottal a játszmák száma 1 és 200 között legyen." in page
    assert selected(page) == "search-hard"  # the form keeps the choice
    assert not LabRun.objects.exists()


def test_expected_time_is_the_measured_cost_per_game_over_the_workers():
    per = services.SECONDS_PER_GAME
    # the heuristic bot: 25-game chunks; 1,000 games = 40 chunks, 20 per worker of two
    assert services.expected_seconds("heuristic", 1000, workers=2) == pytest.approx(
        20 * 25 * per["heuristic"]
    )
    # the thinking bot: one game per chunk; 100 games on two workers = 50 games each
    assert services.expected_seconds("search-hard", 100, workers=2) == 50 * per["search-hard"]
    assert services.expected_seconds("search-easy", 3, workers=2) == 2 * per["search-easy"]
    assert services.expected_seconds("search-easy", 1, workers=2) == per["search-easy"]


def test_duration_words():
    with translation.override("en"):
        assert duration(4.4) == "about 4 s"
        assert duration(0.1) == "about 1 s"
        assert duration(600) == "about 10 min"
        assert duration(9000) == "about 2.5 h"
    with translation.override("hu"):
        assert duration(600) == "kb. 10 perc"
        assert duration(9000) == "kb. 2,5 óra"


def test_the_lab_page_shows_the_expected_time_before_the_run_starts(
    client, lab_deck, alice, settings
):
    """The estimate for the page's choice, and each option's measured cost for the script
    that recomputes it as the choice changes (static/decklab/lab-form.js)."""
    settings.DECKLAB_WORKERS = 2
    client.force_login(alice)
    page = client.get(f"/en/lab/decks/{lab_deck.pk}/").content.decode()
    expected = duration(services.expected_seconds("heuristic", 200, workers=2))
    assert f'<strong id="lab-estimate-time">{expected}</strong>' in page
    assert "Expected run time:" in page and "2 workers" in page
    for bot in simulation.BOTS:
        per = services.SECONDS_PER_GAME[bot]
        assert f'value="{bot}" data-per-game="{per}"' in page
    assert 'data-max="200"' in page and "lab-form.js" in page
    # the same form posted with a number out of range for the thinking bot: no estimate
    response = client.post(f"/en/lab/decks/{lab_deck.pk}/", {"games": "900", "bot": "search-hard"})
    assert '<strong id="lab-estimate-time">—</strong>' in response.content.decode()
    # a preset choice (?bot=&games=): the thinking bot's estimate, in Hungarian
    hu = client.get(f"/hu/lab/decks/{lab_deck.pk}/?bot=search-easy&games=10").content.decode()
    with translation.override("hu"):
        expected = duration(services.expected_seconds("search-easy", 10, workers=2))
    assert expected.startswith("kb. ") and f'id="lab-estimate-time">{expected}<' in hu
    assert "Várható futási idő:" in hu and "Gondolkodó bot: nehéz" in hu
    assert selected(hu) == "search-easy"


def test_a_second_copy_of_a_claimed_thinking_bot_chunk_does_not_play_it(lab_deck, alice):
    """A thinking bot's task is acknowledged when it starts, and the broker may hand a copy to
    a second worker (chunks.play_chunk's claim): the copy returns without playing."""
    run = services.start_run(alice, lab_deck, 2)  # not played: no commit in this test
    first, second = run.chunks.all()
    type(first).objects.filter(pk=first.pk).update(worker="elsewhere:1")  # being played
    chunks.play_chunk(first.pk, claim=True)
    first.refresh_from_db()
    assert first.status == "pending" and first.worker == "elsewhere:1" and first.turns == 0
    chunks.play_chunk(second.pk, claim=True)  # nobody has it: played and stored
    second.refresh_from_db()
    assert second.status == "done" and second.turns > 0
    assert second.worker == chunks.worker_name()


def test_a_run_whose_worker_was_lost_does_not_block_the_next_one(client, lab_deck, alice):
    """A thinking bot's chunk is acknowledged when a worker takes it: a worker killed in the
    middle of the game takes the chunk with it. Such a run made no progress for
    `stalled_after` (four chunk-times, at least ten minutes); when its owner starts another,
    it is marked failed (its pending chunks too, so a late copy of the task returns) and the
    new run starts. A run that is merely slow still blocks with the 409."""
    from datetime import timedelta

    from django.utils import timezone

    from decklab.models import LabChunk

    client.force_login(alice)
    start = {"deck": lab_deck.pk, "games": 2, "bot": "search-hard"}
    first = client.post(API, start, content_type="application/json", headers=EN)
    assert first.status_code == 201
    run = LabRun.objects.get()
    run.chunks.filter(index=0).update(worker="gone-host:4242")  # claimed, never finished
    LabRun.objects.filter(pk=run.pk).update(status=LabRun.RUNNING)
    busy = client.post(API, start, content_type="application/json", headers=EN)
    assert busy.status_code == 409 and busy.json()["code"] == "run_in_progress"
    stalled = timedelta(seconds=services.stalled_after("search-hard") + 1)
    assert stalled > timedelta(minutes=10)
    LabRun.objects.filter(pk=run.pk).update(created=timezone.now() - stalled)
    again = client.post(API, start, content_type="application/json", headers=EN)
    assert again.status_code == 201, again.json()
    run.refresh_from_db()
    assert run.status == LabRun.FAILED and "worker was lost" in run.error
    assert set(run.chunks.values_list("status", flat=True)) == {LabChunk.FAILED}
    chunks.play_chunk(run.chunks.get(index=1).pk, claim=True)  # the late copy: nothing
    assert run.chunks.get(index=1).worker == ""
