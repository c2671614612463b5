"""Bot seats: names, and their decisions from ``engine.view`` of their own seat only."""

from __future__ import annotations

from random import Random, SystemRandom
from typing import Any

import engine
from engine.bots import choose_action as strategy

BOT_NAMES = ("Ada", "Boole", "Church", "Dijkstra", "Euler", "Fermat", "Gauss", "Hopper")

_rng = SystemRandom()


def bot_name(index: int) -> str:
    return f"{BOT_NAMES[index % len(BOT_NAMES)]} (bot)"


def choose_action(view: dict[str, Any], rng: Random | None = None) -> engine.Action:
    """The bot's move for ``view`` (what its seat sees), by ``engine.bots``."""
    return strategy(view, rng or _rng)
