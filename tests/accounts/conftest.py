import pytest

from tests.support.mail import smtp_inbox  # noqa: F401 - a fixture (the mail tests)
from tests.support.tables import celery_worker  # noqa: F401 - a fixture (test_tasks.py)


@pytest.fixture(autouse=True)
def _isolated_redis(clean_redis: None) -> None:
    """Every accounts test starts with no throttling counters and nobody online."""
