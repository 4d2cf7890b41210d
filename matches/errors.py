"""Typed errors of the matches services; the API maps each to its HTTP status.

Malformed input (400) and not-allowed-now (409/422) are different errors; every one has a
`code` a client can branch on and a `detail` a person can act on.
"""


class MatchError(Exception):
    status = 400

    def __init__(self, code: str, detail: str, **extra):
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra

    def payload(self) -> dict:
        return {"detail": self.detail, "code": self.code, **self.extra}


class BadRequest(MatchError):
    status = 400


class Forbidden(MatchError):
    status = 403


class NotFound(MatchError):
    status = 404


class Conflict(MatchError):
    status = 409


class Unprocessable(MatchError):
    status = 422
