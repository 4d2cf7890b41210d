"""Rating a finished game (ratings/services.py): once per game, the right direction for each
seat, never a bot, never a person who has not opted in (docs/ratings.md)."""

import pytest

from matches import services as matches_services
from matches.models import Match
from ratings import services, skill, tasks
from ratings.models import OptIn, RatedGame, Rating, RatingChange
from ratings.selectors import current_season, opted_in, skill_for
from tests.matches.kit import legal_colony

from .conftest import finished_game

pytestmark = pytest.mark.django_db


def rating(user) -> Rating:
    return Rating.objects.get(user=user, season=current_season())


def test_a_rated_game_changes_both_ratings_once_when_its_end_is_processed_twice(people):
    ann, ben = people[:2]
    match = finished_game([ann, ben], winner=0)
    tasks.rate_match(match.pk)
    after_first = {u.pk: (rating(u).mu, rating(u).sigma, rating(u).games) for u in (ann, ben)}
    tasks.rate_match(match.pk)  # the same end processed again (a task delivered twice)
    after_second = {u.pk: (rating(u).mu, rating(u).sigma, rating(u).games) for u in (ann, ben)}
    assert after_second == after_first
    assert rating(ann).games == rating(ben).games == 1
    assert rating(ann).mu > skill.NEWCOMER.mu > rating(ben).mu
    assert rating(ann).sigma < skill.NEWCOMER.sigma and rating(ben).sigma < skill.NEWCOMER.sigma
    assert RatingChange.objects.filter(match=match).count() == 2
    assert RatedGame.objects.get(match=match).counted


def test_the_history_stores_before_and_after(people):
    ann, ben = people[:2]
    first = finished_game([ann, ben], winner=1)
    second = finished_game([ben, ann], winner=1)
    services.rate_match(first.pk)
    services.rate_match(second.pk)
    changes = list(RatingChange.objects.filter(user=ann).order_by("created", "pk"))
    assert [c.match_id for c in changes] == [first.pk, second.pk]
    assert changes[0].number_before == skill.DEFAULT_NUMBER
    # the second game starts where the first left ann: no update lost between them
    assert changes[1].mu_before == changes[0].mu_after
    assert changes[1].number_before == changes[0].number_after
    assert changes[1].number_after == rating(ann).number
    assert [c.place for c in changes] == [2, 1]


def test_a_draw_moves_the_favourite_down_and_the_underdog_up(people):
    ann, ben = people[:2]
    Rating.objects.create(user=ann, season=current_season(), mu=32, sigma=4)
    match = finished_game([ann, ben], winner=None)
    services.rate_match(match.pk)
    assert rating(ann).mu < 32 and rating(ben).mu > skill.NEWCOMER.mu
    assert set(RatingChange.objects.values_list("place", flat=True)) == {1}


def test_a_multiplayer_ranking_updates_every_seat_in_its_order(people):
    """R 17.1.6: the table's final ranking, seats best first; four newcomers end ordered as
    they were ranked, the first up, the last down, every sigma down."""
    table = people[:4]
    match = finished_game(table, ranking=[2, 0, 3, 1])
    services.rate_match(match.pk)
    mus = {seat: rating(table[seat]).mu for seat in range(4)}
    assert mus[2] > mus[0] > mus[3] > mus[1]
    assert mus[2] > skill.NEWCOMER.mu > mus[1]
    assert all(rating(u).sigma < skill.NEWCOMER.sigma for u in table)
    places = dict(RatingChange.objects.values_list("user_id", "place"))
    assert places == {table[2].pk: 1, table[0].pk: 2, table[3].pk: 3, table[1].pk: 4}


def test_a_bot_stand_in_for_a_person_who_left_still_rates_the_people(people):
    """A person who conceded a multiplayer table left a bot playing on (docs/rulings.md); the
    game rates the people, the one who left where the engine ranked them (R 17.1.6)."""
    table = people[:3]
    match = finished_game(table, ranking=[0, 2, 1], stand_ins=["", "heuristic", ""])
    services.rate_match(match.pk)
    assert RatedGame.objects.get(match=match).counted
    assert rating(table[1]).mu < skill.NEWCOMER.mu < rating(table[0]).mu


def test_a_game_with_a_bot_seat_is_never_rated(people):
    ann = people[0]
    match = finished_game([ann, None], winner=0)
    services.rate_match(match.pk)
    marked = RatedGame.objects.get(match=match)
    assert (marked.counted, marked.reason) == (False, services.BOT_SEAT)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_person_who_has_not_opted_in_is_never_rated(people):
    ann, ben = people[:2]
    match = finished_game([ann, ben], winner=0)
    services.set_opt_in(ben, False)  # ben left the ratings before the game was rated
    services.rate_match(match.pk)
    marked = RatedGame.objects.get(match=match)
    assert (marked.counted, marked.reason) == (False, services.NOT_OPTED_IN)
    assert not Rating.objects.exists()


def test_an_unrated_game_or_one_waiting_for_a_judge_is_left_alone(people):
    ann, ben = people[:2]
    casual = finished_game([ann, ben], winner=0, rated=False)
    waiting = finished_game([ann, ben], winner=None)
    Match.objects.filter(pk=waiting.pk).update(status=Match.NEEDS_JUDGE)
    assert services.rate_match(casual.pk) is None
    assert services.rate_match(waiting.pk) is None
    assert not RatedGame.objects.exists() and not Rating.objects.exists()
    # the judge decides: the game finishes and is rated then
    Match.objects.filter(pk=waiting.pk).update(status=Match.FINISHED, winner_seat=1)
    assert services.rate_match(waiting.pk).counted
    assert rating(ben).mu > rating(ann).mu


def test_selectors_give_a_default_number_and_who_opted_in(people, django_user_model):
    ann, ben = people[:2]
    stranger = django_user_model.objects.create_user("stranger", password="pw-str-123")
    services.rate_match(finished_game([ann, ben], winner=0).pk)
    numbers = skill_for([ann.pk, ben.pk, stranger.pk])
    assert numbers[ann.pk] == rating(ann).number > numbers[ben.pk] == rating(ben).number
    assert numbers[stranger.pk] == skill.DEFAULT_NUMBER
    assert opted_in([ann.pk, stranger.pk]) == {ann.pk}
    assert skill_for([]) == {} and opted_in([]) == set()


def test_a_real_rated_game_is_rated_when_it_ends(
    people, catalogue, django_capture_on_commit_callbacks
):
    """The path of a real game: created rated between two people who opted in, conceded;
    matches sends match_finished after the commit, the receiver queues the task (eager)."""
    ann, ben = people[:2]
    colonies = [legal_colony(1), legal_colony(2)]
    match = matches_services.create_match(players=(ann, ben), colonies=colonies, seed=5, rated=True)
    with django_capture_on_commit_callbacks(execute=True):
        matches_services.concede(match, ben)
    assert RatedGame.objects.get(match=match).counted
    assert rating(ann).mu > rating(ben).mu


def test_opting_out_keeps_the_history(people):
    ann, ben = people[:2]
    services.rate_match(finished_game([ann, ben], winner=0).pk)
    services.set_opt_in(ann, False)
    assert not OptIn.objects.filter(user=ann).exists()
    assert rating(ann).games == 1 and RatingChange.objects.filter(user=ann).count() == 1
