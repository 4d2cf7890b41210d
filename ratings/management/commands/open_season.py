"""manage.py open_season NAME [--start YYYY-MM-DD]: open a ratings season (the one running
ends the day before it starts; everyone starts it as a newcomer)."""

import datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from ratings import services
from ratings.models import Season


class Command(BaseCommand):
    help = "Open a ratings season; the running one ends the day before its start."

    def add_arguments(self, parser):
        parser.add_argument(
            "name", help='the season\'s name, the same in every language, e.g. "2027"'
        )
        parser.add_argument("--start", help="first day, YYYY-MM-DD (default: today)")

    def handle(self, name, start=None, **options):
        try:
            first_day = datetime.date.fromisoformat(start) if start else timezone.localdate()
        except ValueError as exc:
            raise CommandError(f"--start must be a date written YYYY-MM-DD, not {start!r}") from exc
        if Season.objects.filter(name=name).exists():
            raise CommandError(f"A season named {name!r} exists already; choose another name.")
        try:
            season = services.open_season(name, first_day)
        except ValueError as exc:
            raise CommandError(f"{exc}; choose a later --start.") from exc
        self.stdout.write(f"Season {season.name} opened on {season.start.isoformat()}.")
