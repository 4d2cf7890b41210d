"""The pairing's warnings for staff (R 18.2, R 18.7): a code and its data from the pure
pairing (swiss.py), one sentence per code in the reader's language, naming the players
(tournaments/pairing_warnings.py). Issue 35: the Hungarian dashboard showed English
sentences with registration ids."""

import datetime
import re

import pytest
from django.utils import translation

from tests.tournaments.tournament_kit import create_users, enter
from tournaments import pairing_warnings, services, swiss
from tournaments.models import Round

ALICE, BOB = 901, 902
NAMES = {ALICE: "Kovács Anna", BOB: "Bíró Béla"}
SAMPLES = {
    swiss.REMATCH: {"code": swiss.REMATCH, "table": 5, "players": [ALICE, BOB]},
    swiss.FORBIDDEN_PAIR: {"code": swiss.FORBIDDEN_PAIR, "table": 3, "players": [ALICE, BOB]},
    swiss.SECOND_BYE: {"code": swiss.SECOND_BYE, "player": ALICE},
    swiss.BYE_ABOVE: {"code": swiss.BYE_ABOVE, "player": ALICE, "lower": BOB},
    swiss.NOT_PROVEN: {"code": swiss.NOT_PROVEN},
}
HUNGARIAN = {
    swiss.REMATCH: "Ismételt párosítás az 5. asztalnál: Kovács Anna és Bíró Béla már "
    "játszottak egymással, de minden lehetséges párosításban van ismétlés.",
    swiss.FORBIDDEN_PAIR: "Tiltott pár a 3. asztalnál: Kovács Anna és Bíró Béla. Egyetlen "
    "párosítás sem kerüli el; ha kell, párosítsd újra a fordulót kézzel.",
    swiss.SECOND_BYE: "Kovács Anna másodszor kap szabadkört: már minden aktív játékos "
    "kapott egyet.",
    swiss.BYE_ABOVE: "A szabadkört Kovács Anna kapja: a mögötte álló Bíró Béla csak "
    "ismételt párosítással vagy tiltott párral kaphatta volna meg.",
    swiss.NOT_PROVEN: "Nem bizonyított, hogy ez a legjobb párosítás: a pontcsoportok "
    "szerinti párosítás maradt érvényben (nincs benne olyan ismételt párosítás, amelyet "
    "egy másik párosítás elkerülne).",
}


def every_warning(a, b, c) -> list[dict]:
    """One warning of every code, in swiss.WARNINGS' order, of the players a, b and c."""
    return [
        {"code": swiss.REMATCH, "table": 1, "players": [a, b]},
        {"code": swiss.FORBIDDEN_PAIR, "table": 1, "players": [a, b]},
        {"code": swiss.SECOND_BYE, "player": c},
        {"code": swiss.BYE_ABOVE, "player": c, "lower": a},
        {"code": swiss.NOT_PROVEN},
    ]


def test_every_code_has_a_sample_here():
    assert set(SAMPLES) == set(swiss.WARNINGS) == set(pairing_warnings.MESSAGES)


@pytest.mark.parametrize("code", swiss.WARNINGS)
def test_each_code_is_an_english_and_a_hungarian_sentence_with_names(code):
    with translation.override("en"):
        english = pairing_warnings.warning_message(SAMPLES[code], NAMES)
    with translation.override("hu"):
        hungarian = pairing_warnings.warning_message(SAMPLES[code], NAMES)
    assert hungarian == HUNGARIAN[code]
    assert english != hungarian and english.endswith(".") and english[0].isupper()
    for text in (english, hungarian):
        assert str(ALICE) not in text and str(BOB) not in text
        players = [SAMPLES[code].get(k) for k in ("player", "lower")]
        for pid in [*SAMPLES[code].get("players", []), *players]:
            if pid is not None:
                assert NAMES[pid] in text


def test_a_warning_of_an_unknown_shape_is_still_a_sentence():
    with translation.override("hu"):
        assert pairing_warnings.warning_message({"code": "NEW"}, {}) == "Párosítási figyelmeztetés."
        broken = pairing_warnings.warning_message({"code": swiss.REMATCH}, {})
        assert broken == "Párosítási figyelmeztetés."
        missing = pairing_warnings.warning_message(SAMPLES[swiss.SECOND_BYE], {})
        assert missing.startswith("egy ismeretlen játékos másodszor")


def test_describe_keeps_the_code_and_data_and_an_older_rounds_sentence():
    with translation.override("en"):
        out = pairing_warnings.describe([SAMPLES[swiss.SECOND_BYE], "old text"], NAMES)
    assert out[0]["code"] == swiss.SECOND_BYE and out[0]["player"] == ALICE
    assert "Kovács Anna" in out[0]["message"]
    assert out[1] == {"code": "TEXT", "message": "old text"}


def test_the_pairing_gives_codes_and_ids_not_sentences():
    """R 18.2: a rematch nobody can avoid is paired, with a REMATCH warning naming ids."""
    met = [swiss.PlayerRecord(i, 0, i, frozenset({1, 2, 3, 4} - {i})) for i in (1, 2, 3, 4)]
    p = swiss.pair_round(met, seed=0, method="exact")
    assert [w["code"] for w in p.warnings] == [swiss.REMATCH, swiss.REMATCH]
    assert [w["table"] for w in p.warnings] == [1, 2]
    assert {pid for w in p.warnings for pid in w["players"]} == {1, 2, 3, 4}


# ---------------------------------------------------------------- pages and the API

PLAYERS = ["kovacs_anna", "biro_bela", "szabo_cecil"]


@pytest.fixture
def users(django_user_model, catalogue):
    return create_users(django_user_model, ["org", *PLAYERS])


@pytest.fixture
def paired(users):
    """A running event whose draft round carries one warning of every code."""
    event = services.create_tournament(
        users["org"], name="Pécs Kupa", date=datetime.date(2026, 12, 27)
    )
    regs = enter(event, users, PLAYERS)
    services.start(event, users["org"])
    rnd = services.pair_next_round(event, users["org"])
    warnings = every_warning(*(regs[name].pk for name in PLAYERS))
    Round.objects.filter(pk=rnd.pk).update(warnings=warnings)
    return event, regs


def shown(page: str) -> list[str]:
    return re.findall(r'<p class="warning" data-code="[A-Z_]+">([^<]*)</p>', page)


HU_PAGE = [
    "Ismételt párosítás az 1. asztalnál: kovacs_anna és biro_bela már játszottak "
    "egymással, de minden lehetséges párosításban van ismétlés.",
    "Tiltott pár az 1. asztalnál: kovacs_anna és biro_bela. Egyetlen párosítás sem "
    "kerüli el; ha kell, párosítsd újra a fordulót kézzel.",
    "szabo_cecil másodszor kap szabadkört: már minden aktív játékos kapott egyet.",
    "A szabadkört szabo_cecil kapja: a mögötte álló kovacs_anna csak ismételt "
    "párosítással vagy tiltott párral kaphatta volna meg.",
    HUNGARIAN[swiss.NOT_PROVEN],
]


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["dashboard/", "rounds/1/pairings/"])
def test_the_hungarian_pages_name_the_players_in_hungarian(client, users, paired, page):
    """The staff dashboard and the draft's pairings page, in Hungarian: every warning is
    the Hungarian sentence with the players' names, no id and no English."""
    event, regs = paired
    client.force_login(users["org"])
    response = client.get(f"/hu/tournaments/{event.pk}/{page}")
    assert response.status_code == 200
    assert shown(response.content.decode()) == HU_PAGE
    english = client.get(f"/en/tournaments/{event.pk}/{page}").content.decode()
    lines = shown(english)
    assert lines[0].startswith("Rematch at table 1: kovacs_anna and biro_bela")
    assert lines[3].startswith("The bye goes to szabo_cecil: kovacs_anna, ranked lower")


@pytest.mark.django_db
def test_the_api_gives_the_code_the_ids_and_the_sentence(client, users, paired):
    event, regs = paired
    client.force_login(users["org"])
    data = client.get(f"/api/tournaments/{event.pk}/rounds/1/", HTTP_ACCEPT_LANGUAGE="hu").json()
    first = data["warnings"][0]
    assert first["code"] == swiss.REMATCH and first["table"] == 1
    assert first["players"] == [regs["kovacs_anna"].pk, regs["biro_bela"].pk]
    assert [w["code"] for w in data["warnings"]] == list(swiss.WARNINGS)
    assert all(w["message"] for w in data["warnings"])
