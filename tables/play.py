"""A locked table in the middle of a change: its row, seats and hand (``Play``),
and the hand rebuilt from a table's saved event log (``hand_state``).

The write path (``tables/services/play.py``) builds one per transaction; the
kinds (``tables/kinds.py``) answer questions about it; a snapshot builds one
from the saved rows to ask the same questions (why no hand is coming), so the
page and the write path can never disagree. It imports no service, so both
sides can use it.

Each process keeps the state it last replayed per table while the saved log is
unchanged, so a write and the snapshots after it replay a hand once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection

import engine
from accounts.models import User
from tables.models import Seat, Table
from tables.sql import update_statement

SEAT_FIELDS = [
    "stack",
    "is_sitting_out",
    "is_leaving",
    "is_removed",
    "wants_rebuy",
    "has_timed_out",
    "time_bank",
    "hands_since_refill",
    "wants_straddle",
    "chips_to_add",
    "has_missed_big_blind",
]


def is_away(seat: Seat) -> bool:
    """Dealt in but not deciding: folded on their turn, checked when free (rule 20)."""
    return seat.is_sitting_out or seat.is_leaving or seat.has_departed


def seat_values(seat: Seat) -> tuple[Any, ...]:
    return tuple(getattr(seat, name) for name in SEAT_FIELDS)


def seats_save(changed: list[tuple[int, tuple[Any, ...]]]) -> None:
    """Write each ``(pk, seat_values)`` in one statement run for every seat: a hand's
    start and end change every seat (its stack, its hands since a refill), and an
    ORM ``update`` per seat built its SQL again each time, inside the writer's lock."""
    if changed:
        with connection.cursor() as cursor:
            statement = update_statement(Seat, SEAT_FIELDS)
            cursor.executemany(statement, [(*values, pk) for pk, values in changed])


# The table's columns ``commit`` compares with what was locked, by field name and
# column attribute. The hand's log is left out: it changes exactly when the hand's
# state does (``Play.hand_changed``), and comparing it would cost as much as writing it.
TABLE_FIELDS = [
    (f.name, f.attname)
    for f in Table._meta.concrete_fields
    if not f.primary_key and f.name != "hand_events"
]


# JSON columns the write path only ever replaces with a new value, never changes in
# place (tables/services/cut.py): compared by identity, not copied at every lock.
REPLACED_WHOLE = frozenset({"cut"})


def table_values(table: Table) -> dict[str, Any]:
    """The table's columns as locked, JSON ones copied: a list changed in place is a
    change too."""
    values = {}
    for name, attname in TABLE_FIELDS:
        value = getattr(table, attname)
        copies = isinstance(value, list | dict) and name not in REPLACED_WHOLE
        values[name] = _json_copy(value) if copies else value
    return values


def _json_copy(value: Any) -> Any:
    """A copy of JSON data, lists and dicts all the way down (``copy.deepcopy`` took
    several times longer on every command, for four short lists and a dict)."""
    if isinstance(value, list):
        return [_json_copy(item) for item in value]
    if isinstance(value, dict):
        return {key: _json_copy(item) for key, item in value.items()}
    return value


@dataclass
class Play:
    """A locked table with its seats and hand, for the length of one transaction."""

    table: Table
    seats: dict[int, Seat]
    state: engine.HandState | None
    now: datetime
    removed: list[Seat] = field(default_factory=list)
    loaded: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    loaded_table: dict[str, Any] = field(default_factory=dict)
    loaded_state: engine.HandState | None = None

    def __post_init__(self) -> None:
        # What the table and each seat looked like when locked, so commit writes only
        # what changed: most actions change a few of the table's forty columns.
        self.loaded = {seat.pk: seat_values(seat) for seat in self.seats.values()}
        self.loaded_table = table_values(self.table)
        self.loaded_state = self.state

    @property
    def hand_changed(self) -> bool:
        """Whether the hand moved on since the lock (states are immutable values)."""
        return self.state is not self.loaded_state

    def table_changes(self) -> list[str]:
        """The table's fields that differ from the locked row (the log's not among them)."""
        return [
            name
            for name, attname in TABLE_FIELDS
            if (
                getattr(self.table, attname) is not self.loaded_table[name]
                if name in REPLACED_WHOLE
                else getattr(self.table, attname) != self.loaded_table[name]
            )
        ]

    @property
    def is_hand_running(self) -> bool:
        """A hand is in play, or its all-in run-out is still being revealed (rule 30):
        until its result is shown, nobody is paid and no seat changes hands."""
        if self.state is None:
            return False
        return not self.state.is_over or self.table.runout_revealed is not None

    def seat_of(self, user: User) -> Seat | None:
        return next((s for s in self.seats.values() if s.user_id == user.pk), None)

    def dealt_seats(self) -> list[int]:
        """Seats that may get cards in the next hand: chips (or chips bought, which
        arrive before it) and not leaving, sitting out or not. Which of them are dealt
        in is the kind's ``dealt_seats`` (a tournament: all, rule 20; a cash table: not
        those sitting out, rule 29)."""
        return sorted(
            n for n, s in self.seats.items() if s.stack + s.chips_to_add > 0 and not s.is_leaving
        )

    def actor_seat(self) -> Seat | None:
        if self.state is None or self.state.actor is None:
            return None
        return self.seats[self.state.actor]


# The state last loaded or saved for each table in this process, with the event
# log it was replayed from. Replaying is deterministic, so an equal log is the same
# state: comparing the logs costs a fraction of replaying one. A log that goes on
# from the remembered one (the table's other actions were served by another
# process, about half of them with two) is replayed from that state onward.
_recent_states: dict[int, tuple[list[dict[str, Any]], engine.HandState]] = {}
RECENT_STATES_MAX = 1024


def hand_state(table: Table) -> engine.HandState | None:
    """The current (or last finished) hand, rebuilt from its event log."""
    events = table.hand_events
    if not events:
        return None
    recent = _recent_states.get(table.pk)
    if recent is not None and recent[0] == events:
        return recent[1]
    if (
        recent is not None
        and len(recent[0]) < len(events)
        and events[: len(recent[0])] == recent[0]
    ):
        before = recent[1]
        added = [engine.event_from_dict(data) for data in events[len(before.events) :]]
        state = engine.replay_onward(before, [*before.events, *added])
    else:
        state = engine.replay([engine.event_from_dict(data) for data in events])
    remember_hand_state(table, state)
    return state


def event_log(
    saved: list[dict[str, Any]], before: engine.HandState | None, after: engine.HandState
) -> list[dict[str, Any]]:
    """``after``'s event log as JSON data. ``saved`` is ``before``'s (the log the
    state was locked with): when ``after`` only added events to it, only those are
    converted, not the whole hand again at each action."""
    kept = len(before.events) if before is not None else 0
    # Events are shared between the states of one hand, so this compares identities.
    if before is not None and after.events[:kept] == before.events:
        return [*saved, *(event.to_dict() for event in after.events[kept:])]
    return [event.to_dict() for event in after.events]


def remember_hand_state(table: Table, state: engine.HandState) -> None:
    """Note ``state`` as the one ``table.hand_events`` replays to (once it is saved)."""
    if len(_recent_states) >= RECENT_STATES_MAX:
        _recent_states.clear()
    _recent_states[table.pk] = (list(table.hand_events), state)
