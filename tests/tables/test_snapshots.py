"""One broadcast's snapshots, built together, match each viewer's snapshot built alone."""

from __future__ import annotations

import json
from random import Random
from typing import Any

import pytest
from django.utils import timezone

import engine
from engine.bots import choose_action
from tables import selectors, services
from tables.groups import public_group
from tables.messages import snapshot_messages
from tables.models import Seat
from tables.play import hand_state
from tables.snapshot import snapshot_frame
from tests.tables.helpers import deal, decision_of, fresh, friends_table, state_of

pytestmark = pytest.mark.django_db

ACTION_NAMES = {engine.Fold: "fold", engine.Check: "check", engine.Call: "call"}


def broadcast_tables(table: Any) -> dict[int | None, str]:
    """What the broadcast after a change sends, keyed by the user it is for (None: public)."""
    table = fresh(table)
    seats = selectors.table_seats(table)
    [(group, message)] = snapshot_messages(table, seats, hand_state(table), timezone.now())
    assert group == public_group(table.pk)
    frames: dict[int | None, str] = {None: message["frame"]}
    frames.update((int(user_id), frame) for user_id, frame in message["frames"].items())
    sent: dict[int | None, str] = {}
    for user_id, frame in frames.items():
        table_view = json.loads(frame)["table"]
        sent[user_id] = json.dumps({**table_view, "server_time": None})
    return sent


def built_alone(table: Any, user: Any) -> str:
    snapshot = selectors.table_snapshot(table_id=table.pk, user=user)
    return json.dumps({**snapshot, "server_time": None})


def play_a_random_move(table: Any, rng: Random) -> None:
    state = state_of(table)
    move = choose_action(engine.view(state, state.actor), rng)
    services.hand_act(
        table_id=table.pk,
        user=Seat.objects.get(table=table, number=state.actor).user,
        action="raise" if isinstance(move, engine.RaiseTo) else ACTION_NAMES[type(move)],
        amount=move.amount if isinstance(move, engine.RaiseTo) else None,
        decision=decision_of(table),
    )


@pytest.mark.parametrize("seed", range(4))
def test_every_viewer_gets_the_same_snapshot_as_when_built_alone(alice, bob, carol, seed):
    table = friends_table(alice, bob, carol)
    rng = Random(seed)
    deal(table)
    steps = 0
    while True:
        sent = broadcast_tables(table)
        assert set(sent) == {None, alice.pk, bob.pk, carol.pk}
        assert sent[None] == built_alone(table, None)
        for user in (alice, bob, carol):
            assert sent[user.pk] == built_alone(table, user)
        if state_of(table).is_over:
            break
        play_a_random_move(table, rng)
        steps += 1
    assert steps >= 2


@pytest.mark.parametrize("seed", range(3))
def test_each_viewer_sees_their_own_cards_and_only_cards_turned_up(alice, bob, carol, seed):
    """The seats every viewer shares are the spectator's: what sets a viewer's apart
    is their own seat alone, checked here against the engine's view for that seat."""
    table = friends_table(alice, bob, carol)
    rng = Random(seed)
    deal(table)
    seat_of = {user.pk: number for number, user in enumerate((alice, bob, carol))}
    while True:
        state = state_of(table)
        for user_id, sent in broadcast_tables(table).items():
            view = json.loads(sent)
            own = seat_of.get(user_id) if user_id is not None else None
            expected = engine.view(state, own)["seats"][:3]
            played = view["seats"][:3]  # the others are empty
            assert [entry["cards"] for entry in played] == [seat["cards"] for seat in expected]
            assert [entry["is_you"] for entry in played] == [n == own for n in range(3)]
            assert view["your_seat"] == own
        if state.is_over:
            break
        play_a_random_move(table, rng)


def test_a_snapshot_frame_reads_back_as_the_table_with_names_as_written(alice, bob):
    alice.display_name = "Zoë Ångström 🂡"
    alice.save(update_fields=["display_name"])
    table = friends_table(alice, bob)
    deal(table)
    snapshot = selectors.table_snapshot(table_id=table.pk, user=bob)

    frame = json.loads(snapshot_frame(snapshot))

    assert frame == {"type": "snapshot", "seq": snapshot["seq"], "table": snapshot}
    assert frame["table"]["seats"][0]["name"] == "Zoë Ångström 🂡"
