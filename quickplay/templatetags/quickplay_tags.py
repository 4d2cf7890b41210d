"""The lobby's quick-play section (templates/matches/lobby.html includes it with
`{% quickplay_section %}`): an inclusion tag, so matches/views.py imports nothing of this
app. It reads the lobby's own context for the decks (matches.views.deck_rows)."""

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from ratings.selectors import is_opted_in

from .. import selectors, services

register = template.Library()


def client_strings() -> dict:
    """Every sentence the section's script shows, in the page's language (the script holds
    no words of its own)."""
    return {
        "waiting_in": _("You are waiting for an opponent: %(queue)s."),
        "place": _("Your place in the queue: %(place)s."),
        "waited": _("Time waited: %(time)s."),
        "bot_soon": _("A bot is offered after %(seconds)s seconds of waiting."),
        "bot_ready": _("Nobody matched you yet: you may play a bot now."),
        "bot_chosen": _("You get a bot of your strength when the wait is over."),
        "count": _("%(queue)s: %(n)s waiting"),
        "nobody": _("Nobody is waiting in a queue right now."),
        "matched": _("Opponent found: the game opens…"),
        "rated": _("rated"),
        "casual": _("casual"),
        "offline": _("Connection lost: trying again…"),
    }


def clock(seconds: int) -> str:
    """A wait as minutes and seconds, "1:05" (the script counts on from it the same way)."""
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes}:{rest:02d}"


def queue_label(ruleset, time_control, rated, rulesets, controls) -> str:
    """ "Original (tournament), standard (10 min + 15 s a turn), casual"."""
    kind = _("rated") if rated else _("casual")
    return f"{rulesets.get(ruleset, ruleset)}, {controls.get(time_control, time_control)}, {kind}"


@register.inclusion_tag("quickplay/_lobby_queue.html", takes_context=True)
def quickplay_section(context):
    request = context["request"]
    user = request.user
    rulesets, controls = services.queue_choices()
    labels = {"rulesets": dict(rulesets), "controls": dict(controls)}
    status = selectors.status(user)
    entry = status["entry"] if status["entry"] and status["entry"]["status"] == "waiting" else None
    counts = [
        {**row, "label": queue_label(row["ruleset"], row["time_control"], row["rated"],
                                     labels["rulesets"], labels["controls"])}
        for row in status["counts"]
    ]  # fmt: skip
    return {
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "decks": context.get("decks", []),
        "preselected_deck": context.get("preselected_deck"),
        "rulesets": rulesets,
        "time_controls": controls,
        "opted_in": is_opted_in(user),
        "entry": entry,
        "entry_label": entry
        and queue_label(
            entry["ruleset"],
            entry["time_control"],
            entry["rated"],
            labels["rulesets"],
            labels["controls"],
        ),  # fmt: skip
        "counts": counts,
        "wait_limit": status["wait_limit"],
        "waited_clock": entry and clock(entry["waited"]),
        "client": {
            "strings": client_strings(),
            "labels": {k: {n: str(v) for n, v in d.items()} for k, d in labels.items()},
            "urls": {
                "status": reverse("quickplay:status"),
                "join": reverse("quickplay:join"),
                "leave": reverse("quickplay:leave"),
                "bot": reverse("quickplay:bot"),
                "game": reverse("matches:game", args=[0]),
                "ws": "/ws/quickplay/",
            },
            "entry": entry,
            "wait_limit": status["wait_limit"],
        },
    }
