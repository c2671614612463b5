"""What Felt's environment variables say, read for ``config/settings.py``.

Each reader fails loudly: a malformed value stops start-up with a message
naming the variable, instead of quietly running with a default. The database
and Redis a URL names become Django's settings here, so the settings module
is left with what Felt sets.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

from config.platform.private_files import make_private_home

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None) -> str:
    value = os.environ.get(name, default)
    if value is None:
        raise ImproperlyConfigured(f"The environment variable {name} is required.")
    return value


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1/0, true/false).")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer.") from None


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a number.") from None
    if not value >= 0:  # also refuses nan
        raise ImproperlyConfigured(f"{name}={raw!r} must be 0 or more.")
    return value


def env_list(name: str, default: str) -> list[str]:
    """A comma-separated list; blanks are dropped."""
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


DURABLE_COMMITS = "-c synchronous_commit=on"


def database_from_url(url: str) -> dict[str, Any]:
    """A Django DATABASES entry from postgres://user:password@host:port/name."""
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql"}:
        raise ImproperlyConfigured(
            f"DATABASE_URL must start with postgres:// (got {parts.scheme or 'no'} scheme)."
        )
    name = unquote(parts.path.lstrip("/"))
    if not name:
        raise ImproperlyConfigured("DATABASE_URL must name a database: postgres://host/felt.")
    options = {key: values[-1] for key, values in parse_qs(parts.query).items()}
    # A commit Felt has acknowledged (and broadcast) must outlive a server crash: with
    # synchronous_commit off, PostgreSQL acknowledges before the commit is written, and
    # a crash then takes back moves players were already shown, leaving the table
    # waiting on someone told it was another's turn (issue 42's fault drill). Set for
    # Felt's own sessions whatever the server's default; later in ``options`` wins.
    options["options"] = " ".join(filter(None, [options.get("options"), DURABLE_COMMITS]))
    return {
        # Django's backend, whose pool hands out no connection a restart ended
        # (config/adapters/postgresql).
        "ENGINE": "config.adapters.postgresql",
        "NAME": name,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
        # A pool per process (psycopg_pool): a request's connection goes back to it
        # when the request ends (config/platform/db_connections.py) rather than being closed,
        # and the next request takes it without connecting again (about 4 ms).
        "CONN_MAX_AGE": 0,  # the pool keeps the connections; Django must not
        "OPTIONS": {
            "pool": {"min_size": 1, "max_size": env_int("DATABASE_POOL_SIZE", 20), "timeout": 10},
            **options,
        },
    }


def embedded_database(home: Path) -> dict[str, Any]:
    """SQLite tuned for a small server: WAL, and writers queue on a file lock
    (config/adapters/sqlite)."""
    make_private_home(home)
    return {
        "ENGINE": "config.adapters.sqlite",
        "NAME": home / "felt.sqlite3",
        # Keep the connection between websocket commands: channels closes it after
        # each one otherwise, and reopening (with the PRAGMAs) cost more than the command.
        "CONN_MAX_AGE": env_int("DATABASE_CONN_MAX_AGE", 60),
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
        # A file, not memory, so a Celery worker thread in the tests shares it.
        "TEST": {"NAME": str(home / "test-felt.sqlite3")},
    }


@dataclass(frozen=True)
class RedisServer:
    """Where Redis is; each use of it gets its own database number.

    Database `base` holds the channel layer and the online list, `base + 1`
    the Celery broker, `base + 2` Celery results, `base + 3` the cache.
    """

    url: str
    socket_path: str | None
    base_db: int

    LAST_DB = 15  # a stock Redis server has databases 0..15
    USES = 4

    @classmethod
    def from_url(cls, url: str) -> RedisServer:
        parts = urlsplit(url)
        if parts.scheme == "unix":
            db_words = parse_qs(parts.query).get("db", ["0"])
            return cls(url, parts.path, cls.parse_db(db_words[-1]))
        if parts.scheme in {"redis", "rediss"}:
            return cls(url, None, cls.parse_db(parts.path.lstrip("/") or "0"))
        raise ImproperlyConfigured(
            f"REDIS_URL must start with redis://, rediss:// or unix:// (got {url!r})."
        )

    @classmethod
    def parse_db(cls, word: str) -> int:
        if not word.isdigit() or int(word) + cls.USES - 1 > cls.LAST_DB:
            raise ImproperlyConfigured(
                f"The database number in REDIS_URL must be 0..{cls.LAST_DB - cls.USES + 1} "
                f"(Felt uses it and the {cls.USES - 1} after it); got {word!r}."
            )
        return int(word)

    def client_url(self, offset: int) -> str:
        """A URL for redis-py (channels-redis, the cache, the online list)."""
        db = self.base_db + offset
        if self.socket_path is not None:
            return f"unix://{self.socket_path}?db={db}"
        parts = urlsplit(self.url)
        return parts._replace(path=f"/{db}").geturl()

    def channel_prefix(self) -> str:
        """The channel layer's names start with this. Redis keeps its pub/sub apart from
        its numbered databases: two Felts on one server, on different database
        numbers, would otherwise hear each other's broadcasts (snapshots with hole
        cards) wherever a table's and a member's ids coincide."""
        return f"felt{self.base_db}"

    def celery_url(self, offset: int) -> str:
        """A URL for kombu and Celery's result backend, which spell sockets differently."""
        if self.socket_path is not None:
            return f"redis+socket://{self.socket_path}?virtual_host={self.base_db + offset}"
        return self.client_url(offset)


@dataclass(frozen=True)
class MailServer:
    """How Django's email framework sends Felt's mail: the settings it reads.

    Embedded (no EMAIL_URL): each message becomes a file under FELT_HOME/mail, for
    the person running Felt to open. With EMAIL_URL, through that SMTP server.
    """

    backend: str
    file_path: str = ""
    host: str = "localhost"
    port: int = 25
    user: str = ""
    password: str = ""
    use_tls: bool = False  # STARTTLS after connecting
    use_ssl: bool = False  # TLS from the first byte (smtps://)
    timeout: float = 10.0  # seconds; a stuck server fails the task, which retries

    FILE_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"

    @classmethod
    def in_home(cls, home: Path) -> MailServer:
        return cls(cls.FILE_BACKEND, file_path=str(home / "mail"))

    @classmethod
    def from_url(cls, url: str) -> MailServer:
        """From smtp://user:password@host:587?tls=1 (STARTTLS), smtps://...:465 (TLS
        from the start) or smtp://host:25 (neither); ``timeout=`` in seconds."""
        parts = urlsplit(url)
        if parts.scheme not in {"smtp", "smtps"}:
            raise ImproperlyConfigured(
                f"EMAIL_URL must start with smtp:// or smtps:// (got {parts.scheme or 'no'} "
                "scheme), e.g. smtp://user:password@mail.example:587?tls=1."
            )
        if not parts.hostname:
            raise ImproperlyConfigured("EMAIL_URL must name a host: smtp://mail.example:587.")
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured(f"The port in EMAIL_URL is not a port: {url!r}.") from None
        options = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        unknown = set(options) - {"tls", "timeout"}
        if unknown:
            raise ImproperlyConfigured(
                f"EMAIL_URL has unknown options {sorted(unknown)} (known: tls, timeout)."
            )
        use_ssl = parts.scheme == "smtps"
        use_tls = cls._tls_option(options.get("tls", "0"))
        if use_ssl and use_tls:
            raise ImproperlyConfigured(
                "EMAIL_URL: smtps:// is TLS from the start; ?tls=1 (STARTTLS) is for smtp://."
            )
        return cls(
            cls.SMTP_BACKEND,
            host=parts.hostname,
            port=port or (465 if use_ssl else 587 if use_tls else 25),
            user=unquote(parts.username or ""),
            password=unquote(parts.password or ""),
            use_tls=use_tls,
            use_ssl=use_ssl,
            timeout=cls._timeout_option(options.get("timeout", "10")),
        )

    @staticmethod
    def _tls_option(word: str) -> bool:
        if word.lower() in TRUE_WORDS:
            return True
        if word.lower() in FALSE_WORDS:
            return False
        raise ImproperlyConfigured(f"EMAIL_URL: tls={word!r} is not a boolean (use 1 or 0).")

    @staticmethod
    def _timeout_option(word: str) -> float:
        try:
            seconds = float(word)
        except ValueError:
            seconds = 0.0
        if not seconds > 0:
            raise ImproperlyConfigured(f"EMAIL_URL: timeout={word!r} must be seconds above 0.")
        return seconds

    def where(self) -> str:
        """Where mail goes, for a person (never shows the password)."""
        if self.backend == self.FILE_BACKEND:
            return f"written as files to {self.file_path}"
        return f"sent through {'smtps' if self.use_ssl else 'smtp'}://{self.host}:{self.port}"
