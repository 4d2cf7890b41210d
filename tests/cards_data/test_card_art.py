"""Card art: every card gets a generated illustration, deterministic from its data
(race palette, a silhouette per subtype, its clan's mark), served as cached SVG."""

import xml.etree.ElementTree as ET

import pytest

from cards_data.art import CLAN_MARKS, RACE_COLOURS, SILHOUETTES, card_svg
from cards_data.models import Card
from engine import catalog


def test_same_card_same_picture_and_cards_differ():
    a = card_svg("KG1-001", "human", "ship", "scout", "", "Patrol-7")
    assert a == card_svg("KG1-001", "human", "ship", "scout", "", "Patrol-7")
    assert a != card_svg("KG1-002", "human", "ship", "scout", "", "Patrol-7")
    ET.fromstring(a)  # well-formed SVG


def test_race_colour_subtype_shape_and_clan_mark_show():
    svg = card_svg("KG1-004", "zarg", "ship", "fighter", "steel_eagles", "x")
    assert RACE_COLOURS["zarg"] in svg and SILHOUETTES["fighter"] in svg
    assert CLAN_MARKS["steel_eagles"] in svg
    assert set(RACE_COLOURS) == set(catalog.RACES) and set(CLAN_MARKS) == set(catalog.CLANS)


def test_a_title_cannot_break_out_of_the_svg():
    svg = card_svg("X-1", "", "event", "attack", "", '"><script>alert(1)</script>')
    assert "<script>" not in svg
    ET.fromstring(svg)


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_every_card_face_shows_its_art_served_as_cached_svg(client, catalogue, lang):
    card = Card.objects.first()
    page = client.get(f"/{lang}/cards/{card.code}/").content.decode()
    url = f"/{lang}/cards/{card.code}/art.svg"
    assert f'src="{url}"' in page
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert "max-age" in response["Cache-Control"] and response["ETag"]
    again = client.get(url, HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code in (200, 304)
    for card in Card.objects.all():
        ET.fromstring(client.get(f"/{lang}/cards/{card.code}/art.svg").content)
