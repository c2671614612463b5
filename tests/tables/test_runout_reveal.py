"""An all-in run-out is revealed by the snapshots themselves, street by street
(docs/rules.md rule 30): a client reading the frames learns no board card, winner,
hand name or stack change before the felt shows it."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from asgiref.sync import sync_to_async
from django.utils import timezone
from rest_framework.test import APIClient

import engine
from tables import services
from tables.models import Hand, Seat
from tables.play import hand_state
from tables.snapshot import build_snapshot
from tests.support import wait_for
from tests.tables.helpers import act, chips_on_table, deal, fresh, friends_table, state_of
from tests.tables.sockets import Client

pytestmark = pytest.mark.django_db(transaction=True)

STREET = 0.4  # seconds between the reveal's steps in these tests

# What the felt shows, step by step, of an all-in before the flop run twice:
# (first board's cards, second board's cards).
RUN_TWICE_STEPS = [(0, 0), (3, 0), (4, 0), (5, 0), (5, 3), (5, 4), (5, 5)]


def all_in_preflop(table) -> None:
    while (legal := engine.legal_actions(state_of(table))).actor is not None:
        if legal.max_raise_to is None:
            act(table, "call")
        else:
            act(table, "raise", legal.max_raise_to)


def snapshot_for(table, user=None) -> dict[str, Any]:
    table = fresh(table)
    seats = {seat.number: seat for seat in Seat.objects.filter(table=table)}
    viewer = next((seat for seat in seats.values() if user and seat.user_id == user.pk), None)
    return build_snapshot(table, seats, hand_state(table), viewer, timezone.now())


def boards(seen: dict[str, Any]) -> tuple[int, int]:
    return len(seen["hand"]["board"]), len(seen["hand"]["second_board"])


def assert_nothing_told_early(seen: dict[str, Any], chips: int) -> None:
    """A frame before the result: no winner, no chips paid, no name for a board not
    complete, and every chip still in the pot or behind."""
    hand = seen["hand"]
    assert hand["winners"] == [] and not hand["is_over"]
    assert hand["is_revealing"]
    assert not [e for e in hand["log"] if e["kind"] in ("pot_awarded", "hand_ended")]
    assert [s["stack"] for s in seen["seats"] if s["occupied"]] == [0, 0], "all-in till paid"
    assert sum(pot["amount"] for pot in hand["pots"]) == chips
    first, second = boards(seen)
    if first < 5:
        assert seen["your_hand"] is None
    if second < 5:
        assert seen["your_hand_second_board"] is None
    assert seen["waiting_for"] is None and seen["next_hand_at"] is None


def is_run_out(seen: dict[str, Any]) -> bool:
    """Every hand turned up and the run-outs chosen: the board is being run out."""
    cards = [s["cards"] for s in seen["seats"] if s["occupied"]]
    return all(cards) and seen["hand"]["runout"] is None


async def reveal_frames(client: Client, seconds: float = 30) -> list[dict[str, Any]]:
    """The snapshots ``client`` gets until the one with the hand's winners."""
    seen: list[dict[str, Any]] = []
    while not seen or not seen[-1]["hand"]["winners"]:
        seen.append(await client.snapshot(timeout=seconds))
    return seen


async def test_a_hand_run_twice_is_revealed_frame_by_frame_to_every_viewer(
    celery_worker, alice, bob, carol, settings, close_database_connections
):
    settings.TABLES_RUNOUT_STREET_SECONDS = STREET
    table = await sync_to_async(friends_table)(
        alice, bob, offers_run_it_twice=True, starting_stack=1500
    )
    await sync_to_async(wait_for)(lambda: fresh(table).hand_number == 1)  # the worker deals
    players = [await Client.open(alice, table.pk), await Client.open(bob, table.pk)]
    spectator = await Client.open(carol, table.pk)
    await sync_to_async(all_in_preflop)(table)
    for client in players:
        await client.send({"type": "run_it_twice", "run_twice": True})
    started = time.monotonic()
    frames = await asyncio.gather(*(reveal_frames(c) for c in [*players, spectator]))
    took = time.monotonic() - started

    for client, seen in zip([*players, spectator], frames, strict=True):
        first = next(i for i, s in enumerate(seen) if is_run_out(s))
        assert not any(s["hand"]["winners"] for s in seen[:first])
        *before, result = seen[first:]
        steps = list(dict.fromkeys(boards(s) for s in before))
        assert steps == RUN_TWICE_STEPS, client.name
        for shown in before:
            assert_nothing_told_early(shown, 3000)
            cards = [s["cards"] for s in shown["seats"] if s["occupied"]]
            assert all(c and len(c) == 2 for c in cards), "turned up at the all-in (rule 14)"
        assert boards(result) == (5, 5) and not result["hand"]["is_revealing"]
        assert {w["board"] for w in result["hand"]["winners"]} == {1, 2}
        assert sum(s["stack"] for s in result["seats"] if s["occupied"]) == 3000
    # six streets, then the result: each a street's time after the one before
    assert took >= 6 * STREET
    alice_last = frames[0][-1]
    assert alice_last["your_hand"] and alice_last["your_hand_second_board"]
    for client in [*players, spectator]:
        await client.close()


def test_each_step_is_applied_by_the_sweep_when_its_task_is_lost(alice, bob, settings):
    """No worker runs here: the sweep alone (what runs when a task is lost) moves the
    reveal on, one step per due time, and the next hand waits for the result plus the
    showdown pause."""
    settings.TABLES_RUNOUT_STREET_SECONDS = 1.0
    settings.TABLES_SHOWDOWN_SECONDS = 5.0
    table = friends_table(alice, bob, offers_run_it_twice=True, starting_stack=1500)
    deal(table)
    all_in_preflop(table)
    services.runout_answer(table_id=table.pk, user=alice, run_twice=True)
    services.runout_answer(table_id=table.pk, user=bob, run_twice=True)
    assert not Hand.objects.filter(table=table, ended_at__isnull=False).exists()
    api = APIClient()
    api.force_authenticate(alice)
    assert api.get("/api/hands/").json()["results"] == [], "no result before the felt's"
    now = timezone.now()
    seen = [snapshot_for(table, alice)]
    assert services.table_wake(table_id=table.pk, seq=fresh(table).seq) is None  # not due
    for step in range(1, 8):
        with time_machine.travel(now + timedelta(seconds=step + 0.01), tick=False):
            tasks_lost = sweep_tables()
            assert tasks_lost == 1, f"step {step}"
        seen.append(snapshot_for(table, alice))
    assert [boards(s) for s in seen] == [*RUN_TWICE_STEPS, (5, 5)]
    for shown in seen[:-1]:
        assert_nothing_told_early(shown, 3000)
    result = seen[-1]
    assert result["hand"]["winners"] and chips_on_table(table) == 3000
    ended = fresh(table)
    hand = Hand.objects.get(table=table, number=ended.hand_number)
    assert hand.ended_at is not None and len(api.get("/api/hands/").json()["results"]) == 1
    if ended.next_hand_at is not None:  # nobody busted: the next hand after the pause
        assert (ended.next_hand_at - hand.ended_at).total_seconds() == pytest.approx(5.0)


def sweep_tables() -> int:
    from tables.tasks import sweep

    return sweep()


def test_a_player_leaving_during_the_reveal_leaves_with_the_chips_won(alice, bob, settings):
    """The hand is still in play while it is revealed: a seat left meanwhile is
    cashed out at the result, with the stack the hand gave it."""
    settings.TABLES_RUNOUT_STREET_SECONDS = 1.0
    table = friends_table(alice, bob, starting_stack=1500)
    deal(table)
    all_in_preflop(table)
    assert fresh(table).runout_revealed == 0
    services.seat_leave(table_id=table.pk, user=alice)
    assert Seat.objects.filter(table=table, user=alice).exists(), "not before the result"
    now = timezone.now()
    for step in range(1, 5):
        with time_machine.travel(now + timedelta(seconds=step + 0.01), tick=False):
            assert services.table_wake(table_id=table.pk, seq=fresh(table).seq)
    assert fresh(table).runout_revealed is None
    assert not Seat.objects.filter(table=table, user=alice).exists()
    assert chips_on_table(table) + cashed_out(table, alice) == 3000


def cashed_out(table, user) -> int:
    from tables.models import ChipMovement

    rows = ChipMovement.objects.filter(table=table, user=user, kind="cash_out")
    return sum(rows.values_list("amount", flat=True))
