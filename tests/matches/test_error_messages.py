"""A refused match request reads the same wherever a person meets it (issue 36).

matches/messages.py is the one home of those sentences: every code the matches app raises
has one, in English and in Hungarian; and the API's `detail`, the lobby's error line and
the table's answers (its move over the socket or by POST, a request the drain rejected)
say that one sentence for a code, in the reader's language.
"""

import html
import re
from pathlib import Path

import pytest
from django.utils import translation

from matches import messages, selectors
from matches.consumers import _move
from matches.errors import MatchError
from matches.models import ActionRequest

from .kit import logged_in

pytestmark = pytest.mark.django_db

MATCHES = Path(__file__).resolve().parents[2] / "matches"
# The codes whose sentence has another home: a colony's R 9 problems (decks/problems.py,
# via decks/play.py) and a number's (cardgame/params.py, raised as BAD_<FIELD>).
OTHER_HOMES = {"DECK_NOT_LEGAL", "UNKNOWN_RULESET", "RULESET_NOT_PLAYABLE", "BAD_AFTER"}
RAISED = re.compile(
    r"\b(?:BadRequest|Forbidden|NotFound|Conflict|Unprocessable|MatchError)\(\s*\"([A-Z_]+)\""
)
# Words for every placeholder a sentence may have
WORDS = {
    "bot": "cheater", "known": "heuristic, random", "name": "nobody", "max": 64,
    "current_version": 7, "expected": 9, "seat": 1, "size": 45, "codes": "XX-1",
    "match": 5, "request": 6, "last": 3, "limit": 4096,
}  # fmt: skip


def said(code: str, language: str, words=None) -> str:
    with translation.override(language):
        return messages.sentence(code, WORDS if words is None else words)


def raised_codes() -> set[str]:
    codes = set()
    for path in MATCHES.rglob("*.py"):
        codes |= set(RAISED.findall(path.read_text()))
    return codes


def test_every_code_raised_has_its_sentence_here():
    raised = raised_codes()
    assert {"NOT_YOUR_DECISION", "UNKNOWN_BOT", "STALE_VERSION"} <= raised  # the scan works
    assert raised - OTHER_HOMES <= set(messages.MESSAGES), raised - set(messages.MESSAGES)


@pytest.mark.parametrize("code", sorted(messages.MESSAGES))
def test_every_code_has_an_english_and_a_different_hungarian_sentence(code):
    english, hungarian = said(code, "en"), said(code, "hu")
    fallback = {said("NO_SUCH_CODE", language) for language in ("en", "hu")}
    assert english and hungarian and english != hungarian
    assert english not in fallback and hungarian not in fallback  # every word was there
    assert "%(" not in english + hungarian


def test_an_error_says_its_code_sentence_in_the_active_language():
    with translation.override("hu"):
        error = MatchError("NO_SUCH_USER", words={"name": "zoli"})
    assert (
        error.detail
        == said("NO_SUCH_USER", "hu", {"name": "zoli"})
        == ("Nincs „zoli” nevű felhasználó.")
    )
    assert error.payload() == {"detail": error.detail, "code": "NO_SUCH_USER"}


@pytest.mark.parametrize("language", ["en", "hu"])
def test_the_api_and_the_lobby_say_the_same_sentence(players, decks, language):
    """An unknown bot, yourself as opponent, nobody of that name: the API's detail is the
    lobby's error line, in the page's language."""
    client = logged_in(players[0])
    deck = decks[0].pk
    cases = [
        ({"deck": deck, "bot": "cheater"}, {"action": "bot", "bot": "cheater", "deck": deck},
         "UNKNOWN_BOT"),
        ({"deck": deck, "opponent": "alice"}, {"action": "challenge", "opponent": "alice",
                                               "deck": deck}, "SELF_CHALLENGE"),
        ({"deck": deck, "opponent": "nobody"}, {"action": "challenge", "opponent": "nobody",
                                                "deck": deck}, "NO_SUCH_USER"),
    ]  # fmt: skip
    for api_body, form, code in cases:
        answer = client.post(
            "/api/matches/", api_body, "application/json", HTTP_ACCEPT_LANGUAGE=language
        ).json()
        assert answer["code"] == code
        page = client.post(f"/{language}/play/", form)
        shown = re.search(r'id="lobby-error">\s*<p>(.*?)</p>', page.content.decode(), re.S)
        assert shown is not None, code
        assert html.unescape(shown.group(1)) == answer["detail"], code
        if code != "UNKNOWN_BOT":  # its words name the bots there are
            assert answer["detail"] == said(code, language, {"name": "nobody"})


@pytest.mark.parametrize("language", ["en", "hu"])
def test_the_table_hears_the_sentence_the_api_says(players, human_match, language):
    """A move out of turn: the POST (the table's fallback) and the socket's answer (the
    same make_move, in the socket's language) carry the same detail; a request the drain
    rejected reads the sentence for its code."""
    match = human_match
    waiting = 1 - match.deciding_seat
    user = players[waiting]
    move = {"client_action_id": f"early-{language}", "expected_version": match.version,
            "action": match.legal_ids[0]}  # fmt: skip
    url = f"/api/matches/{match.pk}/actions/"
    answer = logged_in(user).post(url, move, "application/json", HTTP_ACCEPT_LANGUAGE=language)
    status, socket_body = _move(match.pk, user, None, move, language)
    assert answer.status_code == status == 403
    assert answer.json()["code"] == socket_body["code"] == "NOT_YOUR_DECISION"
    assert answer.json()["detail"] == socket_body["detail"] == said("NOT_YOUR_DECISION", language)

    rejected = ActionRequest(match=match, seat=0, client_action_id="x", expected_version=0,
                             action="pass", status=ActionRequest.REJECTED, code="GAME_OVER",
                             message="the game ended first")  # fmt: skip
    with translation.override(language):
        shown = selectors.request_payload(rejected)["message"]
    assert shown == said("GAME_OVER", language)


def test_the_tables_scripts_keep_no_sentences_of_their_own():
    """The table shows the server's sentence (its `detail`, a rejection's `message`)."""
    static = Path(__file__).resolve().parents[2] / "static" / "matches"
    scripts = "".join(p.read_text() for p in static.rglob("*.js"))
    assert "S.errors" not in scripts
