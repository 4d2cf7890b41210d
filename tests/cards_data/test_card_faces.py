"""Card faces kept once rendered (cards_data/faces.py, `{% card_face %}`): the HTML is the
template's own, in each language, and a changed card is never shown as it was (issue 40)."""

import pytest
from django.db import models
from django.template import engines
from django.test import RequestFactory
from django.utils import translation

from cards_data import faces
from cards_data.models import Card

pytestmark = pytest.mark.django_db

INCLUDED = '{% for card in cards %}{% include "cards_data/_card_face.html" %}{% endfor %}'
TAGGED = "{% load card_faces %}{% for card in cards %}{% card_face card %}{% endfor %}"


def render(source: str, cards, lang: str) -> str:
    request = RequestFactory().get(f"/{lang}/")
    with translation.override(lang):
        return engines["django"].from_string(source).render({"cards": cards}, request)


@pytest.fixture
def forget_faces():
    faces._faces.clear()
    yield
    faces._faces.clear()


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_every_face_is_the_included_templates_own(catalogue, forget_faces, lang):
    cards = list(Card.objects.order_by("code"))
    included = render(INCLUDED, cards, lang)
    assert render(TAGGED, cards, lang) == included, "rendered"
    assert render(TAGGED, cards, lang) == included, "kept"
    assert included.count('class="card-face') == len(cards)


def test_a_face_speaks_the_pages_language(catalogue, forget_faces):
    card = Card.objects.get(code="KG1-001")
    hu, en = render(TAGGED, [card], "hu"), render(TAGGED, [card], "en")
    assert card.name in hu and "/hu/cards/KG1-001/" in hu
    assert card.name_en in en and "/en/cards/KG1-001/" in en


def test_a_changed_card_is_rendered_anew(catalogue, forget_faces):
    card = Card.objects.get(code="KG1-001")
    before = render(TAGGED, [card], "en")
    Card.objects.filter(pk=card.pk).update(name_en="Patrol Renamed", speed=9)
    after = render(TAGGED, [Card.objects.get(pk=card.pk)], "en")
    assert "Patrol Renamed" in after and card.name_en not in after
    assert "<b>SPD</b> 9" in after and after != before


def test_a_card_with_a_deferred_column_is_rendered_never_kept(catalogue, forget_faces):
    card = Card.objects.defer("name_en").get(code="KG1-001")
    face = render(TAGGED, [card], "en")
    assert card.name_en in face
    assert faces._faces == {}
    Card.objects.filter(pk=card.pk).update(name_en="Patrol Renamed")
    face = render(TAGGED, [Card.objects.defer("name_en").get(pk=card.pk)], "en")
    assert "Patrol Renamed" in face


def test_the_face_reads_no_column_the_key_leaves_out():
    """The key holds every column but the JSON ones: the face may not show those."""
    with open(engines["django"].engine.find_template(faces.FACE_TEMPLATE)[1].name) as file:
        source = file.read()
    left_out = [
        field.name for field in Card._meta.concrete_fields if isinstance(field, models.JSONField)
    ]
    assert left_out, "the model's JSON columns (definition, abilities)"
    for name in left_out:
        assert f"card.{name}" not in source
    assert not set(left_out) & set(faces.KEY_COLUMNS)
