"""A deck-lab run carries the card definitions it was played with (issue 34): once the
catalogue's definitions of its cards differ, or when it is older than that record (its
games were played without the printed stat bonuses, R 5.2, and upgrade limits, R 4.5.4),
its page and its API say it is out of date, and its owner can run it again."""

import re

from cards_data.definitions import digest_of
from cards_data.models import Card
from decklab.models import LabRun
from decklab.reference import reference_decks
from decklab.selectors import run_codes

API = "/api/decklab/runs/"


def start(client, deck, on_commit, games="4"):
    with on_commit(execute=True):
        response = client.post(f"/en/lab/decks/{deck.pk}/", {"games": games, "bot": "heuristic"})
    assert response.status_code == 302, response.content.decode()[:500]
    return LabRun.objects.order_by("-pk").first()


def test_a_run_records_the_digest_of_every_definition_its_games_used(
    client, lab_deck, alice, on_commit
):
    client.force_login(alice)
    run = start(client, lab_deck, on_commit)
    codes = run_codes(run.colony)
    assert {code for code, _n in run.colony} <= codes
    for ref in reference_decks():
        assert {code for code, _n in ref["cards"]} <= codes  # the gauntlet's too
    assert run.definitions == digest_of(codes) and len(run.definitions) == 16
    detail = client.get(f"{API}{run.pk}/").json()
    assert detail["status"] == "done" and detail["out_of_date"] is False
    page = client.get(f"/en/lab/runs/{run.pk}/").content.decode()
    assert 'id="lab-out-of-date"' not in page


def test_a_run_is_out_of_date_once_a_definition_of_its_cards_changes(
    client, lab_deck, alice, bob, on_commit
):
    """A printed number of one of the deck's cards changes (a reprint, a correction): the
    run's page and API say so; its owner gets a button that runs it again with the same
    games and bot, and the new run is current; someone else sees the notice only."""
    client.force_login(alice)
    run = start(client, lab_deck, on_commit)
    code = run.colony[0][0]
    card = Card.objects.get(code=code)
    card.definition = {**card.definition, "credit_cost": card.definition["credit_cost"] + 1}
    card.save()
    assert client.get(f"{API}{run.pk}/").json()["out_of_date"] is True
    listed = client.get(f"/hu/lab/decks/{lab_deck.pk}/").content.decode()
    assert listed.count('class="stale-mark">elavult<') == 1  # in the deck's list of runs
    for lang, words in (("en", "out of date"), ("hu", "elavultak")):
        page = client.get(f"/{lang}/lab/runs/{run.pk}/").content.decode()
        notice = page.split('id="lab-out-of-date"')[1].split("</div>")[0]
        assert words in notice
        assert re.search(r'name="games" value="4"', notice)
        assert re.search(r'name="bot" value="heuristic"', notice)
    again = start(client, lab_deck, on_commit)
    assert again.pk != run.pk and again.games == run.games and again.bot == run.bot
    assert client.get(f"{API}{again.pk}/").json()["out_of_date"] is False
    assert client.get(f"{API}{run.pk}/").json()["out_of_date"] is True  # stays so
    client.force_login(bob)  # a public deck's run: bob reads it, cannot rerun alice's
    notice = client.get(f"/en/lab/runs/{run.pk}/").content.decode()
    assert 'id="lab-out-of-date"' in notice
    assert "Run it again" not in notice.split('id="lab-out-of-date"')[1].split("</div>")[0]


def test_a_run_from_before_the_definitions_were_kept_is_out_of_date(
    client, lab_deck, alice, on_commit
):
    """Runs stored before this change have no digest: they were played with the lossy
    definitions (no printed bonuses), so they are out of date."""
    client.force_login(alice)
    run = start(client, lab_deck, on_commit)
    LabRun.objects.filter(pk=run.pk).update(definitions="")
    assert client.get(f"{API}{run.pk}/").json()["out_of_date"] is True
