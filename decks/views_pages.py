"""Deck pages other than the builder (owned by the deck-pages work; see decks/urls.py)."""

from django.http import Http404


def _todo(request, *args, **kwargs):
    raise Http404("not built yet")


deck_list = deck_detail = import_page = compare = collection_page = print_decklist = versions = _todo
