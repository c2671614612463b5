"""The club tournament load test's client buys what the table page offers it
(``your_purchases``): a rebuy once per offer to a player out of chips, the add-on once;
a purchase or a message that crossed the offer's end or a move is no error."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from tables.loadtest.clients import Player, Stats
from tournaments.loadtest.mtt import Moves, MttClient, Purchases

pytestmark = pytest.mark.pure

UNTIL = "2026-11-29T10:00:20+00:00"


def client() -> tuple[MttClient, Stats, Moves, Purchases]:
    stats, moves, purchases = Stats(), Moves(), Purchases()
    player = Player(1, -1, "key", "loadtest-a")
    mtt = MttClient(
        player, "http://127.0.0.1:8000", stats, Random(1), moves=moves, purchases=purchases
    )
    return mtt, stats, moves, purchases


def snapshot(seq: int, purchases: dict[str, Any] | None) -> dict[str, Any]:
    """Between hands, nothing to decide: what the player may buy, if anything."""
    table = {"decision": None, "legal": None, "your_purchases": purchases}
    return {"type": "snapshot", "seq": seq, "table": table}


def offer(until: str | None) -> dict[str, Any]:
    rebuy = {"price": 100, "chips": 500, "left": 2, "until": until}
    return {"rebuy": rebuy, "add_on": None, "chips_coming": 0, "unit": "club points"}


def test_a_player_out_of_chips_rebuys_once_for_each_offer() -> None:
    mtt, _, _, purchases = client()
    assert mtt.on_frame(snapshot(1, offer(UNTIL)), 1.0) == [{"type": "rebuy"}]
    assert mtt.on_frame(snapshot(2, offer(UNTIL)), 1.1) == []  # the same offer, still shown
    coming = {**offer(None), "rebuy": None, "chips_coming": 500}
    assert mtt.on_frame(snapshot(3, coming), 1.2) == []  # bought: chips before the next hand
    assert mtt.on_frame(snapshot(4, offer(UNTIL)), 9.0) == [{"type": "rebuy"}]  # out again
    assert purchases.asked == 2


def test_a_short_stack_is_not_rebought_only_a_player_out_of_chips() -> None:
    mtt, _, _, purchases = client()
    assert mtt.on_frame(snapshot(1, offer(None)), 1.0) == []
    assert purchases.asked == 0


def test_the_add_on_is_taken_once_while_it_is_sold() -> None:
    mtt, _, _, purchases = client()
    add_on = {**offer(None), "rebuy": None, "add_on": {"price": 100, "chips": 500}}
    assert mtt.on_frame(snapshot(1, None), 1.0) == []
    assert mtt.on_frame(snapshot(2, add_on), 1.1) == [{"type": "add_on"}]
    assert mtt.on_frame(snapshot(3, add_on), 1.2) == []
    assert purchases.asked == 1


def test_a_purchase_past_its_offer_or_a_message_past_a_move_is_counted_not_an_error() -> None:
    mtt, stats, moves, purchases = client()
    mtt.on_frame({"type": "error", "code": "cannot_buy_chips", "message": "..."}, 1.0)
    mtt.on_frame({"type": "error", "code": "not_seated", "message": "..."}, 1.1)
    assert (purchases.crossed, moves.crossed) == (1, 1)
    assert not stats.has_errors
    mtt.on_frame({"type": "error", "code": "not_enough_points", "message": "..."}, 1.2)
    assert stats.server_errors == {"not_enough_points": 1}
