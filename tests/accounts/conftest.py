import pytest


@pytest.fixture(autouse=True)
def _isolated_redis(clean_redis: None) -> None:
    """Every accounts test starts with no throttling counters and nobody online."""
