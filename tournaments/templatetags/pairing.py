"""`{{ round|pairing_warnings }}`: a round's pairing warnings as sentences for people."""

from django import template

from tournaments.pairing_warnings import round_warnings

register = template.Library()


@register.filter
def pairing_warnings(rnd) -> list[dict]:
    """Each warning's code, data and sentence (`message`) in the active language."""
    return round_warnings(rnd)
