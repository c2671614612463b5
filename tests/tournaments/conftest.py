"""Tournament tests share the table tests' fixtures: a fast clock, a real Celery worker,
and the browser mark."""

from tests.support.tables import celery_worker, fast_tables  # noqa: F401 - fixtures
