"""What the Django-side tests share, kept apart from the tests themselves so that no
test module imports another: the password every test user has, ``wait_for``, the live
server and browser fixtures (live.py), page helpers (table_pages.py), the table and
worker fixtures (tables.py) and the socket helpers (lobbies.py, tournaments.py)."""

from __future__ import annotations

import time
from collections.abc import Callable

PASSWORD = "correct-horse-battery-staple"


def wait_for(condition: Callable[[], bool], seconds: float = 60, every: float = 0.1) -> None:
    """Poll ``condition`` until it holds; fail after ``seconds``. For what another
    process (a Celery worker, a server) does in its own time."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the worker did not get there in time"
        time.sleep(every)
