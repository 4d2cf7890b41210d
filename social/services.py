"""Writes of the social app: follow, unfollow, block, unblock. Each is idempotent (doing it
twice leaves the same rows) and refuses yourself with a sentence (`Refused`)."""

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from . import selectors
from .models import Block, Follow


class Refused(Exception):
    """A social request that cannot be done: `status` (4xx) and a sentence for people."""

    def __init__(self, message, status=400):
        super().__init__(str(message))
        self.message, self.status = message, status


SELF = _("You cannot follow or block yourself.")
BLOCKED = _("You cannot follow this player: one of you has blocked the other.")


def _other(user, target):
    if target.pk == user.pk:
        raise Refused(SELF, 400)


def follow(user, target) -> None:
    """`user` follows `target` (no follow across a block, either way)."""
    _other(user, target)
    if selectors.blocked_between(user.pk, target.pk):
        raise Refused(BLOCKED, 409)
    _get_or_create(Follow, follower=user, followed=target)


def unfollow(user, target) -> None:
    _other(user, target)
    Follow.objects.filter(follower=user, followed=target).delete()


def block(user, target) -> None:
    """`user` blocks `target`; neither follows the other any more."""
    _other(user, target)
    with transaction.atomic():
        _get_or_create(Block, blocker=user, blocked=target)
        Follow.objects.filter(
            Q(follower=user, followed=target) | Q(follower=target, followed=user)
        ).delete()


def unblock(user, target) -> None:
    _other(user, target)
    Block.objects.filter(blocker=user, blocked=target).delete()


def _get_or_create(model, **pair) -> None:
    """The row, created once even when two requests race (the unique pair decides)."""
    try:
        with transaction.atomic():
            model.objects.get_or_create(**pair)
    except IntegrityError:  # the other request created it first: the same outcome
        pass
