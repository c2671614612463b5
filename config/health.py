"""GET /healthz: is each service Felt depends on answering?

Answers 200 when the database, the channel layer and the Celery broker all
respond, 503 naming the failing ones otherwise. For load balancers and
monitoring; it reveals no user data.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

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
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


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
        "database": await run_check(sync_to_async(check_database)),
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
