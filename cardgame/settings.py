"""Settings, every one from the environment (healthchecks style).

With no DATABASE_URL and no REDIS_URL the site runs in one process: SQLite, eager
Celery, in-memory cache. That is what `make run` gives a fresh machine.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default=False):
    return os.environ.get(name, str(default)).lower() in ("1", "true", "yes", "on")


SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-insecure-key-change-me")
# Off unless asked for (DEBUG=1): `make run` serves the site as a person sees it, with our
# own error pages (cardgame/errors.py); static files come from WhiteNoise either way.
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

# HTTPS=true: the site is served over TLS (production). Plain-HTTP redirects, HSTS and
# secure-only cookies follow from it; each can still be set on its own. Off by default:
# `make run` and the tests speak plain HTTP on 127.0.0.1.
HTTPS = env_bool("HTTPS", False)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", HTTPS)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 31_536_000 if HTTPS else 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", HTTPS)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", HTTPS)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", HTTPS)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", HTTPS)
# Behind a TLS-terminating proxy: trust its X-Forwarded-Proto (only if it always sets it).
BEHIND_TLS_PROXY = env_bool("BEHIND_TLS_PROXY", False)
if BEHIND_TLS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# The client's address (cardgame.clientip): the connection's own, or, behind this many
# proxies (one with BEHIND_TLS_PROXY) and only for a connection from one of
# TRUSTED_PROXY_ADDRESSES, the address the outermost proxy appended to X-Forwarded-For.
# The same answer for the login lock-outs (django-axes) and the rate limits (DRF's
# NUM_PROXIES, cardgame.limits); a header a client writes itself is never believed.
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "1" if BEHIND_TLS_PROXY else "0"))
TRUSTED_PROXY_ADDRESSES = [
    a.strip()
    for a in os.environ.get("TRUSTED_PROXY_ADDRESSES", "127.0.0.1,::1").split(",")
    if a.strip()
]

INSTALLED_APPS = [
    "daphne",  # runserver speaks ASGI (WebSockets) in the embedded default
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc served by the site: API docs work offline
    "axes",
    "csp",
    "accounts",
    "cards_data",
    "decks",
    "tournaments",
    "decklab",
    "channels",
    "social",
    "matches",
    "ratings",
    "quickplay",
    "notifications",
    "stats",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "csp.middleware.CSPMiddleware",
    "cardgame.middleware.RefuseNulBytes",  # after Locale: its 400 speaks the page's language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # last (axes' rule)
]
# Under ASGI the chain runs in sync mode, with the view, in one hand-off to the request's
# thread (cardgame/asgi_threads.py): no middleware needs to be async-capable.

ROOT_URLCONF = "cardgame.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "cardgame.wsgi.application"
ASGI_APPLICATION = "cardgame.asgi.application"

# The embedded default is a SQLite file; DATABASE_URL (postgres://...) switches to PostgreSQL.
# Health checks: a connection kept open (pooled, or by CONN_MAX_AGE) is tried before it is
# reused, and a dead one replaced. Without them, after a PostgreSQL restart each kept
# connection failed one request (a 503 once the database was back) or one drain (a move
# late by the sweep's 5 s): tests/matches/test_faults.py. The cost is one empty query
# per borrowed connection.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=60, conn_health_checks=True
    )
}
# DATABASE_POOL=1 (PostgreSQL): a psycopg connection pool per process instead of one
# connection per thread. Under ASGI every request runs in a thread of its own, so without a
# pool each request opens a new connection (~10 ms on the hot path of a move, and PostgreSQL
# runs out of connections under load); with it a request borrows an open one.
if env_bool("DATABASE_POOL") and DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # Django's backend, whose pool replaces all its dead connections at once after a
    # PostgreSQL restart (cardgame/pgpool/base.py)
    DATABASES["default"]["ENGINE"] = "cardgame.pgpool"
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps the connections open
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": int(os.environ.get("DATABASE_POOL_SIZE", "16")),
        "timeout": 10,
    }
# SQLite (the embedded default) takes concurrent writers in turn instead of failing them:
# WAL lets readers run beside the one writer, a writer waits up to `timeout` seconds for the
# lock, and IMMEDIATE transactions take the write lock at BEGIN (a deferred one that reads
# first and then writes cannot wait: SQLite fails it with "database is locked" at once).
# Measured: 20 threads creating decks got ~85 % 500s without this, none with it.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 30,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The API's rate counters (cardgame.limits) in a cache of their own: tests empty it
# between tests, and clearing it never drops anything else.
CACHES["throttle"] = {**CACHES["default"], "KEY_PREFIX": "throttle"}
if not REDIS_URL:
    CACHES["throttle"]["LOCATION"] = "throttle"  # a locmem store of its own

# Celery: a Redis broker when REDIS_URL is set, otherwise tasks run eagerly in-process.
CELERY_BROKER_URL = REDIS_URL or "memory://"
if REDIS_URL:  # kombu's Redis transport with one client object per channel (cardgame/broker.py)
    CELERY_BROKER_TRANSPORT = "cardgame.broker:Transport"
# No result backend (Celery's default: none; not named here, as CELERY_RESULT_BACKEND is also
# an old setting name that made every worker warn of its removal): every task writes what it
# did to the database, nothing reads a task's return value, and a Redis backend cost each web
# request (a new thread under ASGI) a new backend object on the hot path of a move (py-spy:
# half of `delay`).
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# At-least-once delivery (acks_late + reject_on_worker_lost + prefetch 1); the matches app's
# idempotence (unique client action ids, a locked match row) makes the effect exactly-once.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A task of a worker that died comes back after the visibility timeout; it matches the
# clocks' per-decision limit (matches.clocks), and the clock sweep re-queues sooner.
# The match tasks get no unacked record in Redis (cardgame/broker.py): the clock sweep
# queues again what a dead worker's task left due, sooner than the timeout.
# The live workers look for such tasks every 10 s (kombu's `unacked_restore_interval`) and
# scan Redis on every look: kombu's default scans on every 10th, so a dead worker's deck-lab
# chunk came back up to 100 s after its timeout (a CI run's killed-worker test waited 180 s).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "60")),
    "unacked_restore_throttle": 1,
    # drain_move carries a socket's move that nothing stored yet; a dead worker's is not
    # lost: the socket's web process stores it itself when no answer came within
    # consumers.WORKER_ANSWER_WAIT, and the page posts it when none came within 3 s.
    "swept_tasks": [
        "matches.tasks.drain_move",
        "matches.tasks.drain_match",
        "matches.tasks.bot_move",
        "matches.tasks.default_move",
    ],
}
# Tests of the deck lab's logic play its chunks inside the request (tests/decklab/conftest.py);
# everywhere else a run is played off the request (workers, or decklab.background's thread).
DECKLAB_PLAY_IN_REQUEST = False
# How many worker processes share a lab run, for the expected run time shown before it starts
# (decklab.services.expected_seconds); the embedded default plays on one background thread.
DECKLAB_WORKERS = int(os.environ.get("DECKLAB_WORKERS", "2" if REDIS_URL else "1"))
# Deck advice's gauntlet and swap source once the statistics find archetypes (issue 39):
# decklab sits below stats, so the wiring names the function here (decklab/metagame.py).
DECKLAB_ARCHETYPES = "stats.selectors.archetypes"
# Quick play (issue 37, docs/quickplay.md): seconds a person waits before a bot is offered,
# and seconds without a heartbeat from their page before their queue entry expires.
QUICKPLAY_WAIT_LIMIT = int(os.environ.get("QUICKPLAY_WAIT_LIMIT", "60"))
QUICKPLAY_TTL = int(os.environ.get("QUICKPLAY_TTL", "30"))
CELERY_BEAT_SCHEDULE = {
    "matches-clocks": {"task": "matches.tasks.check_clocks", "schedule": 1.0},
    # quick play: expire the queue entries whose page went silent, retry the waiting ones
    "quickplay-sweep": {"task": "quickplay.tasks.sweep_queues", "schedule": 5.0},
    # once per event and person: the warning 24 h before a decklist deadline
    "notifications-decklist-deadlines": {
        "task": "notifications.tasks.warn_decklist_deadlines",
        "schedule": 300.0,
    },
}
# The beat keeps its schedule in memory: Celery's default writes a `celerybeat-schedule` file
# into the directory it starts in (the checkout), and a sweep that runs every second has no
# last run worth remembering across a restart.
CELERY_BEAT_SCHEDULER = "celery.beat:Scheduler"

# Django Channels: Redis when REDIS_URL is set (any web process reaches any socket),
# otherwise one process's memory (the embedded default).
#
# SOCKET_BACKLOG: how many undelivered messages one web process may have waiting in Redis.
# channels-redis keeps every socket of a process in ONE Redis list ("specific.<process>!")
# and silently drops a message when that list is at its capacity (default 100). 200 games
# on two busy web processes ran 100 behind within seconds, and 87 pushes in two minutes
# never reached their sockets (bench/RESULTS.md, issue 16): a player then saw nothing until
# the page's version ping. Memory stays bounded by the layer's expiry (60 s unread).
SOCKET_BACKLOG = 20_000
if REDIS_URL:
    from cardgame.channel_layer import layer_host

    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "cardgame.channel_layer.RedisChannelLayer",  # one round trip a message
            "CONFIG": {"hosts": [layer_host(REDIS_URL)], "capacity": SOCKET_BACKLOG},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# A web process keeps each card search's JSON answer per catalogue stamp and gives it again
# (cards_data/answers.py). KGK_KEEP_SEARCH_ANSWERS=false builds every answer (the benches
# measure both).
KEEP_SEARCH_ANSWERS = env_bool("KGK_KEEP_SEARCH_ANSWERS", True)

# Tests only (tests/conftest.py sets it, and the site and worker processes the tests start
# inherit it): a fast hash. PBKDF2's million rounds were three quarters of the test run's
# time (py-spy on CI's SQLite pass), for users that exist for a minute.
if env_bool("KGK_TEST_FAST_PASSWORD_HASH"):
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Failed logins (the login form, the admin, anything that calls authenticate()) are
# counted by django-axes per account at an address: after LOGIN_FAILURE_LIMIT failures that
# pair is locked for LOGIN_COOLOFF_MINUTES (a 429 that says so, accounts.views.locked_out),
# even with the right password. Counts live in the database (every process sees them); a
# success resets them; `manage.py axes_reset` clears them all.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
# The pair (user name, address): ten wrong passwords for a name from one address lock that
# name at that address only. Never the name alone (names are public: a lock by name could
# be aimed at anybody) nor the address alone (behind a NAT or a proxy it is everybody's),
# issue 35. The address is cardgame.clientip's (through the trusted proxies).
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "cardgame.clientip.client_ip"
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # no row per successful login: failures are what we count
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
AXES_USERNAME_CALLABLE = "accounts.views.axes_username"  # clipped to the record's column
AXES_VERBOSE = False
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "cards:list"
LOGOUT_REDIRECT_URL = "cards:list"

# Hungarian is the game's own language; English is the other half of the UI.
LANGUAGE_CODE = "hu"
LANGUAGES = [("hu", _("Hungarian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "cardgame" / "locale"]
USE_I18N = True
TIME_ZONE = "Europe/Budapest"
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# Serve from the app/static folders directly when collectstatic has not run (make run, tests).
WHITENOISE_USE_FINDERS = True

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "cardgame.schema.AutoSchema",  # + the error answers (issue 35)
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "cardgame.api.exception_handler",
    # Sessions only (the site's own login, with its lockout): no HTTP Basic, which let any
    # request with a made-up header make the server hash a password.
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    # Per account (per address when anonymous) on the expensive endpoints: cardgame.limits'
    # SearchThrottle, ImportThrottle, LabRunThrottle. A 429 says when to try again.
    "DEFAULT_THROTTLE_RATES": {
        "search": os.environ.get("RATE_SEARCH", "600/min"),
        "import": os.environ.get("RATE_IMPORT", "60/min"),
        "lab_run": os.environ.get("RATE_LAB_RUN", "30/hour"),
        # the site's forms (accounts.views): e-mails sent and accounts made, per address
        # and per e-mail address
        "password_reset": os.environ.get("RATE_PASSWORD_RESET", "5/hour"),
        "password_reset_email": os.environ.get("RATE_PASSWORD_RESET_EMAIL", "3/hour"),
        "signup": os.environ.get("RATE_SIGNUP", "10/hour"),
    },
    # The client's address through the same number of trusted proxies as django-axes
    # (cardgame.clientip; cardgame.limits' throttles read it from there).
    "NUM_PROXIES": TRUSTED_PROXIES,
    # One JSON reader with a size and a depth limit (a 400, never a RecursionError's 500).
    "DEFAULT_PARSER_CLASSES": [
        "cardgame.limits.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # `?format=` is the deck export's own parameter (text, json, share), not a renderer switch.
    "URL_FORMAT_OVERRIDE": None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "KGK API",
    "DESCRIPTION": "Káosz Galaktika Kártyajáték: the card catalogue. Field names follow RULES §23.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}
CSRF_FAILURE_VIEW = "cardgame.errors.csrf_failure"

# E-mail (password reset): printed to the console in the embedded default; SMTP once
# EMAIL_HOST is set (EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "KGK <noreply@localhost>")
# Notifications (issue 37): the site's address for the links in e-mails a worker sends (no
# request to take it from), and whether a person's webhook may point at http or at a
# private or loopback address (off: no server-side request forgery; tests and a developer's
# machine turn it on).
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000").rstrip("/")
NOTIFICATIONS_WEBHOOK_ALLOW_PRIVATE = env_bool("NOTIFICATIONS_WEBHOOK_ALLOW_PRIVATE", DEBUG)

# Content-Security-Policy (django-csp): scripts only from our own files, never inline.
# Enforced when CSP_ENFORCE is on (by default with HTTPS, i.e. in production); always sent
# as report-only, so a browser's console names any page that would break. Pages that still
# carry inline script are excluded from enforcement (CSP_EXCLUDE): only ReDoc's page
# (drf-spectacular's template starts it with a web worker made from a blob). Swagger UI is
# served split (its start-up script a file of its own), so it needs no exclusion.
CSP_DIRECTIVES = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],  # bar widths are style attributes (no script)
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],  # fetch and the game's WebSocket, same origin
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
CSP_EXCLUDE = os.environ.get("CSP_EXCLUDE", "/api/redoc/")
CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": CSP_DIRECTIVES}
CONTENT_SECURITY_POLICY = (
    {"DIRECTIVES": CSP_DIRECTIVES, "EXCLUDE_URL_PREFIXES": [p for p in CSP_EXCLUDE.split(",") if p]}
    if env_bool("CSP_ENFORCE", HTTPS)
    else None
)

# drf-spectacular's checks report its generator's guesses (views it cannot introspect), not
# security issues; whether the served schema matches the real responses is what
# tests/cardgame/test_schema.py and `make fuzz` check, against the running site.
SILENCED_SYSTEM_CHECKS = ["drf_spectacular.W001", "drf_spectacular.W002"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # A worker's two INFO lines for every task ("received", "succeeded in"): one move each,
    # thousands a second at scale, and ~2 % of a worker's CPU (bench/RESULTS.md, issue 16).
    # Failures and retries are logged at WARNING and above either way.
    "loggers": {
        name: {"level": os.environ.get("CELERY_TASK_LOG_LEVEL", "WARNING")}
        for name in ("celery.app.trace", "celery.worker.strategy")
    },
}
