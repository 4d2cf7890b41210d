# The README's two commands: `make run` and `make test`. Everything else is their plumbing.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PG_URL ?= postgres://postgres@127.0.0.1:5432/kgk
HOST ?= 127.0.0.1:8000

.PHONY: run test setup setup-dev deps translations engine db lint security test-sqlite test-engine-pure test-postgres test-soak fuzz fuzz-ci browser worker beat bench clean

run: setup db  ## set up and serve the site with the embedded default (SQLite, eager Celery); DEBUG=1 for debug pages
	$(PY) manage.py runserver $(HOST)

test: setup-dev browser lint security test-sqlite test-engine-pure test-postgres test-soak fuzz-ci  ## set up and run every test

# `make run` installs the site and the engine's compiler (".[build]"); the test tools
# (".[dev]") only come with `make test` and its parts (setup-dev). A production host needs
# only `pip install .` (README.md).
setup: $(VENV)/.installed translations engine

setup-dev: setup $(VENV)/.dev-installed

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[build]"
	touch $@

$(VENV)/.dev-installed: $(VENV)/.installed
	$(PY) -m pip install --quiet -e ".[dev,build]"
	touch $@

translations: $(VENV)/.installed
	$(PY) manage.py compile_translations

# The rules engine compiled with mypyc into build/engine-mypyc (issue 18): nothing to do when
# it is up to date with engine/*.py; engine/_build.py runs the .py files whenever the build is
# absent or stale, or KGK_ENGINE_PURE=1.
engine: $(VENV)/.installed
	$(PY) scripts/build_engine.py

# With DATABASE_URL naming a PostgreSQL database that does not exist yet, it is created first.
db: setup
	$(PY) scripts/service_check.py create-database "$$DATABASE_URL"
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_cards

lint: setup-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# bandit: no medium or high finding in our code.
security: setup-dev
	$(VENV)/bin/bandit -q -r accounts cardgame cards_data decklab decks engine matches tournaments stats social ratings quickplay notifications scripts \
		-x "*/migrations/*" --severity-level medium

# schemathesis against the served schema of a real site on PostgreSQL, anonymous and logged in:
# no 5xx, no response off the schema, no undocumented status; then the explicit bad values of
# scripts/fuzz_values.py (issue 35). `fuzz` is the full run (bench/RESULTS.md has its count
# of cases); `fuzz-ci` (part of `make test`) the same with a smaller fixed-seed budget (3
# examples: the explicit cases take the time 10 examples took).
FUZZ_URL ?= postgres://postgres@127.0.0.1:5432/kgk_fuzz
fuzz: setup-dev
	DATABASE_URL="$(FUZZ_URL)" $(PY) scripts/fuzz.py --examples 50 --seed 11

fuzz-ci: setup-dev
	@if $(PY) scripts/service_check.py postgres "$(PG_URL)"; then \
		DATABASE_URL="$(FUZZ_URL)" $(PY) scripts/fuzz.py --examples 3 --seed 11; \
	elif [ "$$CI" = "true" ]; then \
		echo "CI=true and PostgreSQL is not reachable at $(PG_URL): failing"; exit 1; \
	else \
		echo "SKIPPED fuzz-ci: no PostgreSQL at $(PG_URL)"; \
	fi

# The embedded default: SQLite, eager Celery. PostgreSQL-only tests are deselected here
# and run in test-postgres.
test-sqlite: setup-dev
	env -u DATABASE_URL -u REDIS_URL $(PY) -m pytest -m "not postgres and not soak" -q

# The same suite against the local PostgreSQL server, less the browser tests that already
# ran on SQLite (the slowest part of a pass; the browser tests that need PostgreSQL, marked
# `postgres`, run here) and the rules engine's tests (they touch no database: the SQLite
# pass and test-engine-pure run them). The hidden-information sweep
# (tests/matches/test_hidden_info.py) plays its 200 games in the SQLite pass and the first
# 50 of them here, where what differs is the database's JSON and ordering. Without a
# server it is skipped with a reason on a developer machine, and fails under CI=true.
test-postgres: setup-dev
	@if $(PY) scripts/service_check.py postgres "$(PG_URL)"; then \
		DATABASE_URL="$(PG_URL)" KGK_REQUIRE_POSTGRES=1 KGK_HIDDEN_INFO_GAMES=50 $(PY) -m pytest -m "not soak and not slow and (postgres or not browser)" -q --ignore=tests/engine; \
	elif [ "$$CI" = "true" ]; then \
		echo "CI=true and PostgreSQL is not reachable at $(PG_URL): failing"; exit 1; \
	else \
		echo "SKIPPED test-postgres: no PostgreSQL at $(PG_URL) (set PG_URL to point at one)"; \
	fi

# The engine's tests again on the pure-Python engine (the other passes run the compiled one):
# both builds must play by the rules (issue 18). The soak runs on the compiled one only.
test-engine-pure: setup-dev
	env -u DATABASE_URL -u REDIS_URL KGK_ENGINE_PURE=1 $(PY) -m pytest -m "not soak" -q tests/engine

# The rules engine's soak run (random games, replays from their logs): once, no database.
test-soak: setup-dev
	env -u DATABASE_URL -u REDIS_URL $(PY) -m pytest -m soak -q tests/engine

# Debian's Chromium for the Playwright browser tests (no browser download).
browser:
	@if [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null \
		|| (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null); \
	else echo "Chromium is not installed and cannot be installed here: browser tests will skip"; fi

worker: setup  ## a Celery worker for the services mode (needs REDIS_URL)
	$(VENV)/bin/celery -A cardgame worker --loglevel=info

beat: setup  ## the one Celery beat of a site: match clocks every second (needs REDIS_URL)
	$(VENV)/bin/celery -A cardgame beat --loglevel=info

bench: setup-dev
	DATABASE_URL="$(PG_URL)" $(PY) bench/search_latency.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles build
