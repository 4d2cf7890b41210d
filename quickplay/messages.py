"""What quick play says when it refuses a request: the one home of those sentences.

A refusal has a `code` for machines and a sentence for people, in the active language. A
refusal that belongs to the matches app (no deck, not your deck, a deck's R 9 problems)
keeps its home's words (matches/messages.py, decks/problems.py): quick play raises those
errors as they are.
"""

from django.utils.translation import gettext_lazy as _lazy

MESSAGES = {
    "UNKNOWN_QUEUE": _lazy(
        "There is no such queue. Choose a ruleset (%(rulesets)s) and a clock (%(clocks)s) "
        "from the lists."
    ),
    "BAD_RATED": _lazy("Choose whether the game is rated: yes or no."),
    "BAD_BOT_AFTER_WAIT": _lazy("Choose whether you want a bot after the wait: yes or no."),
    "NOT_OPTED_IN": _lazy(
        "Rated queues are for players who take part in ratings. Turn ratings on, or join "
        "the casual queue."
    ),
    "ALREADY_QUEUED": _lazy(
        "You are already waiting in a queue. Leave it first if you want to join another."
    ),
    "NOT_QUEUED": _lazy("You are not waiting in a queue."),
    "NO_BOT_YET": _lazy(
        "A bot is offered after %(seconds)s seconds of waiting; wait a little longer."
    ),
    "BAD_QUEUE_ACTION": _lazy("Unknown quick play action."),
}


def sentence(code: str, words: dict | None = None) -> str:
    """The sentence for a refusal's code, said with its words, in the active language."""
    return str(MESSAGES[code]) % (words or {})
