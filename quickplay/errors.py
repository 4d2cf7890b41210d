"""Quick play's refusals: a code, an HTTP status and a sentence (quickplay/messages.py)."""

from .messages import sentence


class QueueError(Exception):
    """A refused join, leave or bot request; `status` is the HTTP status the views answer."""

    def __init__(self, code: str, status: int = 400, **words):
        self.code = code
        self.status = status
        self.detail = sentence(code, words)
        super().__init__(self.detail)

    def payload(self) -> dict:
        return {"detail": self.detail, "code": self.code}
