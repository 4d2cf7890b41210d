"""A socket's move on the position its worker holds, drained in ONE round trip (issue 16,
matches/services/draining.py `_drain_held_move`): the move is applied to the held position first;
one query text then locks the row, fails unless the row is still that position with no
request pending (`kgk_expect`), stores the move as applied, writes the position and
commits. When the row moved on, that text stores nothing and the usual drain (two round
trips) takes the move: nothing lost, nothing twice, the requests in their order (R 15:
every position replays exactly from the applied actions, `assert_consistent`)."""

import json
from unittest import mock

import pytest
from django.utils import timezone

from matches import services, state_cache
from matches.models import ActionRequest, Match

from .kit import assert_consistent
from .test_drain_queries import _on_the_wire, _opens_with_begin, _socket_move

pytestmark = pytest.mark.postgres


@pytest.fixture
def held(pg, players, decks):
    """A game whose last move this process drained (the usual way: it held nothing), so it
    holds the position with its rows, as a worker does after its own drain."""
    state_cache.clear()
    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=21)
    with mock.patch("matches.push.push_update"):
        assert services.drain_move(match.pk, _socket_move(match, players, prefix="a")) == 1
    match.refresh_from_db()
    assert state_cache.peek_rows(match.pk, match.version) is not None
    yield match
    state_cache.clear()


def _statements_run(text) -> list[str]:
    """The statements a text runs after its BEGIN, each EXECUTE as the statement it
    prepared (a connection's first text prepares them: matches/fetch.py)."""
    parts = [part.strip() for part in text.split(";\n")]
    prepared = dict(part[len("PREPARE "):].split(" AS ", 1) for part in parts
                    if part.startswith("PREPARE "))  # fmt: skip
    run = parts[parts.index("BEGIN") + 1 :]
    return [prepared.get(part[len("EXECUTE ") :].split("(")[0], part) for part in run]


def _drained(match, move):
    """drain_move's result, the messages on the wire, the push's answer (or the lone one)."""
    with (
        mock.patch("matches.push.push_update") as pushed,
        mock.patch("matches.push.send_answer") as alone,
    ):
        applied, sent = _on_the_wire(services.drain_move, match.pk, move)
    if pushed.called:
        return applied, sent, pushed.call_args.args[4]
    return applied, sent, alone.call_args.args if alone.called else None


def test_a_move_on_the_held_position_is_one_query_text(held, players):
    """One round trip: the BEGIN, the lock, kgk_expect after it, the move stored as
    applied, the events and the position written, the COMMIT, in one text; durably
    committed (the web stored nothing). The answer carries the stored request's id."""
    move = _socket_move(held, players, prefix="b")
    before = Match.objects.get(pk=held.pk)

    applied, sent, answer = _drained(held, move)

    assert applied == 1
    assert [kind for kind, _text in sent] == ["Query"], sent
    text = sent[0][1]
    assert _opens_with_begin(text) and text.rstrip(";").endswith("COMMIT")
    run = _statements_run(text)  # checked under the lock, before any write:
    assert run[0].startswith("SELECT 1 FROM") and run[0].endswith("FOR UPDATE"), run
    assert run[1].startswith("SELECT kgk_expect("), run
    assert run[2].startswith('INSERT INTO "matches_actionrequest"'), run
    assert len(run) >= 5 and run[-1] == "COMMIT", run  # the events, the position, ...
    assert "synchronous_commit" not in text
    stored = ActionRequest.objects.get(match=held, client_action_id=move.client_action_id)
    assert (stored.status, stored.applied_version) == ("applied", before.version + 1)
    reply_to, client_action_id, body = answer
    assert (reply_to, client_action_id) == ("reply!1", move.client_action_id)
    assert json.loads(body)["body"]["request"]["id"] == stored.pk
    after = Match.objects.get(pk=held.pk)
    assert after.version == before.version + 1
    assert state_cache.peek_rows(held.pk, after.version) is not None  # the next one, too
    assert_consistent(after)


def test_a_request_pending_before_the_move_is_applied_first(held, players):
    """The web stored a request of the same decision (a POST) that no drain has taken yet:
    the one text fails (nothing stored), and the usual drain applies the requests in their
    order: the stored one, then the socket's move, rejected as stale."""
    move = _socket_move(held, players, prefix="c")
    first = ActionRequest.objects.create(
        match=held, seat=held.deciding_seat, client_action_id="posted",
        expected_version=held.version, action=held.legal_ids[-1],
    )  # fmt: skip

    applied, sent, answer = _drained(held, move)

    assert applied == 1
    assert "kgk_expect" in sent[0][1]
    first.refresh_from_db()
    mine = ActionRequest.objects.get(match=held, client_action_id=move.client_action_id)
    assert (first.status, first.applied_version) == ("applied", held.version + 1)
    assert (mine.status, mine.code) == ("rejected", "STALE_VERSION")
    assert json.loads(answer[2])["body"]["request"]["status"] == "rejected"
    assert_consistent(Match.objects.get(pk=held.pk))


def test_a_held_position_another_process_moved_on_is_never_written_from(held, players):
    """Another worker drained the game's next move since: this process still holds the
    older position, the move the page sent on it is stale. The one text fails, the usual
    drain does not store the move (the web then goes the POST's way), nothing changes."""
    move = _socket_move(held, players, prefix="d")
    rows = state_cache._rows[held.pk]
    entry = state_cache.take_entry(held.pk)
    with mock.patch("matches.push.push_update"):  # "the other worker"
        assert services.drain_move(held.pk, _socket_move(held, players, prefix="o")) == 1
    state_cache.clear()
    state_cache.put(held.pk, *entry)
    state_cache.hold_rows(held.pk, *rows)
    moved = Match.objects.get(pk=held.pk)

    applied, sent, answer = _drained(held, move)

    assert applied == 0
    assert "kgk_expect" in sent[0][1]
    assert answer == ("reply!1", move.client_action_id, "")
    assert not ActionRequest.objects.filter(client_action_id=move.client_action_id).exists()
    after = Match.objects.get(pk=held.pk)
    assert (after.version, after.seq, after.updated) == (moved.version, moved.seq, moved.updated)
    assert state_cache.peek_rows(held.pk, held.version) is None  # dropped, changed by the move
    assert_consistent(after)


def test_a_row_written_at_the_same_version_is_read_again(held, players):
    """A write that moves no version (a seat a bot takes over, a judge's extra time: they
    save the row, which changes `updated`) makes the held rows stale: the one text fails,
    and the usual drain applies the move from the row as it is now."""
    move = _socket_move(held, players, prefix="e")
    row = Match.objects.get(pk=held.pk)
    row.decision_started = timezone.now()
    row.save(update_fields=["decision_started", "updated"])

    applied, sent, answer = _drained(held, move)

    assert applied == 1
    assert "kgk_expect" in sent[0][1] and len(sent) >= 3  # failed, rolled back, the usual two
    after = Match.objects.get(pk=held.pk)
    assert after.version == held.version + 1
    assert after.decision_started >= row.decision_started  # charged from the row's start
    assert json.loads(answer[2])["body"]["request"]["status"] == "applied"
    assert_consistent(after)


def test_a_client_action_id_used_before_is_not_stored_twice(held, players):
    """The page reuses the id of a move stored before: the one text fails on the unique
    constraint, the usual drain stores nothing either, and the web goes the POST's way
    (which answers with the request stored before)."""
    used = ActionRequest.objects.filter(match=held).get()
    move = _socket_move(held, players)._replace(client_action_id=used.client_action_id)

    applied, sent, answer = _drained(held, move)

    assert applied == 0
    assert answer == ("reply!1", used.client_action_id, "")
    assert ActionRequest.objects.filter(match=held).count() == 1
    assert Match.objects.get(pk=held.pk).version == held.version
    assert_consistent(Match.objects.get(pk=held.pk))


@pytest.mark.parametrize(
    "spoil",
    [
        {"seat": "other"},  # not the player's decision
        {"action": "not-legal"},
        {"offset": 1},  # a version not reached yet
        {"offset": -1},  # stale
    ],
)
def test_a_move_the_held_position_refuses_is_not_stored_and_keeps_it(held, players, spoil):
    """A move that is not the held position's decision never takes the one-text path: the
    usual drain refuses to store it (the web then goes the POST's way, which says why),
    and the position stays held for the next move."""
    move = _socket_move(held, players, prefix="f", offset=spoil.get("offset", 0))
    if spoil.get("seat") == "other":
        move = move._replace(user_id=players[1 - held.deciding_seat].pk)
    if "action" in spoil:
        move = move._replace(action=spoil["action"])

    applied, sent, answer = _drained(held, move)

    assert applied == 0
    assert answer == ("reply!1", move.client_action_id, "")
    assert not any("kgk_expect" in text for _kind, text in sent)
    assert not ActionRequest.objects.filter(client_action_id=move.client_action_id).exists()
    assert Match.objects.get(pk=held.pk).version == held.version
    assert state_cache.peek_rows(held.pk, held.version) is not None
