"""The tables app's models, one module per part of the game (Django's model package).

Every model and the limits that go with them are imported here, so
``from tables.models import Table`` names them wherever they live.
"""

from tables.models.table import (
    DEFAULT_SEATS,
    DEPARTED_NAME,
    MAX_ACTION_SECONDS,
    MAX_SEATS,
    MIN_ACTION_SECONDS,
    MIN_SEATS,
    MIN_STARTING_BIG_BLINDS,
    STATS_COLUMNS,
    ChatMessage,
    ChipMovement,
    Hand,
    HandPlayer,
    PlayerTotals,
    PresenceLease,
    Seat,
    SeatRequest,
    Table,
)

__all__ = [
    "DEFAULT_SEATS",
    "DEPARTED_NAME",
    "MAX_ACTION_SECONDS",
    "MAX_SEATS",
    "MIN_ACTION_SECONDS",
    "MIN_SEATS",
    "MIN_STARTING_BIG_BLINDS",
    "STATS_COLUMNS",
    "ChatMessage",
    "ChipMovement",
    "Hand",
    "HandPlayer",
    "PlayerTotals",
    "PresenceLease",
    "Seat",
    "SeatRequest",
    "Table",
]
