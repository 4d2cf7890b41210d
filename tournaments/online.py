"""Tournament matches played on the site: each game is a `matches.Match` (R 18.3, R 18.4).

An online tournament (`Tournament.online`) plays every pairing on the site. Publishing a
round creates game 1 of each of its matches; a playoff set's game 1 waits for the higher
seed's choice to play or draw (R 18.7). Each game is created with both players' frozen
decklists, a one-hour limit and tournament clocks (`casual=False`). When a game ends
(`matches.signals.match_finished`) its winner is recorded and either the next game is
created or, once the set is decided, the tournament match is confirmed with the game
score. A game that reaches the hour is `needs_judge`: the match waits for a judge's
decision, reason "time" or "ruling"; there is never a draw (R 18.4).

Seat 0 is always the match's player_a, seat 1 player_b; who plays first is the
engine's `starting_player`: the die roll (R 10.2) in a Swiss game 1, the higher seed's
choice in a playoff game 1, and the loser of the previous game in games 2 and 3
(docs/rulings.md, "Tournaments").
"""

from __future__ import annotations

import logging

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from decks import play
from matches.errors import MatchError
from matches.services import create_match, judge_decide

from .models import OnlineGame, Registration, Round, TableSet, Tournament
from .problems import GAME_REFUSED, Conflict
from .rules import log as audit_log
from .rules import require_staff, set_decided
from .signals import announce_result

log = logging.getLogger(__name__)

JUDGE_REASONS = ("time", "ruling")  # R 18.4


def game_time_limit(t: Tournament) -> int:
    """The game's limit in seconds: one hour by default (R 18.4)."""
    return t.game_minutes * 60


def colony_codes(reg: Registration) -> list[str]:
    """The registration's frozen decklist as 45 card codes, one per copy (R 9.6)."""
    return play.expand(reg.cards)


def _seats(match: TableSet) -> tuple[Registration, Registration]:
    return match.player_a, match.player_b


def _engine_options(t: Tournament) -> dict | None:
    """Real events: none. Simulations may stop games after a turn (then a judge decides)."""
    return {"turn_limit": t.game_turn_limit} if t.game_turn_limit else None


def _create_game(match: TableSet, number: int, starting_player: int | None) -> OnlineGame:
    """One game of `match` on the site, with both frozen decklists (R 9.6, R 18.4)."""
    regs = _seats(match)
    game = create_match(
        players=[None if r.bot else r.player for r in regs],
        colonies=[colony_codes(r) for r in regs],
        ruleset="original",  # R 18.1
        bots=[r.bot or None for r in regs],
        decks=[r.deck for r in regs],
        starting_player=starting_player,
        game_time_limit=game_time_limit(match.tournament),
        casual=False,
        engine_options=_engine_options(match.tournament),
    )
    return OnlineGame.objects.create(match=match, number=number, game=game)


def start_round(rnd: Round) -> list[OnlineGame]:
    """Game 1 of every match of a just-published round of an online event (die roll)."""
    if not rnd.tournament.online:
        return []
    matches = rnd.matches.filter(player_b__isnull=False).select_related(
        "tournament", "player_a__player", "player_b__player", "player_a__deck", "player_b__deck"
    )
    return [_create_game(m, 1, None) for m in matches if not m.online_games.exists()]


def start_playoff_match(match: TableSet) -> OnlineGame | None:
    """Game 1 of a playoff set once its first player is known (R 18.7).

    A bot higher seed (simulations) chooses to play first at once.
    """
    if not match.tournament.online or match.online_games.exists():
        return None
    if match.first_player_id is None:
        higher = _higher_seed(match)
        if not higher.bot:
            return None  # waits for the higher seed's choice (playoff.choose_first)
        match.first_player = higher
        match.save(update_fields=["first_player", "updated"])
    first = 0 if match.first_player_id == match.player_a_id else 1
    return _create_game(match, 1, first)


def _higher_seed(match: TableSet) -> Registration:
    return sorted(_seats(match), key=lambda r: r.playoff_seed or 99)[0]


# --------------------------------------------------------------------- results


def on_match_finished(sender, match, **kwargs):
    """`matches.signals.match_finished` receiver: record a tournament game's end."""
    game_id = OnlineGame.objects.filter(game_id=match.pk).values_list("pk", flat=True).first()
    if game_id is not None:
        record_game(game_id)


def games_won(match: TableSet) -> tuple[int, int]:
    winners = list(match.online_games.exclude(winner=None).values_list("winner_id", flat=True))
    return winners.count(match.player_a_id), winners.count(match.player_b_id)


@transaction.atomic
def record_game(online_game_id: int) -> OnlineGame:
    """Record the state of a finished (or timed-out) game; idempotent."""
    og = OnlineGame.objects.select_related("game").get(pk=online_game_id)
    match = (
        TableSet.objects.select_for_update(of=("self",))
        .select_related("tournament", "player_a", "player_b")
        .get(pk=og.match_id)
    )
    og = OnlineGame.objects.select_related("game").get(pk=online_game_id)
    game = og.game
    if og.winner_id is not None or match.status == TableSet.CONFIRMED:
        return og  # already recorded (the signal may come twice) or judged by staff
    if game.status == "finished" and game.winner_seat in (0, 1):
        og.winner = _seats(match)[game.winner_seat]
        og.judge_reason = game.result_reason[:12] if game.result == "judge" else ""
        og.save(update_fields=["winner", "judge_reason"])
        _after_game(match, og)
        if match.status == TableSet.CONFIRMED:
            announce_result(match)
    elif game.status in ("needs_judge", "finished", "aborted"):
        # the hour ran out (R 18.4), or the game stopped without a winner: a judge decides
        match.status = TableSet.NEEDS_JUDGE
        match.save(update_fields=["status", "updated"])
    return og


def _after_game(match: TableSet, og: OnlineGame):
    """The set goes on with the next game, or is decided and confirmed."""
    games_a, games_b = games_won(match)
    if set_decided(match, games_a, games_b):
        match.games_a, match.games_b = games_a, games_b
        match.status = TableSet.CONFIRMED
        if og.judge_reason:
            match.judge_reason = og.judge_reason
        match.save()
        return
    if match.status == TableSet.NEEDS_JUDGE:
        match.status = TableSet.PENDING
        match.save(update_fields=["status", "updated"])
    loser = 1 if og.winner_id == match.player_a_id else 0
    _create_game(match, og.number + 1, loser)


def current_game(match: TableSet) -> OnlineGame | None:
    return match.online_games.select_related("game").order_by("-number").first()


@transaction.atomic
def judge_game(og: OnlineGame, staff, winner: Registration | None, reason: str) -> OnlineGame:
    """A judge decides a game on the site (R 18.4: reason "time" or "ruling", never a
    draw); the result arrives through `match_finished` like any other game's."""
    match = (
        TableSet.objects.select_for_update(of=("self",))
        .select_related("tournament")
        .get(pk=og.match_id)
    )
    require_staff(staff, match.tournament)
    if reason not in JUDGE_REASONS:
        raise ValidationError({"reason": [_("The reason is time or ruling.")]})
    seats = [match.player_a_id, match.player_b_id]
    if winner is None or winner.pk not in seats:
        raise ValidationError({"winner": [_("The winner must be one of the two players.")]})
    if og.winner_id is not None:
        raise Conflict("GAME_HAS_WINNER")
    game = og.game
    game.refresh_from_db()
    if game.status == "finished" and game.winner_seat is None:
        # stopped without a winner (a turn limit): the judge's decision is recorded here
        og.winner, og.judge_reason = winner, reason
        og.save(update_fields=["winner", "judge_reason"])
        _after_game(match, og)
        if match.status == TableSet.CONFIRMED:
            announce_result(match)
    else:
        try:
            judge_decide(game, seats.index(winner.pk), reason)
        except MatchError as exc:
            raise Conflict(GAME_REFUSED, detail=exc.detail) from exc
    audit_log(
        match.tournament,
        staff,
        "judge_game",
        match=match,
        game=og.number,
        online_game=og.game_id,
        winner=winner.name,
        reason=reason,
    )
    return og


def require_offline(match: TableSet):
    """Players report only matches not played on the site (those come from the games)."""
    if match.tournament.online and not match.is_bye:
        raise Conflict("PLAYED_ON_SITE")
