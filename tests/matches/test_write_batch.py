"""The drain's UPDATEs (issue 16): their text is made once per model and fields instead of
by Django's UpdateQuery on every drain; what they write must be what the ORM writes."""

import pytest
from django.db import connection
from django.db.models import Q, sql
from django.utils import timezone

from matches import services
from matches.models import ActionRequest, Match, MatchEvent, Seat


@pytest.fixture
def match(db, players, decks):
    colonies = [services.deck_colony(d, "original") for d in decks]
    return services.create_match(players=players, colonies=colonies, seed=5)


def _orm_update(model, pk, values):
    query = sql.UpdateQuery(model)
    query.add_update_values(values)
    query.add_q(Q(pk=pk))
    return query.get_compiler(connection=connection).as_sql()


def _batched(model, pk, values):
    batch = services.WriteBatch()
    batch.update(model, pk, values)
    return batch.statements[0]


def test_the_made_statement_is_the_orms_for_every_value_set(match):
    """Every field the drain writes, with values that are set (the ORM writes `= NULL`
    for None instead of a bound parameter: the next test writes those)."""
    match.deciding_seat, match.decision, match.legal_ids = 1, "main", ["pass", "play:3"]
    match.decision_started = match.decision_deadline = match.finished = timezone.now()
    match.winner_seat, match.updated = 0, timezone.now()
    fields = services.POSITION_FIELDS + services.SNAPSHOT_FIELDS
    match.snapshot_version = match.version
    cases = [
        (Match, match.pk, {f: getattr(match, f) for f in fields}),
        (
            ActionRequest,
            7,
            {"status": "applied", "code": "X", "message": "m", "applied_version": 3},
        ),
        (Seat, 11, {"time_bank": 12.5}),
    ]
    for model, pk, values in cases:
        assert None not in values.values()
        text, params = _batched(model, pk, values)
        orm_text, orm_params = _orm_update(model, pk, values)
        assert text == orm_text
        assert [getattr(p, "obj", p) for p in params] == [getattr(p, "obj", p) for p in orm_params]


def test_what_the_batch_writes_reads_back_as_the_values(match):
    """Nulls, JSON lists and times through the batch land in the row as written."""
    moment = timezone.now()
    values = {
        "deciding_seat": None,
        "decision": "",
        "legal_ids": [],
        "ranking": [1, 0],
        "winner_seat": None,
        "result_reason": "r",
        "decision_deadline": None,
        "updated": moment,
    }
    batch = services.WriteBatch()
    batch.update(Match, match.pk, values)
    batch.run()
    row = Match.objects.get(pk=match.pk)
    assert {name: getattr(row, name) for name in values} == values


def test_a_field_the_made_statement_cannot_write_is_refused():
    with pytest.raises(ValueError, match="needs the ORM"):
        services.WriteBatch().update(Seat, 1, {"match": None})


def _orm_insert(model, objs):
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    query = sql.InsertQuery(model)
    query.insert_values(fields, objs)
    return query.get_compiler(connection=connection).as_sql()


def test_the_made_insert_is_the_orms(match):
    """The drain's events, one and several in a batch: one row as bulk_create sends it, and
    every row stored as given."""
    for count in (1, 3):
        rows = [
            MatchEvent(match=match, seq=100 * count + n, version=9, data={"kind": "draw", "n": n})
            for n in range(count)
        ]
        batch = services.WriteBatch()
        batch.insert(MatchEvent, rows)
        text, params = batch.statements[0]
        if count == 1:  # several rows: PostgreSQL's ORM sends them as UNNEST arrays instead
            [(orm_text, orm_params)] = _orm_insert(MatchEvent, rows)
            assert text == orm_text
            assert [getattr(p, "obj", p) for p in params] == [
                getattr(p, "obj", p) for p in orm_params
            ]
        batch.run()
    stored = MatchEvent.objects.filter(match=match, seq__gte=100).order_by("seq")
    assert [(e.seq, e.version, e.data["n"]) for e in stored] == [
        (100, 9, 0),
        (300, 9, 0),
        (301, 9, 1),
        (302, 9, 2),
    ]
