"""`make fuzz`: schemathesis against the served OpenAPI schema of a real site.

A uvicorn server on PostgreSQL (DATABASE_URL, default the local kgk_fuzz database, made
and migrated here), the card set loaded, one user. Schemathesis runs every operation of
/api/schema/ twice: anonymously and logged in (the session cookie), with a fixed seed.
It fails on any server error (5xx) and any response that does not match the schema.

    python scripts/fuzz.py --examples 10 --seed 11     # CI's budget (make fuzz-ci)
    python scripts/fuzz.py --examples 25 --seed 11     # make fuzz: the full run

Then the explicit cases of scripts/fuzz_values.py (issue 35): "²", a 4,301-digit number,
2**31, 2**63 and a 300-character user name in every parameter of every operation,
anonymously and logged in, with real records behind the other parameters, and the long
user name in the site's login forms (`--no-values` leaves them out).

Prints the number of test cases of each run (bench/RESULTS.md keeps the full run's).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from live_kit import CSRF, LiveSite, prepare, site_env  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts"))
import fuzz_values  # noqa: E402

CHECKS = (
    "not_a_server_error,response_schema_conformance,content_type_conformance,"
    "status_code_conformance"
)
HIGH_RATES = {"RATE_SEARCH": "1000000/min", "RATE_IMPORT": "1000000/min",
              "RATE_LAB_RUN": "1000000/min"}  # fmt: skip


def ensure_database(url: str) -> None:
    """CREATE DATABASE when it is missing (a fresh machine, a fresh CI runner)."""
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as db:
        if not db.execute("select 1 from pg_database where datname = %s", (name,)).fetchone():
            db.execute(f'create database "{name}"')


def run_schemathesis(site, label, examples, seed, headers=()) -> int:
    command = [str(Path(sys.executable).with_name("schemathesis")), "run",
               f"{site.url}/api/schema/", "--checks", CHECKS, "--max-examples", str(examples),
               "--seed", str(seed), "--generation-deterministic", "--no-shrink",
               "--request-timeout", "60", "--warnings", "off", "--workers", "1"]  # fmt: skip
    for header in headers:
        command += ["-H", header]
    print(f"--- schemathesis, {label}", flush=True)
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    print(out.stdout[-6000:], out.stderr[-2000:], sep="\n", flush=True)
    cases = sum(int(n) for n in re.findall(r"(\d+) (?:generated|test cases)", out.stdout)[:1])
    print(f"=== {label}: exit {out.returncode}, {cases} test cases", flush=True)
    return out.returncode, cases


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=25, help="per operation and run")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--no-values", action="store_true", help="skip the explicit cases")
    parser.add_argument("--values-only", action="store_true", help="only the explicit cases")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/kgk_fuzz")
    if url.startswith("postgres"):
        ensure_database(url)
    env = site_env(url, **HIGH_RATES)
    session = prepare(env, ["fuzz"], migrate=True)["fuzz"]
    ids = {} if args.no_values else fuzz_values.setup_records(env, ROOT, "fuzz")
    with tempfile.TemporaryDirectory() as logs, LiveSite(env, Path(logs)) as site:
        failed = anonymous = logged_in = 0
        if not args.values_only:
            failed, anonymous = run_schemathesis(site, "anonymous", args.examples, args.seed)
            cookie = f"Cookie: sessionid={session}; csrftoken={CSRF}"
            code, logged_in = run_schemathesis(
                site, "logged in", args.examples, args.seed, [cookie, f"X-CSRFToken: {CSRF}"]
            )
            failed |= code
        total = 0
        if not args.no_values:
            print("--- explicit bad values (scripts/fuzz_values.py)", flush=True)
            total, failures = fuzz_values.run(site.url, ids, session, CSRF)
            for failure in failures:
                print(failure, flush=True)
            print(f"=== bad values: {len(failures)} failures, {total} test cases", flush=True)
            failed |= bool(failures)
        server_log = (Path(logs) / "uvicorn.log").read_text()
    print(f"=== all: {anonymous + logged_in + total} test cases "
          f"({anonymous} + {logged_in} generated, {total} explicit)", flush=True)  # fmt: skip
    if "Traceback" in server_log:
        print(server_log[-5000:])
        failed = 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
