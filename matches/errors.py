"""Typed errors of the matches services; the API maps each to its HTTP status.

Malformed input (400) and not-allowed-now (409/422) are different errors; every one has a
`code` a client can branch on and a `detail` a person can act on: the sentence for its
code from matches/messages.py, said with `words`, in the active language. `detail` is
given only for a sentence from another home (a colony's problems, a number's).
"""

from .messages import sentence


class MatchError(Exception):
    status = 400

    def __init__(self, code: str, detail: str | None = None, *, words=None, **extra):
        self.code = code
        self.detail = sentence(code, {**extra, **(words or {})}) if detail is None else detail
        super().__init__(self.detail)
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
