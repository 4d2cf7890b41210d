"""The OpenAPI schema's error answers, in one place (issue 35).

`AutoSchema` (REST_FRAMEWORK's DEFAULT_SCHEMA_CLASS) adds to every operation the error
statuses it can answer, each with the one error body `Error` ({detail, code}), unless the
operation documents that status itself (e.g. the decklist import's 400 with line errors):

  400  every operation: bad input, and any request with a NUL character
       (cardgame.middleware answers that before any view);
  401  operations that need a login (the site's session login itself answers 403 with
       code not_authenticated; 401 is what a client authenticating by header would get);
  403  operations that need a login or a permission, every operation that changes
       something (CSRF, ownership, staff), and every game operation (a seat's view);
  404  every operation with an id in its path, paginated lists (a page past the end),
       game operations (the deck or the opponent a body names) and the deck lab's starts
       (the deck a body names);
  409  what changes a game, a table, an event or starts a lab run (not allowed in the
       current state; a stale version), and a replay of an unfinished game;
  422  what changes a game or starts a lab run (an illegal action or deck);
  429  throttled operations (cardgame.limits);
  503  game operations (the database is unreachable: retry after Retry-After).

The catalogue's reads (CONDITIONAL_GETS, cards_data.api) also answer a conditional GET:
304 (no body) to a matching If-None-Match or If-Modified-Since, and 412 (no body) to an
If-Match naming another version; neither is answered to a request without those headers.

tests/cardgame/test_schema.py checks every operation against these rules and `make fuzz`
(scripts/fuzz.py) checks that every answer's status is documented.
"""

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

UNSAFE = ("POST", "PUT", "PATCH", "DELETE")
GAME_PREFIXES = ("/api/matches/",)
STATEFUL_PREFIXES = ("/api/matches/", "/api/tournaments/", "/api/tournament-", "/api/decklab/")
UNPROCESSABLE_PREFIXES = ("/api/matches/", "/api/decklab/")
# operations whose body names a record by its id: an unknown or hidden one answers 404
BODY_NAMES_RECORD = {("POST", "/api/decklab/runs/"), ("POST", "/api/decklab/advice/")}
# the catalogue's reads, which carry an ETag and answer conditional GETs (issue 40)
CONDITIONAL_GETS = {
    "/api/cards/",
    "/api/cards/{code}/",
    "/api/cards/export/",
    "/api/sets/",
    "/api/sets/{code}/",
    "/api/races/",
    "/api/types/",
    "/api/rarities/",
    "/api/clans/",
    "/api/keywords/",
}


class ErrorSerializer(serializers.Serializer):
    """Every error answer of the API: a sentence a person can act on, and a code."""

    detail = serializers.CharField(help_text="What went wrong, in the request's language.")
    code = serializers.CharField(
        required=False, help_text="A stable code a client can branch on (when there is one)."
    )

    class Meta:
        ref_name = "Error"


# Success statuses of operations whose view does not say them itself (the deck lab's view
# keeps no schema decorators): the documented 2xx answer moves to these statuses.
SUCCESS_STATUSES = {
    ("POST", "/api/decklab/runs/"): ("201",),
}

DESCRIPTIONS = {
    "400": "Bad input: `detail` says what to change.",
    "401": "Not logged in (the session login answers 403, code not_authenticated).",
    "403": "Not logged in, not allowed, or a missing CSRF token.",
    "404": "No such record, or not visible to you.",
    "409": "Not allowed in the current state (or a stale version).",
    "422": "Not allowed by the rules (an illegal action or deck).",
    "429": "Too many requests: try again after Retry-After seconds.",
    "503": "The database is unreachable: try again after Retry-After seconds.",
}
CONDITIONAL_DESCRIPTIONS = {
    "304": "Not modified: the copy the client holds (If-None-Match, If-Modified-Since) is "
    "still the answer.",
    "412": "Precondition failed: the answer is no longer the version If-Match names.",
}


def error_statuses(
    path: str, method: str, *, needs_login: bool, throttled: bool, paginated: bool = False
) -> list[str]:
    """The error statuses an operation can answer (the rules of the module docstring)."""
    method = method.upper()
    unsafe = method in UNSAFE
    game = path.startswith(GAME_PREFIXES)
    codes = ["400"]
    if needs_login:
        codes.append("401")
    if needs_login or unsafe or game:
        codes.append("403")
    if "{" in path or paginated or game or (method, path) in BODY_NAMES_RECORD:
        codes.append("404")
    if (unsafe and path.startswith(STATEFUL_PREFIXES)) or path.endswith("/replay/"):
        codes.append("409")
    if unsafe and path.startswith(UNPROCESSABLE_PREFIXES):
        codes.append("422")
    if throttled:
        codes.append("429")
    if game:
        codes.append("503")
    return codes


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's AutoSchema plus the error answers of `error_statuses`."""

    def _needs_login(self) -> bool:
        # the operation's security without the anonymous alternative ({}): a permission
        # that refuses anonymous users for this method
        auth = self.get_auth()
        return bool(auth) and {} not in auth

    def _throttled(self) -> bool:
        return bool(getattr(self.view, "throttle_classes", ()))

    def _paginated(self) -> bool:
        return (
            self.method.upper() == "GET"
            and self._is_list_view()
            and self._get_paginator() is not None
        )

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        moved = SUCCESS_STATUSES.get((self.method.upper(), self.path))
        if moved:
            documented = [code for code in responses if code.startswith("2")]
            answer = responses[documented[0]]
            for code in documented:
                del responses[code]
            for code in moved:
                responses[code] = answer
        codes = error_statuses(
            self.path,
            self.method,
            needs_login=self._needs_login(),
            throttled=self._throttled(),
            paginated=self._paginated(),
        )
        for code in codes:
            if code not in responses:
                answer = OpenApiResponse(ErrorSerializer, description=DESCRIPTIONS[code])
                responses[code] = self._get_response_for_code(answer, code, direction=direction)
        if self.method.upper() == "GET" and self.path in CONDITIONAL_GETS:
            for code, description in CONDITIONAL_DESCRIPTIONS.items():
                answer = OpenApiResponse(description=description)
                responses[code] = self._get_response_for_code(answer, code, direction=direction)
        return responses
