"""All-in EV, filled in after the hand's transaction has committed.

The exact equity of an all-in run-out (``tables.history.facts.allin_ev``) costs
tens of milliseconds two-way and hundreds six-way: too long to hold a table's
row lock for. So the hand's transaction stores every other fact with the
all-in EV equal to the actual result and marks the hand ``allin_ev_pending``;
after commit, ``request`` hands the hand to whoever registered a scheduler
(``tables/tasks.py`` queues a Celery task), and ``allin_ev_fill`` computes the
equity with no lock held, then writes it in a short transaction of its own,
with the members' running totals (``PlayerTotals``) moved by the difference.
The beat sweep fills any hand whose task was lost (``hands_pending``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from django.db import transaction
from django.db.models import F

import engine
from tables.history.facts import allin_ev
from tables.models import Hand, HandPlayer, PlayerTotals

log = logging.getLogger(__name__)

Scheduler = Callable[[int], None]
_scheduler: Scheduler | None = None


def set_scheduler(scheduler: Scheduler) -> None:
    global _scheduler
    _scheduler = scheduler


def request(hand_id: int) -> None:
    """Runs after commit: have the hand's all-in EV filled in soon."""
    if _scheduler is None:  # the sweep fills it, later
        log.error("no all-in EV scheduler is registered; hand %s waits for the sweep", hand_id)
        return
    _scheduler(hand_id)


def allin_ev_fill(*, hand_id: int) -> bool:
    """Fill in the hand's all-in EV; False when there was nothing (left) to fill."""
    events = (
        Hand.objects.filter(pk=hand_id, allin_ev_pending=True).values_list("events", flat=True)
    ).first()
    if events is None:
        return False
    state = engine.replay([engine.event_from_dict(e) for e in events])
    expected = allin_ev(state)  # the slow part, with no lock held
    with transaction.atomic():
        if not Hand.objects.select_for_update().filter(pk=hand_id, allin_ev_pending=True).exists():
            return False  # another task or the sweep got there first
        players = list(HandPlayer.objects.filter(hand_id=hand_id).order_by("seat"))
        for player in sorted(players, key=lambda p: p.user_id or 0):
            if player.seat not in expected:
                continue
            ev = expected[player.seat]
            ev_bb = ev / state.big_blind
            added = ev_bb - player.allin_ev_bb
            player.allin_ev, player.allin_ev_bb, player.is_allin_ev = ev, ev_bb, True
            player.save(update_fields=["allin_ev", "allin_ev_bb", "is_allin_ev"])
            if player.user_id is not None:
                PlayerTotals.objects.filter(user_id=player.user_id).update(
                    allin_ev_bb=F("allin_ev_bb") + added
                )
        Hand.objects.filter(pk=hand_id).update(allin_ev_pending=False)
    return True


def hands_pending(*, ended_before: datetime, limit: int = 50) -> list[int]:
    """Hands still waiting for their all-in EV that ended before ``ended_before``."""
    pending = Hand.objects.filter(allin_ev_pending=True, ended_at__lt=ended_before)
    return list(pending.order_by("ended_at").values_list("pk", flat=True)[:limit])
