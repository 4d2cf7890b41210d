"""Staff-forbidden pairs and re-pairing a draft (R 18.2, R 18.5, R 18.7; issue: "the
pairing is saved as a draft only staff see, then published"; "Input: ...
staff-forbidden pairs").

Services, REST API and dashboard: only staff may act, every action is audit-logged,
both actions are idempotent, the pairing avoids forbidden pairs whenever it can, and
bad input is a 4xx with a message, never a 500.
"""

import datetime
import json

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from tournament_kit import colony, create_users, enter

from decks.services import save_deck
from tournaments import services, standings, swiss
from tournaments.models import AuditEntry, ForbiddenPair, Round, TableSet, Tournament

pytestmark = pytest.mark.django_db

NAMES = ["alice", "bob", "carol", "dave", "eve", "frank"]


@pytest.fixture
def users(django_user_model, catalogue):
    return create_users(django_user_model, ["org", "judge", *NAMES])


@pytest.fixture
def event(users):
    return services.create_tournament(
        users["org"], name="Győr Open", date=datetime.date(2026, 12, 27), judges=[users["judge"]]
    )


def seating(rnd):
    return [
        (m.player_a_id, m.player_b_id) for m in TableSet.objects.filter(round=rnd).order_by("table")
    ]


def pairs_of(rnd):
    return {frozenset(p) for p in seating(rnd) if p[1] is not None}


def finish(rnd, staff):
    services.publish_round(rnd, staff)
    for m in rnd.matches.exclude(player_b=None):
        services.judge_result(m, staff, 1, 0, "ruling")


# ----------------------------------------------------------- services: forbidden


def test_only_staff_forbid_and_allow_pairs_with_an_audit_trail(event, users):
    regs = enter(event, users, ["alice", "bob", "carol"])
    alice, bob = regs["alice"], regs["bob"]
    with pytest.raises(PermissionDenied):
        services.forbid_pair(event, users["alice"], alice, bob, "siblings")
    pair, created = services.forbid_pair(event, users["judge"], bob, alice, "  siblings ")
    assert created and pair.reason == "siblings"
    assert (pair.player_a_id, pair.player_b_id) == tuple(sorted((alice.pk, bob.pk)))
    # idempotent, whatever the order of the two players
    again, created = services.forbid_pair(event, users["org"], alice, bob, "other reason")
    assert again.pk == pair.pk and not created and again.reason == "siblings"
    assert ForbiddenPair.objects.count() == 1
    entry = AuditEntry.objects.get(action="forbid_pair")
    assert entry.actor == users["judge"] and entry.data["reason"] == "siblings"
    assert sorted(entry.data["players"]) == ["alice", "bob"]
    assert services.forbidden_pairs(event) == [(pair.player_a_id, pair.player_b_id)]

    with pytest.raises(PermissionDenied):
        services.allow_pair(pair, users["bob"])
    services.allow_pair(pair, users["org"])
    assert not ForbiddenPair.objects.exists()
    removed = AuditEntry.objects.get(action="allow_pair")
    assert removed.actor == users["org"] and removed.data["reason"] == "siblings"


@pytest.mark.parametrize(
    "a, b, reason, field",
    [
        ("alice", "alice", "x", "players"),
        ("alice", "bob", "", "reason"),
        ("alice", "bob", "   ", "reason"),
        ("alice", "bob", None, "reason"),
        ("alice", "bob", "x" * 201, "reason"),
        ("alice", None, "x", "players"),
        ("alice", "outsider", "x", "players"),
    ],
)
def test_bad_forbidden_pairs_are_validation_errors(event, users, a, b, reason, field):
    regs = enter(event, users, ["alice", "bob"])
    other = services.create_tournament(users["org"], name="Other", date=datetime.date(2026, 1, 1))
    regs["outsider"] = enter(other, users, ["carol"])["carol"]
    with pytest.raises(ValidationError) as error:
        services.forbid_pair(event, users["org"], regs[a], regs.get(b), reason)
    assert field in error.value.message_dict
    assert (
        not ForbiddenPair.objects.exists()
        and not AuditEntry.objects.filter(action="forbid_pair").exists()
    )


def test_forbidden_pairs_are_fixed_once_the_playoff_starts(event, users):
    regs = enter(event, users, ["alice", "bob"])
    pair, _ = services.forbid_pair(event, users["org"], regs["alice"], regs["bob"], "x")
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.PLAYOFF)
    with pytest.raises(services.Conflict):
        services.forbid_pair(event, users["org"], regs["alice"], regs["bob"], "x")
    with pytest.raises(services.Conflict):
        services.allow_pair(pair, users["org"])


def test_the_pairing_avoids_a_forbidden_pair(event, users):
    """R 18.7 + issue: staff-forbidden pairs are an input of the pairing (swiss F tier)."""
    regs = enter(event, users, NAMES[:4])
    services.start(event, users["org"])
    seed = f"{event.seed}:1"
    records = standings.player_records(services.current_standings(event))
    free = swiss.pair_round(records, seed=seed)
    a, b = free.pairs[0]
    reg = {r.pk: r for r in regs.values()}
    services.forbid_pair(event, users["org"], reg[a], reg[b], "same club")
    rnd = services.pair_next_round(event, users["org"])
    assert frozenset((a, b)) not in pairs_of(rnd)
    expected = swiss.pair_round(records, forbidden=[(a, b)], seed=seed)
    assert seating(rnd) == list(expected.pairs) and not rnd.warnings


def test_an_unavoidable_forbidden_pair_is_paired_with_a_warning(event, users):
    """Never stop the event: two players only, forbidden -- paired, staff warned."""
    regs = enter(event, users, ["alice", "bob"])
    services.start(event, users["org"])
    services.forbid_pair(event, users["org"], regs["alice"], regs["bob"], "x")
    rnd = services.pair_next_round(event, users["org"])
    assert len(seating(rnd)) == 1
    assert any(w["code"] == "FORBIDDEN_PAIR" for w in rnd.warnings)


# --------------------------------------------------------------- services: repair


def test_repair_discards_the_draft_and_pairs_it_again(event, users):
    regs = enter(event, users, NAMES[:4])
    services.start(event, users["org"])
    rnd = services.pair_next_round(event, users["org"])
    before = seating(rnd)
    # nothing changed: the draft is kept as it is, and nothing is logged (idempotent)
    same, changed = services.repair_round(rnd, users["judge"])
    assert not changed and same.pk == rnd.pk and seating(rnd) == before
    assert not AuditEntry.objects.filter(action="repair").exists()
    # staff forbid a pair of the draft, then re-pair it
    reg = {r.pk: r for r in regs.values()}
    a, b = before[0]
    services.forbid_pair(event, users["org"], reg[a], reg[b], "rivals")
    assert seating(rnd) == before  # forbidding does not touch the draft by itself
    with pytest.raises(PermissionDenied):
        services.repair_round(rnd, users["alice"])
    new, changed = services.repair_round(rnd, users["judge"])
    assert changed and new.pk == rnd.pk and new.status == Round.DRAFT
    assert new.seed == f"{event.seed}:1" and Round.objects.filter(tournament=event).count() == 1
    assert frozenset((a, b)) not in pairs_of(new)
    assert TableSet.objects.filter(tournament=event).count() == 2
    entry = AuditEntry.objects.get(action="repair")
    assert entry.actor == users["judge"] and entry.data["round"] == 1
    names = {r.pk: r.name for r in regs.values()}
    assert entry.data["before"] == [[names[x], names[y]] for x, y in before]
    assert len(entry.data["after"]) == 2
    # twice: the same pairing, no new audit entry
    again, changed = services.repair_round(rnd, users["org"])
    assert not changed and seating(again) == seating(new)
    assert AuditEntry.objects.filter(action="repair").count() == 1
    # once published, the pairing is final
    services.publish_round(new, users["org"])
    with pytest.raises(services.Conflict):
        services.repair_round(new, users["org"])


def test_repair_seats_a_late_entrant_and_leaves_out_a_drop(event, users):
    regs = enter(event, users, NAMES[:4])
    services.start(event, users["org"])
    finish(services.pair_next_round(event, users["org"]), users["org"])
    rnd = services.pair_next_round(event, users["org"])  # round 2, draft
    services.drop(regs["alice"], users["alice"])  # after the draft: still seated in it
    frank = users["frank"]
    late = services.late_entry(
        event, users["org"], frank, save_deck(frank, name="c", cards=colony())
    )
    assert late.late_entry_round == 3  # the draft of round 2 was paired without frank
    seated = {x for p in seating(rnd) for x in p}
    assert regs["alice"].pk in seated and late.pk not in seated
    rnd, changed = services.repair_round(rnd, users["org"])
    assert changed
    seated = {x for p in seating(rnd) for x in p}
    assert late.pk in seated and regs["alice"].pk not in seated
    late.refresh_from_db()
    regs["alice"].refresh_from_db()
    assert late.late_entry_round == 2 and regs["alice"].dropped_after_round == 1
    entry = AuditEntry.objects.get(action="repair")
    assert entry.data["late_entries"] == ["frank"]
    finish(rnd, users["org"])
    row = {r.id: r for r in services.current_standings(event)}[late.pk]
    assert row.missed == 1 and row.wins + row.losses == 2  # round 1 missed, round 2 played


def test_repair_is_only_for_swiss_drafts(event, users):
    enter(event, users, NAMES[:2])
    services.start(event, users["org"])
    rnd = services.pair_next_round(event, users["org"])
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.FINISHED)
    with pytest.raises(services.Conflict):
        services.repair_round(rnd, users["org"])


# ------------------------------------------------------------------------- API


def post(client, url, body=None):
    return client.post(
        url, json.dumps(body if body is not None else {}), content_type="application/json"
    )


@pytest.fixture
def api(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def test_api_forbidden_pairs_staff_only(api, event, users):
    enter(event, users, ["alice", "bob", "carol"])
    url = f"/api/tournaments/{event.pk}/forbidden-pairs/"
    body = {"player_a": "alice", "player_b": "bob", "reason": "siblings"}
    assert api.get(url).status_code in (401, 403)
    assert post(api, url, body).status_code in (401, 403)
    api.force_login(users["carol"])
    assert api.get(url).status_code == 403
    denied = post(api, url, body)
    assert denied.status_code == 403 and "organiser" in denied.json()["detail"]
    assert not ForbiddenPair.objects.exists()
    api.force_login(users["judge"])
    created = post(api, url, body)
    assert created.status_code == 201, created.json()
    data = created.json()
    assert {data["player_a"], data["player_b"]} == {"alice", "bob"}
    assert data["reason"] == "siblings" and data["created_by"] == "judge"
    again = post(api, url, {"player_a": "bob", "player_b": "alice", "reason": "again"})
    assert again.status_code == 200 and again.json()["id"] == data["id"]
    assert [p["id"] for p in api.get(url).json()] == [data["id"]]
    audit = api.get(f"/api/tournaments/{event.pk}/audit/").json()
    assert [e["action"] for e in audit].count("forbid_pair") == 1
    detail = f"{url}{data['id']}/"
    api.force_login(users["carol"])
    assert api.delete(detail).status_code == 403
    api.force_login(users["org"])
    assert api.delete(detail).status_code == 204
    assert api.delete(detail).status_code == 404
    assert api.get(url).json() == []
    assert "allow_pair" in [
        e["action"] for e in api.get(f"/api/tournaments/{event.pk}/audit/").json()
    ]


@pytest.mark.parametrize(
    "body, field, text",
    [
        ({"player_a": "alice", "player_b": "alice", "reason": "x"}, "players", "two different"),
        ({"player_a": "alice", "player_b": "bob", "reason": ""}, "reason", "blank"),
        ({"player_a": "alice", "player_b": "bob", "reason": "   "}, "reason", ""),
        ({"player_a": "alice", "player_b": "bob"}, "reason", "required"),
        ({"player_a": "alice", "player_b": "bob", "reason": "x" * 201}, "reason", "200"),
        ({"player_a": "alice", "player_b": "nobody", "reason": "x"}, "player_b", "not registered"),
        ({"player_a": "alice", "player_b": "org", "reason": "x"}, "player_b", "not registered"),
        ({"player_a": ["alice"], "player_b": "bob", "reason": "x"}, "player_a", ""),
        ({"player_a": "alice", "player_b": "bob", "reason": {"a": 1}}, "reason", ""),
        ({"player_a": None, "player_b": "bob", "reason": "x"}, "player_a", ""),
        ([1, 2], "detail", "JSON object"),
    ],
)
def test_api_bad_forbidden_pairs_are_400_with_a_message(api, event, users, body, field, text):
    enter(event, users, ["alice", "bob"])
    api.force_login(users["org"])
    response = post(api, f"/api/tournaments/{event.pk}/forbidden-pairs/", body)
    assert response.status_code == 400
    body = response.json()
    assert text in body["detail"] and field in json.dumps(body)
    if field != "detail":
        assert field in body["errors"]
    assert not ForbiddenPair.objects.exists()


def test_api_forbidden_pairs_malformed_and_unknown(api, event, users):
    enter(event, users, ["alice", "bob"])
    api.force_login(users["org"])
    url = f"/api/tournaments/{event.pk}/forbidden-pairs/"
    bad = api.post(url, "{not json", content_type="application/json")
    assert bad.status_code == 400 and bad.json()["detail"]
    assert api.post(url, "reason=x", content_type="text/plain").status_code == 415
    assert post(api, "/api/tournaments/99999/forbidden-pairs/", {}).status_code == 404
    assert api.delete(f"{url}99999/").status_code == 404
    assert api.put(url, "{}", content_type="application/json").status_code == 405
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.FINISHED)
    late = post(api, url, {"player_a": "alice", "player_b": "bob", "reason": "x"})
    assert late.status_code == 409 and "playoff" in late.json()["detail"]


def test_api_repair_a_draft(api, event, users):
    regs = enter(event, users, NAMES[:4])
    services.start(event, users["org"])
    rnd = services.pair_next_round(event, users["org"])
    url = f"/api/tournaments/{event.pk}/rounds/1/repair/"
    assert post(api, url).status_code in (401, 403)
    api.force_login(users["alice"])
    assert post(api, url).status_code == 403
    api.force_login(users["judge"])
    kept = post(api, url)
    assert kept.status_code == 200 and kept.json()["changed"] is False
    reg = {r.pk: r for r in regs.values()}
    a, b = seating(rnd)[0]
    services.forbid_pair(event, users["org"], reg[a], reg[b], "x")
    done = post(api, url)
    assert done.status_code == 200, done.json()
    body = done.json()
    assert body["changed"] is True and body["status"] == "draft" and len(body["matches"]) == 2
    assert {reg[a].name, reg[b].name} not in [
        {m["player_a"], m["player_b"]} for m in body["matches"]
    ]
    assert post(api, f"/api/tournaments/{event.pk}/rounds/7/repair/").status_code == 404
    assert post(api, f"/api/tournaments/{event.pk}/rounds/x/repair/").status_code == 404
    services.publish_round(rnd, users["org"])
    final = post(api, url)
    assert final.status_code == 409 and "published" in final.json()["detail"]


def test_api_late_entry_with_a_bad_deck_is_400(api, event, users):
    enter(event, users, NAMES[:2])
    services.start(event, users["org"])
    api.force_login(users["org"])
    url = f"/api/tournaments/{event.pk}/late-entry/"
    for deck in ["x", None, True, [1], 10**30]:
        response = post(api, url, {"player": "carol", "deck": deck})
        assert response.status_code == 400 and "deck" in response.json()["errors"]


def test_the_openapi_schema_lists_the_new_endpoints(api):
    schema = api.get("/api/schema/")
    assert b"/api/tournaments/{id}/forbidden-pairs/" in schema.content
    assert b"/api/tournaments/{id}/rounds/{number}/repair/" in schema.content


# ----------------------------------------------------------------------- pages


def test_dashboard_forbidden_pairs_form(client, event, users):
    regs = enter(event, users, ["alice", "bob", "carol"])
    url = f"/en/tournaments/{event.pk}/do/forbid/"
    body = {"player_a": regs["alice"].pk, "player_b": regs["bob"].pk, "reason": "siblings"}
    client.force_login(users["carol"])
    refused = client.post(url, body)
    assert refused.status_code == 403
    assert "Only the organiser and the judges may do this." in refused.content.decode()
    assert not ForbiddenPair.objects.exists()
    hu = client.post(f"/hu/tournaments/{event.pk}/do/forbid/", body).content.decode()
    assert "Ezt csak a szervező és a bírók tehetik meg." in hu and "Vissza a versenyhez" in hu
    client.force_login(users["judge"])
    dash = client.get(f"/en/tournaments/{event.pk}/dashboard/").content.decode()
    assert 'id="forbid-form"' in dash and "Forbidden pairs (0)" in dash
    response = client.post(url, body, follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Forbidden pair saved." in page and "Forbidden pairs (1)" in page
    assert "alice – bob: siblings" in page
    assert (
        "This pair was already forbidden." in client.post(url, body, follow=True).content.decode()
    )
    pair = ForbiddenPair.objects.get()
    allow = f"/en/tournaments/{event.pk}/do/allow/"
    client.force_login(users["alice"])
    assert client.post(allow, {"pair": pair.pk}).status_code == 403
    client.force_login(users["org"])
    response = client.post(allow, {"pair": pair.pk})
    assert response.status_code == 302 and not ForbiddenPair.objects.exists()
    assert AuditEntry.objects.filter(action="allow_pair", actor=users["org"]).exists()


@pytest.mark.parametrize(
    "action, body, status, text",
    [
        ("forbid", {"player_a": "A", "player_b": "99999", "reason": "x"}, 400, "Select a valid"),
        ("forbid", {"player_a": "A", "player_b": "A", "reason": "x"}, 400, "Choose two different"),
        ("forbid", {"player_a": "A", "player_b": "B", "reason": ""}, 400, "This field is required"),
        ("forbid", {"player_a": "A", "player_b": "B", "reason": "y" * 201}, 400, "at most 200"),
        (
            "forbid",
            {"player_a": "zz", "player_b": "B", "reason": "x"},
            400,
            "Select a valid choice",
        ),
        ("forbid", {"player_a": "OTHER", "player_b": "B", "reason": "x"}, 400, "Select a valid"),
        ("forbid", {}, 400, "This field is required"),
        ("allow", {"pair": "abc"}, 404, "no such forbidden pair"),
        ("allow", {"pair": "99999999999999999999"}, 404, "no such forbidden pair"),
        ("allow", {}, 404, "no such forbidden pair"),
        ("repair", {"round": "x"}, 404, "no such round"),
        ("repair", {"round": "-1"}, 404, "no such round"),
        ("repair", {"round": "9"}, 404, "no such round"),
        ("repair", {"round": "1"}, 409, "is published"),
    ],
)
def test_dashboard_bad_input_is_4xx_with_a_message(
    client, event, users, action, body, status, text
):
    regs = enter(event, users, ["alice", "bob"])
    other = services.create_tournament(users["org"], name="Other", date=datetime.date(2026, 1, 1))
    outsider = enter(other, users, ["carol"])["carol"]
    services.start(event, users["org"])
    services.publish_round(services.pair_next_round(event, users["org"]), users["org"])
    ids = {"A": regs["alice"].pk, "B": regs["bob"].pk, "OTHER": outsider.pk}
    body = {k: ids.get(v, v) for k, v in body.items()}
    client.force_login(users["org"])
    response = client.post(f"/en/tournaments/{event.pk}/do/{action}/", body)
    assert response.status_code == status
    page = response.content.decode()
    assert text in page
    assert 'id="forbid-form"' in page  # the dashboard, with the reason
    assert not ForbiddenPair.objects.exists()


def test_dashboard_repair_button(client, event, users):
    regs = enter(event, users, NAMES[:4])
    services.start(event, users["org"])
    rnd = services.pair_next_round(event, users["org"])
    client.force_login(users["judge"])
    dash = client.get(f"/en/tournaments/{event.pk}/dashboard/").content.decode()
    assert 'id="repair-button"' in dash and 'id="publish-button"' in dash
    url = f"/en/tournaments/{event.pk}/do/repair/"
    page = client.post(url, {"round": 1}, follow=True).content.decode()
    assert "Nothing has changed since round 1 was paired" in page
    reg = {r.pk: r for r in regs.values()}
    a, b = seating(rnd)[0]
    form = {"player_a": a, "player_b": b, "reason": "rivals"}
    page = client.post(f"/en/tournaments/{event.pk}/do/forbid/", form, follow=True)
    assert "re-pair it to apply it" in page.content.decode()
    client.force_login(users["alice"])
    assert client.post(url, {"round": 1}).status_code == 403
    assert frozenset((a, b)) in pairs_of(rnd)
    client.force_login(users["judge"])
    response = client.post(url, {"round": 1})
    assert response.status_code == 302
    assert "Round 1 paired again." in client.get(response["Location"]).content.decode()
    assert frozenset((a, b)) not in pairs_of(rnd)
    assert AuditEntry.objects.filter(action="repair", actor=users["judge"]).count() == 1
    assert reg[a].name in client.get(f"/en/tournaments/{event.pk}/dashboard/").content.decode()


def test_old_actions_with_bad_numbers_are_not_500(client, event, users):
    enter(event, users, NAMES[:2])
    services.start(event, users["org"])
    services.pair_next_round(event, users["org"])
    client.force_login(users["org"])
    for action, body in [
        ("publish", {"round": "abc"}),
        ("reactivate", {"reg": "abc"}),
        ("staff-drop", {"reg": "1e9"}),
        ("register", {"deck": "x"}),
    ]:
        assert client.post(f"/en/tournaments/{event.pk}/do/{action}/", body).status_code == 302
    assert Round.objects.get().status == Round.DRAFT


def test_new_dashboard_strings_speak_hungarian(client, event, users):
    regs = enter(event, users, NAMES[:4])
    services.start(event, users["org"])
    services.pair_next_round(event, users["org"])
    client.force_login(users["org"])
    dash = client.get(f"/hu/tournaments/{event.pk}/dashboard/").content.decode()
    assert "Tiltott párok (0)" in dash and "A tervezet elvetése és újrapárosítása" in dash
    assert "Pár tiltása" in dash
    bad = client.post(
        f"/hu/tournaments/{event.pk}/do/forbid/",
        {"player_a": regs["alice"].pk, "player_b": regs["alice"].pk, "reason": "x"},
    )
    assert bad.status_code == 400 and "Válassz két különböző játékost." in bad.content.decode()
    page = client.post(f"/hu/tournaments/{event.pk}/do/repair/", {"round": 1}, follow=True)
    assert "nem változott semmi" in page.content.decode()
