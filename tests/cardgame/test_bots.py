"""One table of the bots (cardgame.bots): every bot the engine can seat has a code and both
words a person reads, in both languages, and the lobby, the deck lab, the table and the
API all take them from it."""

import pytest
from django.utils import translation

from cardgame import bots
from decklab.models import LabRun
from decklab.simulation import BOTS as LAB_BOTS
from engine.bots import BOTS as ENGINE_BOTS
from matches.api import BOT_NAMES
from matches.models import Seat
from matches.presentation import client_strings, seat_name


def test_every_engine_bot_has_one_row_and_every_row_is_a_bot():
    assert set(bots.CODES) == set(ENGINE_BOTS)
    assert set(BOT_NAMES) == set(bots.CODES)  # what the API accepts
    assert {code for code, _name in Seat.BOTS if code} == set(bots.CODES)  # what a seat stores


@pytest.mark.parametrize("bot", bots.BOTS, ids=lambda bot: bot.code)
def test_both_words_of_a_bot_read_in_both_languages(bot):
    with translation.override("en"):
        english = (str(bot.label), str(bot.name))
    with translation.override("hu"):
        hungarian = (str(bot.label), str(bot.name))
    assert all(english) and all(hungarian)
    assert hungarian[0] != english[0] and hungarian[1] != english[1]


def test_the_lab_and_the_table_read_the_same_table():
    with translation.override("hu"):
        assert [code for code, _label in LabRun.BOT_CHOICES] == list(LAB_BOTS)
        assert dict(LabRun.BOT_CHOICES)["search-easy"] == "Gondolkodó bot: könnyű"
        assert bots.label("search-easy") == "Gondolkodó bot: könnyű"
        assert client_strings()["bots"] == bots.names()
        player = {"bot": "heuristic", "bot_number": 2, "name": "heuristic bot"}
        assert seat_name(player) == "2. heurisztikus bot"
        assert bots.label("no-such-bot") == "no-such-bot"
