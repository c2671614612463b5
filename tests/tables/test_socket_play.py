"""Two players and a spectator play whole hands over the table websocket.

Every frame each of them receives is kept and checked: nobody ever sees a
hole card they may not see, and a seated player only ever gets their own view.
"""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.db import connections

from config.asgi import application
from tables import services
from tables.models import Hand, Table
from tests.tables.sockets import HEADERS, Client, close_code_after_accepting, session_cookie

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]


async def make_table(owner, **settings) -> Table:
    return await sync_to_async(services.table_create)(owner=owner, name="Friday game", **settings)


async def start_hand(table_id: int, seq: int) -> int:
    return await sync_to_async(services.hand_start)(table_id=table_id, seq=seq)


async def everyone_sees(clients: list[Client], seq: int) -> list[dict]:
    return [await client.snapshot(seq) for client in clients]


async def seated_at_table(alice, bob, carol):
    """alice and bob take seats 0 and 1 through their sockets; carol watches."""
    table = await make_table(alice)
    players = [await Client.open(alice, table.pk), await Client.open(bob, table.pk)]
    spectator = await Client.open(carol, table.pk)
    everyone = [*players, spectator]
    seq = players[0].table["seq"]
    for number, client in enumerate(players):
        await client.send({"type": "sit", "seat": number})
        seq += 1
        await everyone_sees(everyone, seq)
    return table, players, spectator, seq


async def play_hand(players: list[Client], everyone: list[Client], choose) -> dict:
    """The player to act does ``choose(table)`` until the hand is over; returns the last view."""
    while True:
        view = players[0].table
        if view["hand"]["is_over"]:
            return view
        actor = next(c for c in players if c.table["your_seat"] == view["to_act"])
        legal = actor.table["legal"]
        assert legal is not None, "the player to act is told what they may do"
        await actor.send({"type": "act", "decision": view["decision"], **choose(legal)})
        await everyone_sees(everyone, view["seq"] + 1)


def check_or_call(legal: dict) -> dict:
    return {"action": "check" if legal["can_check"] else "call"}


def fold_or_check(legal: dict) -> dict:
    return {"action": "check" if legal["can_check"] else "fold"}


def hole_cards_by_hand(table_id: int) -> dict[int, dict[int, list[str]]]:
    holes: dict[int, dict[int, list[str]]] = {}
    for hand in Hand.objects.filter(table_id=table_id):
        holes[hand.number] = {
            e["seat"]: e["cards"] for e in hand.events if e["kind"] == "hole_cards_dealt"
        }
    return holes


CARD = re.compile(r'"([2-9TJQKA][cdhs])"')


def assert_no_hidden_cards(client: Client, holes: dict[int, dict[int, list[str]]]) -> int:
    """Every card string in every frame is one the viewer may see; returns frames checked.

    A viewer may see their own hole cards, the board and cards shown at showdown;
    any other card string in a frame (an opponent's hole card, the deck) is a leak.
    """
    checked = 0
    for text, frame in zip(client.texts, client.frames, strict=True):
        if frame["type"] != "snapshot" or frame["table"]["hand"] is None:
            continue
        table = frame["table"]
        hand = table["hand"]
        dealt = holes[table["hand_number"]]
        allowed = set(hand["board"]) | set(dealt.get(table["your_seat"], []))
        allowed |= {c for e in hand["log"] if e["kind"] == "cards_shown" for c in e["cards"]}
        leaked = set(CARD.findall(text)) - allowed
        assert not leaked, f"{client.name} saw {leaked} in snapshot {table['seq']}"
        for seat, cards in dealt.items():
            if seat != table["your_seat"]:
                hidden = set(cards) - allowed
                assert not any(f'"{card}"' in text for card in hidden), (client.name, seat)
        checked += 1
    return checked


async def test_two_players_and_a_spectator_play_to_showdown_and_to_a_fold(alice, bob, carol):
    table, players, spectator, seq = await seated_at_table(alice, bob, carol)
    everyone = [*players, spectator]

    seq = await start_hand(table.pk, seq)
    views = await everyone_sees(everyone, seq)
    assert [v["your_seat"] for v in views] == [0, 1, None]
    assert views[2]["legal"] is None and all(s.get("cards") is None for s in views[2]["seats"])
    assert views[0]["seats"][0]["cards"] and views[0]["seats"][1]["cards"] is None

    shown_down = await play_hand(players, everyone, check_or_call)
    assert shown_down["hand"]["street"] == "over" and len(shown_down["hand"]["board"]) == 5
    winners = spectator.table["hand"]["winners"]
    assert winners and sum(w["amount"] for w in winners) == 40
    for winner in winners:  # a winning hand is always shown (rule 15)
        assert spectator.table["seats"][winner["seat"]]["cards"] is not None

    seq = await start_hand(table.pk, shown_down["seq"])
    await everyone_sees(everyone, seq)
    folded = await play_hand(players, everyone, fold_or_check)
    assert folded["hand"]["board"] == []
    assert all(s.get("cards") is None for s in spectator.table["seats"]), "nothing is shown"
    stacks = [s.get("stack", 0) for s in spectator.table["seats"]]
    assert sum(stacks) == 3000

    holes = await sync_to_async(hole_cards_by_hand)(table.pk)
    assert sorted(holes) == [1, 2]
    for client in everyone:
        assert assert_no_hidden_cards(client, holes) > 5
    for number, client in enumerate(players):
        seated = [f["table"] for f in client.frames if f["type"] == "snapshot"][1:]
        assert all(view["your_seat"] == number for view in seated[number:]), (
            "once seated, a player only ever gets their own view"
        )
        sequence = [view["seq"] for view in seated]
        assert sequence == sorted(set(sequence)), "one snapshot per change, in order"
    for client in everyone:
        await client.close()


async def test_anonymous_visitors_are_closed_with_4401(alice):
    table = await make_table(alice)
    socket = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=HEADERS)
    assert await close_code_after_accepting(socket) == 4401


async def test_an_unknown_table_is_closed_with_4404(alice):
    headers = [*HEADERS, (b"cookie", await session_cookie(alice))]
    socket = WebsocketCommunicator(application, "/ws/tables/999999/", headers=headers)
    assert await close_code_after_accepting(socket) == 4404


async def test_the_player_to_act_alone_gets_the_legal_actions_and_the_clock(alice, bob, carol):
    table, players, spectator, seq = await seated_at_table(alice, bob, carol)
    seq = await start_hand(table.pk, seq)
    views = await everyone_sees([*players, spectator], seq)
    to_act = views[2]["to_act"]
    assert views[to_act]["legal"] == {
        "can_check": False,
        "call_amount": 10,
        "min_raise_to": 40,
        "max_raise_to": 1500,
    }
    assert views[1 - to_act]["legal"] is None and views[2]["legal"] is None
    assert all(v["deadline"] and v["server_time"] and v["deadline"].endswith("Z") for v in views)
    assert views[2]["seats"][to_act]["is_to_act"] and views[2]["seats"][to_act]["is_button"]
    for client in [*players, spectator]:
        await client.close()


async def test_a_reconnecting_player_gets_the_full_snapshot_and_plays_on(alice, bob, carol):
    table, players, spectator, seq = await seated_at_table(alice, bob, carol)
    seq = await start_hand(table.pk, seq)
    views = await everyone_sees([*players, spectator], seq)
    actor = views[2]["to_act"]
    await players[actor].close()

    back = await Client.open([alice, bob][actor], table.pk)
    assert back.table["seq"] == seq
    assert back.table["seats"][actor]["cards"] == views[actor]["seats"][actor]["cards"]
    assert back.table["legal"] is not None
    players[actor] = back
    await play_hand(players, [*players, spectator], fold_or_check)
    for client in [*players, spectator]:
        await client.close()


def without_presence(seat: dict) -> dict:
    return {k: v for k, v in seat.items() if k != "disconnected_since"}


async def test_a_hand_survives_a_restart_and_plays_on(alice, bob, carol):
    table, players, spectator, seq = await seated_at_table(alice, bob, carol)
    seq = await start_hand(table.pk, seq)
    await everyone_sees([*players, spectator], seq)
    actor = next(c for c in players if c.table["your_seat"] == c.table["to_act"])
    await actor.send({"type": "act", "action": "call", "decision": actor.table["decision"]})
    before = [await c.snapshot(seq + 1) for c in players]
    for client in [*players, spectator]:
        await client.close()

    # a restart: no process memory survives, only the database and Redis
    await sync_to_async(connections.close_all)()
    channel_layers.backends = {}

    players = [await Client.open(alice, table.pk), await Client.open(bob, table.pk)]
    after = [c.table for c in players]
    for old, new in zip(before, after, strict=True):
        assert new["chat"] == [], "the first snapshot has the chat so far: nothing was said"
        assert {k: v for k, v in new.items() if k not in ("server_time", "chat", "seats")} == {
            k: v for k, v in old.items() if k not in ("server_time", "seats")
        }
        # The same seats, but for presence: everyone's connection dropped in the restart.
        assert [without_presence(s) for s in new["seats"]] == [
            without_presence(s) for s in old["seats"]
        ]
    last = await play_hand(players, players, check_or_call)
    assert last["hand"]["is_over"] and len(last["hand"]["board"]) == 5
    hand = await sync_to_async(Hand.objects.get)(table_id=table.pk, number=1)
    assert hand.is_over and hand.events[0]["kind"] == "hand_started"
    for client in players:
        await client.close()


async def test_sitting_out_coming_back_and_leaving_over_the_socket(alice, carol):
    table = await make_table(alice)
    player, spectator = await Client.open(alice, table.pk), await Client.open(carol, table.pk)
    seq = player.table["seq"]
    for message, check in [
        ({"type": "sit", "seat": 3}, lambda s: s["occupied"] and s["name"] == "alice"),
        ({"type": "sit_out"}, lambda s: s["is_sitting_out"]),
        ({"type": "sit_in"}, lambda s: not s["is_sitting_out"]),
        ({"type": "leave"}, lambda s: not s["occupied"]),
    ]:
        await player.send(message)
        seq += 1
        mine, theirs = await player.snapshot(seq), await spectator.snapshot(seq)
        assert check(mine["seats"][3]) and check(theirs["seats"][3]), message
    assert mine["your_seat"] is None, "after leaving alice is a spectator again"
    frame = await player.error({"type": "sit_out"})
    assert frame["code"] == "not_seated"
    for client in (player, spectator):
        await client.close()
