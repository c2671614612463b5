"""The tables app's models, one module per part (Django's model package).

``table``: tables, seats, sit-down requests, presence leases and the server
processes holding them, with the limits a table may be set to; ``hands``:
finished hands, their players and each member's totals; ``fairness_log``: the
public log of hand seals; ``ledger``: chips in and out of a friends' table;
``chat``: the chat lines. Every model and limit is imported here, so
``from tables.models import Table`` names them wherever they live.
"""

from tables.models.chat import ChatMessage
from tables.models.fairness_log import LogEntry, LogHead, LogSubtree
from tables.models.hands import STATS_COLUMNS, Hand, HandPlayer, PlayerTotals, SealedDeck
from tables.models.ledger import ChipMovement
from tables.models.table import (
    DEFAULT_SEATS,
    DEPARTED_NAME,
    MAX_ACTION_SECONDS,
    MAX_BOMB_POT_EVERY,
    MAX_SEATS,
    MIN_ACTION_SECONDS,
    MIN_SEATS,
    MIN_STARTING_BIG_BLINDS,
    PresenceHolder,
    PresenceLease,
    Seat,
    SeatRequest,
    Table,
)

__all__ = [
    "DEFAULT_SEATS",
    "DEPARTED_NAME",
    "MAX_ACTION_SECONDS",
    "MAX_BOMB_POT_EVERY",
    "MAX_SEATS",
    "MIN_ACTION_SECONDS",
    "MIN_SEATS",
    "MIN_STARTING_BIG_BLINDS",
    "STATS_COLUMNS",
    "ChatMessage",
    "ChipMovement",
    "Hand",
    "HandPlayer",
    "LogEntry",
    "LogHead",
    "LogSubtree",
    "PlayerTotals",
    "PresenceHolder",
    "PresenceLease",
    "SealedDeck",
    "Seat",
    "SeatRequest",
    "Table",
]
