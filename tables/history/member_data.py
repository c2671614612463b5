"""The hands in a member's data zip, and their name in others' histories once they
close their account (accounts/data_export.py, accounts/closing.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tables.history import projection
from tables.history.filters import finished_rows
from tables.models import HandPlayer


def hands_of(user: Any) -> Iterable[tuple[str, Iterable[str]]]:
    """Every hand ``user`` was dealt into, oldest first, as they saw it at the table:
    their own cards, and others' only where shown (staff too: their seat's view)."""
    rows = finished_rows(user).order_by("started_at", "hand_id")
    hand_ids = list(rows.values_list("hand_id", flat=True))
    for name, text_format in (("hands.phhs", "phh"), ("hands.txt", "pokerstars")):
        viewed = projection.hands_for_viewer(user=user, hand_ids=hand_ids, as_staff=False)
        yield name, projection.hands_text(viewed, text_format)


def names_forget(user: Any, label: str) -> int:
    """``user``'s seat in every finished hand is shown as ``label`` from now on (the
    API, the pages and every viewer's PHH and PokerStars text read this name)."""
    return HandPlayer.objects.filter(user=user).update(name=label)
