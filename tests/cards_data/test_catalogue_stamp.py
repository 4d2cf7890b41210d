"""The catalogue's reads answer conditional GETs from the catalogue's stamp (issue 40): a 304
for the copy a client holds, until the catalogue changes (a set load, a save as the admin's),
then a 200 with the new answer; only 200s carry the validators; the throttle counts a 304."""

import json
import shutil
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.http import http_date

from cardgame.limits import SearchThrottle
from cards_data import stamp
from cards_data.loader import SETS_DIR, load_cards
from cards_data.models import Card, CatalogueStamp, Edition, Keyword

pytestmark = pytest.mark.django_db

STAMPED = [
    "/api/cards/?q=t%3Aship&sort=-cost",
    "/api/cards/?page=2",
    "/api/cards/KG1-001/",
    "/api/sets/",
    "/api/sets/first/",
    "/api/cards/export/",
]
STATIC = ["/api/races/", "/api/types/", "/api/rarities/", "/api/clans/", "/api/keywords/"]


def settle():
    """The stamp as if the last change were a minute old: Last-Modified is then sent."""
    CatalogueStamp.objects.update(changed=timezone.now() - timedelta(minutes=1))


@pytest.mark.parametrize("url", STAMPED + STATIC)
def test_a_matching_etag_is_a_304_with_the_same_validators(client, catalogue, url):
    first = client.get(url)
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('"') and etag.endswith('"')
    cache_control = {part.strip() for part in first["Cache-Control"].split(",")}
    assert cache_control == {"public", "no-cache"}
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag and again["Cache-Control"] == first["Cache-Control"]
    assert client.get(url, HTTP_IF_NONE_MATCH='"other"').status_code == 200


@pytest.mark.parametrize("url", STAMPED)
def test_a_304_reads_the_stamp_only(client, catalogue, url, django_assert_num_queries):
    etag = client.get(url)["ETag"]
    with django_assert_num_queries(1) as queries:  # no search, no serialising, no export
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert "cards_data_cataloguestamp" in queries.captured_queries[0]["sql"]


@pytest.mark.parametrize("url", STATIC)
def test_a_rules_table_answers_a_304_with_no_query(client, url, django_assert_num_queries):
    etag = client.get(url)["ETag"]
    with django_assert_num_queries(0):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_the_stamp_is_read_before_any_card(client, catalogue):
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/cards/", {"q": "t:ship"}).status_code == 200
    assert "cards_data_cataloguestamp" in queries.captured_queries[0]["sql"]


def test_last_modified_once_the_change_has_settled(client, catalogue):
    fresh = client.get("/api/cards/KG1-001/")
    assert "Last-Modified" not in fresh  # the change is under a second old: the ETag alone
    settle()
    settled = client.get("/api/cards/KG1-001/")
    changed = CatalogueStamp.objects.get().changed
    assert settled["Last-Modified"] == http_date(changed.timestamp())
    since = settled["Last-Modified"]
    assert client.get("/api/cards/KG1-001/", HTTP_IF_MODIFIED_SINCE=since).status_code == 304
    stamp.bump()
    assert client.get("/api/cards/KG1-001/", HTTP_IF_MODIFIED_SINCE=since).status_code == 200


def test_a_set_load_gives_a_new_answer(client, catalogue, tmp_path):
    sets = tmp_path / "sets"
    shutil.copytree(SETS_DIR, sets)
    path = sorted(sets.glob("*/*.json"))[0]
    data = json.loads(path.read_text(encoding="utf-8"))
    entry = data["cards"][0]
    url = f"/api/cards/{entry['code']}/"
    first = client.get(url)
    entry["name_en"] = "Renamed by the set file"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    load_cards(sets)
    after = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after.json()["name_en"] == "Renamed by the set file"
    assert after["ETag"] != first["ETag"]


def test_a_load_bumps_the_stamp_after_its_bulk_inserts(client, db):
    """The loader creates cards and their keyword links with bulk INSERTs, which send no
    signals: its own bump comes after them, in the same transaction."""
    empty = client.get("/api/cards/")
    assert empty.json()["count"] == 0
    with CaptureQueriesContext(connection) as queries:
        load_cards()
    sql = [query["sql"] for query in queries.captured_queries]
    links = max(
        i for i, s in enumerate(sql) if s.startswith('INSERT INTO "cards_data_card_keywords"')
    )
    assert any('UPDATE "cards_data_cataloguestamp"' in s for s in sql[links:])
    loaded = client.get("/api/cards/", HTTP_IF_NONE_MATCH=empty["ETag"])
    assert loaded.status_code == 200 and loaded.json()["count"] == Card.objects.count() > 0


def change_name(card):
    card.name_en = "Changed"
    card.save()


def change_keywords(card):
    card.keywords.add(Keyword.objects.get(slug="stealth"))


def clear_keywords(card):
    card.keywords.clear()


def change_edition(card):
    Edition.objects.get(pk=card.edition_id).save()


def delete_a_card(card):
    Card.objects.exclude(pk=card.pk).order_by("-code").first().delete()


@pytest.mark.parametrize(
    "change", [change_name, change_keywords, clear_keywords, change_edition, delete_a_card]
)
def test_a_save_as_the_admins_gives_a_new_answer(client, catalogue, change):
    card = catalogue.get(code="KG1-006")
    urls = [f"/api/cards/{card.code}/", "/api/cards/?q=t%3Aship", "/api/cards/export/"]
    etags = {url: client.get(url)["ETag"] for url in urls}
    change(card)
    for url in urls:
        assert client.get(url, HTTP_IF_NONE_MATCH=etags[url]).status_code == 200, url


def test_the_new_answer_is_the_changed_one(client, catalogue):
    card = catalogue.get(code="KG1-006")
    etag = client.get(f"/api/cards/{card.code}/")["ETag"]
    card.keywords.add(Keyword.objects.get(slug="stealth"))
    after = client.get(f"/api/cards/{card.code}/", HTTP_IF_NONE_MATCH=etag)
    assert "stealth" in after.json()["keywords"]


def test_each_language_has_its_etag(client, catalogue):
    """The cards' `url` (and every error message) is in the request's language."""
    hu = client.get("/api/cards/KG1-001/", HTTP_ACCEPT_LANGUAGE="hu")
    en = client.get("/api/cards/KG1-001/", HTTP_ACCEPT_LANGUAGE="en")
    assert hu["ETag"] != en["ETag"]
    assert "Accept-Language" in en["Vary"]
    other = client.get(
        "/api/cards/KG1-001/", HTTP_ACCEPT_LANGUAGE="en", HTTP_IF_NONE_MATCH=hu["ETag"]
    )
    assert other.status_code == 200


@pytest.mark.parametrize(
    "url, status",
    [("/api/cards/?q=%28%28", 400), ("/api/cards/NOPE-1/", 404), ("/api/cards/?page=999", 404)],
)
def test_an_error_carries_no_validators(client, catalogue, url, status):
    response = client.get(url)
    assert response.status_code == status
    assert "ETag" not in response and "Last-Modified" not in response
    assert "public" not in response.get("Cache-Control", "")


BROWSABLE = [url for url in STAMPED + STATIC if url != "/api/cards/export/"]


@pytest.mark.parametrize("url", BROWSABLE)
def test_the_browsable_apis_html_carries_no_validators(client, catalogue, url):
    """It differs from the JSON under the same URL and shows the reader's CSRF token."""
    response = client.get(url, HTTP_ACCEPT="text/html")
    assert response.status_code == 200 and "ETag" not in response
    assert "public" not in response.get("Cache-Control", "")


def test_the_export_is_the_same_json_for_a_browser(client, catalogue):
    json_answer = client.get("/api/cards/export/")
    browser = client.get("/api/cards/export/", HTTP_ACCEPT="text/html")
    assert browser.content == json_answer.content and browser["ETag"] == json_answer["ETag"]


def test_a_304_counts_for_the_rate_limit(client, catalogue, monkeypatch):
    monkeypatch.setattr(SearchThrottle, "THROTTLE_RATES", {"search": "3/min"})
    url = "/api/cards/?q=t%3Aship"
    etag = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 429


def test_a_failed_load_leaves_the_stamp(catalogue, tmp_path):
    """The bump is in the load's transaction: a refused load is no change."""
    before = stamp.current()
    sets = tmp_path / "sets"
    shutil.copytree(SETS_DIR, sets)
    sorted(sets.glob("*/*.json"))[0].write_text("{ broken", encoding="utf-8")
    with pytest.raises(Exception, match="invalid JSON"):
        load_cards(sets)
    assert stamp.current() == before


def test_with_no_stamp_row_a_bump_makes_one(client, db):
    CatalogueStamp.objects.all().delete()  # as a flushed test database has it
    assert stamp.current() == stamp.NEVER
    etag = client.get("/api/cards/")["ETag"]
    stamp.bump()
    assert stamp.current() != stamp.NEVER
    assert client.get("/api/cards/", HTTP_IF_NONE_MATCH=etag).status_code == 200
