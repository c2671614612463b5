"""The health checks: GET /healthz, of every service Felt depends on, and GET
/healthz/live, of this server process alone.

``/healthz`` answers 200 when the database, the channel layer and the Celery
broker all respond, 503 naming the failing ones otherwise: for monitoring.
Those services are shared by every node, so when one blinks every node's
``/healthz`` says 503 at once; a load balancer that went by it would have no
node left to send anyone to. ``/healthz/live`` is the balancer's: it asks
nothing of any shared service and answers 200 whenever this process's event
loop runs. It is answered here, ahead of Django (``LiveCheck``, installed in
config/asgi.py), so no middleware, host check, thread or database connection
stands between the balancer and the answer. Neither reveals user data.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from kombu.connection import Connection

CHECK_TIMEOUT = 3.0  # seconds per check


def check_database() -> None:
    """Run on a thread of its own, which gives its connection back when done: while
    the database does not answer, it waits for the pool's timeout, and the thread
    that runs the request's other sync code must not wait with it."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connection.close()


async def check_channel_layer() -> None:
    """A message sent to a fresh channel must come back."""
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer is configured")
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "health.ping"})
    message = await layer.receive(channel)
    if message.get("type") != "health.ping":
        raise RuntimeError("the channel layer returned a different message")


def check_broker() -> None:
    with Connection(  # type: ignore[no-untyped-call]
        settings.CELERY_BROKER_URL,
        connect_timeout=CHECK_TIMEOUT,
        transport_options={"socket_timeout": CHECK_TIMEOUT},
    ) as broker:
        broker.ensure_connection(max_retries=1, interval_start=0, interval_step=0)
        broker.default_channel.client.ping()


async def run_check(check: Callable[[], Awaitable[None]]) -> str:
    try:
        await asyncio.wait_for(check(), timeout=CHECK_TIMEOUT)
    except Exception as error:  # noqa: BLE001 - any failure means "down"
        return f"down: {type(error).__name__}: {error}".strip()
    return "ok"


@never_cache
@require_GET
async def healthz(request: HttpRequest) -> JsonResponse:
    checks = {
        "database": await run_check(sync_to_async(check_database, thread_sensitive=False)),
        "channel_layer": await run_check(check_channel_layer),
        "broker": await run_check(sync_to_async(check_broker, thread_sensitive=False)),
    }
    healthy = all(result == "ok" for result in checks.values())
    body: dict[str, object] = {"status": "ok" if healthy else "down", "checks": checks}
    if checks["database"] == "ok":
        body["tables"] = await sync_to_async(table_troubles)()
    return JsonResponse(body, status=200 if healthy else 503)


def table_troubles() -> dict[str, object]:
    """Stuck tables (a wake-up the sweep should have applied already) and failures
    counted since start."""
    from tables.failures import failure_counts
    from tables.selectors import tables_overdue

    try:
        counts = failure_counts()
    except Exception:  # noqa: BLE001 - the cache being down is the channel layer's check
        counts = {}
    return {"overdue": tables_overdue(now=timezone.now())[:20], "failures": counts}


LIVE_PATH = "/healthz/live"
LIVE_BODY = b'{"status": "ok"}'


class LiveCheck:
    """ASGI middleware over Django's HTTP application: answers ``GET /healthz/live``
    (and ``HEAD``) itself with 200 and ``{"status": "ok"}``; passes anything else on."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "http" or scope["path"] != LIVE_PATH:
            return await self.application(scope, receive, send)
        is_read = scope["method"] in {"GET", "HEAD"}
        headers = [
            (b"content-type", b"application/json"),
            (b"cache-control", b"no-store"),
            (b"content-length", str(len(LIVE_BODY) if is_read else 0).encode()),
        ]
        if not is_read:
            headers.append((b"allow", b"GET, HEAD"))
        await send(
            {"type": "http.response.start", "status": 200 if is_read else 405, "headers": headers}
        )
        body = LIVE_BODY if scope["method"] == "GET" else b""
        await send({"type": "http.response.body", "body": body})
        return None
