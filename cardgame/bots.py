"""Who can take a seat besides people: the one table of the bots. Each has a code for
machines (engine.bots.make_bot's name, stored on a seat or a lab run, sent by the API) and
the words a person reads for it: a `label` where it stands alone (a menu, a button, a lab
run's "Played by"), a `name` inside a sentence or as a player at the table ("2. heurisztikus
bot"). The lobby, the table, the deck lab and the API all read this table."""

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy


@dataclass(frozen=True)
class Bot:
    code: str
    label: Promise
    name: Promise


# In the order menus list them: the fast bot first, the thinking bot by strength, the
# random bot (a test opponent) last.
BOTS = (
    Bot("heuristic", gettext_lazy("Heuristic bot"), gettext_lazy("heuristic bot")),
    Bot("search-easy", gettext_lazy("Thinking bot: easy"), gettext_lazy("thinking bot (easy)")),
    Bot(
        "search-normal",
        gettext_lazy("Thinking bot: normal"),
        gettext_lazy("thinking bot (normal)"),
    ),
    Bot("search-hard", gettext_lazy("Thinking bot: hard"), gettext_lazy("thinking bot (hard)")),
    Bot("random", gettext_lazy("Random bot"), gettext_lazy("random bot")),
)
BY_CODE = {bot.code: bot for bot in BOTS}
CODES = tuple(BY_CODE)


def bot_choices(codes: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """(code, label) of the bots (these `codes` only, when given), in the menus' order."""
    wanted = set(CODES if codes is None else codes)
    return [(bot.code, bot.label) for bot in BOTS if bot.code in wanted]


def label(code: str) -> str:
    """A bot's label in the active language; an unknown code as it is."""
    bot = BY_CODE.get(code)
    return str(bot.label) if bot else code


def names() -> dict[str, str]:
    """Each bot's name in a sentence, in the active language, by code."""
    return {bot.code: str(bot.name) for bot in BOTS}
