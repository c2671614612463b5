"""The hands in a member's data zip, and their name in others' histories once they
close their account (accounts/data_export.py, accounts/closing.py)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import Prefetch

import engine
from engine.formats.phh import phh_order
from tables.history import projection
from tables.history.filters import finished_rows
from tables.models import Hand, HandPlayer

log = logging.getLogger(__name__)

# How many hands a rewrite of stored histories reads and saves at a time.
REWRITE_BATCH = 200

Scheduler = Callable[[list[int]], None]
_scheduler: Scheduler | None = None


def set_rewrite_scheduler(scheduler: Scheduler) -> None:
    """Who queues ``stored_histories_rewrite`` (tables.tasks, in ``TablesConfig.ready``)."""
    global _scheduler
    _scheduler = scheduler


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
    API, the pages and every viewer's PHH and PokerStars text read this name). The
    full PHH stored with each hand, which nobody is sent, is written again with the
    label by a task, once this is committed: a member's thousands of hands are not
    replayed while they wait."""
    rows = HandPlayer.objects.filter(user=user)
    hand_ids = sorted(set(rows.values_list("hand_id", flat=True)))
    renamed = rows.update(name=label)
    if hand_ids and _scheduler is not None:
        scheduler = _scheduler
        for start in range(0, len(hand_ids), REWRITE_BATCH):
            batch = hand_ids[start : start + REWRITE_BATCH]
            transaction.on_commit(partial(scheduler, batch))
    elif hand_ids:
        log.error("no scheduler rewrites stored histories; %s keep the old name", len(hand_ids))
    return renamed


def stored_histories_rewrite(hand_ids: Sequence[int]) -> int:
    """The stored PHH of each of ``hand_ids`` written again with its players' names as
    they are now, as ``hand_end`` wrote it; returns how many changed."""
    players = HandPlayer.objects.order_by("seat")
    hands = (
        Hand.objects.filter(pk__in=hand_ids, ended_at__isnull=False)
        .exclude(phh="")
        .select_related("table", "table__tournament")
        .prefetch_related(Prefetch("players", queryset=players))
    )
    changed = []
    for hand in hands:
        state = engine.replay([engine.event_from_dict(e) for e in hand.events])
        names = {p.seat: p.name for p in hand.players.all()}
        phh = engine.to_phh(
            state,
            players=[names[n] for n in phh_order(state)],
            **projection.phh_fields(hand),
        )
        if phh != hand.phh:
            hand.phh = phh
            changed.append(hand)
    Hand.objects.bulk_update(changed, ["phh"])
    return len(changed)
