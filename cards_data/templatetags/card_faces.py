from django import template

from cards_data.faces import render_face

register = template.Library()


@register.simple_tag(takes_context=True)
def card_face(context, card):
    """`{% include "cards_data/_card_face.html" %}` for `card`, rendered once per card and
    language (cards_data/faces.py)."""
    return render_face(card, context)
