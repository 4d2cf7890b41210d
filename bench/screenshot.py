"""Take docs/screenshot.png (the README's picture): the card list searching `t:ship r:zarg`.

A throwaway SQLite database in a temporary directory gets the real card set; the site is
served from a thread of this process and Debian's Chromium (Playwright, no download)
photographs a 1280x900 viewport.

    .venv/bin/python bench/screenshot.py [--query "t:ship r:zarg"] [--lang en] [--out docs/screenshot.png]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("KGK_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip


def serve():
    """Start the site (static files included) on a free port; (server, base URL)."""
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.servers.basehttp import WSGIRequestHandler, WSGIServer
    from django.core.wsgi import get_wsgi_application

    class QuietHandler(WSGIRequestHandler):
        def log_message(self, *args):
            pass

    server = WSGIServer(("127.0.0.1", 0), QuietHandler, allow_reuse_address=True)
    server.set_app(StaticFilesHandler(get_wsgi_application()))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--query", default="t:ship r:zarg")
    parser.add_argument("--lang", default="en", choices=["hu", "en"])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshot.png")
    args = parser.parse_args()
    if not os.access(CHROMIUM, os.X_OK):
        sys.exit(f"needs Chromium at {CHROMIUM}: apt-get install -y chromium chromium-driver")

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/screenshot.sqlite3"
        os.environ.pop("REDIS_URL", None)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardgame.settings")
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's loop in this thread
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from django.core.management import call_command

        from cards_data.loader import load_cards

        call_command("migrate", verbosity=0, interactive=False)
        load_cards()
        server, base = serve()
        url = f"{base}/{args.lang}/?{urlencode({'q': args.query})}"

        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            response = page.goto(url, wait_until="networkidle")
            if response.status != 200:
                sys.exit(f"{url}: HTTP {response.status}")
            args.out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(args.out))
            count = page.inner_text("#result-count")
            browser.close()
        server.shutdown()
    print(f"{args.out}: {url} ({count.strip()})")


if __name__ == "__main__":
    main()
