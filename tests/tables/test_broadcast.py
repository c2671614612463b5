"""What leaves a committed change cheaply: wake tasks queued only when needed, and one
group message per change holding each view encoded once, from which every socket
sends its own member's view."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from config.platform import broadcast
from tables import messages as table_messages
from tables import selectors, services, tasks
from tables.groups import public_group
from tables.play import hand_state
from tests.tables.helpers import act, deal, fresh, friends_table
from tests.tables.sockets import Client

# --- wake tasks --------------------------------------------------------------------


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Every wake task queued, as (table id, seq, token), instead of sending it to Celery."""
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(
        tasks.wake, "apply_async", lambda args, countdown: calls.append(tuple(args))
    )
    return calls


@pytest.mark.django_db(transaction=True)  # on_commit runs
def test_actions_that_only_push_the_deadline_later_queue_no_new_wake_task(alice, bob, queued):
    table = friends_table(alice, bob)
    deal(table)
    queued.clear()
    act(table, "call")
    act(table, "check")
    assert queued == [], "the task queued for the first deadline is still ahead of these"


@pytest.mark.django_db(transaction=True)  # on_commit runs
def test_an_earlier_wake_up_is_always_queued(alice, bob, queued):
    table = friends_table(alice, bob)
    deal(table)
    queued.clear()
    act(table, "fold")  # the hand is over: the next one is due at once, before the deadline
    assert [(table_id, seq) for table_id, seq, _ in queued] == [(table.pk, fresh(table).seq)]


@pytest.mark.django_db(transaction=True)  # on_commit runs
def test_the_last_queued_task_queues_the_next_when_it_finds_the_table_moved_on(alice, bob, queued):
    table = friends_table(alice, bob)
    deal(table)
    [(_, first_seq, token)] = queued[-1:]
    act(table, "call")
    queued.clear()

    assert tasks.wake(table.pk, first_seq, token) is None  # not due, and moved on
    assert [(table_id, seq) for table_id, seq, _ in queued] == [(table.pk, fresh(table).seq)]


@pytest.mark.django_db(transaction=True)  # on_commit runs
def test_a_wake_task_that_is_not_the_last_queued_queues_nothing(alice, bob, queued):
    table = friends_table(alice, bob)
    deal(table)
    first_seq = fresh(table).seq
    act(table, "call")
    queued.clear()
    assert tasks.wake(table.pk, first_seq, "some-older-task") is None
    assert queued == []


@pytest.mark.django_db(transaction=True)  # on_commit runs
def test_without_a_note_of_the_pending_task_every_change_queues_one(alice, bob, queued):
    from django.core.cache import cache

    table = friends_table(alice, bob)
    deal(table)
    cache.delete(tasks.wake_key(table.pk))  # as if the cache had lost it
    queued.clear()
    act(table, "call")
    assert len(queued) == 1


# --- sockets --------------------------------------------------------------------------

sockets = pytest.mark.django_db(transaction=True)


@sockets
async def test_a_player_who_stands_up_keeps_seeing_the_table_as_a_spectator(
    alice, bob, close_database_connections
):
    table = await sync_to_async(friends_table)(alice, bob)
    alice_socket = await Client.open(alice, table.pk)
    assert alice_socket.table["your_seat"] == 0

    await alice_socket.send({"type": "leave"})
    after_leaving = await alice_socket.snapshot(table.seq + 1)
    assert after_leaving["your_seat"] is None and not after_leaving["seats"][0]["occupied"]

    seq = await sync_to_async(services.seat_sit_out)(table_id=table.pk, user=bob)
    later = await alice_socket.snapshot(seq)
    assert later["seats"][1]["is_sitting_out"], "alice still hears of changes after leaving"
    await alice_socket.close()


@sockets
async def test_a_seated_player_gets_each_change_once_and_only_their_own_view(
    alice, bob, carol, close_database_connections
):
    table = await sync_to_async(friends_table)(alice, bob)
    alice_socket = await Client.open(alice, table.pk)
    spectator = await Client.open(carol, table.pk)
    first = alice_socket.table["seq"]
    for _ in range(3):
        await sync_to_async(services.seat_sit_out)(table_id=table.pk, user=bob)
        await sync_to_async(services.seat_sit_in)(table_id=table.pk, user=bob)
    await spectator.snapshot(first + 6)
    await alice_socket.snapshot(first + 6)
    assert await alice_socket.is_quiet()
    seqs = [frame["seq"] for frame in alice_socket.frames]
    assert seqs == sorted(set(seqs)), "no snapshot twice, none out of order"
    assert all(frame["table"]["your_seat"] == 0 for frame in alice_socket.frames)
    await alice_socket.close()
    await spectator.close()


# --- broadcasts from sync code (Celery) ------------------------------------------------


async def current_loop() -> Any:
    return asyncio.get_running_loop()


def test_broadcasts_from_sync_code_share_one_event_loop_per_process():
    """The channel layer keeps its Redis connections per loop: one loop, one connection."""
    background = broadcast.BackgroundLoop()
    first, second = background.run(current_loop(), 5), background.run(current_loop(), 5)
    assert first is second and first.is_running()


def test_a_forked_process_gets_an_event_loop_of_its_own():
    background = broadcast.BackgroundLoop()
    parents = background.run(current_loop(), 5)
    background._pid = -1  # what a Celery pool process inherits: the parent's pid
    assert background.run(current_loop(), 5) is not parents


@pytest.mark.django_db
def test_every_socket_of_a_view_gets_the_same_frame_text(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    table = fresh(table)
    seats = selectors.table_seats(table)
    [(group, change)] = table_messages.snapshot_messages(
        table, seats, hand_state(table), timezone.now()
    )
    assert group == public_group(table.pk)
    frame = json.loads(change["frame"])
    assert frame["type"] == "snapshot" and frame["seq"] == change["seq"] == table.seq
    assert all(seat.get("cards") is None for seat in frame["table"]["seats"])
    assert sorted(change["frames"]) == sorted([str(alice.pk), str(bob.pk)])
    own = json.loads(change["frames"][str(alice.pk)])["table"]
    assert own["your_seat"] == 0 and own["seats"][0]["cards"]
    assert own["seats"][1]["cards"] is None, "bob's cards are in bob's frame only"


async def test_sync_code_called_for_a_socket_sends_through_that_sockets_event_loop():
    """The consumer names its loop; asgiref carries it into the database thread, so a
    commit there hands its broadcast to the loop instead of waiting for it."""
    assert await sync_to_async(broadcast.server_loop)() is None, "no socket named a loop yet"
    broadcast.serve_from_running_loop()
    assert await sync_to_async(broadcast.server_loop)() is asyncio.get_running_loop()


@pytest.mark.django_db(transaction=True)  # on_commit runs
async def test_a_command_s_broadcast_is_kept_for_its_socket_which_then_sends_it(alice, bob):
    """Inside ``collected`` the commit's messages wait in the outbox, and nothing reaches
    the sockets until ``relay`` sends them from the loop."""
    table = await sync_to_async(friends_table)(alice, bob)
    await sync_to_async(deal)(table)
    watcher = await Client.open(bob, table.pk)
    seq = watcher.table["seq"]
    broadcast.serve_from_running_loop()
    outbox: broadcast.Messages = []

    def fold_while_collecting() -> None:
        with broadcast.collected(outbox):
            act(table, "fold")

    await sync_to_async(fold_while_collecting)()

    assert {group for group, _ in outbox} == {public_group(table.pk)}
    assert all(message["seq"] == seq + 1 for _, message in outbox)
    assert await watcher.is_quiet(), "kept, not sent"
    broadcast.relay(outbox)
    assert (await watcher.snapshot())["seq"] == seq + 1
    await watcher.close()
