"""Reads of the social app: the contract the apps above it import (matches, quick play,
notifications). Plain ids in, plain ids out, one query each."""

from django.db.models import Q

from . import presence
from .models import Block, Follow


def blocked_between(a_id: int, b_id: int) -> bool:
    """Whether either of the two blocks the other."""
    if not a_id or not b_id:
        return False
    return Block.objects.filter(
        Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)
    ).exists()


def blocked_ids(user_id: int) -> set[int]:
    """Everyone `user_id` blocks or is blocked by: the people they must never meet."""
    if not user_id:
        return set()
    rows = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list(
        "blocker_id", "blocked_id"
    )
    return {other for pair in rows for other in pair if other != user_id}


def blocking_ids(user_id: int) -> list[int]:
    """The people `user_id` blocks (the friends page's unblock list), newest first."""
    return list(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def block_directions(a_id: int, b_id: int) -> tuple[bool, bool]:
    """(whether `a_id` blocks `b_id`, whether `b_id` blocks `a_id`), in one query: the player
    page's buttons need both."""
    rows = Block.objects.filter(
        Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)
    ).values_list("blocker_id", flat=True)
    blockers = set(rows)
    return a_id in blockers, b_id in blockers


def follows(follower_id: int, followed_id: int) -> bool:
    return Follow.objects.filter(follower_id=follower_id, followed_id=followed_id).exists()


def followers_of(user_id: int) -> list[int]:
    """Who follows `user_id`, newest first."""
    return list(Follow.objects.filter(followed_id=user_id).values_list("follower_id", flat=True))


def following_ids(user_id: int) -> set[int]:
    """Whom `user_id` follows."""
    return set(Follow.objects.filter(follower_id=user_id).values_list("followed_id", flat=True))


def online_ids(user_ids) -> set[int]:
    """Those of `user_ids` seen on the site within the last few minutes (social/presence.py)."""
    return presence.seen_ids(user_ids)
