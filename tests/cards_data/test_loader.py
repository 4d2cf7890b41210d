"""`manage.py load_cards`: validation, idempotence, and all-or-nothing refusal."""

import json
import shutil

import pytest
from django.core.management import CommandError, call_command
from django.forms.models import model_to_dict

from cards_data.loader import SETS_DIR, CardDataError, load_cards, read_cards
from cards_data.models import Card

pytestmark = pytest.mark.django_db


def snapshot():
    rows = []
    for card in Card.objects.prefetch_related("keywords").order_by("code"):
        row = model_to_dict(card, exclude=["id", "keywords"])
        row["keywords"] = sorted(k.slug for k in card.keywords.all())
        rows.append(row)
    return rows


@pytest.fixture
def set_copy(tmp_path):
    target = tmp_path / "sets"
    shutil.copytree(SETS_DIR, target)
    return target


def first_file(directory):
    return sorted(directory.glob("*/*.json"))[0]


def test_load_creates_every_card_of_the_files():
    report = load_cards()
    codes = {card["code"] for card in read_cards()}
    assert set(report.created) == codes
    assert set(Card.objects.values_list("code", flat=True)) == codes


def test_a_load_on_an_empty_database_gives_every_card_its_keywords():
    load_cards()
    wanted = {card["code"]: sorted(card.get("keywords", [])) for card in read_cards()}
    assert any(wanted.values())  # the set has keywords to lose
    assert {row["code"]: row["keywords"] for row in snapshot()} == wanted


def test_a_second_read_of_the_same_files_is_a_copy_of_the_first():
    first = read_cards()
    first[0]["name_en"] = "Changed by a caller"
    first[0].setdefault("keywords", []).append("changed")
    again = read_cards()
    assert again[0]["name_en"] != "Changed by a caller"
    assert "changed" not in again[0].get("keywords", [])


def test_second_load_changes_nothing():
    load_cards()
    before = snapshot()
    report = load_cards()
    assert report.created == [] and report.updated == []
    assert report.unchanged == len(before)
    assert snapshot() == before


def test_changed_card_is_updated_in_place(set_copy):
    load_cards(set_copy)
    path = first_file(set_copy)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["cards"][0]["name_en"] = "Renamed For The Test"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    report = load_cards(set_copy)
    code = data["cards"][0]["code"]
    assert report.updated == [code]
    assert Card.objects.get(code=code).name_en == "Renamed For The Test"


def test_broken_file_is_refused_whole_and_database_kept(set_copy):
    load_cards(set_copy)
    before = snapshot()
    path = first_file(set_copy)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["cards"][0]["name_en"] = "This change must not land"
    broken = data["cards"][1]
    broken["rarity"] = "legendary"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")

    with pytest.raises(CardDataError) as info:
        load_cards(set_copy)
    message = str(info.value)
    assert path.name in message and broken["code"] in message and "rarity" in message
    assert snapshot() == before


def test_invalid_json_names_the_file_and_line(set_copy):
    path = first_file(set_copy)
    path.write_text('{"edition": "first", "cards": [\n  {"code": }\n]}', encoding="utf-8")
    with pytest.raises(CardDataError) as info:
        read_cards(set_copy)
    assert f"{path.name}: invalid JSON at line 2" in str(info.value)


def test_duplicate_code_across_files_is_refused(set_copy):
    paths = sorted(set_copy.glob("*/*.json"))
    first = json.loads(paths[0].read_text(encoding="utf-8"))
    second = json.loads(paths[1].read_text(encoding="utf-8"))
    second["cards"][0]["code"] = first["cards"][0]["code"]
    paths[1].write_text(json.dumps(second, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(CardDataError, match="duplicate code"):
        read_cards(set_copy)


def test_duplicate_name_is_refused_because_r_9_2_counts_by_name(set_copy):
    paths = sorted(set_copy.glob("*/*.json"))
    first = json.loads(paths[0].read_text(encoding="utf-8"))
    second = json.loads(paths[1].read_text(encoding="utf-8"))
    second["cards"][0]["name"] = first["cards"][0]["name"]
    paths[1].write_text(json.dumps(second, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(CardDataError, match="R 9.2"):
        read_cards(set_copy)


def test_command_reports_refusal_as_command_error(set_copy):
    path = first_file(set_copy)
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["cards"][0]["type"]
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(CommandError, match="database unchanged"):
        call_command("load_cards", "--dir", str(set_copy))
    assert Card.objects.count() == 0


def test_rules_text_is_generated_for_both_languages():
    load_cards()
    with_abilities = Card.objects.exclude(abilities=[])
    assert with_abilities.exists()
    for card in with_abilities:
        assert card.text_hu and card.text_en, card.code
