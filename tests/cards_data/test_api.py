"""The REST API: filters, detail, reference lists, bulk export, and 4xx for bad input."""

import pytest

from engine import catalog

pytestmark = pytest.mark.django_db


def codes(response):
    return {row["code"] for row in response.json()["results"]}


def all_pages(client, url):
    rows = []
    while url:
        body = client.get(url).json()
        rows += body["results"]
        url = body["next"]
    return rows


def test_list_is_paginated_with_every_card(client, catalogue):
    rows = all_pages(client, "/api/cards/")
    assert len(rows) == catalogue.count()
    assert len({r["code"] for r in rows}) == catalogue.count()


def test_detail_uses_glossary_field_names(client, catalogue):
    body = client.get("/api/cards/", {"q": '"Cobra Flash"'}).json()["results"][0]
    detail = client.get(f"/api/cards/{body['code']}/").json()
    assert detail["name"] == "Cobra Flash"
    assert detail["type"] == "ship" and detail["subtype"] == "fighter"
    # R 21.1: Cobra Flash, fighter, 6 CR, 5-2-3-0
    assert (
        detail["credit_cost"],
        detail["speed"],
        detail["firepower"],
        detail["armour"],
        detail["bombardment"],
    ) == (6, 5, 2, 3, 0)
    assert detail["size"] == 2  # R 4.2.3
    assert detail["race"] in catalog.RACES


def test_variable_cost_is_an_object(client, catalogue):
    card = catalogue.get(name="Felülbírálás")
    detail = client.get(f"/api/cards/{card.code}/").json()
    assert detail["credit_cost"] == {"kind": "equals_target_cost"}  # R 21.3


def test_unknown_code_is_404(client, catalogue):
    response = client.get("/api/cards/KG1-999/")
    assert response.status_code == 404
    assert "detail" in response.json()


@pytest.mark.parametrize(
    "params, check",
    [
        ({"race": "zarg"}, lambda c: c.race == "zarg"),
        ({"type": "ship", "race": "human"}, lambda c: c.type == "ship" and c.race == "human"),
        ({"rarity": "ultra_rare"}, lambda c: c.rarity == "ultra_rare"),
        ({"keyword": "burst_fire"}, lambda c: "burst_fire" in {k.slug for k in c.keywords.all()}),
        (
            {"credit_cost_min": 2, "credit_cost_max": 4},
            lambda c: c.credit_cost is not None and 2 <= c.credit_cost <= 4,
        ),
        ({"speed_min": 4}, lambda c: c.speed is not None and c.speed >= 4),
        (
            {"q": "t:ship r:zarg cost<=3"},
            lambda c: (
                c.type == "ship"
                and c.race == "zarg"
                and c.credit_cost is not None
                and c.credit_cost <= 3
            ),
        ),
        ({"q": "-r:ember t:base"}, lambda c: c.race != "human" and c.type == "base"),
    ],
)
def test_filters_agree_with_a_python_filter(client, catalogue, params, check):
    expected = {c.code for c in catalogue.prefetch_related("keywords") if check(c)}
    assert expected, "the set should have cards for every filter in this table"
    rows = all_pages(client, "/api/cards/?" + "&".join(f"{k}={v}" for k, v in params.items()))
    assert {r["code"] for r in rows} == expected


@pytest.mark.parametrize(
    "params, fragment",
    [
        ({"q": "colour:red"}, "colour"),
        ({"q": "cost<=abc"}, "cost"),
        ({"q": "(t:ship"}, ""),
        ({"race": "martian"}, "martian"),
        ({"credit_cost_min": "lots"}, ""),
    ],
)
def test_bad_input_is_400_with_a_message(client, catalogue, params, fragment):
    response = client.get("/api/cards/", params)
    assert response.status_code == 400
    text = response.content.decode()
    assert fragment in text
    assert "detail" in response.json()


def test_races_list_their_opposing_race(client):
    rows = {r["id"]: r for r in client.get("/api/races/").json()}
    assert len(rows) == 8  # R 7.1
    assert rows["human"]["opposing_race"] == "xeno"
    assert rows["space_shark"]["opposing_race"] == "triciplite"
    assert rows["cerebrite"]["hu"] == "Cerebrita"


def test_types_have_four_subtypes_each(client):
    rows = client.get("/api/types/").json()
    assert len(rows) == 6  # R 4.1
    assert all(len(t["subtypes"]) == 4 for t in rows)
    ships = next(t for t in rows if t["id"] == "ship")
    assert {s["id"]: s["size"] for s in ships["subtypes"]} == {
        "scout": 1,
        "fighter": 2,
        "cruiser": 3,
        "destroyer": 4,
    }


def test_rarities_clans_keywords_sets(client, catalogue):
    assert [r["id"] for r in client.get("/api/rarities/").json()] == [
        "common",
        "uncommon",
        "rare",
        "ultra_rare",
    ]
    assert {c["id"] for c in client.get("/api/clans/").json()} == {
        "galactic_trade",
        "steel_eagles",
        "granite_snakes",
    }
    assert len(client.get("/api/keywords/").json()) == 8  # R 13
    sets = client.get("/api/sets/").json()
    assert sets[0]["code"] == "first" and sets[0]["cards"] == catalogue.count()


def test_bulk_export_has_every_card_and_honours_its_etag(client, catalogue):
    response = client.get("/api/cards/export/")
    assert response.status_code == 200
    etag = response["ETag"]
    body = response.json()
    assert len(body["cards"]) == catalogue.count()
    again = client.get("/api/cards/export/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    card = catalogue.first()
    card.name_en = "Changed"
    card.save()
    assert client.get("/api/cards/export/", HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_openapi_schema_and_docs(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/cards/{code}/" in schema.content
    assert client.get("/api/docs/").status_code == 200


def test_error_detail_names_the_field_and_speaks_the_request_language(client, catalogue):
    english = client.get("/api/cards/", {"q": "cost<=abc"}, HTTP_ACCEPT_LANGUAGE="en").json()
    assert english["detail"].startswith("q: '<=' needs a number")
    hungarian = client.get("/api/cards/", {"q": "cost<=abc"}, HTTP_ACCEPT_LANGUAGE="hu").json()
    assert hungarian["detail"].startswith("q: A '<=' után szám kell")  # not "A(z)"
