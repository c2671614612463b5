"""The players' part in the cut (tables/services/cut.py): a commitment to a value for
the hand open for them, and the value for the hand sealed.

Commitments and values change no view, so they are saved under the table's lock
without a new ``seq`` or a broadcast; only a deal that a last value lets go (the
deal was waiting for it) is a change of its own.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

import engine
from accounts.models import User
from tables.errors import BadCut, NotSeated, StaleCut
from tables.services import play as p
from tables.services.cut import is_waiting_for_values, open_for_commitments
from tables.sql import save_fields


def cut_send(
    *,
    table_id: int,
    user: User,
    commit: tuple[str, str] | None = None,
    reveal: tuple[str, str] | None = None,
) -> None:
    """The seated ``user`` commits to a value for the open hand (``(ref, commitment)``)
    and/or reveals its value for the sealed one (``(ref, value)``): both or neither
    are kept."""
    with transaction.atomic():
        play = p.lock(table_id)
        seat = play.seat_of(user)
        if seat is None or seat.is_bot:
            raise NotSeated()
        open_for_commitments(play)
        cut: dict[str, Any] = play.table.cut
        key = str(seat.pk)
        if reveal is not None:
            cut = {**cut, "sealed": _revealed(cut.get("sealed"), key, *reveal)}
        if commit is not None:
            cut = {**cut, "open": _committed(cut["open"], key, *commit)}
        play.table.cut = cut
        sealed = cut.get("sealed")
        if sealed is not None and "wait_until" in sealed and not is_waiting_for_values(play):
            p.deal(play)  # the last value the deal waited for
            p.commit(play)
        else:
            save_fields(play.table, ["cut"])


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
