"""What every viewer is shown of a table's cut (docs/protocol.md, ``cut``).

``Table.cut`` (kept by tables/services/cut.py) holds, by hand reference:

- ``open``: ``{"hand", "commitments"}``, the hand whose commitments the table takes
  now, each by seat row id;
- ``sealed``: the next hand once its deck is sealed, with ``seal``, the closed list of
  ``commitments``, the ``values`` revealed so far and, once the deal has waited for
  a missing one, ``wait_until``; absent otherwise;
- ``dealt``: the cut of the hand on display, as ``engine.Cut.as_json`` gives it
  (the snapshot's ``record``; its ``dealt`` counts it).

The view names no seat and shows no value before the deal: the list of
commitments is public from the seal on, the values once the hand is dealt.
"""

from __future__ import annotations

from typing import Any


def public_cut(cut: dict[str, Any], *, is_hand_running: bool) -> dict[str, Any] | None:
    """The snapshot's ``cut``: None at a table that has never taken part in one.

    The record of the hand on display, with its values, comes only once the hand is
    over: a player checks it then. While the hand is played every frame carries just
    its count: the record in every frame of a hand cost the live path a sixth more
    processor time per action (docs/performance.md, session 27)."""
    if not cut:
        return None
    sealed, record = cut.get("sealed"), cut.get("dealt")
    return {
        "open": cut["open"]["hand"] if "open" in cut else None,
        "sealed": None
        if sealed is None
        else {
            "hand": sealed["hand"],
            "seal": sealed["seal"],
            "commitments": sorted(sealed["commitments"].values()),
        },
        "dealt": None if record is None else _count(record),
        "record": None if record is None or is_hand_running else record,
    }


def _count(record: dict[str, Any]) -> dict[str, Any]:
    values = [given["value"] for given in record["contributions"]]
    return {
        "hand": record["hand"],
        "cut_by": sum(1 for value in values if value is not None),
        "left_out": sum(1 for value in values if value is None),
        "uncut": record["uncut"],
    }
