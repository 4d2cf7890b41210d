"""A person decides only what is theirs to decide (issue 34): decisions with one meaningful
answer are taken for them and logged (matches.services.take_forced, engine.assist), and a
combat decision comes with the heuristic bot's suggestion (match_payload["suggestion"])."""

import random

import pytest
from django.contrib.auth import get_user_model

from engine.assist import PUBLIC_DECISIONS, forced_action, suggestion
from engine.basic_bots import HeuristicBot
from engine.colonies import build_colony, load_cards
from engine.game import apply, legal_actions, new_game, pending
from matches import services
from matches.models import ActionRequest, Match, MatchEvent
from matches.selectors import match_payload

from .kit import make_deck

LACI = ["xeno", "insectoid", "zarg", "space_shark"]


def _games(n=2):
    cards = load_cards()
    for seed in range(n):
        state = new_game([build_colony(cards, LACI), build_colony(cards, LACI)], seed)
        bots = [HeuristicBot(seed), HeuristicBot(seed + 7)]
        for _ in range(4000):
            waiting = pending(state)
            if waiting is None:
                break
            yield state, waiting
            apply(state, bots[waiting.player].choose(state, waiting.player))


def test_forced_only_when_every_answer_means_the_same():
    """R 12.2 (a window with only "pass") and R 11.4.2 (attackers with only "done") are
    forced; a decision with two different answers never is."""
    forced = other = 0
    for state, _waiting in _games():
        actions = legal_actions(state)
        answer = forced_action(state)
        if len(actions) == 1:
            assert answer == actions[0]
            forced += 1
        elif answer is None:
            other += 1
        else:  # copies: the same code, the same state, for every action
            codes = {
                tuple(
                    (k, state.cards[v].code if k in ("card", "ship", "target", "value") else v)
                    for k, v in a.params
                )
                for a in actions
            }
            assert len(codes) == 1 and len({a.kind for a in actions}) == 1
    assert forced > 100 and other > 100


def test_suggestion_is_legal_and_only_for_combat_decisions():
    """R 11.4: the suggestion's first action is legal now; only combat decisions get one."""
    seen = 0
    for state, waiting in _games(1):
        steps = suggestion(state, seed="t")
        if waiting.decision not in PUBLIC_DECISIONS:
            assert steps == []
            continue
        assert steps and steps[0] in legal_actions(state)
        seen += 1
    assert seen > 10


@pytest.fixture
def alice(catalogue, transactional_db):
    return get_user_model().objects.create_user("alice", password="pw-12345-assist")


def _play(match, user, moves):
    rng = random.Random(3)
    for _ in range(moves):
        match.refresh_from_db()
        if match.status != Match.ACTIVE or match.deciding_seat != 0:
            break
        services.submit_action(match, user, client_action_id=f"r{match.version}",
                               expected_version=match.version, action=rng.choice(match.legal_ids))  # fmt: skip
    match.refresh_from_db()


def test_forced_decisions_are_taken_for_a_person_and_logged(alice, settings):
    """R 12.2: against a bot, a response window with only "pass" is not asked: it is stored
    as an applied request ``auto:<version>`` with a ``taken_for`` event in the log; the
    person is never left a decision with one legal action."""
    settings.KGK_ASSIST = True
    colony = services.deck_colony(make_deck(alice, seed=3), "original")
    match = services.create_match(players=(alice, None), colonies=(colony, colony),
                                  bots=(None, "heuristic"), seed=34)  # fmt: skip
    _play(match, alice, 40)
    auto = match.requests.filter(client_action_id__startswith="auto:")
    assert auto.exists() and set(auto.values_list("status", flat=True)) == {ActionRequest.APPLIED}
    assert set(auto.values_list("seat", flat=True)) == {0}
    notes = MatchEvent.objects.filter(match=match, data__kind="taken_for")
    assert notes.count() == auto.count()
    if match.status == Match.ACTIVE:
        assert len(match.legal_ids) > 1  # the person is asked only a real choice


def test_switched_off_nothing_is_taken(alice, settings):
    settings.KGK_ASSIST = False
    colony = services.deck_colony(make_deck(alice, seed=3), "original")
    match = services.create_match(players=(alice, None), colonies=(colony, colony),
                                  bots=(None, "heuristic"), seed=34)  # fmt: skip
    _play(match, alice, 15)
    assert not match.requests.filter(client_action_id__startswith="auto:").exists()


def test_between_people_a_window_forced_by_a_hand_is_still_asked(
    settings, catalogue, transactional_db
):
    """R 16 (hidden hands): between two people a response window is never taken for a
    player, even with only "pass", since its closing at once would tell the opponent the
    hand holds no answer; combat decisions (public) may be."""
    settings.KGK_ASSIST = True
    users = [get_user_model().objects.create_user(n, password="pw-12345-assist") for n in "ab"]
    colony = services.deck_colony(make_deck(users[0], seed=4), "original")
    match = services.create_match(players=tuple(users), colonies=(colony, colony), seed=35)
    rng = random.Random(4)
    for _ in range(120):
        match.refresh_from_db()
        if match.status != Match.ACTIVE:
            break
        services.submit_action(match, users[match.deciding_seat],
                               client_action_id=f"r{match.version}",
                               expected_version=match.version, action=rng.choice(match.legal_ids))  # fmt: skip
    taken = MatchEvent.objects.filter(match=match, data__kind="taken_for")
    assert all(e.data["data"]["decision"] in PUBLIC_DECISIONS for e in taken)


def test_the_suggestion_goes_to_the_deciding_person_only(alice, settings):
    settings.KGK_ASSIST = True
    colony = services.deck_colony(make_deck(alice, seed=3), "original")
    match = services.create_match(players=(alice, None), colonies=(colony, colony),
                                  bots=(None, "heuristic"), seed=34)  # fmt: skip
    rng = random.Random(3)
    for _ in range(200):
        match.refresh_from_db()
        if match.status != Match.ACTIVE or match.decision in PUBLIC_DECISIONS:
            break
        if match.deciding_seat != 0:
            pytest.fail("a bot's decision was left waiting")
        services.submit_action(match, alice, client_action_id=f"r{match.version}",
                               expected_version=match.version, action=rng.choice(match.legal_ids))  # fmt: skip
    if match.decision not in PUBLIC_DECISIONS:
        pytest.skip("no combat decision reached")
    mine = match_payload(match, 0)
    assert mine["suggestion"] and mine["suggestion"][0] in match.legal_ids
    assert match_payload(match, None)["suggestion"] == []
    assert match_payload(match, 1)["suggestion"] == []
