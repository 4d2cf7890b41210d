"""The tournaments app's writes, named in one place for views, the API, simulations and
tests (R 18). Each responsibility has its own module; this one holds no rule itself:

- problems.py: every refusal's code and sentence (Conflict, NotAllowed);
- rules.py: who may act, the audit log, the limits and the score rules;
- registration.py: creating an event, entries, check-in, late entry, drops, the start;
- rounds.py: forbidden pairs, pairing a Swiss round (swiss.py), publishing it, time;
- results.py: reporting, confirming, entering and judging a set's result;
- playoff.py: the playoff, the end of the event and its prizes;
- penalties.py and online.py: judges' penalties, and sets played on the site.

Reads (where an event stands, standings, placings) live in selectors.py, ranking.py and
standings_query.py. A confirmed result is announced (signals.py); the playoff and a Swiss
draft follow from it, so recording a result calls neither by name.
"""

from django.core.exceptions import PermissionDenied

from .playoff import advance_playoff, award_prizes, choose_first, finish_swiss, start_playoff
from .problems import Conflict, NotAllowed
from .ranking import cut_order, decided_placings, final_order, placings, playoff_size
from .registration import (
    check_in,
    check_in_many,
    create_tournament,
    drop,
    frozen_decklist,
    late_entry,
    reactivate,
    register,
    start,
    unregister,
)
from .results import (
    check_penalty_games,
    confirm,
    dispute,
    enter_result,
    judge_result,
    report,
)
from .rounds import (
    allow_pair,
    extend_time,
    forbid_pair,
    forbidden_pairs,
    pair_next_round,
    pair_round,
    publish_round,
    repair_round,
)
from .rules import (
    FIRST_YEAR,
    JUDGE_REASONS,
    LAST_YEAR,
    MAX_EXTENSION,
    TOURNAMENT_RULESET,
    DeckNotLegal,
    check_score,
    date_out_of_range,
    games_needed,
    is_staff,
    log,
    plays_all_three,
    require_staff,
)
from .selectors import (
    late_entry_closed_text,
    late_entry_open,
    match_deadline,
    open_match,
    round_complete,
    round_deadline,
    rounds_paired,
    swiss_finished,
)
from .standings_query import current_standings

__all__ = [
    "FIRST_YEAR",
    "JUDGE_REASONS",
    "LAST_YEAR",
    "MAX_EXTENSION",
    "NotAllowed",
    "TOURNAMENT_RULESET",
    "Conflict",
    "DeckNotLegal",
    "PermissionDenied",
    "advance_playoff",
    "allow_pair",
    "award_prizes",
    "check_in",
    "check_in_many",
    "check_penalty_games",
    "check_score",
    "choose_first",
    "confirm",
    "create_tournament",
    "current_standings",
    "cut_order",
    "date_out_of_range",
    "decided_placings",
    "dispute",
    "drop",
    "enter_result",
    "extend_time",
    "final_order",
    "finish_swiss",
    "forbid_pair",
    "forbidden_pairs",
    "frozen_decklist",
    "games_needed",
    "is_staff",
    "judge_result",
    "late_entry",
    "late_entry_closed_text",
    "late_entry_open",
    "log",
    "match_deadline",
    "open_match",
    "pair_next_round",
    "pair_round",
    "placings",
    "playoff_size",
    "plays_all_three",
    "publish_round",
    "reactivate",
    "register",
    "repair_round",
    "report",
    "require_staff",
    "round_complete",
    "round_deadline",
    "rounds_paired",
    "start",
    "start_playoff",
    "swiss_finished",
    "unregister",
]
