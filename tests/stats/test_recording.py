"""A finished game's figures: a hand-computed fixture of three games, idempotence, the
rebuild, and hidden information (only finished games count)."""

import datetime

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from decks.services import save_deck
from matches.models import Match, MatchEvent
from stats.models import CardTally, MatchupTally, ProcessedGame, SeatResult
from stats.recording import record_game
from tournaments.models import OnlineGame, Registration, TableSet, Tournament

from .kit import FINISHED, game, move


def card_figures():
    fields = ("code", "bots", *CardTally.COUNTERS)
    return sorted(CardTally.objects.values_list(*fields))


def matchup_figures():
    fields = ("month", "race", "opponent_race", "bots", "games", "wins")
    return sorted(MatchupTally.objects.values_list(*fields))


def seat_figures():
    fields = ("match", "seat", "race", "opponent_race", "won", "bots", "source")
    return sorted(SeatResult.objects.values_list(*fields))


def test_the_figures_of_three_games_computed_by_hand(codes, three_games):
    for match in three_games:
        assert record_game(match.pk)
    a1, a2, b1 = codes["a1"], codes["a2"], codes["b1"]
    # (games, wins, drawn games, drawn wins, opening games, opening wins)
    # a1: in both colonies of the 3 games (6); won by seat 0 in games 1 and 3, seat 1 in 2.
    #     drawn: game 1 seat 0 (won), game 2 seat 0's mulligan hand (lost), game 3 seat 1
    #     (lost): 3 drawn, 1 won, all three in the opening centre.
    # a2: seat 0's 3 games, 2 won; drawn in game 1 (won) and game 2's first hand (lost),
    #     never in an opening centre (game 2's mulligan replaced it).
    # b1: seat 1's 3 games, 1 won; drawn in game 1 (opening, lost) and 2 (won).
    assert card_figures() == sorted(
        [
            (a1, False, 6, 3, 3, 1, 3, 1),
            (a2, False, 3, 2, 2, 1, 0, 0),
            (b1, False, 3, 1, 2, 1, 1, 0),
        ]
    )
    month = datetime.date(2026, 11, 1)
    assert matchup_figures() == [
        (month, "xeno", "zarg", False, 3, 1),
        (month, "zarg", "xeno", False, 3, 2),
    ]


def test_a_game_processed_twice_counts_once(codes, three_games):
    first = three_games[0]
    assert record_game(first.pk) is True
    figures = (card_figures(), matchup_figures(), seat_figures())
    assert record_game(first.pk) is False
    assert (card_figures(), matchup_figures(), seat_figures()) == figures
    assert ProcessedGame.objects.count() == 1


def test_the_incremental_figures_equal_the_rebuilt_ones(codes, three_games):
    bot_game = game(codes, 1, [(1, "b1", "opening hand")], bots=("", "random"))
    for match in [*three_games, bot_game]:
        record_game(match.pk)
    incremental = (card_figures(), matchup_figures(), seat_figures())
    assert any(row[1] for row in incremental[0]), "the bot game has figures of its own"
    call_command("rebuild_stats", stdout=open("/dev/null", "w"))
    assert (card_figures(), matchup_figures(), seat_figures()) == incremental


def test_an_unfinished_game_feeds_no_figure_R_16(codes):
    running = game(codes, None, [(0, "a1", "opening hand")], status=Match.ACTIVE)
    waiting = game(codes, 0, [(0, "a1", "opening hand")], status=Match.NEEDS_JUDGE)
    assert not record_game(running.pk) and not record_game(waiting.pk)
    call_command("rebuild_stats", stdout=open("/dev/null", "w"))
    assert not CardTally.objects.exists() and not SeatResult.objects.exists()
    assert not ProcessedGame.objects.exists()


def test_a_game_without_a_winner_is_processed_and_counted_nowhere(codes):
    draw = game(codes, None, [(0, "a1", "opening hand")])
    assert record_game(draw.pk)
    assert ProcessedGame.objects.get().counted is False
    assert not CardTally.objects.exists()


@pytest.mark.postgres
def test_workers_counting_the_same_games_at_once_count_each_once(
    transactional_db, codes, three_games
):
    """Six workers at once, two on each of the three games: each game counted by one of
    them, the shared tallies added without a lost update (PostgreSQL: SQLite has one
    writer at a time anyway)."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    from django.db import connection

    if connection.vendor != "postgresql":
        from service_kit import service_missing

        service_missing("needs PostgreSQL: run with DATABASE_URL=postgres://...")
    games = three_games
    start = Barrier(6)

    def worker(pk):
        from django.db import connection as own

        try:
            start.wait()
            return record_game(pk)
        finally:
            own.close()

    with ThreadPoolExecutor(6) as pool:
        counted = list(pool.map(worker, [g.pk for g in games for _twice in range(2)]))
    assert sorted(counted) == [False] * 3 + [True] * 3
    a1, a2, b1 = codes["a1"], codes["a2"], codes["b1"]
    assert card_figures() == sorted(
        [
            (a1, False, 6, 3, 3, 1, 3, 1),
            (a2, False, 3, 2, 2, 1, 0, 0),
            (b1, False, 3, 1, 2, 1, 1, 0),
        ]
    )
    assert [row[-2:] for row in matchup_figures()] == [(3, 1), (3, 2)]


def test_a_tournament_game_counts_as_one_R_18(codes, alice, bob):
    """A rated game of an event played on the site (an OnlineGame) is a tournament game;
    a casual table, or a rated game of no event, an online one."""
    cup = Tournament.objects.create(name="cup", date=FINISHED.date(), organiser=alice)
    a, b = (
        Registration.objects.create(tournament=cup, player=p, deck_name="x", cards=[])
        for p in (alice, bob)
    )
    table = TableSet.objects.create(tournament=cup, table=1, player_a=a, player_b=b)
    event_game, casual_event_game, rated = (game(codes, 0, []) for _ in range(3))
    Match.objects.filter(pk__in=[event_game.pk, rated.pk]).update(casual=False)
    OnlineGame.objects.create(match=table, number=1, game=event_game)
    OnlineGame.objects.create(match=table, number=2, game=casual_event_game)
    for match in (event_game, casual_event_game, rated):
        assert record_game(match.pk)
    sources = dict(SeatResult.objects.filter(seat=0).values_list("match", "source"))
    assert sources == {
        event_game.pk: SeatResult.TOURNAMENT,
        casual_event_game.pk: SeatResult.ONLINE,
        rated.pk: SeatResult.ONLINE,
    }


def test_recording_a_game_takes_a_fixed_number_of_statements(codes, alice, bob):
    """Issue 38: a worker records every finished game, each statement ~0.3-0.6 ms of its
    CPU. PostgreSQL: three reads (the seats with their match, the log's draws, the decks'
    versions) and ONE write; SQLite: the same reads, one insert a table. A change that adds
    a statement fails here. (SAVEPOINT/RELEASE: the test's own transaction around it.)"""
    decks = [
        save_deck(p, name="d", cards=[(codes["a1"], 2), (codes["a2"], 1)]) for p in (alice, bob)
    ]
    warm, match = (game(codes, 0, [(0, "a1", "opening hand")], decks=decks) for _ in range(2))
    assert record_game(warm.pk)  # the catalogue's races, kept by the process
    postgres = connection.vendor == "postgresql"
    with CaptureQueriesContext(connection) as queries:
        assert record_game(match.pk)
    statements = [q["sql"].split()[0].upper() for q in queries.captured_queries]
    reads, writes = ["SELECT"] * 3, ["WITH"] if postgres else ["INSERT"] * 4
    assert statements == [*reads, "SAVEPOINT", *writes, "RELEASE"]
    assert SeatResult.objects.get(match=match, seat=0).deck_version == 1


def test_only_cards_from_a_colony_to_a_centre_count_as_drawn_face_up_or_not_R_16(codes):
    """The recording reads four keys of the log's moves (not whole events): a face-up
    card's own code counts as a face-down one's secret code does; a card reaching a
    centre from elsewhere, or leaving for elsewhere, is not drawn (gamelog.seen_cards)."""
    match = game(codes, 0, [(0, "a1", "opening hand")])
    log = [
        move(0, codes["a2"], "search", hidden=False),
        move(1, codes["b1"], "destroyed", origin="surface", to="wasteland", hidden=False),
        move(1, codes["b1"], "returned", origin="wasteland"),
        {"kind": "credits", "data": {"player": 0, "change": 1}, "secret": None, "to": []},
    ]
    for seq, data in enumerate(log, start=2):
        MatchEvent.objects.create(match=match, seq=seq, version=seq, data=data)
    assert record_game(match.pk)
    a1, a2, b1 = codes["a1"], codes["a2"], codes["b1"]
    assert card_figures() == sorted(
        [
            (a1, False, 2, 1, 1, 1, 1, 1),  # seat 0's opening hand; seat 1's a1 never drawn
            (a2, False, 1, 1, 1, 1, 0, 0),  # searched, face up
            (b1, False, 1, 0, 0, 0, 0, 0),  # destroyed and returned: never from the colony
        ]
    )


def test_a_write_refused_by_another_constraint_is_raised_not_taken_for_counted(
    three_games, monkeypatch
):
    """Only the processed row's unique key means "counted already"; any other refusal (a
    deck deleted between the read and the write, say) leaves the game uncounted and must
    not pass for a duplicate."""
    from django.db import IntegrityError

    from stats import recording

    def refused(*_args, **_kwargs):
        raise IntegrityError("a foreign key")

    monkeypatch.setattr(recording, "_write", refused)
    with pytest.raises(IntegrityError):
        record_game(three_games[0].pk)
    assert not ProcessedGame.objects.exists()
