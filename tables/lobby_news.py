"""What the lobby sockets hear of friends' tables (docs/protocol.md, "The lobby
socket"): a table its host lists appears in every open lobby, and one taken off the
list disappears. An unlisted table's name and game never reach the lobby's group:
taking one off the list says only its id.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.urls import reverse

from accounts.consumers import LOBBY_GROUP
from config.platform.broadcast import send
from tables.models import Table


def lobby_row(table: Table, players: int) -> dict[str, Any]:
    """The lobby's line for a listed table with ``players`` seated (templates/lobby.html)."""
    return {
        "id": table.pk,
        "name": table.name,
        "url": reverse("tables:table_detail", kwargs={"table_id": table.pk}),
        "game": table.get_game_display(),
        "blinds": table.blinds_words,
        "options": table.options_in_play,
        "players": players,
        "seat_count": table.seat_count,
    }


def listing_changed(table: Table, players: int) -> None:
    """Once committed: the table's row to every lobby when it is listed with a seat
    free, else the word that it is gone (players' own lobbies keep it: lobby.js)."""
    message: dict[str, Any]
    if table.is_listed and table.closed_at is None and players < table.seat_count:
        message = {"type": "table.listed", "table": lobby_row(table, players)}
    else:
        message = {"type": "table.unlisted", "table_id": table.pk}
    transaction.on_commit(lambda: send([(LOBBY_GROUP, message)]))
