"""A player's client in the players' cut, through the table services: what it keeps (its
value for each hand it committed to), its messages, and its check of a finished hand."""

from __future__ import annotations

from typing import Any

from engine.cut import contribution_commitment, new_value
from tables import selectors, services
from tables.models import Hand, Table
from tests.support.fairness_checks import answer_problems
from tests.tables.helpers import fresh
from tests.tables.test_fairness import api_hand


class Player:
    """What a player's client keeps: its value for each hand it committed to."""

    def __init__(self, user: Any, table: Table) -> None:
        self.user, self.table = user, table
        self.values: dict[str, str] = {}
        self.revealed: set[str] = set()

    def commit(self) -> str:
        ref = fresh(self.table).cut["open"]["hand"]
        self.values[ref] = new_value()
        commitment = contribution_commitment(ref, self.values[ref])
        services.cut_send(table_id=self.table.pk, user=self.user, commit=(ref, commitment))
        return ref

    def reveal(self) -> None:
        sealed = selectors.table_snapshot(table_id=self.table.pk, user=self.user)["cut"]["sealed"]
        ref = sealed["hand"]
        services.cut_send(table_id=self.table.pk, user=self.user, reveal=(ref, self.values[ref]))

    def checks(self, hand: Hand, seal_shown: str | None, *, own: bool = True) -> list[str]:
        """The player's check of a finished hand: the cards it saw, the seal it was shown
        in the pause before the deal, and (``own``) that its value was used."""
        body = api_hand(self.user, hand)
        value = self.values.get(body["fairness"]["cut"]["hand"]) if own else None
        return answer_problems(body, published_commitment=seal_shown, own_value=value)

    def take_part(self) -> None:
        """What the page does between hands: reveal for the sealed hand when its
        commitment is on the list, commit for the open one."""
        cut = fresh(self.table).cut
        sealed = cut.get("sealed")
        if sealed and sealed["hand"] in self.values:
            mine = contribution_commitment(sealed["hand"], self.values[sealed["hand"]])
            if mine in sealed["commitments"].values() and mine not in self.revealed:
                self.reveal()
                self.revealed.add(mine)
        if cut["open"]["hand"] not in self.values:
            self.commit()
