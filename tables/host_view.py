"""The host's part of a table's snapshot (docs/protocol.md): the same for every viewer.

Who runs the table, whether it is paused, the blinds set for the next hand,
the approval settings and the sit-down requests waiting for the host. None
of it is secret: everyone at the table sees who asked and what the host set.
"""

from __future__ import annotations

from typing import Any

from tables import kinds
from tables.models import SeatRequest, Table


def host_fields(table: Table) -> dict[str, Any]:
    if not kinds.of(table).has_host:
        return {
            "host_user_id": None,
            "is_paused": False,
            "next_blinds": None,
            "rebuy_approval": False,
            "seat_approval": False,
            "seat_requests": [],
        }
    return {
        "host_user_id": table.host_id,
        "is_paused": table.is_paused,
        "next_blinds": _next_blinds(table),
        "rebuy_approval": table.is_rebuy_approved_by_host,
        "seat_approval": table.is_seating_approved_by_host,
        "seat_requests": _seat_requests(table) if table.is_seating_approved_by_host else [],
    }


def _next_blinds(table: Table) -> dict[str, int] | None:
    if table.next_small_blind is None or table.next_big_blind is None:
        return None
    return {
        "small_blind": table.next_small_blind,
        "big_blind": table.next_big_blind,
        "ante": table.next_ante or 0,
    }


def _seat_requests(table: Table) -> list[dict[str, Any]]:
    asked = SeatRequest.objects.filter(table=table).select_related("user")
    return [
        {"id": request.pk, "name": request.user.public_name, "seat": request.number}
        for request in asked.order_by("created_at", "id")
    ]
