"""Helpers shared by the table tests: tables set up through the services, chips counted."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections

import engine
from engine.replay import action_of
from tables import services
from tables.models import Hand, Seat, Table
from tables.play import hand_state
from tables.snapshot import decision_id


def friends_table(*players: Any, **settings: Any) -> Table:
    """A friends' table with ``players`` in seats 0, 1, ... (no hand dealt yet)."""
    settings.setdefault("name", "Friday game")
    table = services.table_create(owner=players[0], **settings)
    for number, user in enumerate(players):
        services.seat_take(table_id=table.pk, user=user, seat=number)
    return Table.objects.get(pk=table.pk)


def fresh(table: Table) -> Table:
    return Table.objects.get(pk=table.pk)


def state_of(table: Table) -> engine.HandState:
    state = hand_state(fresh(table))
    assert state is not None
    return state


def deal(table: Table) -> engine.HandState:
    services.hand_start(table_id=table.pk, seq=fresh(table).seq)
    return state_of(table)


def user_to_act(table: Table) -> Any:
    state = state_of(table)
    return Seat.objects.get(table=table, number=state.actor).user


def decision_of(table: Table) -> str:
    """The decision pending at the table, as its snapshots name it."""
    table = fresh(table)
    decision = decision_id(table, hand_state(table))
    assert decision is not None, "no decision is pending"
    return decision


def act(table: Table, action: str, amount: int | None = None) -> int:
    """The player to act does ``action``, naming the pending decision."""
    user, decision = user_to_act(table), decision_of(table)
    return services.hand_act(
        table_id=table.pk, user=user, action=action, amount=amount, decision=decision
    )


def chips_on_table(table: Table) -> int:
    """Stacks behind plus everything in the middle: constant within a hand (rule 16)."""
    state = hand_state(fresh(table))
    seats = {s.number: s.stack for s in Seat.objects.filter(table=table)}
    if state is None or state.is_over:
        return sum(seats.values())
    in_hand = sum(state.stacks) + sum(state.contributed)
    return in_hand + sum(chips for n, chips in seats.items() if not state.is_dealt_in[n])


def deal_first_card_from_the_bottom(hand: Hand) -> None:
    """Rewrite a stored hand as if the server had dealt its first card from the bottom of
    the deck (a card nobody saw) after sealing the deck, and played it the same way."""
    state = engine.replay([engine.event_from_dict(e) for e in hand.events])
    deck = list(state.deck)
    deck[0], deck[-1] = deck[-1], deck[0]
    start = state.events[0]
    assert isinstance(start, engine.HandStarted)
    swapped = engine.new_hand(
        start.stacks,
        start.button,
        small_blind=start.small_blind,
        big_blind=start.big_blind,
        ante=start.ante,
        deck=deck,
    )
    for event in state.events:
        if isinstance(event, engine.PlayerActed):
            swapped = engine.apply_action(swapped, action_of(event))
    Hand.objects.filter(pk=hand.pk).update(events=[e.to_dict() for e in swapped.events])


def in_threads(workers: list[Callable[[], None]], *, timeout: float) -> list[BaseException]:
    """Run every worker in its own thread (and database connection) at once; the errors
    they raised. A thread still running after ``timeout`` seconds fails the test."""
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(workers))

    def run(worker: Callable[[], None]) -> None:
        barrier.wait()
        try:
            worker()
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(w,)) for w in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    assert not any(t.is_alive() for t in threads), "a thread hung: a deadlock?"
    return errors
