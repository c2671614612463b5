"""The players' part in the cut (tables/services/cut.py): a commitment to a value for
the hand open for them, and the value for the hand sealed.

Commitments and values change no view, so they are saved under the table's lock
without a new ``seq`` or a broadcast; a deal that a last value lets go (the deal
was waiting for it) is the table's wake-up, a change of its own.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

import engine
from accounts.models import User
from config.adapters.compiled_query import CompiledQuery
from tables import wakeups
from tables.errors import BadCut, NotSeated, StaleCut, TableNotFound
from tables.models import Seat, Table
from tables.services.cut import missing_values
from tables.sql import save_fields

_table_locked = CompiledQuery(
    lambda table_id: (
        Table.objects.select_for_update().only("id", "seq", "cut", "wake_at").filter(pk=table_id)
    )
)
_seat_of = CompiledQuery(
    lambda table_id, user_id: Seat.objects.filter(
        table_id=table_id, user_id=user_id, is_bot=False
    ).only("id")
)


def cut_send(
    *,
    table_id: int,
    user: User,
    commit: tuple[str, str] | None = None,
    reveal: tuple[str, str] | None = None,
) -> None:
    """The seated ``user`` commits to a value for the open hand (``(ref, commitment)``)
    and/or reveals its value for the sealed one (``(ref, value)``): both or neither
    are kept.

    Every seated player sends one as a hand ends, all at once: so this locks the
    table's row alone (no seats, no hand, nothing a view is built from) and writes
    one column. Only the table's row is locked, so a tournament's order of locks is
    kept; a deal this value lets go runs as the table's wake-up, which locks in
    that order."""
    with transaction.atomic():
        found = _table_locked.rows(table_id)
        if not found:
            raise TableNotFound()
        table = found[0]
        seats = _seat_of.rows(table_id, user.pk)
        if not seats:
            raise NotSeated()
        cut: dict[str, Any] = table.cut
        if "open" not in cut:
            raise StaleCut("This table takes no cut yet: its first deck is sealed as it deals.")
        key = str(seats[0].pk)
        if reveal is not None:
            cut = {**cut, "sealed": _revealed(cut.get("sealed"), key, *reveal)}
        if commit is not None:
            cut = {**cut, "open": _committed(cut["open"], key, *commit)}
        table.cut = cut
        sealed = cut.get("sealed")
        if sealed is not None and "wait_until" in sealed and not missing_values(sealed):
            table.wake_at = timezone.now()  # the deal waited for this last value
            save_fields(table, ["cut", "wake_at"])
            wake = wakeups.Wake(table.pk, table.seq, table.wake_at)
            transaction.on_commit(lambda: wakeups.request(wake))
        else:
            save_fields(table, ["cut"])


def _revealed(sealed: dict[str, Any] | None, key: str, ref: str, value: str) -> dict[str, Any]:
    if sealed is None or sealed["hand"] != ref:
        raise StaleCut()
    commitment = sealed["commitments"].get(key)
    if commitment is None:
        raise StaleCut("Your commitment came after this hand's list closed; it cuts the next.")
    try:
        opens = engine.check_contribution(ref, commitment, value)
    except engine.MalformedCut as error:
        raise BadCut(str(error)) from None
    if not opens:
        raise BadCut()
    return {**sealed, "values": {**sealed["values"], key: value}}


def _committed(open_: dict[str, Any], key: str, ref: str, commitment: str) -> dict[str, Any]:
    if open_["hand"] != ref:
        raise StaleCut()
    try:
        engine.check_contribution(ref, commitment, "0" * 64)  # its form only
    except engine.MalformedCut as error:
        raise BadCut(str(error)) from None
    return {**open_, "commitments": {**open_["commitments"], key: commitment}}
