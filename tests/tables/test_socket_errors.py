"""Malformed, illegal and stale messages each get an error and change nothing."""

from __future__ import annotations

import json
from random import Random

import pytest
from asgiref.sync import sync_to_async

from tables import services
from tables.commands import COMMANDS
from tables.models import Seat, Table
from tests.tables.helpers import deal, fresh, friends_table
from tests.tables.sockets import Client

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]

MESSAGES = 2000


def heads_up_hand(alice, bob) -> Table:
    table = friends_table(alice, bob, seat_count=2)
    deal(table)
    return fresh(table)


def table_facts(table_id: int) -> tuple:
    table = Table.objects.get(pk=table_id)
    stacks = tuple(
        Seat.objects.filter(table=table).values_list("number", "stack", "is_sitting_out")
    )
    return table.seq, table.hand_events, table.deadline, stacks


GARBAGE = ["", "{", "not json", "[]", "3", "null", '"act"', "{'type': 'sit'}", "[{}]", "\x00"]
WRONG_VALUES = ["1", 1.5, None, True, [], {}, -1.0]


def random_bad_message(rng: Random, decision: str, legal: dict) -> tuple[object, bool, str, str]:
    """(message, is_raw_text, who sends it, the error code it must get).

    ``who`` is "actor", "waiting" (seated, not to act) or "spectator".
    """
    kind = rng.randrange(12)
    if kind == 0:
        text = rng.choice(GARBAGE) + "".join(rng.choice('{}[]":,ab1') for _ in range(3))
        try:  # the odd one parses ('"["'): JSON, but not a message
            json.loads(text)
        except ValueError:
            return text, True, rng.choice(["actor", "spectator"]), "bad_json"
        return text, True, rng.choice(["actor", "spectator"]), "bad_message"
    if kind == 1:
        return rng.choice([[], 7, "sit", None, [1, 2]]), False, "actor", "bad_message"
    if kind == 2:
        return {"type": rng.choice(["dance", "ACT", "", "fold"])}, False, "waiting", "unknown_type"
    if kind == 3:
        message = {"type": "sit", "seat": rng.choice(WRONG_VALUES)}
        return message, False, "spectator", "bad_message"
    if kind == 4:
        return (
            {"type": "sit", "seat": rng.choice([-3, -1, 2, 6, 99])},
            False,
            "spectator",
            "bad_seat",
        )
    if kind == 5:
        return {"type": "sit", "seat": rng.choice([0, 1])}, False, "spectator", "seat_taken"
    if kind == 6:
        return {"type": "sit", "seat": rng.randrange(2)}, False, "waiting", "already_seated"
    if kind == 7:
        message = {
            "type": "act",
            "action": rng.choice(["allin", "bet", 3, None]),
            "decision": decision,
        }
        if rng.random() < 0.5:
            message = {"type": "act", "action": "raise", "decision": decision}  # no amount
            message["amount"] = rng.choice([None, "100", 100.0, False])
        if rng.random() < 0.3:
            not_text = [value for value in WRONG_VALUES if not isinstance(value, str)]
            message = {"type": "act", "action": "call", "decision": rng.choice(not_text)}
        return message, False, "actor", "bad_message"
    if kind == 8:
        action = rng.choice(["fold", "call", "raise"])
        return (
            {"type": "act", "action": action, "amount": 60, "decision": decision},
            False,
            "waiting",
            ("not_your_turn"),
        )
    if kind == 9:
        return (
            {"type": "act", "action": "call", "decision": decision},
            False,
            "spectator",
            "not_seated",
        )
    if kind == 10:
        hand, events = (int(part) for part in decision.split("."))
        stale = rng.choice([f"{hand}.{events - rng.randint(1, 5)}", f"{hand - 1}.{events}"])
        if rng.random() < 0.3:  # a decision not yet reached is not one the player saw
            stale = f"{hand}.{events + rng.randint(1, 5)}"
        message = {"type": "act", "action": "call", "decision": stale}
        return message, False, "actor", "stale_decision"
    too_small = rng.randint(-50, legal["min_raise_to"] - 1)
    too_big = legal["max_raise_to"] + rng.randint(1, 10_000)
    message = rng.choice(
        [
            {"type": "act", "action": "raise", "amount": rng.choice([too_small, too_big])},
            {"type": "act", "action": "check"},  # facing the big blind
        ]
    )
    return {**message, "decision": decision}, False, "actor", "illegal_action"


async def test_thousands_of_bad_messages_get_errors_and_change_nothing(alice, bob, carol, settings):
    settings.TABLES_SOCKET_BURST = 10 * MESSAGES  # the rate limit is tested on its own
    table = await sync_to_async(heads_up_hand)(alice, bob)
    clients = {user.pk: await Client.open(user, table.pk) for user in (alice, bob, carol)}
    view = clients[carol.pk].table
    seats = {s["seat"]: s for s in view["seats"]}
    actor_user = alice if seats[view["to_act"]]["name"] == "alice" else bob
    waiting_user = bob if actor_user is alice else alice
    senders = {
        "actor": clients[actor_user.pk],
        "waiting": clients[waiting_user.pk],
        "spectator": clients[carol.pk],
    }
    legal = senders["actor"].table["legal"]
    before = await sync_to_async(table_facts)(table.pk)

    rng = Random(20261121)
    codes: dict[str, int] = {}
    for _ in range(MESSAGES):
        message, raw, who, code = random_bad_message(rng, view["decision"], legal)
        frame = await senders[who].error(message, raw=raw)
        assert frame["code"] == code, f"{who} sent {json.dumps(message)}: {frame}"
        assert frame["message"]
        # It says which of the sender's commands it refused, where the message named one.
        named = isinstance(message, dict) and message.get("type") in COMMANDS
        assert frame["in_reply_to"] == (message["type"] if named else None), frame
        codes[code] = codes.get(code, 0) + 1

    assert len(codes) == 10, "every kind of refusal was tried"
    assert await sync_to_async(table_facts)(table.pk) == before
    for client in clients.values():
        assert await client.is_quiet(), "no snapshot: nothing changed"
    # the table still plays: the real action is accepted
    await senders["actor"].send({"type": "act", "action": "call", "decision": view["decision"]})
    assert (await senders["spectator"].snapshot(view["seq"] + 1))["to_act"] != view["to_act"]
    for client in clients.values():
        await client.close()


async def test_an_oversized_frame_is_refused(alice, bob):
    table = await sync_to_async(heads_up_hand)(alice, bob)
    client = await Client.open(alice, table.pk)
    frame = await client.error(json.dumps({"type": "sit_in", "pad": "x" * 5000}), raw=True)
    assert frame["code"] == "bad_json"
    assert frame["in_reply_to"] is None, "a frame not read names no command"
    await client.close()


async def test_an_unexpected_server_failure_gets_an_error_the_table_and_keeps_the_socket(
    alice, bob, monkeypatch
):
    table = await sync_to_async(heads_up_hand)(alice, bob)
    client = await Client.open(alice, table.pk)
    before = await sync_to_async(table_facts)(table.pk)

    def broken_sit_out(**kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(services, "seat_sit_out", broken_sit_out)
    frame = await client.error({"type": "sit_out"})
    assert (frame["code"], frame["in_reply_to"]) == ("server_error", "sit_out")
    assert "nothing changed" in frame["message"]
    assert "database" not in frame["message"], "internal details stay in the server log"
    # then the table as it stands, though nothing changed: the client may try again
    # at once rather than wait for the next change (the clock's 20 s)
    again = await client.snapshot()
    assert again["seq"] == before[0] and not again["seats"][0]["is_sitting_out"]
    assert await sync_to_async(table_facts)(table.pk) == before
    monkeypatch.undo()
    # the same socket still works once the failure is gone
    await client.send({"type": "sit_out"})
    assert (await client.snapshot(before[0] + 1))["seats"][0]["is_sitting_out"]
    await client.close()
