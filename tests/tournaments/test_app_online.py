"""Tournament matches played on the site (tournaments/online.py) through the real matches
app: games created with both frozen decklists, results recorded from
`matches.signals.match_finished`, best-of-three sets game by game, the hour limit going to
a judge and never to a draw (R 18.4), play/draw of the higher seed (R 18.7) and
`play_all_three` (R 18.3.4).

Embedded default (eager Celery, on_commit run for real): `transaction=True`.
"""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone
from tournament_kit import colony

from decks.services import save_deck
from matches import services as match_services
from matches.clocks_sweep import sweep
from matches.models import Match as Game
from tournaments import online, services
from tournaments.models import AuditEntry, OnlineGame, TableSet, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("org", password="pw-org-12345")


@pytest.fixture
def users(django_user_model, catalogue):
    return [
        django_user_model.objects.create_user(f"p{i}", password="pw-player-12345")
        for i in range(1, 5)
    ]


def online_event(staff, users, **fields):
    t = services.create_tournament(
        staff, name="Online Kupa", date=datetime.date(2026, 12, 5), online=True, **fields
    )
    regs = []
    for user in users:
        reg = services.register(t, user, save_deck(user, name="Colony", cards=colony()))
        services.check_in(reg, user)
        regs.append(reg)
    services.start(t, staff)
    return t, regs


def publish_round(t, staff):
    rnd = services.pair_next_round(t, staff)
    return services.publish_round(rnd, staff)


def loser_concedes(og: OnlineGame, winner_seat: int):
    """The player in the other seat concedes the game (a real end of a game)."""
    game = Game.objects.get(pk=og.game_id)
    loser = game.seats.get(seat=1 - winner_seat).user
    match_services.concede(game, loser)


def refresh(match):
    return TableSet.objects.get(pk=match.pk)


def test_publishing_creates_game_one_with_both_frozen_decklists(staff, users):
    """R 9.6, R 18.4: each pairing's game is a tournament game (not casual, one hour)
    between the two frozen decklists; a bye gets no game."""
    t, regs = online_event(staff, users[:3])
    rnd = publish_round(t, staff)
    played = rnd.matches.exclude(player_b=None).get()
    bye = rnd.matches.get(player_b=None)
    og = played.online_games.get()
    game = og.game
    assert og.number == 1 and game.status == Game.ACTIVE
    assert game.casual is False and game.game_time_limit == 3600 and game.ruleset == "original"
    seats = {s.seat: s for s in game.seats.all()}
    assert seats[0].user == played.player_a.player and seats[1].user == played.player_b.player
    for seat, reg in ((0, played.player_a), (1, played.player_b)):
        expected = sorted(code for code, n in reg.cards for _ in range(n))
        assert sorted(seats[seat].colony) == expected and len(expected) == 45
    assert not bye.online_games.exists()
    # publishing again is idempotent: no second game
    services.publish_round(rnd, staff)
    assert OnlineGame.objects.filter(match=played).count() == 1


def test_players_cannot_report_a_match_played_on_the_site(staff, users):
    t, regs = online_event(staff, users[:2])
    m = publish_round(t, staff).matches.get()
    with pytest.raises(services.Conflict):
        services.report(m, m.player_a.player, 1, 0)


def test_a_finished_game_confirms_a_best_of_one_match(staff, users):
    """R 18.7: bo1 Swiss; the game's winner wins the match 1-0, standings update."""
    t, regs = online_event(staff, users[:2])
    m = publish_round(t, staff).matches.get()
    loser_concedes(m.online_games.get(), winner_seat=1)
    m = refresh(m)
    assert (m.status, m.games_a, m.games_b) == (TableSet.CONFIRMED, 0, 1)
    assert m.online_games.get().winner == m.player_b
    top = services.current_standings(t)[0]
    assert top.id == m.player_b_id and top.points == 3


def test_best_of_three_creates_the_next_game_until_a_player_has_two(staff, users):
    """R 18.3.4: a set ends at two game wins; the next game starts when one ends, the
    loser of the previous game playing first (docs/rulings.md)."""
    t, regs = online_event(staff, users[:2], match_format="bo3")
    m = publish_round(t, staff).matches.get()
    loser_concedes(m.online_games.get(number=1), winner_seat=0)
    m = refresh(m)
    assert m.status == TableSet.PENDING and m.online_games.count() == 2
    game2 = m.online_games.get(number=2).game
    assert game2.starting_player == 1  # seat 1 lost game 1
    loser_concedes(m.online_games.get(number=2), winner_seat=1)
    game3 = m.online_games.get(number=3).game
    assert game3.starting_player == 0
    loser_concedes(m.online_games.get(number=3), winner_seat=0)
    m = refresh(m)
    assert (m.status, m.games_a, m.games_b) == (TableSet.CONFIRMED, 2, 1)
    assert m.online_games.count() == 3


def test_the_hour_sends_the_game_to_a_judge_never_a_draw(staff, users):
    """R 18.4: a game that reaches the hour is needs_judge; the judge decides with reason
    time or ruling (a draw or another reason is refused); the decision is audited and
    the match result follows from it."""
    t, regs = online_event(staff, users[:2])
    m = publish_round(t, staff).matches.get()
    og = m.online_games.get()
    Game.objects.filter(pk=og.game_id).update(game_deadline=timezone.now())
    sweep()  # the real clock task: the game time is over
    assert Game.objects.get(pk=og.game_id).status == Game.NEEDS_JUDGE
    m = refresh(m)
    assert m.status == TableSet.NEEDS_JUDGE and m.games_a is None
    with pytest.raises(services.Conflict):
        services.report(m, m.player_a.player, 1, 0)
    with pytest.raises(ValidationError):
        online.judge_game(og, staff, m.player_a, "draw")
    with pytest.raises(ValidationError):
        online.judge_game(og, staff, None, "time")
    with pytest.raises(services.PermissionDenied):
        online.judge_game(og, m.player_a.player, m.player_a, "time")
    online.judge_game(og, staff, m.player_b, "time")
    game = Game.objects.get(pk=og.game_id)
    assert (game.status, game.result, game.winner_seat) == (Game.FINISHED, "judge", 1)
    m = refresh(m)
    assert (m.status, m.games_a, m.games_b, m.judge_reason) == (TableSet.CONFIRMED, 0, 1, "time")
    entry = AuditEntry.objects.get(action="judge_game")
    assert entry.actor == staff and entry.data["reason"] == "time" and entry.match_id == m.pk


def _to_playoff(staff, users, **fields):
    t, regs = online_event(staff, users, swiss_rounds=1, **fields)
    rnd = publish_round(t, staff)
    for m in rnd.matches.all():
        loser_concedes(m.online_games.get(), winner_seat=0)
    semis = services.start_playoff(t, staff)
    return t, semis


def test_playoff_game_one_waits_for_the_higher_seeds_choice(staff, users):
    """R 18.7: the higher seed chooses play or draw; game 1 starts with that choice."""
    t, semis = _to_playoff(staff, users)
    semi = refresh(semis[0])
    assert not semi.online_games.exists()
    higher = min((semi.player_a, semi.player_b), key=lambda r: r.playoff_seed)
    services.choose_first(semi, higher.player, "draw")
    game = semi.online_games.get(number=1).game
    lower_seat = 0 if semi.player_a_id != higher.pk else 1
    assert game.starting_player == lower_seat


def test_play_all_three_plays_the_third_game_at_two_nil(staff, users):
    """R 18.3.4 `play_all_three`: the third game of a playoff set is played even at 2-0,
    and the set is 3-0 or 2-1; a 2-0 result is refused for such a set."""
    t, semis = _to_playoff(staff, users, play_all_three=True)
    semi = refresh(semis[0])
    with pytest.raises(ValidationError):
        services.check_score(semi, 2, 0)
    services.check_score(semi, 2, 1)
    services.check_score(semi, 0, 3)
    services.choose_first(semi, semi.player_a.player, "play")
    for number in (1, 2):
        loser_concedes(semi.online_games.get(number=number), winner_seat=0)
    semi = refresh(semi)
    assert semi.status == TableSet.PENDING and semi.online_games.filter(number=3).exists()
    loser_concedes(semi.online_games.get(number=3), winner_seat=1)
    semi = refresh(semi)
    assert (semi.status, semi.games_a, semi.games_b) == (TableSet.CONFIRMED, 2, 1)


def test_without_play_all_three_a_set_ends_at_two_nil(staff, users):
    """R 18.3.4 default: the set is over at two wins; the final follows the semis."""
    t, semis = _to_playoff(staff, users)
    for semi in semis:
        semi = refresh(semi)
        higher = min((semi.player_a, semi.player_b), key=lambda r: r.playoff_seed)
        services.choose_first(semi, higher.player, "play")
        for number in (1, 2):
            loser_concedes(semi.online_games.get(number=number), winner_seat=0)
        semi = refresh(semi)
        assert (semi.games_a, semi.games_b, semi.online_games.count()) == (2, 0, 2)
    t.refresh_from_db()
    assert t.matches.filter(stage="final").count() == 1
    assert t.matches.filter(stage="third").count() == 1


def test_a_bot_higher_seed_chooses_to_play_at_once(staff, users):
    """Simulations: a bot entrant's playoff game starts without waiting (it plays first)."""
    t, regs = online_event(staff, users, swiss_rounds=1)
    rnd = publish_round(t, staff)
    for m in rnd.matches.all():
        loser_concedes(m.online_games.get(), winner_seat=0)
    top = services.current_standings(t)[0].id
    t.registrations.filter(pk=top).update(bot="random")
    services.start_playoff(t, staff)
    semi = t.matches.get(stage="semi", player_a_id=top)
    assert semi.first_player_id == top
    assert semi.online_games.get(number=1).game.starting_player == 0


def test_offline_events_create_no_games(staff, users):
    t, regs = online_event(staff, users[:2])
    Tournament.objects.filter(pk=t.pk).update(online=False)
    m = publish_round(t, staff).matches.get()
    assert not m.online_games.exists() and not Game.objects.exists()


def _timed_out_match(staff, users):
    t, regs = online_event(staff, users[:2])
    m = publish_round(t, staff).matches.get()
    og = m.online_games.get()
    Game.objects.filter(pk=og.game_id).update(game_deadline=timezone.now())
    sweep()
    return t, refresh(m), og


def test_api_judge_game_checks_staff_reason_and_winner(client, staff, users):
    """R 18.4 over the API: 403 for a player, 400 for a draw-like reason or a stranger as
    winner (with a message), 200 for staff with reason time."""
    import json

    t, m, og = _timed_out_match(staff, users)
    url = f"/api/tournament-matches/{m.pk}/judge-game/"

    def post(body):
        return client.post(url, json.dumps(body), content_type="application/json",
                           HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip

    client.force_login(m.player_a.player)
    assert post({"game": 1, "winner": m.player_a.name, "reason": "time"}).status_code == 403
    client.force_login(staff)
    bad = post({"game": 1, "winner": m.player_a.name, "reason": "draw"})
    assert bad.status_code == 400 and "reason" in bad.json()["detail"]
    stranger = post({"game": 1, "winner": "nobody", "reason": "time"})
    assert stranger.status_code == 400 and "one of the two players" in str(stranger.json())
    missing = post({"game": 2, "winner": m.player_a.name, "reason": "time"})
    assert missing.status_code == 400 and "no game 2" in str(missing.json())
    ok = post({"game": 1, "winner": m.player_a.name, "reason": "ruling"})
    assert ok.status_code == 200, ok.content
    body = ok.json()
    assert (body["status"], body["games_a"], body["games_b"]) == ("confirmed", 1, 0)
    assert body["online_games"][0]["winner"] == m.player_a.name
    assert body["online_games"][0]["judge_reason"] == "ruling"


def test_pages_link_the_game_and_offer_the_judge_form(client, staff, users):
    """The player's page links the game on the site and offers no report form; the
    dashboard shows the game that needs a judge with time/ruling only (R 18.4)."""
    t, m, og = _timed_out_match(staff, users)
    client.force_login(m.player_a.player)
    page = client.get(f"/en/tournaments/{t.pk}/").content.decode()
    assert f"/en/play/{og.game_id}/" in page and 'id="report-button"' not in page
    assert "a judge decides" in page
    client.force_login(staff)
    dash = client.get(f"/en/tournaments/{t.pk}/dashboard/").content.decode()
    assert "judge-game-form" in dash and 'value="draw"' not in dash
    response = client.post(
        f"/en/tournaments/matches/{m.pk}/judge-game/",
        {"game": "1", "winner": str(m.player_b_id), "reason": "time"},
    )
    assert response.status_code == 302
    assert refresh(m).status == TableSet.CONFIRMED and refresh(m).games_b == 1
