"""Felt's only settings module, driven by environment variables.

Every variable is documented in README.md ("Configuration"). They are read
through config/environment.py, whose readers fail loudly: a malformed value
stops start-up with a message naming the variable.
"""

from __future__ import annotations

import os
from pathlib import Path

import django_stubs_ext
from celery.schedules import crontab

from config.environment import (
    MailServer,
    RedisServer,
    database_from_url,
    embedded_database,
    env_bool,
    env_float,
    env_int,
    env_list,
    env_str,
)
from config.platform import redis_clients

# Generic Django classes (ModelForm[User], ModelAdmin[Hand]...) are subscripted
# for the type checker; this lets them be subscripted at run time too.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

# --- Core -------------------------------------------------------------------

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY", "insecure-development-key" if DEBUG else None)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
FELT_HOME = Path(env_str("FELT_HOME", str(BASE_DIR / "var"))).resolve()

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "config.apps.FeltConfig",
    # Second factors (docs/accounts.md, "A second factor for staff"): TOTP apps and
    # one-time recovery codes.
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "accounts",
    "tables",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.platform.security_headers.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",  # which second factor this session passed
    "accounts.admin_guard.AdminSecondFactorMiddleware",  # ADMIN_REQUIRES_SECOND_FACTOR
    "django.contrib.messages.middleware.MessageMiddleware",
    "accounts.guest_limits.GuestLimitsMiddleware",  # a guest: friends' tables only
    # A member's session: its browser, address and last visit, every few minutes at most.
    "accounts.member_sessions.MemberSessionMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.platform.api_throttles.RateLimitHeadersMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.points",
                "config.platform.close_codes.for_pages",
            ],
        },
    },
]

# --- Data -------------------------------------------------------------------

DATABASE_URL = os.environ.get("DATABASE_URL", "")
DATABASES = {
    "default": database_from_url(DATABASE_URL) if DATABASE_URL else embedded_database(FELT_HOME)
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS = RedisServer.from_url(env_str("REDIS_URL", f"unix://{FELT_HOME / 'redis.sock'}"))
REDIS_REALTIME_URL = REDIS.client_url(0)  # channel layer and the online list

CHANNEL_LAYERS = {
    "default": {
        # Redis pub/sub: a broadcast is one PUBLISH and each process holds one
        # subscription, where the list-based RedisChannelLayer spent several
        # round trips per group and polled a list per process. Snapshots need
        # no more than "delivered to whoever is connected now": a client that
        # misses one re-syncs from the next, or from its reconnect.
        # config.adapters.channel_layer adds a batched send (one round trip per change).
        "BACKEND": "config.adapters.channel_layer.PubSubChannelLayer",
        # redis-py's pool refuses a 101st connection; many broadcasts in flight
        # at once need more. RESP2: under RESP3 (redis-py's default) a published
        # message arrives as a push reply, whose handler turns the whole message,
        # a snapshot included, into a string for a debug log line that is not
        # written: about 30 us for each snapshot each socket received.
        "CONFIG": {
            "hosts": [
                {
                    "address": REDIS_REALTIME_URL,
                    "socket_timeout": 30,
                    "max_connections": 1000,
                    "protocol": 2,
                    # A dead connection (a Redis restart) retried once on a new one,
                    # idle ones pinged, keepalive (config/platform/redis_clients.py).
                    **redis_clients.async_connection_options(REDIS_REALTIME_URL),
                }
            ],
            "prefix": REDIS.channel_prefix(),
        },
    },
}

CACHES = {
    "default": {
        "BACKEND": "config.adapters.redis_cache.RedisCache",
        "LOCATION": REDIS.client_url(3),
        "KEY_PREFIX": "felt",
        # A bounded pool that waits, dead connections retried once, timeouts
        # (config/platform/redis_clients.py).
        "OPTIONS": redis_clients.cache_options(REDIS.client_url(3)),
    },
}

# --- Celery -----------------------------------------------------------------

CELERY_BROKER_URL = REDIS.celery_url(1)
CELERY_RESULT_BACKEND = REDIS.celery_url(2)
CELERY_RESULT_EXPIRES = 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_ACKS_LATE = True
# Celery's consumer, made to survive a Redis restart while it holds unacknowledged
# messages (config/adapters/celery_consumer.py says why it exited before).
CELERY_WORKER_CONSUMER = "config.adapters.celery_consumer:Consumer"
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Redis hands a message that a worker has held unacknowledged this long to another
# worker (kombu's visibility timeout, an hour by default). A worker holds a task
# from its delivery until it has run, the wait for its countdown or eta included,
# so no task is queued further ahead than TASK_HOLD_SECONDS, a minute less
# (tables/tasks.py, tournaments/tasks.py), and a live worker's task is never handed
# to another. The timeout is not what rescues a dead worker's wake-ups: the sweeps
# below apply them within seconds, on any node (docs/deploy.md); it only bounds how
# long that worker's messages wait in Redis' ``unacked`` set before they go back to
# the queue, where they find their work done and do nothing.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 300}
TASK_HOLD_SECONDS = 240.0
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
# Celery's Django fixup closes the worker's database connections before and
# after every task unless told to reuse them: on the embedded SQLite each wake
# task then opened the file afresh (with its PRAGMAs), 14% of the worker's time
# under the load test. There they are reused for this many tasks, and in
# between config/celery.py closes one as a request would (past CONN_MAX_AGE, or
# broken). PostgreSQL keeps Celery's way: reused, the test worker's thread hung
# on its first query (tests/tables/test_worker.py), a cause not yet found.
CELERY_DB_REUSE_MAX = None if DATABASE_URL else 1000
# Beat runs the table sweep this often. It also says when a wake-up is overdue
# (/healthz): when a sweep should have applied it (tables/selectors.py).
TABLES_SWEEP_SECONDS = 2.0
# A server process applies its own changes' wake-ups on its own timers instead of
# a Celery task each (tables/wake_timers.py); tests of an in-process server don't.
TABLES_WAKE_TIMERS = env_bool("TABLES_WAKE_TIMERS", True)
CELERY_BEAT_SCHEDULE = {
    "refresh-online-count": {
        "task": "accounts.tasks.refresh_online_count",
        "schedule": 30.0,
    },
    "clear-expired-sessions": {
        "task": "accounts.tasks.clear_expired_sessions",
        "schedule": crontab(hour="4", minute="17"),
    },
    # Deletes members' data zips whose link expired (accounts/data_export.py).
    "expire-data-exports": {
        "task": "accounts.tasks.expire_data_exports",
        "schedule": 600.0,
    },
    # Announces blind levels whose task was lost; opens the lobby's missing SNGs.
    "sweep-tournaments": {
        "task": "tournaments.tasks.sweep",
        "schedule": 5.0,
        "options": {"expires": 5.0},
    },
    # Applies table clocks, bot moves and next hands whose wake task was lost.
    "sweep-tables": {
        "task": "tables.tasks.sweep",
        "schedule": TABLES_SWEEP_SECONDS,
        "options": {"expires": TABLES_SWEEP_SECONDS},
    },
}

# Live tables: the pause between hands and the bots' thinking time (min, max), seconds.
TABLES_NEXT_HAND_SECONDS = env_float("TABLES_NEXT_HAND_SECONDS", 3.0)
# After a showdown the result stays on the table at least this long.
TABLES_SHOWDOWN_SECONDS = env_float("TABLES_SHOWDOWN_SECONDS", 5.0)
# An all-in run-out is revealed a street per snapshot, this long apart, then its result
# (docs/rules.md rule 30); 0 turns the reveal off.
TABLES_RUNOUT_STREET_SECONDS = env_float("TABLES_RUNOUT_STREET_SECONDS", 1.2)
# How long the players all-in have to say whether to run it twice (docs/rules.md rule 25).
TABLES_RUNOUT_QUESTION_SECONDS = env_float("TABLES_RUNOUT_QUESTION_SECONDS", 10.0)
# The players' cut (docs/fairness.md): a hand due while a committed value is still
# missing waits at most this long past its time for it, then is dealt without it.
TABLES_CUT_WAIT_SECONDS = env_float("TABLES_CUT_WAIT_SECONDS", 1.0)
TABLES_BOT_DELAY_SECONDS = (0.8, 2.0)
# A practice table at the fast pace (Table.pace): the bots' pause, the pause between
# hands and after a showdown. Never longer than the normal pace's above.
TABLES_FAST_BOT_DELAY_SECONDS = (0.2, 0.4)
TABLES_FAST_NEXT_HAND_SECONDS = 1.0
TABLES_FAST_SHOWDOWN_SECONDS = 1.5
TABLES_TIME_BANK_SECONDS = env_float("TABLES_TIME_BANK_SECONDS", 30.0)  # a new seat's
# A deadline found this many seconds late was missed while Felt was down: the
# player gets a fresh clock instead of being folded (tables/services/clock.py).
TABLES_OUTAGE_SECONDS = env_float("TABLES_OUTAGE_SECONDS", 10.0)
# A server process renews its seated sockets' presence leases every third of this;
# leases it has not renewed for this long (it died) no longer count anyone present.
TABLES_PRESENCE_LEASE_SECONDS = env_float("TABLES_PRESENCE_LEASE_SECONDS", 60.0)
# Threads per server process for table commands (tables/command_threads.py): one on
# SQLite, whose writers queue for one lock; on PostgreSQL four, to overlap its waits.
TABLES_COMMAND_THREADS = env_int("TABLES_COMMAND_THREADS", 4 if DATABASE_URL else 1)
# Commands one table socket may send: a burst, then a steady rate; after this
# many refusals in a row the socket is closed (config/platform/command_budget.py).
# A person sends a few a minute; the load test's instant clients up to about ten a second.
TABLES_SOCKET_BURST = env_int("TABLES_SOCKET_BURST", 40)
TABLES_SOCKET_PER_SECOND = env_float("TABLES_SOCKET_PER_SECOND", 20.0)
TABLES_SOCKET_STRIKES = env_int("TABLES_SOCKET_STRIKES", 200)
# New websockets (any page's) per member and per address in a window of seconds, and
# how long a member and an address may open none after a socket of theirs was closed
# with 4429 (config/platform/socket_limits.py). A member with several tabs reconnecting after a
# restart opens a few dozen; a club playing from behind one address, a few hundred.
SOCKET_HANDSHAKE_WINDOW = 60
SOCKET_HANDSHAKES_PER_USER = env_int("SOCKET_HANDSHAKES_PER_USER", 120)
SOCKET_HANDSHAKES_PER_ADDRESS = env_int("SOCKET_HANDSHAKES_PER_ADDRESS", 1000)
SOCKET_COOL_OFF_SECONDS = env_int("SOCKET_COOL_OFF_SECONDS", 30)
# Tables one member may have open at once, and open in an hour (tables/services/tables.py).
TABLES_OPEN_PER_USER = env_int("TABLES_OPEN_PER_USER", 5)
TABLES_CREATED_PER_HOUR = env_int("TABLES_CREATED_PER_HOUR", 20)
# Sit-n-gos (tournaments/): seconds per decision, the lobby's structures and buy-ins,
# and a level length in seconds for every structure (0: the structure's own; tests and
# the load test shorten it).
TOURNAMENTS_ACTION_SECONDS = env_int("TOURNAMENTS_ACTION_SECONDS", 20)
# A tournament player not connected to their table when their turn comes has this long
# (not the whole clock, nor their time bank) before they are marked away (rule 32).
TOURNAMENTS_DISCONNECTED_GRACE_SECONDS = env_float("TOURNAMENTS_DISCONNECTED_GRACE_SECONDS", 5.0)
TOURNAMENTS_STRUCTURES = ("regular", "turbo", "hyper")
TOURNAMENTS_BUY_INS = (0, 100, 1000)
# Besides those Hold'em sit-n-gos, the lobby's Pot-Limit Omaha ones: (structure, buy-in).
TOURNAMENTS_OMAHA_SNGS = (("regular", 100),)
TOURNAMENTS_LEVEL_SECONDS = env_float("TOURNAMENTS_LEVEL_SECONDS", 0.0)
# How long a player out of chips in a rebuy period has to rebuy before they are out.
TOURNAMENTS_REBUY_OFFER_SECONDS = env_int("TOURNAMENTS_REBUY_OFFER_SECONDS", 20)
# How long the players left have to answer a deal proposed at their final table.
TOURNAMENTS_DEAL_SECONDS = env_int("TOURNAMENTS_DEAL_SECONDS", 30)
# How often (seconds) a socket re-reads its session on its own (accounts/sessions.py).
SOCKET_SESSION_RECHECK_SECONDS = 2.0

# --- Accounts and security --------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Log-in throttling (accounts/throttling.py).
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)  # a username from one address
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 20)  # any usernames
LOGIN_USERNAME_FAILURE_LIMIT = env_int("LOGIN_USERNAME_FAILURE_LIMIT", 100)  # all addresses
LOGIN_FAILURE_WINDOW = 60  # seconds in which the failures are counted
LOGIN_BLOCK_SECONDS = env_int("LOGIN_BLOCK_SECONDS", 300)
# Accounts made from one address in an hour (accounts/throttling.py); test suites and
# load tests that sign up many members from one machine set it higher.
SIGNUP_ADDRESS_LIMIT = env_int("SIGNUP_ADDRESS_LIMIT", 10)
# A member's "Download my data" (accounts/data_export.py): how long the link to the
# zip lasts once it is ready, and how many a member may ask for in a day. The zips are
# kept, mode 600, in DATA_EXPORT_DIR until downloaded or expired.
DATA_EXPORT_HOURS = env_int("DATA_EXPORT_HOURS", 24)
DATA_EXPORTS_PER_DAY = env_int("DATA_EXPORTS_PER_DAY", 3)
DATA_EXPORT_DIR = FELT_HOME / "exports"

# Mail (accounts/mail.py): files under FELT_HOME/mail, or the SMTP server EMAIL_URL names.
MAIL = (
    MailServer.from_url(os.environ["EMAIL_URL"])
    if os.environ.get("EMAIL_URL")
    else (MailServer.in_home(FELT_HOME))
)
EMAIL_BACKEND, EMAIL_FILE_PATH = MAIL.backend, MAIL.file_path
EMAIL_HOST, EMAIL_PORT, EMAIL_TIMEOUT = MAIL.host, MAIL.port, MAIL.timeout
EMAIL_HOST_USER, EMAIL_HOST_PASSWORD = MAIL.user, MAIL.password
EMAIL_USE_TLS, EMAIL_USE_SSL = MAIL.use_tls, MAIL.use_ssl
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Felt <felt@localhost>")
# How long a password-reset link works (Django's token generator), and a link that
# confirms an address (accounts/addresses.py), in seconds.
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT", 3600)
EMAIL_CONFIRM_TIMEOUT = env_int("EMAIL_CONFIRM_TIMEOUT", 7 * 24 * 3600)
# Links by mail (password resets, confirmations sent again) per typed address or account,
# and per client address, in an hour (accounts/throttling.py).
MAIL_LINK_ACCOUNT_LIMIT = env_int("MAIL_LINK_ACCOUNT_LIMIT", 3)
MAIL_LINK_ADDRESS_LIMIT = env_int("MAIL_LINK_ADDRESS_LIMIT", 20)

# The admin site only for staff who passed a second factor at log-in (accounts/admin_guard.py):
# on unless DEBUG; docs/accounts.md, "A second factor for staff".
ADMIN_REQUIRES_SECOND_FACTOR = env_bool("ADMIN_REQUIRES_SECOND_FACTOR", not DEBUG)
OTP_TOTP_ISSUER = "Felt"  # what an authenticator app calls the account
# The admin lists members' devices (to delete one whose phone and codes are lost)
# but never shows a secret or a recovery code.
OTP_ADMIN_HIDE_SENSITIVE_DATA = True

# Behind a TLS-terminating proxy set HTTPS=1: cookies become secure-only,
# HTTP redirects to HTTPS and browsers are told to stay on HTTPS.
HTTPS = env_bool("HTTPS", False)
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS else None
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if not HTTPS else 3600)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_HTTPONLY = True
# Django's database sessions, read with SQL built once (config/adapters/session_store.py).
SESSION_ENGINE = "config.adapters.session_store"
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = 14 * 24 * 3600
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# --- Static files (served by WhiteNoise inside the ASGI app) ---------------

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # WhiteNoise's compressing storage, compressing only the files that changed.
    "staticfiles": {"BACKEND": "config.platform.static_files.CompressChangedStaticFilesStorage"},
}

# --- REST API -----------------------------------------------------------------

REST_FRAMEWORK = {
    # The token first: its scheme is what a 401's WWW-Authenticate names, so a caller
    # without credentials gets a 401 saying how to send them (with the session first,
    # DRF answers 403, since a cookie has no challenge to name).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.PersonalTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": [
        "config.platform.api_parsers.JSONBodyParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_THROTTLE_CLASSES": [
        "config.platform.api_throttles.AnonThrottle",
        "config.platform.api_throttles.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("API_ANON_RATE", "60/min"),
        "user": env_str("API_USER_RATE", "600/min"),
    },
    "EXCEPTION_HANDLER": "config.platform.api_errors.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
}

# SQLite has no covering indexes; the stats index (tables/models/hands.py) is a plain one there.
SILENCED_SYSTEM_CHECKS = ["models.W040"]

# OpenAPI 3 schema (/api/schema/) and its docs page (/api/docs/), served from the
# sidecar package's own static files: no CDN.
SPECTACULAR_SETTINGS = {
    "TITLE": "Felt API",
    "DESCRIPTION": "Hand histories, stats and tables of the Felt poker club. Session or "
    "token authentication; every refusal is JSON with a code and a message.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # The schema and docs page describe the API, they hold no member's data: public
    # (still throttled), so a program's author can read them before having a token.
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.platform.api_errors.document_unsupported_media_type",
    ],
    # One name per choice set, so a generated client gets one enum for each.
    "ENUM_NAME_OVERRIDES": {
        "ClubRoleEnum": "tournaments.models.Membership.Role",
        "TournamentKindEnum": "tournaments.models.Tournament.Kind",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
    },
}

# --- Locale and logging ----------------------------------------------------

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
