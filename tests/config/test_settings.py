"""config/settings.py reads the environment and fails loudly on bad values."""

import runpy
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

# Touches neither a database nor Redis: the embedded run is enough (scripts/test.sh).
pytestmark = pytest.mark.pure

SETTINGS_FILE = Path(__file__).resolve().parents[2] / "config" / "settings.py"
ALL_VARIABLES = [
    "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "DATABASE_URL",
    "REDIS_URL", "HTTPS", "LOGIN_FAILURE_LIMIT", "TABLES_NEXT_HAND_SECONDS",
    "SIGNUP_ADDRESS_LIMIT", "EMAIL_URL", "DEFAULT_FROM_EMAIL", "PASSWORD_RESET_TIMEOUT",
    "ADMIN_REQUIRES_SECOND_FACTOR",
]  # fmt: skip


@pytest.fixture
def load_settings(monkeypatch, tmp_path):
    """Evaluates the settings module afresh with exactly the given variables."""

    def load(**variables: str) -> dict:
        for name in ALL_VARIABLES:
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("FELT_HOME", str(tmp_path))
        for name, value in variables.items():
            monkeypatch.setenv(name, value)
        return runpy.run_path(str(SETTINGS_FILE))

    return load


def test_a_secret_key_is_required_unless_debugging(load_settings):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is required"):
        load_settings()
    assert load_settings(DEBUG="1")["SECRET_KEY"]


def test_a_boolean_that_is_not_one_fails_loudly(load_settings):
    with pytest.raises(ImproperlyConfigured, match="DEBUG='maybe' is not a boolean"):
        load_settings(DEBUG="maybe")


def test_an_integer_that_is_not_one_fails_loudly(load_settings):
    with pytest.raises(ImproperlyConfigured, match="LOGIN_FAILURE_LIMIT='five'"):
        load_settings(SECRET_KEY="k", LOGIN_FAILURE_LIMIT="five")


@pytest.mark.parametrize("value", ["soon", "-1", "nan"])
def test_a_table_timing_that_is_not_a_number_of_seconds_fails_loudly(load_settings, value):
    with pytest.raises(ImproperlyConfigured, match=f"TABLES_NEXT_HAND_SECONDS='{value}'"):
        load_settings(SECRET_KEY="k", TABLES_NEXT_HAND_SECONDS=value)


def test_table_timings_come_from_the_environment(load_settings):
    loaded = load_settings(SECRET_KEY="k", TABLES_NEXT_HAND_SECONDS="5.5")
    assert loaded["TABLES_NEXT_HAND_SECONDS"] == 5.5
    assert loaded["TABLES_TIME_BANK_SECONDS"] == 30.0


def test_the_sign_up_limit_comes_from_the_environment(load_settings):
    assert load_settings(SECRET_KEY="k")["SIGNUP_ADDRESS_LIMIT"] == 10
    assert load_settings(SECRET_KEY="k", SIGNUP_ADDRESS_LIMIT="500")["SIGNUP_ADDRESS_LIMIT"] == 500
    with pytest.raises(ImproperlyConfigured, match="SIGNUP_ADDRESS_LIMIT='many'"):
        load_settings(SECRET_KEY="k", SIGNUP_ADDRESS_LIMIT="many")


def test_the_admin_needs_a_second_factor_unless_debugging_or_told_otherwise(load_settings):
    assert load_settings(SECRET_KEY="k")["ADMIN_REQUIRES_SECOND_FACTOR"] is True
    assert load_settings(DEBUG="1")["ADMIN_REQUIRES_SECOND_FACTOR"] is False
    off = load_settings(SECRET_KEY="k", ADMIN_REQUIRES_SECOND_FACTOR="0")
    assert off["ADMIN_REQUIRES_SECOND_FACTOR"] is False
    on = load_settings(DEBUG="1", ADMIN_REQUIRES_SECOND_FACTOR="1")
    assert on["ADMIN_REQUIRES_SECOND_FACTOR"] is True


def test_host_lists_are_comma_separated(load_settings):
    loaded = load_settings(
        SECRET_KEY="k",
        ALLOWED_HOSTS="felt.example, localhost,",
        CSRF_TRUSTED_ORIGINS="https://felt.example",
    )
    assert loaded["ALLOWED_HOSTS"] == ["felt.example", "localhost"]
    assert loaded["CSRF_TRUSTED_ORIGINS"] == ["https://felt.example"]
    assert load_settings(SECRET_KEY="k")["ALLOWED_HOSTS"] == []


def test_the_embedded_defaults_use_sqlite_and_redis_in_felt_home(load_settings, tmp_path):
    loaded = load_settings(SECRET_KEY="k")
    database = loaded["DATABASES"]["default"]
    assert database["NAME"] == tmp_path / "felt.sqlite3"
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in database["OPTIONS"]["init_command"]
    socket = tmp_path / "redis.sock"
    assert loaded["REDIS_REALTIME_URL"] == f"unix://{socket}?db=0"
    assert loaded["CELERY_BROKER_URL"] == f"redis+socket://{socket}?virtual_host=1"
    assert loaded["CELERY_RESULT_BACKEND"] == f"redis+socket://{socket}?virtual_host=2"
    assert loaded["CACHES"]["default"]["LOCATION"] == f"unix://{socket}?db=3"


def test_database_url_selects_postgresql(load_settings):
    loaded = load_settings(
        SECRET_KEY="k", DATABASE_URL="postgres://felt:s%40cret@db.internal:6432/felt_prod"
    )
    database = loaded["DATABASES"]["default"]
    assert database["ENGINE"] == "config.adapters.postgresql"  # Django's, pool checked
    assert (database["NAME"], database["USER"], database["PASSWORD"]) == (
        "felt_prod",
        "felt",
        "s@cret",
    )
    assert (database["HOST"], database["PORT"]) == ("db.internal", "6432")


@pytest.mark.parametrize("url", ["mysql://db/felt", "postgres://db.internal", "sqlite:///felt.db"])
def test_an_unusable_database_url_fails_loudly(load_settings, url):
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        load_settings(SECRET_KEY="k", DATABASE_URL=url)


def test_redis_url_gives_each_use_its_own_database(load_settings):
    loaded = load_settings(SECRET_KEY="k", REDIS_URL="redis://:pw@cache.internal:6379/8")
    assert loaded["REDIS_REALTIME_URL"] == "redis://:pw@cache.internal:6379/8"
    assert loaded["CELERY_BROKER_URL"] == "redis://:pw@cache.internal:6379/9"
    assert loaded["CELERY_RESULT_BACKEND"] == "redis://:pw@cache.internal:6379/10"
    assert loaded["CACHES"]["default"]["LOCATION"] == "redis://:pw@cache.internal:6379/11"


@pytest.mark.parametrize(
    "url", ["redis://cache.internal:6379/13", "redis://cache/x", "memcached://cache"]
)
def test_an_unusable_redis_url_fails_loudly(load_settings, url):
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        load_settings(SECRET_KEY="k", REDIS_URL=url)


def test_https_makes_cookies_secure(load_settings):
    assert load_settings(SECRET_KEY="k")["SESSION_COOKIE_SECURE"] is False
    loaded = load_settings(SECRET_KEY="k", HTTPS="1")
    assert loaded["SESSION_COOKIE_SECURE"] and loaded["CSRF_COOKIE_SECURE"]
    assert loaded["SECURE_SSL_REDIRECT"]


def test_felts_database_sessions_commit_durably_beside_the_urls_own_options(load_settings):
    loaded = load_settings(
        SECRET_KEY="k",
        DATABASE_URL="postgres://db.internal/felt?options=-c%20statement_timeout%3D5000",
    )
    options = loaded["DATABASES"]["default"]["OPTIONS"]["options"]
    # PostgreSQL takes the last of a setting given twice: Felt's comes last.
    assert options == "-c statement_timeout=5000 -c synchronous_commit=on"


def test_mail_is_written_as_files_in_felt_home_by_default(load_settings, tmp_path):
    loaded = load_settings(SECRET_KEY="k")
    assert loaded["EMAIL_BACKEND"] == "django.core.mail.backends.filebased.EmailBackend"
    assert loaded["EMAIL_FILE_PATH"] == str(tmp_path / "mail")
    assert loaded["MAIL"].where() == f"written as files to {tmp_path / 'mail'}"
    assert loaded["PASSWORD_RESET_TIMEOUT"] == 3600


def test_email_url_selects_an_smtp_server_with_starttls(load_settings):
    loaded = load_settings(
        SECRET_KEY="k",
        EMAIL_URL="smtp://felt%40example.org:p%3Ass@mail.example.org:587?tls=1&timeout=5",
        DEFAULT_FROM_EMAIL="Felt <poker@example.org>",
    )
    assert loaded["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (loaded["EMAIL_HOST"], loaded["EMAIL_PORT"]) == ("mail.example.org", 587)
    assert (loaded["EMAIL_HOST_USER"], loaded["EMAIL_HOST_PASSWORD"]) == (
        "felt@example.org",
        "p:ss",
    )
    assert (loaded["EMAIL_USE_TLS"], loaded["EMAIL_USE_SSL"], loaded["EMAIL_TIMEOUT"]) == (
        True,
        False,
        5.0,
    )
    assert loaded["DEFAULT_FROM_EMAIL"] == "Felt <poker@example.org>"
    assert "p:ss" not in loaded["MAIL"].where()


@pytest.mark.parametrize(
    ("url", "port", "tls", "ssl"),
    [
        ("smtps://mail.example.org", 465, False, True),
        ("smtp://mail.example.org", 25, False, False),
        ("smtp://mail.example.org?tls=1", 587, True, False),
        ("smtp://mail.example.org:2525?tls=0", 2525, False, False),
    ],
)
def test_email_url_schemes_and_tls_choose_their_usual_ports(load_settings, url, port, tls, ssl):
    loaded = load_settings(SECRET_KEY="k", EMAIL_URL=url)
    assert (loaded["EMAIL_PORT"], loaded["EMAIL_USE_TLS"], loaded["EMAIL_USE_SSL"]) == (
        port,
        tls,
        ssl,
    )


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mail.example.org:587", "must start with smtp:// or smtps://"),
        ("https://mail.example.org", "must start with smtp:// or smtps://"),
        ("smtp://:587", "must name a host"),
        ("smtp://mail.example.org:port", "is not a port"),
        ("smtp://mail.example.org?tls=maybe", "tls='maybe' is not a boolean"),
        ("smtp://mail.example.org?ssl=1", r"unknown options \['ssl'\]"),
        ("smtps://mail.example.org?tls=1", "smtps:// is TLS from the start"),
        ("smtp://mail.example.org?timeout=0", "timeout='0' must be seconds above 0"),
    ],
)
def test_an_unusable_email_url_fails_loudly(load_settings, url, message):
    with pytest.raises(ImproperlyConfigured, match=message):
        load_settings(SECRET_KEY="k", EMAIL_URL=url)
