"""A load client's part in the players' cut, as the table page plays it
(static/js/table.js; docs/protocol.md, ``cut``): a commitment for the hand open for
them, the value once that hand is sealed with the commitment on its list."""

from __future__ import annotations

from typing import Any

from engine.cut import contribution_commitment, new_value

KEPT = 8  # hands remembered: the open one, the sealed one, and a few behind


class CutHand:
    """The values one player drew, by hand reference, and which it revealed."""

    def __init__(self) -> None:
        self.values: dict[str, str] = {}
        self.revealed: set[str] = set()

    def messages(self, table: dict[str, Any]) -> list[dict[str, Any]]:
        """The ``cut`` message this snapshot calls for, if any (one at most)."""
        cut = table.get("cut")
        if not cut or table.get("your_seat") is None:
            return []
        message: dict[str, Any] = {}
        sealed = cut.get("sealed")
        if sealed and sealed["hand"] in self.values and sealed["hand"] not in self.revealed:
            ref = sealed["hand"]
            if contribution_commitment(ref, self.values[ref]) in sealed["commitments"]:
                message["reveal"] = {"hand": ref, "value": self.values[ref]}
                self.revealed.add(ref)
        ref = cut.get("open")
        if ref and ref not in self.values:
            self.values[ref] = new_value()
            commitment = contribution_commitment(ref, self.values[ref])
            message["commit"] = {"hand": ref, "commitment": commitment}
            for old in list(self.values)[:-KEPT]:
                del self.values[old]
                self.revealed.discard(old)
        return [{"type": "cut", **message}] if message else []
