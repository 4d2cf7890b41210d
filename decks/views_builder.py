"""The deck builder page (owned by the builder work; see decks/urls.py)."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render

from .models import Deck


@login_required
def builder(request, pk=None):
    deck = get_object_or_404(Deck, pk=pk, owner=request.user) if pk else None
    return render(request, "decks/builder.html", {"deck": deck})
