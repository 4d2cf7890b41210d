"""A real site in a process of its own (uvicorn on cardgame.asgi), and logged-in HTTP clients.

For the tests that need true concurrency through the whole stack: threads of a test
sending real HTTP requests, a server with its own database connections. The database is
the one the test names: the pytest-django PostgreSQL test database, or a SQLite file of
the test's own (the embedded default: pytest's in-memory SQLite is invisible to another
process).
"""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from service_kit import ROOT

CSRF = "k" * 32  # any 32-character secret: Django compares the cookie with the header

PREPARE = """
import django, sys
django.setup()
from django.core.management import call_command
from django.contrib.auth import get_user_model
from django.test import Client
if "--migrate" in sys.argv:
    call_command("migrate", verbosity=0)
from cards_data.loader import load_cards
load_cards()
sessions = {}
for name in sys.argv[1].split(","):
    user, _ = get_user_model().objects.get_or_create(username=name)
    client = Client()
    client.force_login(user)
    sessions[name] = client.cookies["sessionid"].value
print(json.dumps(sessions))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def site_env(database_url: str, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DATABASE_URL=database_url, DEBUG="false", PYTHONPATH=str(ROOT), **extra)
    return env


def prepare(env: dict, usernames: list[str], migrate: bool = False) -> dict[str, str]:
    """Cards loaded, the users created; returns a session cookie per user."""
    command = [sys.executable, "-c", "import json\n" + PREPARE, ",".join(usernames)]
    if migrate:
        command.append("--migrate")
    env = {**env, "DJANGO_SETTINGS_MODULE": "cardgame.settings"}
    out = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if out.returncode:
        raise RuntimeError(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


class LiveSite:
    """`with LiveSite(env, log_dir) as site:` uvicorn serving the site; site.url is its root."""

    def __init__(self, env: dict, log_dir: Path, workers: int = 1, port: int | None = None):
        self.env, self.log_dir, self.workers = env, log_dir, workers
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"

    def __enter__(self):
        self.log = open(self.log_dir / "uvicorn.log", "w")  # noqa: SIM115 (closed in __exit__)
        command = [sys.executable, "-m", "uvicorn", "cardgame.asgi:application",
                   "--port", str(self.port), "--workers", str(self.workers),
                   "--log-level", "warning"]  # fmt: skip
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/healthz", timeout=10)
                return self
            except OSError:  # refused, reset or timed out: not up yet
                if self.process.poll() is not None:
                    break
                time.sleep(0.3)
        self.__exit__()
        raise RuntimeError((self.log_dir / "uvicorn.log").read_text()[-3000:])

    def __exit__(self, *exc):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()

    def request(self, method: str, path: str, body=None, session: str | None = None):
        """(status, parsed JSON or text) of one request, logged in when `session` is given."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json", "X-CSRFToken": CSRF}
        cookies = [f"csrftoken={CSRF}"] + ([f"sessionid={session}"] if session else [])
        headers["Cookie"] = "; ".join(cookies)
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=120) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw.decode(errors="replace")
