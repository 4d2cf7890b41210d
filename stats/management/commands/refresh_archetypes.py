from django.core.management.base import BaseCommand

from stats.archetypes import refresh
from stats.beside import refresh_beside


class Command(BaseCommand):
    help = (
        "Find the archetypes in the stored decklists again, and the cards played beside "
        "each card in public decks (docs/stats.md). Run it daily."
    )

    def handle(self, *args, **options):
        found = refresh()
        refresh_beside()
        self.stdout.write(f"{found} archetypes")
