"""Fixtures for live tables: players, a fast clock, a real Celery worker."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.support.tables import celery_worker, fast_tables  # noqa: F401 - fixtures


@pytest.fixture
def alice(make_user: Callable[..., Any]) -> Any:
    return make_user("alice")


@pytest.fixture
def bob(make_user: Callable[..., Any]) -> Any:
    return make_user("bob")


@pytest.fixture
def carol(make_user: Callable[..., Any]) -> Any:
    return make_user("carol")
