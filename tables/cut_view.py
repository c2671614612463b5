"""What every viewer is shown of a table's cut (docs/protocol.md, ``cut``).

``Table.cut`` (kept by tables/services/cut.py) holds, by hand reference:

- ``open``: ``{"hand", "commitments"}``, the hand whose commitments the table takes
  now, each by seat row id;
- ``sealed``: the next hand once its deck is sealed, with ``seal``, the closed list of
  ``commitments``, the ``values`` revealed so far and, once the deal has waited for
  a missing one, ``wait_until``; absent otherwise;
- ``dealt``: the cut of the hand on display, as ``engine.Cut.as_json`` gives it.

The view names no seat and shows no value before the deal: the list of
commitments is public from the seal on, the values once the hand is dealt.
"""

from __future__ import annotations

from typing import Any


def public_cut(cut: dict[str, Any]) -> dict[str, Any] | None:
    """The snapshot's ``cut``: None at a table that has never taken part in one."""
    if not cut:
        return None
    sealed = cut.get("sealed")
    return {
        "open": cut["open"]["hand"] if "open" in cut else None,
        "sealed": None
        if sealed is None
        else {
            "hand": sealed["hand"],
            "seal": sealed["seal"],
            "commitments": sorted(sealed["commitments"].values()),
        },
        "dealt": cut.get("dealt"),
    }
