"""One row per person who joined a quick-play queue (issue 37).

A queue is not a table of its own: it is the waiting entries with the same ruleset, time
control and rated flag (`QueueEntry.queue`). An entry leaves the queue by being matched
with a person (`match` set), by getting a bot (`match` set, against the bot), by its person
leaving (the page closed, the button), or by expiring (no heartbeat for QUICKPLAY_TTL
seconds). The rows stay, for the bench's and the tests' timings; a person has at most one
waiting entry (a partial unique constraint), so joining twice is refused by the database
too.
"""

from django.conf import settings
from django.db import models


class QueueEntry(models.Model):
    WAITING, MATCHED, BOT, LEFT, EXPIRED = "waiting", "matched", "bot", "left", "expired"
    STATUSES = [(s, s) for s in (WAITING, MATCHED, BOT, LEFT, EXPIRED)]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entries"
    )
    ruleset = models.CharField(max_length=20)
    time_control = models.CharField(max_length=16)
    rated = models.BooleanField(default=False)
    deck = models.ForeignKey("decks.Deck", null=True, on_delete=models.SET_NULL, related_name="+")
    # the deck's 45 codes, checked for the ruleset when the person joined (R 9)
    colony = models.JSONField(default=list)
    # "give me a bot after the wait": chosen when joining, or later with the button
    bot_after_wait = models.BooleanField(default=False)
    # the person's skill when they joined (ratings.selectors.skill_for), None: no rating
    skill = models.FloatField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=STATUSES, default=WAITING)
    match = models.ForeignKey(
        "matches.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    joined = models.DateTimeField()
    seen = models.DateTimeField()  # the page's last heartbeat (socket ping or status poll)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["joined", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status="waiting"),
                name="quickplay_one_waiting_entry_per_person",
            )
        ]
        indexes = [
            models.Index(
                fields=["ruleset", "time_control", "rated", "status"],
                name="quickplay_queue_status",
            )
        ]

    def __str__(self):
        return f"{self.user_id} in {self.queue} ({self.status})"

    @property
    def queue(self) -> tuple[str, str, bool]:
        return (self.ruleset, self.time_control, self.rated)

    @property
    def waiting(self) -> bool:
        return self.status == self.WAITING
