"""Regenerate decklab/reference_decks.json from the card set files."""

import json

from django.core.management.base import BaseCommand

from decklab.reference import DATA_FILE, build_reference_decks
from engine.colonies import load_cards


class Command(BaseCommand):
    help = "Rebuild the deck lab's reference colonies (legal, every race covered)."

    def handle(self, *args, **options):
        decks = build_reference_decks(load_cards())
        # one line per deck: reviewable diffs when the card set changes
        lines = ",\n".join(json.dumps(deck, ensure_ascii=False) for deck in decks)
        DATA_FILE.write_text('{"decks": [\n' + lines + "\n]}\n", encoding="utf-8")
        self.stdout.write(f"wrote {len(decks)} reference colonies to {DATA_FILE.name}")
