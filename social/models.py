"""Who follows whom and who blocks whom (issue 37). Two small tables of pairs of users;
everything else about friends (who is online) lives in the cache (social/presence.py)."""

from django.conf import settings
from django.db import models


class Follow(models.Model):
    """`follower` follows `followed`: sees them on the friends page, online or not, and
    their open tables and challenges. One-way, like a subscription: no consent needed."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following_rows"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follower_rows"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="one_follow_per_pair"),
            models.CheckConstraint(
                condition=~models.Q(follower=models.F("followed")), name="no_self_follow"
            ),
        ]

    def __str__(self):
        return f"{self.follower_id} follows {self.followed_id}"


class Block(models.Model):
    """`blocker` blocks `blocked`: the two can neither challenge each other, nor accept each
    other's challenges, nor sit at the same table, nor be matched by the queue, nor message
    each other (either direction: social.selectors.blocked_between)."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocking_rows"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by_rows"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="no_self_block"
            ),
        ]

    def __str__(self):
        return f"{self.blocker_id} blocks {self.blocked_id}"
