"""Judges' penalties (issue 14; tournaments/penalties.py, docs/rulings.md "Penalties"):
a warning, a game loss, a match loss and a disqualification, each for an infraction and
with a note, audit-logged as a sentence in both languages (R 18.5: the judge is always
right, with an audit log). Effects follow the MTR, as R 18.7's defaults do.
"""

import datetime
import json

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import translation
from tournament_kit import colony, create_users, enter

from decks.services import save_deck
from tournaments import audit, penalties, services
from tournaments.models import AuditEntry, Penalty, Registration, TableSet, Tournament

pytestmark = pytest.mark.django_db

NAMES = ["ann", "bob", "cyd", "dan"]


@pytest.fixture
def users(django_user_model, catalogue):
    return create_users(django_user_model, ["org", "judge", *NAMES])


def running(users, names=NAMES[:2], **fields):
    event = services.create_tournament(
        users["org"],
        name="Kupa",
        date=datetime.date(2026, 12, 5),
        judges=[users["judge"]],
        **fields,
    )
    regs = enter(event, users, names)
    services.start(event, users["org"])
    event.refresh_from_db()
    return event, regs


def published(event, staff):
    rnd = services.pair_next_round(event, staff)
    services.publish_round(rnd, staff)
    return rnd


def match_of(rnd, reg) -> TableSet:
    from django.db.models import Q

    return rnd.matches.get(Q(player_a=reg) | Q(player_b=reg))


def points(event, reg) -> int:
    return next(r.points for r in services.current_standings(event) if r.id == reg.pk)


def give(reg, staff, kind, infraction="slow_play", note=""):
    return penalties.give_penalty(reg, staff, kind, infraction, note)


# --------------------------------------------------------------------------- kinds


def test_a_warning_is_recorded_and_changes_no_result(users):
    event, regs = running(users)
    rnd = published(event, users["org"])
    penalty = give(regs["ann"], users["judge"], "warning", "tardiness", "5 minutes late")
    match = match_of(rnd, regs["ann"])
    assert (match.status, match.games_a, match.games_b) == (TableSet.PENDING, None, None)
    assert (penalty.kind, penalty.infraction, penalty.note) == (
        "warning",
        "tardiness",
        "5 minutes late",
    )
    assert not penalty.applied and penalty.match is None
    assert AuditEntry.objects.filter(tournament=event, action="penalty").count() == 1


def test_r_18_7_a_game_loss_in_best_of_one_decides_the_match_for_the_opponent(users):
    """Best of one: the one game the opponent is given wins them the match (3 points)."""
    event, regs = running(users)
    rnd = published(event, users["org"])
    match = match_of(rnd, regs["ann"])
    give(regs["ann"], users["judge"], "game_loss")
    match.refresh_from_db()
    ann_is_a = match.player_a_id == regs["ann"].pk
    assert (match.games_a, match.games_b) == ((0, 1) if ann_is_a else (1, 0))
    assert match.status == TableSet.CONFIRMED and match.judge_reason == "penalty"
    assert points(event, regs["bob"]) == 3 and points(event, regs["ann"]) == 0


def test_r_18_7_a_game_loss_in_best_of_three_is_one_game_and_the_match_goes_on(users):
    """Best of three: 1-0 to the opponent; the reported result must include that game;
    a second game loss makes it 2-0 and ends the match."""
    event, regs = running(users, match_format="bo3")
    rnd = published(event, users["org"])
    match = match_of(rnd, regs["ann"])
    ann_is_a = match.player_a_id == regs["ann"].pk
    give(regs["ann"], users["judge"], "game_loss")
    match.refresh_from_db()
    assert match.status == TableSet.PENDING
    assert (match.games_a, match.games_b) == ((0, 1) if ann_is_a else (1, 0))
    # ann cannot report a 2-0 win that ignores the penalty game
    ann_wins = (2, 0) if ann_is_a else (0, 2)
    with pytest.raises(ValidationError, match="Game-loss penalties already gave"):
        services.report(match, users["ann"], *ann_wins)
    # 2-1 for ann includes it
    ann_wins = (2, 1) if ann_is_a else (1, 2)
    services.report(match, users["ann"], *ann_wins)
    services.confirm(match, users["bob"])
    assert points(event, regs["ann"]) == 3


def test_r_18_7_two_game_losses_in_best_of_three_lose_the_match(users):
    event, regs = running(users, match_format="bo3")
    rnd = published(event, users["org"])
    give(regs["bob"], users["org"], "game_loss")
    give(regs["bob"], users["org"], "game_loss", "tardiness")
    match = match_of(rnd, regs["bob"])
    assert match.status == TableSet.CONFIRMED
    assert match.winner == regs["ann"] and sorted([match.games_a, match.games_b]) == [0, 2]


def test_r_18_7_a_match_loss_gives_the_opponent_the_match_0_2(users):
    event, regs = running(users, match_format="bo3")
    rnd = published(event, users["org"])
    give(regs["ann"], users["judge"], "match_loss", "unsporting", "insulted the opponent")
    match = match_of(rnd, regs["ann"])
    assert match.status == TableSet.CONFIRMED and match.judge_reason == "penalty"
    assert match.winner == regs["bob"] and sorted([match.games_a, match.games_b]) == [0, 2]
    row = {r.id: r for r in services.current_standings(event)}
    assert (row[regs["bob"].pk].points, row[regs["bob"].pk].game_wins) == (3, 2)
    assert row[regs["ann"].pk].losses == 1


def test_r_18_7_a_match_loss_between_rounds_applies_to_the_next_match(users):
    """MTR: without a current match the penalty waits for the next one."""
    event, regs = running(users, NAMES[:4], swiss_rounds=2)
    rnd = published(event, users["org"])
    for m in rnd.matches.all():
        services.enter_result(m, users["org"], 1, 0)
    penalty = give(regs["cyd"], users["judge"], "match_loss", "decklist")
    assert not penalty.applied and penalty.match is None
    entry = AuditEntry.objects.filter(action="penalty").latest("id")
    with translation.override("en"):
        assert "It applies to their next match." in audit.sentence(entry)
    rnd2 = published(event, users["org"])
    penalty.refresh_from_db()
    match = match_of(rnd2, regs["cyd"])
    assert penalty.applied and penalty.match == match
    assert match.status == TableSet.CONFIRMED and match.winner != regs["cyd"]
    applied = AuditEntry.objects.get(action="penalty_applied")
    with translation.override("en"):
        assert "to their next match: round 2, table" in audit.sentence(applied)


def test_a_game_loss_before_the_event_applies_to_round_one_but_not_to_a_bye(users):
    """MTR: a decklist problem found before the first round costs the first game; a bye
    is no match, so the penalty waits for the first match played."""
    event = services.create_tournament(
        users["org"], name="K", date=datetime.date(2026, 12, 5), judges=[users["judge"]]
    )
    regs = enter(event, users, NAMES[:3])
    penalty = give(regs["cyd"], users["judge"], "game_loss", "decklist")
    services.start(event, users["org"])
    rnd = published(event, users["org"])
    penalty.refresh_from_db()
    match = match_of(rnd, regs["cyd"])
    if match.is_bye:
        assert not penalty.applied and match.games_a == 2
    else:
        assert penalty.applied and penalty.match == match
        assert match.status == TableSet.CONFIRMED and match.winner != regs["cyd"]


def test_r_18_3_a_match_loss_in_a_semi_final_advances_the_playoff(users):
    event, regs = running(users, NAMES[:4], swiss_rounds=2)
    for _ in range(2):
        rnd = published(event, users["org"])
        for m in rnd.matches.all():
            services.enter_result(m, users["org"], 1, 0)
    semis = services.start_playoff(event, users["org"])
    give(semis[0].player_a, users["judge"], "match_loss", "unsporting")
    services.enter_result(semis[1], users["org"], 2, 0)
    semis[0].refresh_from_db()
    assert semis[0].winner == semis[0].player_b
    final = event.matches.get(stage="final")
    assert {final.player_a_id, final.player_b_id} == {semis[0].player_b_id, semis[1].player_a_id}


def test_a_disqualification_drops_the_player_and_concedes_the_current_match(users):
    event, regs = running(users, NAMES[:4])
    rnd = published(event, users["org"])
    give(regs["dan"], users["judge"], "disqualification", "unsporting", "cheating")
    dan = Registration.objects.get(pk=regs["dan"].pk)
    assert dan.dropped and dan.disqualified
    match = match_of(rnd, dan)
    assert match.status == TableSet.CONFIRMED and match.winner != dan
    actions = list(AuditEntry.objects.filter(tournament=event).values_list("action", flat=True))
    assert "penalty" in actions and "drop" in actions  # the one drop path, logged
    # no longer paired
    for m in rnd.matches.exclude(pk=match.pk):
        services.enter_result(m, users["org"], 1, 0)
    rnd2 = published(event, users["org"])
    seated = {r for m in rnd2.matches.all() for r in (m.player_a_id, m.player_b_id)}
    assert dan.pk not in seated


def test_a_disqualification_in_the_final_ends_the_event_without_a_drop_error(users):
    """The match loss decides the final (R 18.3.2) and finishes the event; the player is
    still marked dropped and disqualified, and has no place on their page."""
    event, regs = running(users, NAMES[:2], swiss_rounds=1)
    rnd = published(event, users["org"])
    services.enter_result(rnd.matches.get(), users["org"], 1, 0)
    final = services.start_playoff(event, users["org"])[0]
    give(final.player_a, users["judge"], "disqualification", "unsporting")
    event.refresh_from_db()
    final.refresh_from_db()
    assert event.status == Tournament.FINISHED and final.winner == final.player_b
    loser = Registration.objects.get(pk=final.player_a_id)
    assert loser.dropped and loser.disqualified
    assert services.placings(event) == [final.player_b]  # no place, so no prize


def test_a_disqualified_player_cannot_be_reactivated_or_register_again(users):
    event, regs = running(users, NAMES[:3])
    give(regs["cyd"], users["org"], "disqualification", "unsporting")
    with pytest.raises(services.Conflict, match="cannot be re-activated"):
        services.reactivate(regs["cyd"], users["org"])
    assert Registration.objects.get(pk=regs["cyd"].pk).dropped
    with pytest.raises(services.Conflict, match="already disqualified"):
        give(regs["cyd"], users["org"], "warning")
    # before the start too: the disqualified player cannot enter the event again
    other = services.create_tournament(users["org"], name="B", date=datetime.date(2026, 12, 6))
    reg = enter(other, users, ["cyd"])["cyd"]
    give(reg, users["org"], "disqualification", "decklist")
    deck = save_deck(users["cyd"], name="again", cards=colony())
    with pytest.raises(services.Conflict, match="disqualified"):
        services.register(other, users["cyd"], deck)


def test_a_disqualified_player_cannot_be_reactivated_from_the_dashboard(client, users):
    event, regs = running(users, NAMES[:3])
    give(regs["cyd"], users["org"], "disqualification", "unsporting")
    client.force_login(users["org"])
    page = client.get(f"/en/tournaments/{event.pk}/dashboard/").content.decode()
    assert "(disqualified)" in page
    response = client.post(
        f"/en/tournaments/{event.pk}/do/reactivate/", {"reg": regs["cyd"].pk}, follow=True
    )
    assert "cannot be re-activated" in response.content.decode()
    assert Registration.objects.get(pk=regs["cyd"].pk).dropped


# ---------------------------------------------------------------- who, and refusals


def test_only_staff_give_penalties(users):
    """R 18.5: judges decide; a player may not penalise anyone (not even themself)."""
    event, regs = running(users)
    for who in ("ann", "bob"):
        with pytest.raises(PermissionDenied, match="Only the organiser and the judges"):
            give(regs["bob"], users[who], "match_loss")
    assert not Penalty.objects.exists()
    give(regs["bob"], users["judge"], "warning")  # a named judge may
    assert Penalty.objects.count() == 1


def test_a_player_posting_the_penalty_form_gets_403_with_the_reason(client, users):
    event, regs = running(users)
    client.force_login(users["ann"])
    body = {"player": regs["bob"].pk, "penalty": "match_loss", "infraction": "other"}
    response = client.post(f"/en/tournaments/{event.pk}/do/penalty/", body)
    assert response.status_code == 403
    assert "Only the organiser and the judges may do this." in response.content.decode()
    hu = client.post(f"/hu/tournaments/{event.pk}/do/penalty/", body)
    assert hu.status_code == 403 and "Ezt csak a szervező és a bírók" in hu.content.decode()
    assert not Penalty.objects.exists()


def test_bad_penalty_input_and_a_finished_event_are_refused(users):
    event, regs = running(users)
    with pytest.raises(ValidationError):
        give(regs["ann"], users["org"], "yellow_card")
    with pytest.raises(ValidationError):
        penalties.give_penalty(regs["ann"], users["org"], "warning", "cheating_ish")
    with pytest.raises(ValidationError):
        give(regs["ann"], users["org"], "warning", note="x" * 501)
    rnd = published(event, users["org"])
    services.enter_result(rnd.matches.get(), users["org"], 1, 0)
    services.finish_swiss(event, users["org"])
    with pytest.raises(services.Conflict, match="The event is over"):
        give(regs["ann"], users["org"], "warning")


def test_a_dropped_player_gets_no_game_or_match_loss(users):
    event, regs = running(users, NAMES[:3])
    services.drop(regs["cyd"], users["cyd"])
    with pytest.raises(services.Conflict, match="has dropped"):
        give(regs["cyd"], users["org"], "game_loss")
    give(regs["cyd"], users["org"], "warning")  # still recorded


# --------------------------------------------------------------- the audit sentence


def test_r_18_5_the_penalty_reads_as_a_sentence_in_both_languages(users):
    event, regs = running(users, match_format="bo3")
    published(event, users["org"])
    give(regs["ann"], users["judge"], "game_loss", "slow_play", "<b>3 warnings</b>")
    entry = AuditEntry.objects.get(action="penalty")
    with translation.override("en"):
        en = audit.sentence(entry)
    with translation.override("hu"):
        hu = audit.sentence(entry)
    assert en.startswith("gave ann a penalty: a game loss for slow play.")
    assert "The match after it: round 1, table 1:" in en and "Note: <b>3 warnings</b>" in en
    assert hu.startswith("büntetést adott ann számára: játékvesztés, szabálysértés: lassú játék.")
    assert "A meccs ezután: 1. forduló, 1. asztal" in hu and "Megjegyzés:" in hu
    for text in (en, hu):
        assert "{" not in text and "None" not in text and "game_loss" not in text


def test_the_disqualification_sentence_says_it_is_for_good(users):
    event, regs = running(users)
    give(regs["ann"], users["org"], "disqualification", "unsporting")
    entry = AuditEntry.objects.get(action="penalty")
    with translation.override("en"):
        assert "a disqualification for unsporting conduct" in audit.sentence(entry)
        assert "cannot be re-activated" in audit.sentence(entry)
    with translation.override("hu"):
        assert "kizárás, szabálysértés: sportszerűtlen viselkedés" in audit.sentence(entry)


# ------------------------------------------------------------------ pages and API


def test_the_dashboard_form_gives_a_penalty_and_lists_it(client, users):
    event, regs = running(users)
    published(event, users["org"])
    client.force_login(users["judge"])
    dash = client.get(f"/en/tournaments/{event.pk}/dashboard/").content.decode()
    for label in ("Player", "Penalty", "Infraction", "Note", "Give the penalty"):
        assert label in dash
    assert 'id="penalty-form"' in dash and 'for="id_infraction"' in dash
    hu = client.get(f"/hu/tournaments/{event.pk}/dashboard/").content.decode()
    for label in ("Büntetések", "Szabálysértés", "Megjegyzés", "Büntetés kiszabása"):
        assert label in hu
    response = client.post(
        f"/en/tournaments/{event.pk}/do/penalty/",
        {
            "player": regs["bob"].pk,
            "penalty": "warning",
            "infraction": "procedure",
            "note": "<script>x</script>",
        },
        follow=True,
    )
    page = response.content.decode()
    assert response.status_code == 200 and "Penalty saved" in page
    assert "Procedural error" in page and "&lt;script&gt;x&lt;/script&gt;" in page
    assert "<script>x</script>" not in page
    # the player sees it on their own page, the opponent does not
    client.force_login(users["bob"])
    mine = client.get(f"/en/tournaments/{event.pk}/").content.decode()
    assert 'id="my-penalties"' in mine and "Procedural error" in mine
    client.force_login(users["ann"])
    assert 'id="my-penalties"' not in client.get(f"/en/tournaments/{event.pk}/").content.decode()


def test_a_bad_form_post_is_a_400_with_the_reason(client, users):
    event, regs = running(users)
    client.force_login(users["org"])
    response = client.post(
        f"/en/tournaments/{event.pk}/do/penalty/", {"player": regs["bob"].pk, "penalty": "x"}
    )
    assert response.status_code == 400
    assert (
        "Choose a registered player, the penalty and the infraction." in response.content.decode()
    )


def post(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


def test_the_api_gives_and_lists_penalties_for_staff_only(client, users):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    event, regs = running(users)
    rnd = published(event, users["org"])
    url = f"/api/tournaments/{event.pk}/penalties/"
    client.force_login(users["ann"])
    refused = post(client, url, {"player": "bob", "penalty": "match_loss", "infraction": "other"})
    assert refused.status_code == 403 and "organiser" in refused.json()["detail"]
    assert client.get(url).status_code == 403
    client.force_login(users["judge"])
    bad = post(client, url, {"player": "zed", "penalty": "match_loss", "infraction": "other"})
    assert bad.status_code == 400 and "player" in bad.json()["errors"]
    made = post(client, url, {"player": "bob", "penalty": "match_loss", "infraction": "other"})
    assert made.status_code == 201, made.json()
    body = made.json()
    assert (body["player"], body["penalty"], body["applied"]) == ("bob", "match_loss", True)
    assert body["match"] == match_of(rnd, regs["bob"]).pk
    assert [p["id"] for p in client.get(url).json()] == [body["id"]]
    assert Tournament.objects.get(pk=event.pk).status == Tournament.RUNNING


# ------------------------------------------------------------ online events (R 18.4)


@pytest.mark.django_db(transaction=True)
def test_online_a_game_loss_decides_the_running_game_and_the_set_goes_on(users):
    """Online best of three: the running game is decided for the opponent as a judge
    decision (reason "penalty"); game 2 starts as after any game."""
    event, regs = running(users, online=True, match_format="bo3")
    rnd = published(event, users["org"])
    match = match_of(rnd, regs["ann"])
    game1 = match.online_games.get(number=1)
    give(regs["ann"], users["judge"], "game_loss", "slow_play")
    game1.refresh_from_db()
    assert game1.winner == regs["bob"] and game1.judge_reason == "penalty"
    assert game1.game.result == "judge" and game1.game.result_reason == "penalty"
    match.refresh_from_db()
    assert match.status == TableSet.PENDING
    assert match.online_games.filter(number=2, game__status="active").exists()


@pytest.mark.django_db(transaction=True)
def test_online_a_disqualification_ends_the_game_and_loses_the_match(users):
    event, regs = running(users, online=True)
    rnd = published(event, users["org"])
    match = match_of(rnd, regs["ann"])
    give(regs["ann"], users["org"], "disqualification", "unsporting")
    match.refresh_from_db()
    assert match.status == TableSet.CONFIRMED and match.winner == regs["bob"]
    assert match.judge_reason == "penalty"
    game = match.online_games.get(number=1).game
    assert game.status == "finished" and game.winner_seat == (
        0 if match.player_a == regs["bob"] else 1
    )
    assert Registration.objects.get(pk=regs["ann"].pk).disqualified
