"""A practice table never dead-ends: a busted player rebuys (by hand or by themselves),
busted bots get fresh stacks, and a table that deals nothing says why."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync

import engine
from tables import selectors, services
from tables.models import HandPlayer, Seat, Table
from tables.play import hand_state
from tests.tables.helpers import decision_of, fresh, friends_table, state_of
from tests.tables.sockets import Client

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]

SHORT_STACK = 30  # a big blind and a half: folding every hand, the blinds bust it soon


def seat_of(table: Table, user: Any = None, number: int | None = None) -> Seat:
    if user is not None:
        return Seat.objects.get(table=table, user=user)
    return Seat.objects.get(table=table, number=number)


def step(table: Table, player: Any, *, shoves: bool = False) -> str:
    """One thing due at ``table``, as its wake-up or its player would do it: the player
    folds (checks when free), or ``shoves`` all in (calls when she cannot raise); bots
    play, hands are dealt. Says what happened."""
    table = fresh(table)
    state = hand_state(table)
    if state is None or state.is_over:
        return services.table_wake(table_id=table.pk, seq=table.seq) or "nothing due"
    actor = seat_of(table, number=state.actor)
    if actor.is_bot:
        services.bot_act(table_id=table.pk, seq=table.seq)
        return "bot"
    legal = engine.legal_actions(state)
    action, amount = ("check" if legal.can_check else "fold"), None
    if shoves:
        action, amount = ("raise", legal.max_raise_to) if legal.max_raise_to else ("call", None)
        if action == "call" and legal.can_check:
            action = "check"
    services.hand_act(
        table_id=table.pk, user=player, action=action, amount=amount, decision=decision_of(table)
    )
    return action


def play_until_busted(table: Table, player: Any, number: int = 0, shoves: bool = False) -> None:
    """Play hands until seat ``number`` ends a hand with no chips (as the hand's history
    records it: a fresh stack may follow in the same transaction)."""
    for _ in range(2_000):
        if HandPlayer.objects.filter(hand__table=table, seat=number, final_stack=0).exists():
            return
        if step(table, player, shoves=shoves) == "nothing due":
            raise AssertionError(f"the table stopped: {view(table)['waiting_for']}")
    raise AssertionError("nobody busted")


def view(table: Table, user: Any = None) -> dict[str, Any]:
    return selectors.table_snapshot(table_id=table.pk, user=user)


def short_stacked(table: Table, number: int) -> None:
    """Between hands, the seat has a short stack (the table is otherwise as dealt)."""
    while not state_of(table).is_over:  # the first hand, dealt when the table opened
        step(table, Seat.objects.get(table=table, number=0).user)
    Seat.objects.filter(table=table, number=number).update(stack=SHORT_STACK)


def test_a_busted_practice_player_is_told_why_and_rebuys_from_the_socket(alice):
    table = services.table_create_practice(user=alice, bots=2)
    short_stacked(table, 0)
    play_until_busted(table, alice)
    assert step(table, alice) == "nothing due", "bots never play alone"
    waiting = view(table, alice)
    assert waiting["waiting_for"] == "Waiting for alice to rebuy"
    assert waiting["next_hand_at"] is None and waiting["rebuys"] is True
    assert fresh(table).wake_at is None

    async def rebuy() -> dict[str, Any]:
        client = await Client.open(alice, table.pk)
        await client.send({"type": "rebuy"})
        seen = await client.snapshot(seq=client.table["seq"] + 1)
        await client.close()
        return seen

    seen = async_to_sync(rebuy)()
    assert seen["seats"][0]["stack"] == 1500
    assert seen["next_hand_at"] is not None and seen["waiting_for"] is None
    assert step(table, alice) == "hand_start"
    assert state_of(table).is_dealt_in[0], "she plays the next hand"


def test_automatic_rebuys_deal_a_fresh_stack_after_the_bust_and_are_remembered(alice):
    table = services.table_create_practice(user=alice, bots=1)
    assert view(table, alice)["auto_rebuy"] is False, "off until she turns it on"
    services.seat_auto_rebuy(table_id=table.pk, user=alice, is_on=True)
    short_stacked(table, 0)
    play_until_busted(table, alice)
    assert seat_of(table, alice).stack == 1500, "refilled in the hand's own transaction"
    assert fresh(table).next_hand_at is not None
    assert step(table, alice) == "hand_start" and state_of(table).is_dealt_in[0]

    services.seat_leave(table_id=table.pk, user=alice)
    again = services.table_create_practice(user=alice, bots=1)
    assert again.auto_rebuy and view(again, alice)["auto_rebuy"] is True, "remembered"


def test_turning_automatic_rebuys_on_while_busted_rebuys_at_once(alice):
    table = services.table_create_practice(user=alice, bots=2)
    short_stacked(table, 0)
    play_until_busted(table, alice)
    services.seat_auto_rebuy(table_id=table.pk, user=alice, is_on=True)
    assert seat_of(table, alice).stack == 1500
    assert fresh(table).next_hand_at is not None
    services.seat_auto_rebuy(table_id=table.pk, user=alice, is_on=False)
    assert view(table, alice)["auto_rebuy"] is False


def test_a_busted_bot_gets_a_fresh_stack_so_the_player_always_has_someone_to_play(alice):
    table = services.table_create_practice(user=alice, bots=1)
    short_stacked(table, 1)
    # The short bot can double up six times running (about one run in sixty) and bust
    # her first: then she rebuys by herself, and the bot is still the one to bust.
    services.seat_auto_rebuy(table_id=table.pk, user=alice, is_on=True)
    play_until_busted(table, alice, number=1, shoves=True)  # she puts the bot all in
    assert seat_of(table, number=1).stack == 1500
    assert fresh(table).next_hand_at is not None, "the next hand is coming"
    assert view(table, alice)["waiting_for"] is None


def test_automatic_rebuys_are_refused_where_they_are_not_offered(alice, bob):
    table = friends_table(alice, bob)

    async def refusals() -> list[str]:
        client = await Client.open(alice, table.pk)
        codes = [
            (await client.error({"type": "auto_rebuy", "on": True}))["code"],
            (await client.error({"type": "auto_rebuy", "on": "yes"}))["code"],
            (await client.error({"type": "auto_rebuy"}))["code"],
        ]
        await client.close()
        return codes

    before = fresh(table).seq
    assert async_to_sync(refusals)() == ["cannot_rebuy", "bad_message", "bad_message"]
    assert fresh(table).seq == before and not fresh(table).auto_rebuy
    assert view(table)["auto_rebuy"] is None


def test_a_practice_table_whose_player_sits_out_or_leaves_says_why(alice):
    table = services.table_create_practice(user=alice, bots=2)
    services.seat_sit_out(table_id=table.pk, user=alice)
    while not state_of(table).is_over:
        step(table, alice)
    assert step(table, alice) == "nothing due"
    assert view(table)["waiting_for"] == "Waiting for alice to come back"
    services.seat_leave(table_id=table.pk, user=alice)
    assert view(table)["waiting_for"] == "Bots play only while a person plays: waiting for a player"
