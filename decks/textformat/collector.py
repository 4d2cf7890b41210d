"""Gathers what a reader found: entries merged by card, and errors line by line."""

from dataclasses import dataclass

from .common import (
    MAX_COUNT,
    MAX_LINE_LENGTH,
    SUGGESTION_BUDGET,
    SUGGESTION_CUTOFF,
    LineError,
    ParseResult,
    echo,
    message,
)
from .index import CardIndex


@dataclass(frozen=True)
class CountRule:
    """How many copies of one card a list may give."""

    minimum: int
    maximum: int
    # whether a card line must write its count (otherwise a bare name is one copy)
    required: bool = False
    # the MESSAGES key of a count outside minimum..maximum
    out_of_range: str = "count_out_of_range"


# A colony: one line may not ask for more copies than a whole colony holds (R 9.1).
DECK_COUNTS = CountRule(1, MAX_COUNT)


class Collector:
    """Merges entries by code (summing counts) and gathers errors."""

    def __init__(self, where: str = "at_line", rule: CountRule = DECK_COUNTS):
        self.where = where
        self.rule = rule
        self.counts: dict[str, int] = {}
        self.errors: list[LineError] = []
        self.budget = SUGGESTION_BUDGET

    def suggest(self, index: CardIndex, name: str, cutoff: float = SUGGESTION_CUTOFF):
        """index.suggest within the budget; None once it is spent."""
        if self.budget <= 0:
            return None
        self.budget -= 1
        return index.suggest(name, cutoff=cutoff)

    def error(self, line_no: int, line: str, problem: str, suggestions=()):
        text = message(self.where, line_no=line_no, problem=problem)
        full = text
        if suggestions:
            full += " " + message("did_you_mean", names=", ".join(suggestions))
        self.errors.append(
            LineError(line_no, echo(line, MAX_LINE_LENGTH), full, tuple(suggestions), text)
        )

    def add(self, line_no: int, line: str, card: dict, count: int):
        code = card["code"]
        total = self.counts.get(code, 0) + count
        if total > self.rule.maximum:
            problem = message(
                "total_too_high", name=card["name"], total=total, max=self.rule.maximum
            )
            self.error(line_no, line, problem)
            return
        self.counts[code] = total

    def unknown(self, line_no: int, line: str, name: str, index: CardIndex):
        problem = message("unknown_card", name=echo(name))
        self.error(line_no, line, problem, self.suggest(index, name) or ())

    def result(self, meta: dict | None = None) -> ParseResult:
        return ParseResult(list(self.counts.items()), self.errors, meta or {})
