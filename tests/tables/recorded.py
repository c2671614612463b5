"""Hands with known cards, written to the history through the real service functions."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from django.utils import timezone

import engine
from tables.fairness_log.append import log_append
from tables.history.allin_ev import allin_ev_fill
from tables.history.record import hand_begin, hand_finish
from tables.models import Hand, Table

HANDS = Path(__file__).parents[1] / "engine" / "hands"
# rule13: seat 0 (AsAh) and seat 2 (KsKh) show, seat 1 (7c2d) mucks; seat 0 wins.
SHOWDOWN_WITH_MUCK = "rule13_last_river_bettor_shows_first"
# rule07: seats 0 (KsKh) and 1 (7c2d) fold to seat 2 (QsQh): nothing is shown.
FOLDED_TO_A_RAISE = "rule07_uncalled_bet_returned"


def recorded_state(name: str) -> engine.HandState:
    return engine.from_phh((HANDS / f"{name}.phh").read_text(encoding="utf-8"))


def record_hand(table: Table, state: engine.HandState, started_at: datetime | None = None) -> Hand:
    """Store a finished ``state`` as the table's next hand, as the end of play does."""
    table.hand_number += 1
    table.save(update_fields=["hand_number"])
    now = started_at or timezone.now()
    seats = {seat.number: seat for seat in table.seats.select_related("user")}
    hand_begin(table, state, now)
    hand = hand_finish(table, seats, state, now + timedelta(seconds=30))
    allin_ev_fill(hand_id=hand.pk)  # what the tasks queued after commit do
    log_append()
    hand.refresh_from_db()
    return hand
