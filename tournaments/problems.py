"""What the tournaments app says when it refuses an action (R 18): the one home of those
sentences, as decks/problems.py is for a colony's problems and matches/messages.py for a
game's refusals.

Every refusal has a `code` for machines and, from here, a sentence for people through
gettext, in the active language. `Conflict` (the event's state does not allow it: HTTP 409)
and `NotAllowed` (this person may not: HTTP 403) carry both; a page shows the sentence, and
the API answers `payload(...)`: {"detail": the same sentence, "code": the code}.
tests/tournaments/test_problems.py holds every code to a sentence in both languages.
A form's field errors stay Django's `ValidationError`s beside their fields.
"""

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext_lazy as _lazy

from cardgame.hungarian import articles


def _round_unfinished(words) -> str:
    return articles(_lazy("Round %(n)s still has unfinished matches.") % words)


def _round_published(words) -> str:
    return articles(
        _lazy("Round %(n)s is published: its pairing can no longer be changed.") % words
    )


def _last_round_before_late_entry(words) -> str:
    return articles(
        _lazy(
            "Round %(n)s is the last Swiss round and was paired before the late "
            "entry of %(names)s: pair it again first, so that they play it."
        )
        % words
    )


MESSAGES = {
    # who may do what
    "STAFF_ONLY": _lazy("Only the organiser and the judges may do this."),
    "NOT_YOUR_DECK": _lazy("You can register only with your own deck."),
    "NOT_YOUR_REGISTRATION": _lazy("You can withdraw only your own registration."),
    "CHECK_IN_ONLY_YOURSELF": _lazy("You can check in only yourself."),
    "DROP_ONLY_YOURSELF": _lazy("You can drop only yourself."),
    "NOT_IN_MATCH": _lazy("You are not playing in this match."),
    "NOT_HIGHER_SEED": _lazy("The higher seed chooses to play or draw."),
    "DECKLIST_HIDDEN": _lazy("Decklists are published when the event is finished."),
    "NOT_REGISTERED": _lazy("You are not registered for this tournament."),
    # registration, check-in, late entry, drops (R 9.6, R 18.2)
    "REGISTRATION_CLOSED": _lazy("Registration is closed: the event has started."),
    "DECKLIST_DEADLINE_PASSED": _lazy("The decklist deadline has passed."),
    "DISQUALIFIED": _lazy("You were disqualified from this event."),
    "STARTED_DROP_INSTEAD": _lazy("The event has started: drop instead."),
    "CHECK_IN_CLOSED": _lazy("Check-in is closed: the event has started."),
    "CHECK_IN_CLOSED_WITHOUT_YOU": _lazy(
        "Check-in is closed: the event has started without you. Ask the organiser "
        "or a judge about a late entry."
    ),
    "NOT_STARTED_REGISTER": _lazy("The event has not started: register the player as usual."),
    "LATE_ENTRY_CLOSED": _lazy(
        "Late entry is closed: every Swiss round has been paired and published, so a "
        "late entrant would play no round."
    ),
    "LATE_ENTRY_SWISS_ONLY": _lazy("Late entry is possible only during the Swiss rounds."),
    "ALREADY_REGISTERED": _lazy("This player is already registered."),
    "EVENT_OVER_NO_DROP": _lazy("The event is over: there is nothing to drop from."),
    "REACTIVATE_BEFORE_PLAYOFF": _lazy(
        "Re-activation is possible only before the playoff: a dropped player stays out."
    ),
    "REACTIVATE_DISQUALIFIED": _lazy(
        "%(name)s was disqualified: a disqualified player cannot be re-activated."
    ),
    "ALREADY_STARTED": _lazy("The event has already started."),
    "TOO_FEW_TO_START": _lazy("At least two checked-in players are needed to start."),
    # the Swiss rounds (R 18.2, R 18.7)
    "FORBIDDEN_PAIRS_CLOSED": _lazy("Forbidden pairs can be changed only before the playoff."),
    "NOT_SWISS_STAGE": _lazy("Rounds are paired only during the Swiss stage."),
    "ROUND_UNFINISHED": _round_unfinished,
    "ALL_ROUNDS_PLAYED": _lazy("All Swiss rounds have been played."),
    "ROUND_GONE": _lazy("This round no longer exists."),
    "ROUND_PUBLISHED": _round_published,
    "LAST_ROUND_BEFORE_LATE_ENTRY": _last_round_before_late_entry,
    "EXTENSION_PUBLISHED_ONLY": _lazy(
        "Only a table of a published Swiss round gets a time extension."
    ),
    "MATCH_OVER_NO_TIME": _lazy("This match is over: it needs no more time."),
    # results (R 18.4, R 18.5)
    "BYE_NO_RESULT": _lazy("A bye needs no result."),
    "ROUND_NOT_PUBLISHED": _lazy("This round is not published yet."),
    "RESULT_FINAL": _lazy("This result is final or with a judge; ask a judge to change it."),
    "OPPONENT_REPORTED": _lazy("Your opponent has reported: confirm or dispute their result."),
    "NOTHING_TO_CONFIRM": _lazy("There is no reported result to confirm."),
    "OPPONENT_CONFIRMS": _lazy("Your opponent must confirm the result you reported."),
    "NOTHING_TO_DISPUTE": _lazy("Only a result your opponent reported can be disputed."),
    "ALREADY_CONFIRMED": _lazy(
        "This match already has a confirmed result: changing it is a judge ruling."
    ),
    "WITH_A_JUDGE": _lazy("This match is with a judge: enter a judge ruling with its reason."),
    "BYE_NOT_JUDGED": _lazy("A bye has no result to judge."),
    "PRIZES_AWARDED_RESULTS_FIXED": _lazy(
        "The prizes have been awarded on the current results, so results can no "
        "longer change here; the judge decides."
    ),
    "PLAYOFF_SEEDED_SWISS_FIXED": _lazy(
        "The playoff was seeded from the Swiss results and has started: a Swiss "
        "result can no longer change; the judge decides."
    ),
    "SEMI_WINNER_FIXED": _lazy(
        "The final or the third-place match has already been played on this "
        "semi-final's old result, so its winner can no longer change; the judge "
        "decides."
    ),
    # games on the site (R 18.4)
    "GAME_HAS_WINNER": _lazy("This game already has a winner; correct the match result instead."),
    "PLAYED_ON_SITE": _lazy(
        "This match is played on the site: its result comes from the games themselves."
    ),
    # penalties (issue 14; R 18.5)
    "EVENT_OVER_NO_PENALTY": _lazy("The event is over: penalties are given during the event."),
    "ALREADY_DISQUALIFIED": _lazy("%(name)s is already disqualified from this event."),
    "DROPPED_NO_MATCH": _lazy("%(name)s has dropped: they have no match left to lose."),
    # the playoff and prizes (R 18.3, R 18.6, R 18.7)
    "PLAYOFF_AFTER_SWISS": _lazy("The playoff starts after the last Swiss round is complete."),
    "TOO_FEW_FOR_PLAYOFF": _lazy(
        "Fewer than two active players remain: finish the event after the Swiss rounds."
    ),
    "FINISH_AFTER_SWISS": _lazy("The event can finish after the last Swiss round is complete."),
    "CHOICE_PLAYOFF_ONLY": _lazy("Play or draw is chosen only in the playoff."),
    "CHOICE_MADE": _lazy("The choice is already made."),
    "PRIZES_WHEN_FINISHED": _lazy("Prizes are awarded when the event is finished."),
    "PRIZES_AWARDED": _lazy("The prizes have already been awarded."),
}
"""Every refusal's code and its sentence: a sentence whose %(name)s placeholders are the
refusal's words, or a function of them (where R 5's articles follow a number)."""

GAME_REFUSED = "GAME_REFUSED"
"""A judge's decision the game on the site refused: its own sentence, from matches'."""


def sentence(code: str, words: dict | None = None) -> str:
    """A person's sentence for a refusal's code and its words, in the active language."""
    text = MESSAGES[code]
    if callable(text):  # a function of the words (a lazy sentence is not callable)
        return str(text(words or {}))
    return str(text % words) if words else str(text)


def payload(code: str, **words) -> dict:
    """The API's answer to a refusal: the sentence a page shows, and its code."""
    return {"detail": sentence(code, words), "code": code}


class Refusal(Exception):
    """A refused action: `code` for machines, `detail` (the sentence) for people."""

    def __init__(self, code: str, **words):
        self.code, self.words = code, words
        self.detail = words["detail"] if code == GAME_REFUSED else sentence(code, words)
        super().__init__(self.detail)

    def payload(self) -> dict:
        return {"detail": self.detail, "code": self.code}


class Conflict(Refusal):
    """The action is not allowed in the tournament's current state (HTTP 409)."""


class NotAllowed(Refusal, PermissionDenied):
    """This person may not do this (HTTP 403); a PermissionDenied for every caller."""
