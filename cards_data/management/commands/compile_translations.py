"""Compile the .po catalogues to .mo with polib, so setup needs no GNU gettext.

Two homes are compiled: the project's `locale/` (LOCALE_PATHS) and each project app's
own `<app>/locale/`, so an app can keep its messages beside its code.
"""

from pathlib import Path

import polib
from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile the hu/en message catalogues (.po -> .mo) without GNU gettext."

    def handle(self, *args, **options):
        count = 0
        app_dirs = [Path(app.path) / "locale" for app in apps.get_app_configs()]
        # the project's own apps sit at the repository root (not in .venv's site-packages)
        own_apps = [
            d for d in app_dirs if d.parent.parent == Path(settings.BASE_DIR) and d.is_dir()
        ]
        for locale_dir in [*settings.LOCALE_PATHS, *own_apps]:
            for po_path in sorted(Path(locale_dir).glob("*/LC_MESSAGES/*.po")):
                polib.pofile(str(po_path)).save_as_mofile(str(po_path.with_suffix(".mo")))
                count += 1
        self.stdout.write(f"compiled {count} message catalogue(s)")
