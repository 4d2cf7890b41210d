"""A card's face (templates/cards_data/_card_face.html), rendered once and then reused.

The deck page shows a face for each of its cards (five more with a sample hand), the card
page seven: rendering them was the largest part of either page's template work (issue 40),
and `{% include %}` itself costs nothing next to the face's own tags. A face is a function
of the card's columns, the language (its words and its URLs), the script prefix, the
context's formatting switches and the template, and of nothing else: the template reads
`card` alone (its first line says so). So the HTML is kept under exactly these, and any
change of one (a set loaded anew, a card edited in the admin, the template edited and
reloaded, which makes a new template object) renders the face afresh.

The JSON columns are not part of the key (hashing them would cost more than the render
saves): the face shows neither the engine definition nor the abilities, whose words for
people are text_hu and text_en (tests/cards_data/test_card_faces.py holds it to that).
"""

from django.db import models
from django.urls import get_script_prefix
from django.utils.translation import get_language

from .models import Card

FACE_TEMPLATE = "cards_data/_card_face.html"
MAX_FACES = 2048  # the real set in both languages four times over; emptied when full

KEY_COLUMNS = tuple(
    field.attname for field in Card._meta.concrete_fields if not isinstance(field, models.JSONField)
)

_faces: dict[tuple, str] = {}  # dict operations are atomic: threads need no lock


def _key(card: Card, template, context) -> tuple | None:
    """What the face's HTML depends on; None when a column was deferred (its value is
    unknown here, so the face is rendered, never looked up)."""
    values = card.__dict__
    if any(name not in values for name in KEY_COLUMNS):
        return None
    return (
        template,
        get_language(),
        get_script_prefix(),
        context.autoescape,
        context.use_l10n,
        context.use_tz,
        *(values[name] for name in KEY_COLUMNS),
    )


def render_face(card: Card, context) -> str:
    """The face's HTML in the page's context, as `{% include %}` of the template gives it."""
    template = context.template.engine.get_template(FACE_TEMPLATE)
    key = _key(card, template, context)
    html = _faces.get(key) if key is not None else None
    if html is None:
        html = template.render(context.new({"card": card}))
        if key is not None:
            if len(_faces) >= MAX_FACES:
                _faces.clear()
            _faces[key] = html
    return html
