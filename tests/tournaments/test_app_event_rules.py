"""Events as organisers run them (issue 14): every event finishes (R 18.3, R 18.6), every
correction holds (R 18.5), drops and re-activations follow one set of rules (R 18.7
standings), staff enter plain results and check players in at the door."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied
from tournament_kit import colony, create_users, enter

from cards_data.models import Card
from decks.services import save_deck
from tournaments import services, swiss
from tournaments.models import AuditEntry, TableSet, Tournament

pytestmark = pytest.mark.django_db

NAMES = ["ann", "bob", "cyd", "dan", "eve", "fay", "gus", "hal"]


@pytest.fixture
def users(django_user_model, catalogue):
    return create_users(django_user_model, ["org", *NAMES])


def new_event(users, **fields):
    return services.create_tournament(
        users["org"], name="Kupa", date=datetime.date(2026, 12, 5), **fields
    )


def running(users, names, **fields):
    event = new_event(users, **fields)
    regs = enter(event, users, names)
    services.start(event, users["org"])
    event.refresh_from_db()  # the number of rounds is fixed at the start (R 18.7)
    return event, regs


def play_round(event, staff, winner="a"):
    """Pair, publish and confirm every match of the next round (player a wins by default)."""
    rnd = services.pair_next_round(event, staff)
    services.publish_round(rnd, staff)
    for m in rnd.matches.exclude(player_b=None):
        games = (1, 0) if winner == "a" else (0, 1)
        services.report(m, m.player_a.player, *games)
        services.confirm(m, m.player_b.player)
    return rnd


def win_set(match, first=True):
    """Report and confirm a playoff set 2-0 for player a (first) or b."""
    games = (2, 0) if first else (0, 2)
    services.report(match, match.player_a.player, *games)
    services.confirm(match, match.player_b.player)


def ultra(n):
    return {i + 1: c.code for i, c in enumerate(Card.objects.filter(rarity="ultra_rare")[:n])}


# ------------------------------------------------------------- every event finishes


def test_r_18_6_a_three_player_event_finishes_after_the_swiss_and_awards_prizes(users):
    """Fewer than four active players: a Swiss-only finish, prizes for the three placed."""
    event, regs = running(users, NAMES[:3])
    for _ in range(event.planned_rounds()):
        play_round(event, users["org"])
    services.finish_swiss(event, users["org"])
    event.refresh_from_db()
    assert event.status == Tournament.FINISHED
    placed = services.placings(event)
    order = [row.id for row in services.final_order(event)]
    assert [r.pk for r in placed] == order[:3]
    prizes = services.award_prizes(event, users["org"], ultra(3))
    assert [p.awarded_to_id for p in prizes] == order[:3]


def test_r_18_3_two_or_three_active_players_play_a_final_of_the_top_two(users):
    event, regs = running(users, NAMES[:3])
    for _ in range(event.planned_rounds()):
        play_round(event, users["org"])
    sets = services.start_playoff(event, users["org"])
    assert [m.stage for m in sets] == ["final"]
    order = [row.id for row in services.final_order(event)]
    assert (sets[0].player_a_id, sets[0].player_b_id) == (order[0], order[1])
    win_set(sets[0], first=False)
    event.refresh_from_db()
    assert event.status == Tournament.FINISHED
    assert [r.pk for r in services.placings(event)] == [order[1], order[0], order[2]]
    assert len(services.award_prizes(event, users["org"], ultra(3))) == 3


def test_r_18_3_an_event_that_drops_below_four_still_finishes(users):
    event, regs = running(users, NAMES[:5])
    play_round(event, users["org"])
    for name in ("ann", "bob"):
        services.drop(regs[name], users[name])
    while not services.swiss_finished(event):
        play_round(event, users["org"])
    sets = services.start_playoff(event, users["org"])
    assert [m.stage for m in sets] == ["final"]


def test_two_players_can_start_and_finish(users):
    event, regs = running(users, NAMES[:2])
    play_round(event, users["org"])
    event = services.finish_swiss(event, users["org"])
    assert len(services.placings(event)) == 2
    with pytest.raises(Exception, match="1 to 2"):
        services.award_prizes(event, users["org"], ultra(3))
    assert len(services.award_prizes(event, users["org"], ultra(2))) == 2


# ------------------------------------------------------------- corrections propagate


def _playoff(users, names=NAMES[:4]):
    event, regs = running(users, names)
    for _ in range(event.planned_rounds()):
        play_round(event, users["org"])
    semis = services.start_playoff(event, users["org"])
    for semi in semis:
        win_set(semi)
    return event, semis


def test_r_18_5_correcting_a_semi_final_changes_the_unplayed_final(users):
    event, semis = _playoff(users)
    final = event.matches.get(stage="final")
    semi = semis[0]
    assert semi.player_a_id in (final.player_a_id, final.player_b_id)
    services.judge_result(semi, users["org"], 0, 2, "correction")
    final.refresh_from_db()
    third = event.matches.get(stage="third")
    assert semi.player_b_id in (final.player_a_id, final.player_b_id)
    assert semi.player_a_id not in (final.player_a_id, final.player_b_id)
    assert semi.player_a_id in (third.player_a_id, third.player_b_id)
    win_set(final)
    win_set(third)
    places = services.placings(event)
    assert semi.player_a_id not in {places[0].pk, places[1].pk}


def test_r_18_5_a_correction_is_refused_once_the_final_was_played_on_it(users):
    event, semis = _playoff(users)
    final = event.matches.get(stage="final")
    win_set(final)
    with pytest.raises(services.Conflict, match="final"):
        services.judge_result(semis[0], users["org"], 0, 2, "correction")
    semis[0].refresh_from_db()
    assert (semis[0].games_a, semis[0].games_b) == (2, 0)
    # the same winner with another score changes nothing downstream: allowed
    services.judge_result(semis[0], users["org"], 2, 1, "correction")


def test_r_18_5_a_swiss_correction_repairs_the_draft_paired_on_it(users):
    event, regs = running(users, NAMES[:8])
    rnd1 = play_round(event, users["org"])
    services.pair_next_round(event, users["org"])
    match = rnd1.matches.exclude(player_b=None).first()
    services.judge_result(match, users["org"], 0, 1, "correction")
    assert AuditEntry.objects.filter(tournament=event, action="repair").exists()
    draft = event.rounds.get(number=2)
    winners = {m.winner.pk for m in rnd1.matches.exclude(player_b=None)}
    for m in draft.matches.all():
        assert (m.player_a_id in winners) == (m.player_b_id in winners)


# ------------------------------------------------- drops and re-activations: one rule


def test_r_18_7_a_reactivated_player_loses_the_rounds_missed_while_dropped(users):
    event, regs = running(users, NAMES[:4], swiss_rounds=3)
    play_round(event, users["org"])
    services.drop(regs["ann"], users["ann"])
    play_round(event, users["org"])
    services.reactivate(regs["ann"], users["org"])
    row = next(r for r in services.current_standings(event) if r.id == regs["ann"].pk)
    assert row.missed == 1 and row.wins + row.losses == 2


def test_reactivation_is_refused_in_the_playoff(users):
    event, regs = running(users, NAMES[:5])
    play_round(event, users["org"])
    services.drop(regs["eve"], users["eve"])
    while not services.swiss_finished(event):
        play_round(event, users["org"])
    services.start_playoff(event, users["org"])
    with pytest.raises(services.Conflict, match="playoff"):
        services.reactivate(regs["eve"], users["org"])


def test_a_player_who_drops_in_the_playoff_loses_their_set(users):
    event, regs = running(users, NAMES[:4])
    for _ in range(event.planned_rounds()):
        play_round(event, users["org"])
    semis = services.start_playoff(event, users["org"])
    semi = semis[0]
    services.drop(semi.player_b, semi.player_b.player)
    semi.refresh_from_db()
    assert (semi.status, semi.games_a, semi.games_b) == (TableSet.CONFIRMED, 2, 0)
    assert AuditEntry.objects.filter(tournament=event, action="drop_concession").exists()


def test_a_player_who_drops_mid_round_concedes_the_unplayed_match(users):
    event, regs = running(users, NAMES[:4])
    rnd = services.pair_next_round(event, users["org"])
    services.publish_round(rnd, users["org"])
    match = rnd.matches.exclude(player_b=None).first()
    services.drop(match.player_a, match.player_a.player)
    match.refresh_from_db()
    assert (match.status, match.games_a, match.games_b) == (TableSet.CONFIRMED, 0, 1)


# ------------------------------------------------------------- staff on the pages


def login(client, user):
    client.force_login(user)


def test_the_dashboard_enters_a_plain_result_not_a_judge_ruling(client, users):
    event, regs = running(users, NAMES[:4])
    rnd = services.pair_next_round(event, users["org"])
    services.publish_round(rnd, users["org"])
    match = rnd.matches.exclude(player_b=None).first()
    login(client, users["org"])
    page = client.get(f"/en/tournaments/{event.pk}/dashboard/").content.decode()
    assert f"Games won by {match.player_a.name}" in page
    assert '<select name="reason"' not in page  # no judge ruling (no default reason) in sight
    response = client.post(
        f"/en/tournaments/matches/{match.pk}/result/", {"games_a": 1, "games_b": 0}
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.games_a, match.judge_reason) == (TableSet.CONFIRMED, 1, "")
    actions = set(event.audit.values_list("action", flat=True))
    assert "result_entered" in actions and "judge_result" not in actions
    page = client.get(f"/en/tournaments/{event.pk}/dashboard/").content.decode()
    assert "entered the result of round 1" in page
    # a judge ruling is a separate action whose reason has no default
    assert '<option value="">Choose a reason</option>' in page
    assert "{'" not in page and "&#x27;" not in page


def test_staff_check_players_in_at_the_door(client, users):
    event = new_event(users)
    regs = {}
    for name in NAMES[:5]:
        deck = save_deck(users[name], name="c", cards=colony())
        regs[name] = services.register(event, users[name], deck)
    login(client, users["org"])
    response = client.post(f"/en/tournaments/{event.pk}/do/check-in/", {"reg": regs["ann"].pk})
    assert response.status_code == 302
    regs["ann"].refresh_from_db()
    assert regs["ann"].checked_in
    client.post(
        f"/en/tournaments/{event.pk}/do/check-in-all/",
        {"present": [regs["bob"].pk, regs["cyd"].pk]},
    )
    checked = set(
        event.registrations.filter(checked_in=True).values_list("player__username", flat=True)
    )
    assert checked == {"ann", "bob", "cyd"}
    assert AuditEntry.objects.filter(tournament=event, action="check_in_many").exists()
    login(client, users["dan"])  # a player cannot check in someone else
    client.post(f"/en/tournaments/{event.pk}/do/check-in/", {"reg": regs["eve"].pk})
    regs["eve"].refresh_from_db()
    assert not regs["eve"].checked_in


# ------------------------------------------------------ organiser tools and pages


def test_standings_and_pairings_as_csv_and_the_big_screen(client, users):
    event, regs = running(users, NAMES[:3])
    rnd = services.pair_next_round(event, users["org"])
    assert client.get(f"/en/tournaments/{event.pk}/rounds/1/pairings.csv").status_code == 404
    services.publish_round(rnd, users["org"])
    response = client.get(f"/en/tournaments/{event.pk}/rounds/1/pairings.csv")
    lines = response.content.decode().splitlines()
    assert response["Content-Type"].startswith("text/csv")
    assert lines[0] == "Table,Player,Opponent,Result" and len(lines) == 3  # a match, a bye
    assert lines[-1].endswith(",bye,")
    lines = client.get(f"/hu/tournaments/{event.pk}/standings.csv").content.decode().splitlines()
    assert lines[0].startswith("Helyezés,Játékos") and len(lines) == 4
    page = client.get(f"/en/tournaments/{event.pk}/screen/").content.decode()
    assert "Swiss round 1 of 2" in page and 'id="round-timer"' in page
    for name in NAMES[:3]:
        assert name in page
    page = client.get(f"/en/tournaments/{event.pk}/rounds/1/pairings/").content.decode()
    assert 'id="find-my-table"' in page and "tournaments/find.js" in page


def test_pages_name_the_stage_and_show_no_stopped_clock(client, users):
    event, regs = running(users, NAMES[:2])
    play_round(event, users["org"])  # round 1 complete: its clock has stopped
    login(client, users["org"])
    page = client.get(f"/en/tournaments/{event.pk}/dashboard/").content.decode()
    assert "Swiss round 1 of 1 · complete" in page and 'id="round-timer"' not in page
    services.finish_swiss(event, users["org"])
    login(client, users["ann"])
    page = client.get(f"/hu/tournaments/{event.pk}/").content.decode()
    assert '<span id="tournament-status">Befejezve</span>' in page
    assert 'class="timer"' not in page


def test_a_players_page_shows_their_playoff_match_not_an_old_swiss_one(client, users):
    event, semis = _playoff(users)
    final = event.matches.get(stage="final")
    login(client, final.player_a.player)
    page = client.get(f"/en/tournaments/{event.pk}/").content.decode()
    assert "Your playoff match" in page and "Round 2: your match" not in page


def test_a_judge_gives_one_table_a_time_extension(client, users):
    """MTR time extension: the table's clock moves, the round's does not; logged."""
    event, regs = running(users, NAMES[:4])
    rnd = services.pair_next_round(event, users["org"])
    services.publish_round(rnd, users["org"])
    match, other = rnd.matches.order_by("table")[:2]
    login(client, users["org"])
    client.post(f"/en/tournaments/matches/{match.pk}/extend/", {"minutes": 5})
    match.refresh_from_db()
    other.refresh_from_db()
    assert match.extra_minutes == 5 and other.extra_minutes == 0
    rnd.refresh_from_db()
    assert services.match_deadline(match) - services.round_deadline(rnd) == datetime.timedelta(
        minutes=5
    )
    with pytest.raises(Exception, match="at most 30"):
        services.extend_time(match, users["org"], 26)
    with pytest.raises(PermissionDenied):
        services.extend_time(match, match.player_a.player, 1)
    page = client.get(f"/en/tournaments/{event.pk}/dashboard/").content.decode()
    assert f"gave table {match.table} 5 extra minutes." in page


# ---------------------------------------------- properties through the service path


def _check_draft(event, rnd):
    """Every active player once, a legal bye, no rematch beyond the exact optimum."""
    records = {
        r.id: r
        for r in standings_records(event)  # the standings the draft was paired from
    }
    active = {pk for pk, rec in records.items() if not rec.dropped}
    seated, byes, rematches = [], [], 0
    for a, b in rnd.matches.values_list("player_a_id", "player_b_id"):
        seated += [a] if b is None else [a, b]
        if b is None:
            byes.append(a)
        elif b in records[a].opponents:
            rematches += 1
    assert sorted(seated) == sorted(active)
    assert len(byes) == len(active) % 2
    eligible = [pk for pk in active if not records[pk].had_bye]
    if byes and eligible:
        assert not records[byes[0]].had_bye
    exact = swiss.pair_round(list(records.values()), seed="check", method="exact")
    assert rematches == exact.rematches


def standings_records(event):
    from tournaments.standings import player_records

    return player_records(services.current_standings(event))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_r_18_7_service_drafts_keep_the_pairing_properties(users, seed):
    """R 18.7 through services.pair_next_round (not only the pure function): random
    results, drops, a late entry and re-activations; each draft is checked before it is
    published (the standings it was paired from are unchanged until then)."""
    import random

    rng = random.Random(seed)
    event, regs = running(users, NAMES[:7], swiss_rounds=5)
    for number in range(1, 6):
        rnd = services.pair_next_round(event, users["org"])
        _check_draft(event, rnd)
        services.publish_round(rnd, users["org"])
        for m in rnd.matches.exclude(player_b=None).select_related("player_a", "player_b"):
            services.enter_result(m, users["org"], *rng.choice([(1, 0), (0, 1)]))
        active = [r for r in event.registrations.filter(dropped=False)]
        dropped = [r for r in event.registrations.filter(dropped=True)]
        if rng.random() < 0.5 and len(active) > 3:
            reg = rng.choice(active)
            services.drop(reg, reg.player)
        elif dropped:
            services.reactivate(rng.choice(dropped), users["org"])
        if number == 2:
            services.late_entry(
                event, users["org"], users["hal"], save_deck(users["hal"], name="c", cards=colony())
            )


def test_decklists_are_for_judges_during_the_event_and_public_after_it(client, users):
    event, regs = running(users, NAMES[:2])
    url = f"/en/tournaments/{event.pk}/decklists/{regs['ann'].pk}/"
    login(client, users["bob"])
    assert client.get(url).status_code == 403
    login(client, users["org"])
    page = client.get(url).content.decode()
    assert "45 cards" in page and colony()[0][0] in page
    play_round(event, users["org"])
    services.finish_swiss(event, users["org"])
    client.logout()
    assert client.get(url).status_code == 200
    assert url in client.get(f"/en/tournaments/{event.pk}/standings/").content.decode()
