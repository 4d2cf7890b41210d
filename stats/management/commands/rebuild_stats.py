from django.core.management.base import BaseCommand

from stats.recording import rebuild


class Command(BaseCommand):
    help = "Rebuild every statistic from the stored finished games."

    def handle(self, *args, **options):
        counted = rebuild()
        self.stdout.write(f"{counted} finished games processed")
