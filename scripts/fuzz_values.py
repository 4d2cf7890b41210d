"""`make fuzz`'s explicit cases: the bad values of issue 35 in every parameter of every operation.

Schemathesis' generated cases rarely hit the values that broke the site before: a digit
that `str.isdigit()` accepts and `int()` refuses ("²"), an integer of 4,301 digits (past
Python's int/str limit), 2**31 and 2**63 (past PostgreSQL's integer and bigint columns)
and a user name over 255 characters (django-axes' column). Here each of them goes into
every path parameter, query parameter and top-level JSON body field of every operation of
the served schema, one at a time, the other parameters pointing at real records of the
logged-in user (a deck, a game against a bot, a running event: set up by `SETUP`), and
the answer is checked as schemathesis checks the generated ones: no 5xx, a documented
status, a body and a content type that match the schema. The site's login forms get the
long user name too.
"""

import json
import subprocess
import sys
from collections import Counter

import requests
import schemathesis
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

sys.set_int_max_str_digits(0)  # this side must be able to write the 4,301-digit number

LONG_NAME = "u" * 300
HUGE = int("9" * 4301)
# as a string (path, query, a JSON string) and, for a JSON body, as a number too
BAD_STRINGS = ["²", "9" * 4301, str(2**31), str(2**63), LONG_NAME]
BAD_NUMBERS = [HUGE, 2**31, 2**63]

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]

SETUP = """
import datetime, json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
users = get_user_model().objects
owner = users.get(username=sys.argv[1])
other, _ = users.get_or_create(username=sys.argv[1] + "-2")
sys.path.insert(0, "tests")
from tests.decks.test_pages import LACI, colony
from decks import services as decks
from matches import services as matches
from tournaments import services as events
from tournaments.models import TableSet as EventMatch

ids = {}
deck = decks.save_deck(owner, name="fuzz", cards=colony(LACI))
ids["deck"] = deck.pk
ids["match"] = matches.challenge(owner, deck, bot="random").pk
event = events.create_tournament(owner, name="Fuzz Cup", date=datetime.date(2026, 12, 1))
ids["tournament"] = event.pk
for user in (owner, other):
    reg = events.register(event, user, decks.save_deck(user, name="c", cards=colony(LACI)))
    events.check_in(reg, user)
ids["registration"] = reg.pk
events.start(event, owner)
events.pair_round(event, owner)
ids["tournament_match"] = EventMatch.objects.filter(round__tournament=event).first().pk
print(json.dumps(ids))
"""


def setup_records(env: dict, root, username: str) -> dict:
    """Real records of `username` for the path parameters (ids by kind)."""
    env = {**env, "DJANGO_SETTINGS_MODULE": "cardgame.settings"}
    out = subprocess.run(
        [sys.executable, "-c", SETUP, username], cwd=root, env=env, capture_output=True,
        text=True, check=False,
    )  # fmt: skip
    if out.returncode:
        raise RuntimeError(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def _path_values(path: str, operation, ids: dict) -> dict:
    """A real value for each path parameter of `path`."""
    kind = (
        "deck" if path.startswith("/api/decks/")
        else "match" if path.startswith("/api/matches/")
        else "tournament_match" if path.startswith("/api/tournament-matches/")
        else "registration" if path.startswith("/api/tournament-registrations/")
        else "tournament" if path.startswith("/api/tournaments/")
        else None
    )  # fmt: skip
    values = {}
    for param in operation.path_parameters:
        name = param.name
        enum = (param.definition.get("schema") or {}).get("enum")
        if enum:
            values[name] = enum[0]
        elif name == "id":
            values[name] = ids.get(kind, 1)
        elif name == "code":
            values[name] = "KG1-001"
        else:  # number, pair_id, request_id
            values[name] = 1
    return values


def _body_fields(operation) -> tuple[str | None, list[str]]:
    """(media type, top-level fields) of a JSON request body, or (None, [])."""
    body = operation.definition.raw.get("requestBody") or {}
    content = body.get("content") or {}
    if "application/json" not in content:
        return None, []
    schema = content["application/json"].get("schema") or {}
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        schema = operation.schema.raw_schema["components"]["schemas"][name]
    return "application/json", sorted((schema.get("properties") or {}).keys())


def undocumented_bodies(ids: dict) -> dict:
    """A good JSON body of each operation whose schema has no request body (the game and
    deck-lab views read request.data themselves): each of its fields gets the bad values."""
    deck = ids.get("deck", 1)
    return {
        ("POST", "/api/matches/"): {"deck": deck, "bot": "random", "seats": 2, "opponent": ""},
        ("POST", "/api/matches/{id}/accept/"): {"deck": deck},
        ("POST", "/api/matches/{id}/join/"): {"deck": deck},
        ("POST", "/api/matches/{id}/start/"): {"bot": "random"},
        ("POST", "/api/matches/{id}/actions/"): {
            "expected_version": 0, "client_action_id": "fuzz", "action": {"type": "pass"},
        },
        ("POST", "/api/decklab/runs/"): {"deck": deck, "games": 10, "bot": "heuristic"},
        ("PUT", "/api/collection/"): {"cards": [{"code": "KG1-001", "count": 1}]},
        ("PATCH", "/api/collection/"): {"cards": [{"code": "KG1-001", "count": 1}]},
    }  # fmt: skip


def cases(schema, ids: dict):
    """(operation, kwargs for Case) of every bad value in every parameter; `raw_json`: a
    body the schema does not describe, sent as it is."""
    bodies = undocumented_bodies(ids)
    for result in schema.get_all_operations():
        operation = result.ok()
        path = operation.path
        base = _path_values(path, operation, ids)
        for param in operation.path_parameters:
            for value in BAD_STRINGS:
                yield operation, {"path_parameters": {**base, param.name: value}}
        for param in operation.query:
            for value in BAD_STRINGS:
                yield operation, {"path_parameters": base, "query": {param.name: value}}
        media_type, fields = _body_fields(operation)
        for name in fields:
            for value in BAD_STRINGS + BAD_NUMBERS:
                body = {"body": {name: value}, "media_type": media_type}
                yield operation, {"path_parameters": base, **body}
        good = bodies.get((operation.method.upper(), path)) or {}
        for name in good:
            for value in BAD_STRINGS + BAD_NUMBERS:
                yield operation, {"path_parameters": base, "raw_json": {**good, name: value}}


def run(site_url: str, ids: dict, session: str, csrf: str) -> tuple[int, list[str]]:
    """Every case anonymously and logged in; (number of cases, failures)."""
    schema = schemathesis.openapi.from_url(f"{site_url}/api/schema/")
    schema.config.base_url = site_url
    http = requests.Session()
    failures: list[str] = []
    count = 0
    statuses: Counter = Counter()
    for operation, kwargs in cases(schema, ids):
        for logged_in in (False, True):
            raw = kwargs.get("raw_json")
            case = operation.Case(**{k: v for k, v in kwargs.items() if k != "raw_json"})
            cookies = {"csrftoken": csrf}
            headers = {"X-CSRFToken": csrf}
            if logged_in:
                cookies["sessionid"] = session
            count += 1
            try:
                if raw is None:
                    response = case.call(base_url=site_url, session=http, cookies=cookies,
                                         headers=headers, timeout=60)  # fmt: skip
                else:
                    url = site_url + operation.path.format(**kwargs["path_parameters"])
                    response = http.request(
                        operation.method.upper(), url, data=json.dumps(raw), cookies=cookies,
                        headers={**headers, "Content-Type": "application/json"}, timeout=60,
                    )  # fmt: skip
                statuses[response.status_code] += 1
                case.validate_response(response, checks=CHECKS)
            except (Exception, BaseExceptionGroup) as error:  # a failed check or the request
                shown = {k: str(v)[:80] for k, v in kwargs.items()}
                failures.append(
                    f"{operation.method.upper()} {operation.path} {shown} "
                    f"(logged in: {logged_in}): {str(error)[:600]}"
                )
    # the site's login forms (not in the API schema): a user name past any column
    for path in ("/en/accounts/login/", "/hu/accounts/login/", "/en/admin/login/"):
        count += 1
        answer = http.post(
            site_url + path,
            data={"username": LONG_NAME, "password": "x", "csrfmiddlewaretoken": csrf},
            cookies={"csrftoken": csrf},
            headers={"Referer": site_url + path},
            timeout=60,
        )
        if answer.status_code >= 500:
            failures.append(f"POST {path} with a {len(LONG_NAME)}-character user name: "
                            f"{answer.status_code}")  # fmt: skip
    print("statuses:", dict(sorted(statuses.items())), flush=True)
    return count, failures
