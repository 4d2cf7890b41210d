"""Writes of quick play: joining a queue, being matched, a bot after the wait, leaving and
expiring (issue 37). The matching rule itself is quickplay/matching.py; the game is made by
matches.services.create_match, the one way to make a game.

How a join is matched, and why it holds under concurrent joins:

1. The entry is inserted and committed on its own, so every other join sees it.
2. One transaction locks the person's own entry and the queue's other waiting entries with
   `select_for_update(skip_locked=True)` (PostgreSQL), picks the partner by the rule, makes
   the game and marks both entries matched. An entry another transaction holds is skipped,
   never waited for, so two joins never deadlock, and an entry is matched at most once:
   only the transaction holding both rows can mark them.
3. Two joins at the same moment may each hold their own row and skip the other's; then
   neither matches. The join sees that rows it could not lock exist and tries again after a
   short random pause (a few times), and every heartbeat and the sweep try again too.

SQLite (the embedded default) ignores the row locks but takes the write lock at BEGIN
(IMMEDIATE transactions, cardgame/settings.py): the matching transactions run one after
another there, which is the same guarantee.
"""

import random
import time
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from decks import play
from matches import clocks
from matches import services as games
from matches.services.games import bot_colony, own_deck_colony
from ratings import selectors as ratings
from ratings import skill as rating_skill
from social.selectors import blocked_ids

from . import matching, push
from .errors import QueueError
from .models import QueueEntry
from .selectors import ttl, wait_limit

MATCH_ATTEMPTS = 6  # tries of a join whose partner another join held (rule 3 above)


def queue_choices() -> tuple[list, list]:
    """The offered queues' parts: (ruleset, label) and (time control, label) pairs. The
    live clocks only: quick play finds somebody who plays now; a game over days is a
    challenge."""
    live = tuple(name for name in clocks.PEOPLE_CHOICES if not clocks.over_days(name))
    return play.ruleset_choices(playable_only=True), clocks.choices(live)


def check_queue(ruleset, time_control, rated) -> tuple[str, str, bool]:
    """A queue's key, or UNKNOWN_QUEUE (400) naming the choices."""
    rulesets, controls = queue_choices()
    if ruleset not in dict(rulesets) or time_control not in dict(controls):
        raise QueueError(
            "UNKNOWN_QUEUE",
            rulesets=", ".join(str(label) for _name, label in rulesets),
            clocks=", ".join(str(label) for _name, label in controls),
        )
    if rated not in (True, False):
        raise QueueError("BAD_RATED")
    return ruleset, time_control, rated


def join(user, *, ruleset, time_control, rated=False, deck=None, bot_after_wait=False):
    """`user` joins a queue with `deck` (legal for the ruleset, R 9) and is matched at once
    when a partner waits. Returns the entry (matched, or waiting)."""
    if user is None or not user.is_authenticated:
        raise games.Forbidden("NOT_LOGGED_IN")
    ruleset, time_control, rated = check_queue(ruleset, time_control, rated)
    if rated and user.pk not in ratings.opted_in([user.pk]):
        raise QueueError("NOT_OPTED_IN", status=403)
    colony = own_deck_colony(user, deck, ruleset)  # the lobby's checks and words
    now = timezone.now()
    expire_stale(now)
    try:
        with transaction.atomic():
            entry = QueueEntry.objects.create(
                user=user,
                ruleset=ruleset,
                time_control=time_control,
                rated=rated,
                deck=deck,
                colony=colony,
                bot_after_wait=bool(bot_after_wait),
                skill=ratings.skill_for([user.pk])[user.pk],
                joined=now,
                seen=now,
            )
    except IntegrityError:  # the partial unique constraint: one waiting entry a person
        raise QueueError("ALREADY_QUEUED", status=409) from None
    entry = match_waiting(entry.pk)
    push.counts_changed()  # one more waiting, or the partner's queue one shorter
    return entry


def match_waiting(entry_id: int) -> QueueEntry:
    """Try to match a waiting entry (module docstring); the entry as it is afterwards."""
    for attempt in range(MATCH_ATTEMPTS):
        entry, contended = _match_once(entry_id)
        if not contended:
            return entry
        time.sleep(random.uniform(0.005, 0.02) * (attempt + 1))
    return QueueEntry.objects.get(pk=entry_id)


def _match_once(entry_id: int) -> tuple[QueueEntry, bool]:
    """One matching transaction: (the entry, whether rows it wanted were held elsewhere)."""
    now = timezone.now()
    with transaction.atomic():
        me = (
            QueueEntry.objects.select_for_update(skip_locked=True)
            .filter(pk=entry_id, status=QueueEntry.WAITING)
            .first()
        )
        if me is None:  # matched already, left, or being matched by another join now
            return QueueEntry.objects.get(pk=entry_id), False
        blocked = blocked_ids(me.user_id)
        queue = _fresh_waiting(me, now).exclude(user_id__in=blocked)
        others = list(queue.select_for_update(skip_locked=True))
        partner = matching.choose_partner(
            _as_waiting(me, now), [_as_waiting(o, now) for o in others], blocked, **_rule()
        )
        if partner is None:
            held = queue.exclude(pk__in=[o.pk for o in others]).exists()
            return me, held
        other = next(o for o in others if o.pk == partner.entry_id)
        _start_people_game(me, other, now)
    return me, False


def _fresh_waiting(me: QueueEntry, now):
    """The other waiting entries of `me`'s queue whose page is still there (a heartbeat
    within the TTL): a ghost is never matched, even before the sweep removes it."""
    return QueueEntry.objects.filter(
        ruleset=me.ruleset,
        time_control=me.time_control,
        rated=me.rated,
        status=QueueEntry.WAITING,
        seen__gte=now - timedelta(seconds=ttl()),
    ).exclude(user_id=me.user_id)


def _as_waiting(entry: QueueEntry, now) -> matching.Waiting:
    skill = entry.skill if entry.skill is not None else float(rating_skill.DEFAULT_NUMBER)
    return matching.Waiting(entry.pk, entry.user_id, skill, (now - entry.joined).total_seconds())


def _rule() -> dict:
    return {
        "pool": int(getattr(settings, "QUICKPLAY_POOL", matching.POOL)),
        "base": float(getattr(settings, "QUICKPLAY_WINDOW_BASE", matching.WINDOW_BASE)),
        "growth": float(getattr(settings, "QUICKPLAY_WINDOW_GROWTH", matching.WINDOW_GROWTH)),
    }


def _start_people_game(a: QueueEntry, b: QueueEntry, now) -> None:
    """The game of two locked entries (the one who waited longer takes seat 0); both
    entries matched. Inside the caller's transaction."""
    first, second = sorted((a, b), key=lambda e: (e.joined, e.pk))
    users = get_user_model().objects.in_bulk([first.user_id, second.user_id])
    match = games.create_match(
        players=(users[first.user_id], users[second.user_id]),
        colonies=(first.colony, second.colony),
        ruleset=first.ruleset,
        decks=(first.deck, second.deck),
        time_control=first.time_control,
    )
    if first.rated:
        match.rated = True  # the rated queue: both opted in (checked when each joined)
        match.save(update_fields=["rated"])
    for entry in (first, second):
        _end(entry, QueueEntry.MATCHED, now, match)
    push.matched_after_commit([first.user_id, second.user_id], match.pk)


def _end(entry: QueueEntry, status: str, now, match=None) -> None:
    entry.status, entry.ended, entry.match = status, now, match
    entry.save(update_fields=["status", "ended", "match"])


def bot_for(skill: float | None) -> str:
    """The bot of the person's skill band (matching.BOT_FOR_LEVEL)."""
    number = skill if skill is not None else rating_skill.DEFAULT_NUMBER
    return matching.BOT_FOR_LEVEL[rating_skill.level_for(number).key]


def take_bot(user) -> QueueEntry:
    """The waiting person asks for the bot after the wait: a casual game against the bot of
    their skill band (never rated). Refused before the wait limit."""
    entry = waiting_entry(user)
    if entry is None:
        raise QueueError("NOT_QUEUED", status=409)
    now = timezone.now()
    if (now - entry.joined).total_seconds() < wait_limit():
        raise QueueError("NO_BOT_YET", status=409, seconds=int(wait_limit()))
    return _bot_game(entry.pk, now) or QueueEntry.objects.get(pk=entry.pk)


def _bot_game(entry_id: int, now) -> QueueEntry | None:
    """The entry's game against its bot, if it is still waiting and nobody holds it."""
    with transaction.atomic():
        entry = (
            QueueEntry.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("user", "deck")
            .filter(pk=entry_id, status=QueueEntry.WAITING)
            .first()
        )
        if entry is None:
            return None
        match = games.create_match(
            players=(entry.user, None),
            colonies=(entry.colony, bot_colony(entry.colony)),
            ruleset=entry.ruleset,
            bots=(None, bot_for(entry.skill)),
            decks=(entry.deck, None),
        )  # untimed and casual: a game against a bot (matches' default), never rated
        _end(entry, QueueEntry.BOT, now, match)
        push.matched_after_commit([entry.user_id], match.pk)
    push.counts_changed()
    return entry


def waiting_entry(user) -> QueueEntry | None:
    if user is None or not user.is_authenticated:
        return None
    return QueueEntry.objects.filter(user=user, status=QueueEntry.WAITING).first()


def leave(user, entry_id: int | None = None) -> int:
    """The person leaves their queue (the button, or their page's socket closed: then only
    the entry that socket watched). How many entries left (0 or 1)."""
    entries = QueueEntry.objects.filter(user_id=user.pk, status=QueueEntry.WAITING)
    if entry_id is not None:
        entries = entries.filter(pk=entry_id)
    left = entries.update(status=QueueEntry.LEFT, ended=timezone.now())
    if left:
        push.counts_changed()
    return left


def heartbeat(user, entry_id: int | None = None) -> QueueEntry | None:
    """The person's page is still there: note it, and try again what waiting allows (the
    window widened, a partner's row was held, the bot after the wait they chose). The
    entry as it is afterwards (None: the person waits for nothing). `entry_id`, the entry
    the page watches, spares reading the person's entry before the matching reads it."""
    now = timezone.now()
    waiting = QueueEntry.objects.filter(user_id=user.pk, status=QueueEntry.WAITING)
    if entry_id is None or not waiting.filter(pk=entry_id).update(seen=now):
        entry = waiting.first()  # the page watches no entry, or not the waiting one
        if entry is None:
            return None
        entry_id = entry.pk
        waiting.filter(pk=entry_id).update(seen=now)
    return _advance(entry_id, now)


def _advance(entry_id: int, now) -> QueueEntry:
    entry = match_waiting(entry_id)
    if entry.waiting and entry.bot_after_wait:
        if (now - entry.joined).total_seconds() >= wait_limit():
            entry = _bot_game(entry.pk, now) or QueueEntry.objects.get(pk=entry.pk)
    return entry


def expire_stale(now=None) -> int:
    """Entries whose page sent no heartbeat within the TTL leave the queue (expired)."""
    now = now or timezone.now()
    expired = QueueEntry.objects.filter(
        status=QueueEntry.WAITING, seen__lt=now - timedelta(seconds=ttl())
    ).update(status=QueueEntry.EXPIRED, ended=now)
    if expired:
        push.counts_changed()
    return expired


def sweep() -> int:
    """The periodic pass (a Celery beat task; the heartbeats do the same per person):
    expire the ghosts, then try again every waiting entry. How many entries it tried."""
    now = timezone.now()
    expire_stale(now)
    waiting = list(QueueEntry.objects.filter(status=QueueEntry.WAITING).order_by("joined"))
    for entry in waiting:
        _advance(entry.pk, now)
    return len(waiting)
