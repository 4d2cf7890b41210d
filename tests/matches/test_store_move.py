"""A move stored by one statement (issue 16, `services.store_move`): its WHERE clause must
let through exactly the moves `_check_now` lets through, and store them as the ORM does."""

import itertools

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from matches import selectors, services
from matches.errors import MatchError
from matches.models import ActionRequest, Match
from matches.services import moves

pytestmark = pytest.mark.postgres


def _orm_says_yes(match, user, expected_version, action) -> bool:
    seat = selectors.viewer_seat(match, user)
    if seat is None:
        return False
    try:
        moves._check_now(match, seat, expected_version, action)
    except MatchError:
        return False
    return True


def test_the_one_statement_accepts_exactly_what_the_checks_accept(human_match, players):
    """R 16 (only the deciding seat acts) and the version rules, over every combination of
    the match's status, the version sent, who sends it and whether the action is legal."""
    stranger = get_user_model().objects.create_user("carol", password="pw-carol-123")
    human_match.refresh_from_db()
    Match.objects.filter(pk=human_match.pk).update(version=4)  # room for an older version
    version, deciding = 4, human_match.deciding_seat
    legal = human_match.legal_ids[0]
    illegal = "play:card=999"  # well formed, never legal here
    assert illegal not in human_match.legal_ids
    people = {"deciding": players[deciding], "other": players[1 - deciding], "stranger": stranger}
    cases = itertools.product(
        (Match.ACTIVE, Match.FINISHED),
        (version - 1, version, version + 1),
        people,
        (legal, illegal),
    )
    checked = 0
    for n, (status, expected, who, action) in enumerate(cases):
        Match.objects.filter(pk=human_match.pk).update(status=status)
        match = Match.objects.get(pk=human_match.pk)
        user = people[who]
        expected_answer = _orm_says_yes(match, user, expected, action)
        with transaction.atomic():
            stored = services.store_move(match.pk, user, client_action_id=f"c{n}",
                                         expected_version=expected, action=action)  # fmt: skip
            if stored is not None:  # the row is the ORM's: read back as the ORM reads it
                row = ActionRequest.objects.get(pk=stored.pk)
                assert (row.seat, row.status, row.origin, row.action, row.expected_version) == (
                    deciding,
                    ActionRequest.PENDING,
                    ActionRequest.CLIENT,
                    action,
                    expected,
                )
                assert (row.code, row.message, row.applied_version, row.explanation) == (
                    "",
                    "",
                    None,
                    None,
                )
                assert row.created == stored.created
            transaction.set_rollback(True)
        assert (stored is not None) == expected_answer, (status, expected, who, action)
        checked += expected_answer
    assert checked == 1  # the one good move: active, current version, the decider, legal


def test_a_retried_move_is_not_stored_twice(human_match, players):
    """The same client_action_id again: nothing inserted (the long way answers it)."""
    human_match.refresh_from_db()
    user = players[human_match.deciding_seat]
    move = {"client_action_id": "same", "expected_version": human_match.version,
            "action": human_match.legal_ids[0]}  # fmt: skip
    first = services.store_move(human_match.pk, user, **move)
    assert first is not None
    assert services.store_move(human_match.pk, user, **move) is None
    assert ActionRequest.objects.filter(match=human_match, client_action_id="same").count() == 1
