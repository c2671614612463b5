"""Tournament tests share the table tests' fixtures: a fast clock, a real Celery worker,
and the browser mark."""

from tests.tables.conftest import _fast_tables, celery_worker  # noqa: F401
