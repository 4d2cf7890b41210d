"""Deck advice's pages and writes (issue 39): "Improve this deck" starts a run within the
account's daily budget, the run page shows each proposal with its evidence, a run can be
cancelled, and a recommendation that held up is applied as a new version of the deck.
Tiny races here (a few games); the racing rule and the games are test_racing / test_advice."""

from datetime import timedelta

import pytest
from django.utils import timezone

from decklab import advice, advising, racing
from decklab.advice_play import play_advice
from decklab.models import AdviceRun


@pytest.fixture(autouse=True)
def tiny_races(monkeypatch):
    monkeypatch.setattr(racing, "ROUNDS", (4, 4))
    monkeypatch.setattr(advice, "FRESH_GAMES", 4)
    monkeypatch.setattr(advice, "MAX_CANDIDATES", 3)


def test_the_deck_page_links_to_improve_this_deck(client, lab_deck):
    for lang, label in (("en", "Improve this deck"), ("hu", "A pakli javítása")):
        page = client.get(f"/{lang}/decks/{lab_deck.pk}/").content.decode()
        assert f'href="/{lang}/lab/decks/{lab_deck.pk}/advice/"' in page
        assert label in page


def test_the_advice_form_in_both_languages(client, lab_deck, alice):
    client.force_login(alice)
    en = client.get(f"/en/lab/decks/{lab_deck.pk}/advice/").content.decode()
    hu = client.get(f"/hu/lab/decks/{lab_deck.pk}/advice/").content.decode()
    assert "Find improvements" in en and "only from my collection" in en
    assert "Javítások keresése" in hu and "csak a gyűjteményemből" in hu


def test_a_run_proposes_races_and_shows_its_evidence(client, lab_deck, alice, on_commit):
    client.force_login(alice)
    with on_commit(execute=True):
        response = client.post(
            f"/en/lab/decks/{lab_deck.pk}/advice/", {"budget": "3000", "source": "catalogue"}
        )
    run = AdviceRun.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/en/lab/advice/{run.pk}/"
    run.refresh_from_db()
    assert run.status == AdviceRun.DONE, run.error
    assert len(run.candidates) == 3
    assert all(row["games"] in (4, 8) for row in run.candidates)
    deck_games = 8 if any(row["games"] == 8 for row in run.candidates) else 4
    fresh = 8 if run.remeasured else 0
    assert run.games_played == deck_games + sum(row["games"] for row in run.candidates) + fresh
    for row in run.candidates:  # per opponent and side, adding up to the candidate's games
        assert sum(s["games"] for s in row["splits"]) == row["games"]
    page = client.get(response["Location"]).content.decode()
    assert 'id="advice-progress"' in page and "Proposals and their evidence" in page
    assert page.count('class="advice-item') == 3
    hu = client.get(f"/hu/lab/advice/{run.pk}/?fragment=1").content.decode()
    assert "Ellenfelenként, kezdőként és másodikként" in hu


def test_the_daily_budget_is_a_clear_429(client, lab_deck, alice, settings):
    settings.DECKLAB_ADVICE_GAMES_PER_DAY = 5000
    AdviceRun.objects.create(deck=lab_deck, owner=alice, colony=[], budget=3000)  # queued
    client.force_login(alice)
    response = client.post(f"/en/lab/decks/{lab_deck.pk}/advice/", {"budget": "3000"})
    assert response.status_code == 409  # one run at a time first
    AdviceRun.objects.update(status=AdviceRun.DONE, games_played=3000)
    response = client.post(
        f"/en/lab/decks/{lab_deck.pk}/advice/", {"budget": "3000", "source": "catalogue"}
    )
    assert response.status_code == 429
    assert "5,000 games a day per account and 2,000 are left today" in response.content.decode()


def test_a_run_that_lost_its_worker_does_not_block_its_owner(lab_deck, alice, on_commit):
    lost = AdviceRun.objects.create(deck=lab_deck, owner=alice, colony=[], budget=3000)
    long_ago = timezone.now() - timedelta(seconds=advising.STALL_SECONDS + 1)
    AdviceRun.objects.filter(pk=lost.pk).update(status=AdviceRun.RUNNING, progressed=long_ago)
    with on_commit(execute=True):
        advising.start_advice(alice, lab_deck, budget=3000)
    lost.refresh_from_db()
    assert lost.status == AdviceRun.FAILED and "worker was lost" in lost.error


def test_a_bad_budget_or_source_is_a_400(client, lab_deck, alice):
    client.force_login(alice)
    for data in ({"budget": "12", "source": "catalogue"}, {"budget": "3000", "source": "x"}):
        response = client.post(f"/en/lab/decks/{lab_deck.pk}/advice/", data)
        assert response.status_code == 400
        assert 'id="advice-error"' in response.content.decode()
    assert not AdviceRun.objects.exists()


def test_a_cancelled_run_stops_before_its_next_games(client, lab_deck, alice, bob):
    colony = sorted([e.card.code, e.count] for e in lab_deck.entries.all())
    run = AdviceRun.objects.create(deck=lab_deck, owner=alice, colony=colony, budget=3000)
    client.force_login(bob)
    assert client.post(f"/en/lab/advice/{run.pk}/cancel/").status_code == 404
    client.force_login(alice)
    assert client.post(f"/en/lab/advice/{run.pk}/cancel/").status_code == 302
    play_advice(run.pk)
    run.refresh_from_db()
    assert run.status == AdviceRun.CANCELLED and run.games_played == 0
    page = client.get(f"/en/lab/advice/{run.pk}/").content.decode()
    assert 'id="advice-cancelled"' in page and 'id="advice-cancel"' not in page


def _done_run(deck, owner, holds=True):
    entries = sorted([e.card.code, e.count] for e in deck.entries.all())
    out, count = entries[0]
    into = "KG1-098" if out != "KG1-098" else "KG1-099"
    change = advice.Change(out, into, count)
    found = {"changes": [change.as_dict()], "cards": change.apply(entries), "games": 400}
    found.update(change=0.08, low=0.03 if holds else -0.01, high=0.13, holds=holds)
    return AdviceRun.objects.create(
        deck=deck,
        owner=owner,
        colony=entries,
        budget=3000,
        status=AdviceRun.DONE,
        remeasured=found,
        candidates=[
            dict(
                change.as_dict(),
                verdict="better",
                games=40,
                change=0.1,
                low=0.02,
                high=0.18,
                splits=[],
            )
        ],
    )


def test_apply_makes_a_new_version_that_cites_the_evidence(client, lab_deck, alice, bob):
    run = _done_run(lab_deck, alice)
    client.force_login(bob)
    assert client.post(f"/en/lab/advice/{run.pk}/apply/").status_code == 404
    client.force_login(alice)
    before = lab_deck.latest_version.number
    response = client.post(f"/en/lab/advice/{run.pk}/apply/")
    assert response.status_code == 302
    version = lab_deck.versions.get(number=before + 1)
    assert version.cards == run.remeasured["cards"]
    assert version.comment.startswith(f"Deck advice #{run.pk}: −")
    assert "+8.0 points (95%: +3.0 to +13.0) in 400 fresh games" in version.comment
    assert client.post(f"/en/lab/advice/{run.pk}/apply/").status_code == 409


def test_a_gain_that_did_not_hold_up_is_said_so_and_cannot_be_applied(client, lab_deck, alice):
    run = _done_run(lab_deck, alice, holds=False)
    client.force_login(alice)
    page = client.get(f"/en/lab/advice/{run.pk}/").content.decode()
    assert 'id="advice-not-held"' in page and 'id="advice-apply"' not in page
    hu = client.get(f"/hu/lab/advice/{run.pk}/").content.decode()
    assert "+8,0" in hu and "−1,0" in hu
    assert client.post(f"/en/lab/advice/{run.pk}/apply/").status_code == 409


def test_each_round_is_split_into_chunks_and_its_last_chunk_judges_it(
    lab_deck, alice, on_commit, monkeypatch
):
    """The workers share a race: every round's game indices are several chunks (each
    played by the deck and the candidates still racing, on the same seeds), and the round
    is judged once, when its last chunk is stored."""
    from decklab import advice_play

    monkeypatch.setattr(advice_play, "GAMES_PER_CHUNK", 8)  # 3 candidates + deck: 2 a chunk
    with on_commit(execute=True):
        run = advising.start_advice(alice, lab_deck, budget=3000)
    run.refresh_from_db()
    assert run.status == AdviceRun.DONE, run.error
    race = run.chunks.filter(fresh=False)
    first_round = race.filter(round=0)
    assert [(c.first, c.games) for c in first_round] == [(0, 2), (2, 2)]
    assert sorted(set(race.values_list("round", flat=True))) == list(range(run.rounds))
    assert not run.chunks.exclude(status="done").exists()
    played = sum(c.games * (1 + len(c.who)) for c in run.chunks.all())
    assert run.games_played == played
    if run.remeasured:  # the fresh re-measurement: the deck and the recommended deck
        assert sum(c.games for c in run.chunks.filter(fresh=True)) == advice.FRESH_GAMES
