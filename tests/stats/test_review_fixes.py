"""A review's findings in the statistics pages (issue 38) and deck advice's metagame
(issue 39): the card page's lab figure comes from each deck's newest run in one query, a
GET of an event report writes nothing, deck advice reads the archetypes once, and each
page reads each table once (its queries pinned)."""

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from cards_data.definitions import card_dicts
from cards_data.models import Card
from decklab import metagame
from decklab.models import LabChunk, LabRun
from decks.services import save_deck
from engine.deck import RULESETS
from stats import selectors
from stats.archetypes import refresh
from stats.models import EventReport
from stats.recording import record_game
from tournaments.models import Registration, Tournament

from . import test_archetypes
from .test_archetypes import PERIOD, play

# the archetype tests' fixtures: finished events whose archetypes are obvious
cards, decks, cup = test_archetypes.cards, test_archetypes.decks, test_archetypes.cup

NOON = timezone.make_aware(datetime.datetime(2026, 11, 20, 12, 0))


def lab_run(deck, owner, colony, started, finished, wins):
    """A finished run of 20 games (10 on the play, 10 on the draw), `wins` of them won,
    started and finished at the given minutes after NOON."""
    run = LabRun.objects.create(deck=deck, owner=owner, colony=colony, games=20, status=LabRun.DONE)
    LabRun.objects.filter(pk=run.pk).update(
        created=NOON + datetime.timedelta(minutes=started),
        finished=NOON + datetime.timedelta(minutes=finished),
    )
    LabChunk.objects.create(
        run=run, index=0, opponent="ref", first=0, games=20, status=LabChunk.DONE,
        play_games=10, play_wins=wins // 2, draw_games=10, draw_wins=wins - wins // 2,
    )  # fmt: skip
    return run


# ------------------------------------------------------------------ 1. the lab figure


def test_a_deck_s_newest_run_gives_the_lab_figure_not_the_last_to_finish(codes, alice, bob):
    """Bob's long run of the deck's first version finishes after Alice's short run of the
    version she saved since: the card page shows the newer version's figure (5 of 20)."""
    deck = save_deck(alice, name="Lab", cards=[(codes["a1"], 3)], is_public=True)
    colony = [[codes["a1"], 3]]
    lab_run(deck, bob, colony, started=0, finished=30, wins=15)
    lab_run(deck, alice, colony, started=5, finished=6, wins=5)
    card = Card.objects.get(code=codes["a1"])
    lab = selectors.lab_figure(card, AnonymousUser())
    assert lab["decks"] == 1
    assert (lab["rate"].wins, lab["rate"].games) == (5, 20)


def test_a_deck_s_newest_run_that_plays_the_card_counts_and_nothing_else(codes, alice, bob):
    """A run counts for the card only when its frozen colony plays it (its code, not a
    longer code that starts with it); each deck its newest such run, summed over decks."""
    first = save_deck(alice, name="One", cards=[(codes["a1"], 3)], is_public=True)
    second = save_deck(bob, name="Two", cards=[(codes["a1"], 3)], is_public=True)
    lab_run(first, alice, [[codes["a1"], 3]], started=0, finished=1, wins=20)
    lab_run(first, alice, [[codes["a1"], 3], [codes["a2"], 3]], started=2, finished=3, wins=10)
    lab_run(first, alice, [[codes["a2"], 3], [codes["a1"] + "0", 3]], started=4, finished=5, wins=0)
    lab_run(second, bob, [[codes["a1"], 3]], started=0, finished=1, wins=4)
    card = Card.objects.get(code=codes["a1"])
    lab = selectors.lab_figure(card, AnonymousUser())
    assert lab["decks"] == 2
    assert (lab["rate"].wins, lab["rate"].games) == (14, 40)  # 10 + 4 of 20 + 20
    other = Card.objects.get(code=codes["b1"])
    assert selectors.lab_figure(other, AnonymousUser()) is None


def test_the_lab_figure_is_one_query_however_many_runs(
    codes, alice, bob, django_assert_num_queries
):
    for i in range(6):
        deck = save_deck(alice, name=f"Lab {i}", cards=[(codes["a1"], 3)], is_public=True)
        for k in range(3):
            lab_run(deck, bob, [[codes["a1"], 3]], started=k, finished=k + 1, wins=k)
    card = Card.objects.get(code=codes["a1"])
    with django_assert_num_queries(1):
        lab = selectors.lab_figure(card, AnonymousUser())
    assert lab["decks"] == 6 and lab["rate"].wins == 6 * 2


# ------------------------------------------------------------------ 2. the event page


def finished_event_without_report(codes, django_user_model):
    """A finished event whose report was never stored (it ended before reports were kept)."""
    users = [django_user_model.objects.create_user(f"r{i}") for i in range(3)]
    event = Tournament.objects.create(
        name="Old cup", status=Tournament.FINISHED, organiser=users[0],
        date=datetime.date(2026, 11, 7),
    )  # fmt: skip
    for user, race in zip(users, ("a1", "b1", "b1"), strict=True):
        Registration.objects.create(
            tournament=event, player=user, deck_name="x", cards=[[codes[race], 3]]
        )
    return event


def writes(queries) -> list[str]:
    return [
        q["sql"]
        for q in queries
        if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
    ]


def test_a_get_of_an_event_report_writes_nothing(codes, django_user_model, client):
    event = finished_event_without_report(codes, django_user_model)
    EventReport.objects.all().delete()  # as an event finished before reports were kept
    with CaptureQueriesContext(connection) as queries:
        page = client.get(f"/en/stats/events/{event.pk}/").content.decode()
    assert writes(queries.captured_queries) == []
    assert not EventReport.objects.exists()  # computed for the page, not saved
    assert '<span class="bar-n">67% <small>(2)</small>' in page  # xeno: 2 of 3 lists


def test_a_get_of_a_stored_report_reads_it_and_writes_nothing(cards, cup, client):
    stored = EventReport.objects.get(tournament=cup)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(f"/en/stats/events/{cup.pk}/").content.decode()
    assert writes(queries.captured_queries) == []
    assert EventReport.objects.get(tournament=cup).data == stored.data
    assert "The winner" in page


# ------------------------------------------------------------------ 4. deck advice's metagame


def test_deck_advice_reads_the_archetypes_once(cards, decks, django_assert_num_queries):
    """One read of the archetypes and one of their cards' names (it was both, twice: once
    per language)."""
    refresh()
    found, rules = card_dicts(), RULESETS["original"]
    with django_assert_num_queries(2):
        metagame.snapshot(found, rules)


def test_an_archetype_row_names_itself_in_both_languages(cards, decks):
    refresh()
    with translation.override("en"):
        english = {row.id: row.name for row in selectors.archetypes()}
    with translation.override("hu"):
        rows = selectors.archetypes()
    assert rows and all(row.names["hu"] == row.name for row in rows)
    assert {row.id: row.names["en"] for row in rows} == english


# ------------------------------------------------------------------ 5. each table once a page


@pytest.fixture
def busy(codes, cards, decks, cup, three_games, alice):
    """Recorded games (of saved decks too: the archetypes' matchups), finished events with
    their archetypes and reports, a card in decks, lists and lab runs."""
    for match in three_games:
        record_game(match.pk)
    play(decks, [0, 1, 0])
    refresh()  # the archetypes' matchups of those games
    deck = save_deck(alice, name="Busy", cards=[(codes["a1"], 3)], is_public=True)
    lab_run(deck, alice, [[codes["a1"], 3]], started=0, finished=1, wins=10)
    return decks["aggro"][0]


PAGES = {  # the most queries of each page, its cache empty (the metagame's archetypes)
    # the period's games (once: the races' shares, the matrix, the trend), the events' lists by
    # race, the archetypes' generation; on a miss of its cache: the lists by archetype, the
    # archetypes with their cards' names (once: for the shares and the matrix), the
    # archetypes' games by opponent (once: their sums are each one's games)
    "metagame": 7,
    # the card, its public decks, its event lists, its tally, the cards beside it with
    # their names, the lab's figure
    "card": 6,
    # the deck, its results (once: by version and by opponent), its newest version, its
    # archetype, that archetype's cards' names
    "deck": 5,
    # the event, its stored report, its cards' names
    "event": 3,
    # the player, their results by deck, by race and opponent (the races: their sums)
    "player": 3,
}


@pytest.mark.parametrize("page", sorted(PAGES))
def test_each_stats_page_reads_each_table_once(
    page, busy, cup, codes, client, django_assert_max_num_queries
):
    path = {
        "metagame": f"/en/stats/{PERIOD}",
        "card": f"/en/stats/cards/{codes['a1']}/",
        "deck": f"/en/stats/decks/{busy.pk}/",
        "event": f"/en/stats/events/{cup.pk}/",
        "player": f"/en/stats/players/{busy.owner.username}/",
    }[page]
    cache.clear()
    with django_assert_max_num_queries(PAGES[page]):
        response = client.get(path)
    assert response.status_code == 200
    if page == "metagame":  # its archetypes cached: the games, the lists, the generation
        with django_assert_max_num_queries(3):
            assert client.get(path).status_code == 200
