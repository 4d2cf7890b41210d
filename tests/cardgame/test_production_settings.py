"""Production settings from the environment: `check --deploy` is clean, HTTPS brings HSTS,
the redirect and secure cookies, and a Content-Security-Policy is enforced with no inline
script (issue 11, finding 8). Run in fresh processes: settings are read once at start-up.
"""

import json
import re
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from service_kit import ROOT

PRODUCTION = {
    "DEBUG": "false",
    "HTTPS": "true",
    "SECRET_KEY": "a-long-production-secret-" + "x7Qp" * 12,
    "ALLOWED_HOSTS": "kgk.example.org",
}


def run(code_or_args, **env):
    import os

    # not the test run's own switches (the browser tests set DJANGO_ALLOW_ASYNC_UNSAFE)
    dropped = ("DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")
    environment = {k: v for k, v in os.environ.items() if k not in dropped}
    environment.update(PRODUCTION, DJANGO_SETTINGS_MODULE="cardgame.settings", **env)
    args = code_or_args if isinstance(code_or_args, list) else ["-c", code_or_args]
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=environment, capture_output=True, text=True
    )


def test_check_deploy_has_no_warnings_with_the_production_environment():
    out = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"])
    assert out.returncode == 0, out.stderr + out.stdout
    assert "no issues" in out.stdout


HEADERS = """
import django, json
django.setup()
from django.core.management import call_command
from django.test import Client
call_command("migrate", verbosity=0)  # an in-memory database of this process's own
plain = Client(HTTP_HOST="kgk.example.org").get("/en/accounts/login/")
secure = Client(HTTP_HOST="kgk.example.org").get("/en/", secure=True)
print(json.dumps({"redirect": [plain.status_code, plain.get("Location")],
                  "headers": dict(secure.headers),
                  "cookies": {k: dict(v) for k, v in secure.cookies.items()}}))
"""


def test_https_brings_hsts_the_redirect_and_an_enforced_csp():
    out = run(HEADERS, DATABASE_URL="sqlite://:memory:")
    assert out.returncode == 0, out.stderr
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["redirect"] == [301, "https://kgk.example.org/en/accounts/login/"]
    headers = seen["headers"]
    assert "max-age=31536000" in headers["Strict-Transport-Security"]
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline' " not in csp.split("style-src")[0]
    assert "frame-ancestors 'none'" in csp
    assert seen["cookies"]["csrftoken"]["secure"] is True


def test_the_embedded_default_only_reports():
    out = run(HEADERS, HTTPS="false", DEBUG="true", DATABASE_URL="sqlite://:memory:")
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["redirect"][0] == 200
    assert "Content-Security-Policy" not in seen["headers"]
    assert "script-src 'self'" in seen["headers"]["Content-Security-Policy-Report-Only"]


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+\s*=", re.IGNORECASE)


def test_templates_of_enforced_pages_carry_no_inline_script():
    """The CSP forbids inline script; only the excluded game pages may still have some."""
    excluded_apps = {"matches"} if "/en/play/" in settings.CSP_EXCLUDE else set()
    offenders = [
        f"{path.relative_to(ROOT)}: {match.group(0).strip()}"
        for path in Path(ROOT, "templates").rglob("*.html")
        if path.relative_to(ROOT / "templates").parts[0] not in excluded_apps
        for match in INLINE_SCRIPT.finditer(path.read_text(encoding="utf-8"))
    ]
    assert not offenders, offenders
