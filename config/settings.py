"""Django settings. Everything that differs between the embedded default and production
comes from the environment (see docker-compose.yml and docs/architecture.md):

    DATABASE_URL           default sqlite:///<repo>/var/referee.sqlite3
    CELERY_BROKER_URL      default filesystem:// (kombu's filesystem transport under var/broker)
    DJANGO_SECRET_KEY      default: an insecure development key (refused when DEBUG is off)
    DJANGO_ALLOWED_HOSTS   comma-separated, default localhost,127.0.0.1
    DJANGO_DEBUG           1/0, default 1
    CACHE_URL              redis://... : the shared cache (throttle counters) in Redis; default
                           a file-based cache under var/cache that every local process shares
    REFEREE_LOG_FORMAT     json | text: log lines (default json when DJANGO_DEBUG=0; make run: text)
    REFEREE_METRICS_TOKEN  the bearer token /metrics/ asks for; unset: no /metrics/ (404)
    PROMETHEUS_MULTIPROC_DIR  where every process writes its metrics, default <var>/metrics
    REFEREE_SERVER         "asgi" when served by config/asgi.py (it sets it): no persistent
                           database connections, since each ASGI request runs in its own thread
    EMAIL_URL-like settings are not used: EMAIL_BACKEND defaults to the console backend.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from referee.embedded import public_address
from referee.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("REFEREE_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = os.environ.get("DJANGO_DEBUG", "1") == "1"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG=0")
    SECRET_KEY = "insecure-development-key-do-not-use-in-production"
ALLOWED_HOSTS = [h for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI assets served locally: /api/docs/ works offline
    "referee",
    "api",
    "frontend_templates",
    "notices",
    # Page plug-ins: each registers its RulesetPages in AppConfig.ready() (frontend_templates/plugins.py).
    "game_pages.worms",
    "game_pages.parties",
    "game_pages.wormlord",
    "game_pages.lggwg",
]

#: The ruleset the "open a new game" form shows first.
FRONTEND_DEFAULT_RULESET = "worms"

MIDDLEWARE = [
    "referee.logs.RequestContextMiddleware",  # first: every later line of the request carries its id
    "api.middleware.RejectNulMiddleware",
    # Django's middleware, each run on the event loop for the live reads (api/live_middleware.py).
    "api.live_middleware.SecurityMiddleware",
    # Static files (the offline API docs' assets, the admin's) from the web process itself:
    # under uvicorn or gunicorn nothing else serves them.
    "api.middleware.StaticFilesMiddleware",  # WhiteNoise, leaving other requests async
    "api.live_middleware.SessionMiddleware",
    "api.live_middleware.CommonMiddleware",
    "api.live_middleware.CsrfViewMiddleware",
    "api.live_middleware.AuthenticationMiddleware",
    "api.live_middleware.MessageMiddleware",
    "api.live_middleware.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
CSRF_FAILURE_VIEW = "api.errors.csrf_failure"  # problem+json under /api/
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'referee.sqlite3'}"), conn_max_age=60
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web, worker and beat share one file: wait for the write lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
    DATABASES["default"]["CONN_MAX_AGE"] = 0
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and int(
        os.environ.get("REFEREE_LOG_PARTITIONS", "0") or 0) > 0:
    # On a log partitioned by game, PostgreSQL costs a prepared statement's generic plan as
    # if it scanned every partition (it prunes to the game's one only when it runs), so it
    # keeps planning the store's statements and PL/pgSQL's anew at every call, which cost an
    # order twice its statements' time. Generic plans, pruned at run time, cost what they
    # cost on plain tables. Sent in the connection's start-up message: no round trip.
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options["options"] = f"{_options.get('options', '')} -c plan_cache_mode=force_generic_plan".strip()
if os.environ.get("REFEREE_SERVER") == "asgi":
    # Under ASGI every request runs its synchronous part in a thread of its own, so a kept
    # connection would outlive its thread (Django's advice: no persistent connections).
    DATABASES["default"]["CONN_MAX_AGE"] = 0

# --- Cache: throttle counters shared by every web process -----------------------------------
CACHE_URL = os.environ.get("CACHE_URL", "")
if CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    CACHES = {"default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL,
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
    }}
else:
    # The embedded default has no cache server: a directory that web processes share.
    CACHES = {"default": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": CACHE_URL.removeprefix("file://") or str(VAR_DIR / "cache"),
    }}

# --- Live updates (referee/live.py) ---------------------------------------------------------
#: Redis for pub/sub of appends between processes: the cache's, else the broker's.
LIVE_REDIS_URL = next((u for u in (CACHE_URL, os.environ.get("CELERY_BROKER_URL", ""))
                       if u.startswith(("redis://", "rediss://"))), None)
#: How often each process asks the database about the games it watches, in case a notice
#: was lost (or nobody sent one).
REFEREE_LIVE_POLL_SECONDS = float(os.environ.get("REFEREE_LIVE_POLL_SECONDS", "2"))
#: At most one read of a game's new records per this many seconds and web process: appends in
#: quick succession reach the game's readers together (referee.live.Hub.wake).
REFEREE_LIVE_COALESCE_SECONDS = float(os.environ.get("REFEREE_LIVE_COALESCE_SECONDS", "0.2"))
#: Server-sent-event streams send a comment this often so proxies keep them open.
REFEREE_STREAM_HEARTBEAT_SECONDS = float(os.environ.get("REFEREE_STREAM_HEARTBEAT_SECONDS", "15"))
#: Bodies above this many bytes are refused with 413 before they are read.
REFEREE_MAX_BODY_BYTES = int(os.environ.get("REFEREE_MAX_BODY_BYTES", str(2_621_440)))  # Django's default
DATA_UPLOAD_MAX_MEMORY_SIZE = REFEREE_MAX_BODY_BYTES
#: Longer request targets (414) and header blocks (431) are refused before Django sees them.
REFEREE_MAX_URL_BYTES = 8 * 1024
REFEREE_MAX_HEADER_BYTES = 16 * 1024

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
#: Serve from the apps' static folders too, so `make run` needs no collectstatic.
WHITENOISE_USE_FINDERS = True
with contextlib.suppress(OSError):  # WhiteNoise looks here first; collectstatic fills it
    STATIC_ROOT.mkdir(exist_ok=True)
LOGIN_URL = "/accounts/login/"

# Sign-up (web page and API) refuses passwords like the username, shorter than 8, common
# ("password") or all digits.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Celery ---------------------------------------------------------------------------------
BROKER_DIR = VAR_DIR / "broker"
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "filesystem://")
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {}
if CELERY_BROKER_URL.startswith("filesystem://"):
    for sub in ("queue", "processed", "control"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
    }
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
# Celery's Django fixup closes the database connection around every task unless told to
# reuse it: without this each job would open a new PostgreSQL session.
CELERY_DB_REUSE_MAX = int(os.environ.get("CELERY_DB_REUSE_MAX", "1000"))
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = os.environ.get("CELERY_TASK_ALWAYS_EAGER", "0") == "1"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
REFEREE_SWEEP_SECONDS = float(os.environ.get("REFEREE_SWEEP_SECONDS", "10"))
CELERY_BEAT_SCHEDULE = {
    "sweep-due-work": {"task": "referee.sweep_due_work", "schedule": REFEREE_SWEEP_SECONDS},
    "send-due-notices": {"task": "notices.send_due", "schedule": float(os.environ.get("NOTICES_SWEEP_SECONDS", "15"))},
}
#: Notices to chat services and bots go out on a queue of their own: a slow endpoint never
#: holds up a deadline (notices/). The worker consumes both queues unless told otherwise.
CELERY_TASK_ROUTES = {"notices.*": {"queue": "notices"}}
# Celery's own defaults, spelled out because Celery reads its settings through Django's on
# every use, and one Django does not define costs a miss on each of its spellings (about
# 30 us, against 7 for one defined): a send reads these three, so a nudge paid a fifth of
# its CPU for them.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_SEND_SENT_EVENT = False
CELERY_BROKER_POOL_ACQUIRE_TIMEOUT = None
NOTICES_ALLOW_HTTP = os.environ.get("NOTICES_ALLOW_HTTP", "0") == "1"
NOTICES_ALLOW_PRIVATE = os.environ.get("NOTICES_ALLOW_PRIVATE", "0") == "1"
NOTICES_TIMEOUT_SECONDS = float(os.environ.get("NOTICES_TIMEOUT_SECONDS", "5"))
NOTICES_MAX_ATTEMPTS = int(os.environ.get("NOTICES_MAX_ATTEMPTS", "14"))
#: Hash partitions of the log, snapshots and due work, read by ``migrate`` (0: plain tables);
#: every process serving a partitioned database sets it too (its plans, above).
REFEREE_LOG_PARTITIONS = int(os.environ.get("REFEREE_LOG_PARTITIONS", "0"))
REFEREE_SNAPSHOT_EVERY = int(os.environ.get("REFEREE_SNAPSHOT_EVERY", "25"))  # referee.core.SNAPSHOT_EVERY
REFEREE_REMINDER_HOURS = int(os.environ.get("REFEREE_REMINDER_HOURS", "6"))
REFEREE_OUTAGE_SECONDS = int(os.environ.get("REFEREE_OUTAGE_SECONDS", "300"))
REFEREE_VACATION_DAYS = int(os.environ.get("REFEREE_VACATION_DAYS", "14"))
#: The PostgreSQL role the service runs as: owns nothing, may not change the log
#: (referee/db_roles.py grants it what it needs after every migrate, run as the owner).
REFEREE_DB_APP_ROLE = os.environ.get("REFEREE_DB_APP_ROLE", "referee_app")
#: Games the sweeper claims per transaction batch (referee/sweeper.py): a batch costs the
#: same round trips whatever its size (referee/sweep_batch.py); its games' locks are held
#: until it commits (about 0.1 s for 50 expiries), which an order on one of them waits for.
REFEREE_SWEEP_BATCH = int(os.environ.get("REFEREE_SWEEP_BATCH", "50"))
#: Prepared statements for the log's hot path; off behind a transaction-pooling PgBouncer.
REFEREE_PREPARED_SQL = os.environ.get("REFEREE_PREPARED_SQL", "1") == "1"
#: The ruleset of the demo game the embedded default opens with.
REFEREE_DEMO_RULESET = os.environ.get("REFEREE_DEMO_RULESET", "worms")
#: Timers due within this many seconds are handed to a worker with an ETA (see scheduling).
REFEREE_TIMER_HORIZON_SECONDS = int(os.environ.get("REFEREE_TIMER_HORIZON_SECONDS", "900"))


def served_base_url(environ: Mapping[str, str]) -> str:
    """The address the embedded server serves on (``REFEREE_HOST``/``REFEREE_PORT``, as
    ``run_embedded`` binds them), for links when ``REFEREE_BASE_URL`` is not set: a forum
    post's picture must point where the server answers."""
    return public_address(environ.get("REFEREE_HOST") or "127.0.0.1", int(environ.get("REFEREE_PORT") or "8000"))


#: The public address in links (e-mails, forum posts); by default where the server serves.
REFEREE_BASE_URL = os.environ.get("REFEREE_BASE_URL") or served_base_url(os.environ)

# --- REST framework -------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "api.schema.RefereeAutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_THROTTLE_CLASSES": [
        "api.throttling.AnonRateThrottle",  # counters in the shared cache; fail open if it is down
        "api.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("REFEREE_THROTTLE_ANON", "120/min"),
        "user": os.environ.get("REFEREE_THROTTLE_USER", "1200/min"),
    },
    "EXCEPTION_HANDLER": "api.errors.problem_exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "api.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Referee API",
    "DESCRIPTION": "Play, replay and audit games played by post.",
    "VERSION": "0.1.0",
    # the Swagger UI and ReDoc assets from drf-spectacular-sidecar, not a CDN (offline docs)
    "SWAGGER_UI_DIST": "SIDECAR", "SWAGGER_UI_FAVICON_HREF": "SIDECAR", "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.ruleset_orders_hook",
        "api.schema.problem_responses_hook",  # after the orders: it documents /turn/ steps from them
    ],
}

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")

# --- Logs and metrics (referee/logs.py, referee/metrics.py) -------------------------------------
#: "json": one JSON object a line (request id, game, seat in each), the default with debug
#: off; "text" for a person at a terminal (``make run`` sets it, as does debug on).
REFEREE_LOG_FORMAT = os.environ.get("REFEREE_LOG_FORMAT") or ("text" if DEBUG else "json")
if REFEREE_LOG_FORMAT not in ("json", "text"):
    raise ImproperlyConfigured("REFEREE_LOG_FORMAT is either json or text")
LOGGING = logging_config(log_format=REFEREE_LOG_FORMAT, level=os.environ.get("LOG_LEVEL", "INFO"))
# Celery would otherwise replace the root logger's handler with its own plain format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = REFEREE_LOG_FORMAT != "json"
#: Where every web and worker process writes its metrics, added up by /metrics/; exported,
#: since prometheus_client and the processes this one starts read it from the environment.
PROMETHEUS_MULTIPROC_DIR = os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", str(VAR_DIR / "metrics"))
#: /metrics/ answers only ``Authorization: Bearer <this>``; unset, there is no /metrics/ (404).
REFEREE_METRICS_TOKEN = os.environ.get("REFEREE_METRICS_TOKEN", "")
