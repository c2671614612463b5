"""The host's word in a friends' table's snapshot (docs/protocol.md): the requests
waiting for the host, the players the host removed and keeps out, and the host's
last stack changes. The same for every viewer, and nothing secret: a removed
player's own page finds itself in ``barred`` and offers no seat."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from tables import kinds
from tables.models import SeatRequest, Table


def host_word_fields(table: Table) -> dict[str, Any]:
    if not kinds.of(table).has_host:
        return {"seat_requests": [], "barred": [], "stack_changes": []}
    return {
        "seat_requests": _seat_requests(table),
        "barred": _barred(table),
        "stack_changes": table.stack_changes,
    }


def _seat_requests(table: Table) -> list[dict[str, Any]]:
    """Sit-downs waiting for the host: where sit-downs need approval, and a comeback's
    fresh stack (``is_rebuy``) where rebuys do."""
    if not (table.is_seating_approved_by_host or table.is_rebuy_approved_by_host):
        return []  # nothing can wait: no query
    asked = SeatRequest.objects.filter(table=table).select_related("user")
    return [
        {
            "id": request.pk,
            "name": request.user.public_name,
            "seat": request.number,
            "is_rebuy": request.is_rebuy,
        }
        for request in asked.order_by("created_at", "id")
    ]


def _barred(table: Table) -> list[dict[str, Any]]:
    """The players the host removed, until let back, in the order they were removed."""
    if not table.barred_user_ids:
        return []
    users = User.objects.filter(pk__in=table.barred_user_ids).only("username", "display_name")
    names = {user.pk: user.public_name for user in users}
    return [{"user_id": pk, "name": names[pk]} for pk in table.barred_user_ids if pk in names]
