"""An HTTP request's database connections close when it finishes (under ASGI each
request runs in a thread of its own, and kept connections piled up)."""

from __future__ import annotations

import threading

import pytest
from django.core.signals import request_finished
from django.db import connection

from accounts.models import User


@pytest.mark.django_db(transaction=True)
def test_a_finished_request_closes_the_connection_its_thread_opened() -> None:
    seen: dict[str, bool] = {}

    def request_in_its_own_thread() -> None:
        User.objects.exists()  # the view's query opens this thread's connection
        seen["open during the request"] = connection.connection is not None
        request_finished.send(sender=None)
        seen["open after it"] = connection.connection is not None

    worker = threading.Thread(target=request_in_its_own_thread)
    worker.start()
    worker.join()
    assert seen == {"open during the request": True, "open after it": False}
