from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cards_data.loader import SETS_DIR, CardDataError, load_cards


class Command(BaseCommand):
    help = "Validate the card set files and upsert them into the database (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--dir", default=str(SETS_DIR), help="folder holding <edition>/*.json")

    def handle(self, *args, **options):
        try:
            report = load_cards(Path(options["dir"]))
        except CardDataError as exc:
            raise CommandError(f"card set refused, database unchanged:\n{exc}") from exc
        self.stdout.write(
            f"cards: {len(report.created)} created, {len(report.updated)} updated, "
            f"{report.unchanged} unchanged"
        )
        if report.stale:
            self.stdout.write(
                self.style.WARNING(
                    f"in the database but not in the files: {', '.join(report.stale)}"
                )
            )
