"""The batched group send delivers exactly what one group_send per group would, on
both of its paths: the pipeline on the channels-redis it was written for, and one
public group_send per group on any other."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest
import redis.asyncio
from channels.layers import get_channel_layer
from django.conf import settings
from redis._parsers.hiredis import _AsyncHiredisParser

from config.adapters import channel_layer
from config.adapters.channel_layer import PubSubChannelLayer, can_batch


@pytest.fixture(params=["pipelined", "one by one"])
def layer(request: pytest.FixtureRequest) -> PubSubChannelLayer:
    layer = get_channel_layer()
    assert isinstance(layer, PubSubChannelLayer)
    layer.batching = request.param == "pipelined"
    return layer


async def test_the_pinned_channels_redis_gets_the_pipeline():
    layer = get_channel_layer()
    assert can_batch(layer)


async def test_another_channels_redis_gets_one_public_group_send_per_group(monkeypatch):
    monkeypatch.setattr(channel_layer, "version", lambda name: "5.0.0")
    layer = get_channel_layer()
    assert not can_batch(layer)
    channel = await layer.new_channel()
    await layer.group_add("table-9", channel)
    await layer.group_send_many([("table-9", {"type": "table.snapshot", "frame": "x"})])
    assert layer.batching is False
    assert (await asyncio.wait_for(layer.receive(channel), 5))["frame"] == "x"
    await layer.flush()


async def test_a_batch_reaches_each_group_and_only_that_group(layer):
    alice, bob, stranger = [await layer.new_channel() for _ in range(3)]
    await layer.group_add("table-1-user-1", alice)
    await layer.group_add("table-1-user-2", bob)
    await layer.group_add("table-2", stranger)

    await layer.group_send_many(
        [
            ("table-1-user-1", {"type": "table.private", "frame": "for alice"}),
            ("table-1-user-2", {"type": "table.private", "frame": "for bob"}),
        ]
    )

    assert await asyncio.wait_for(layer.receive(alice), 5) == {
        "type": "table.private",
        "frame": "for alice",
    }
    assert (await asyncio.wait_for(layer.receive(bob), 5))["frame"] == "for bob"
    await layer.group_send("table-2", {"type": "check"})
    assert await asyncio.wait_for(layer.receive(stranger), 5) == {"type": "check"}, (
        "the stranger's group got nothing from the batch before this"
    )
    await layer.flush()


async def test_an_empty_batch_sends_nothing(layer):
    channel = await layer.new_channel()
    await layer.group_add("quiet", channel)
    await layer.group_send_many([])
    await layer.group_send("quiet", {"type": "first"})
    assert await asyncio.wait_for(layer.receive(channel), 5) == {"type": "first"}
    await layer.flush()


def test_the_frame_budget_sits_in_front_of_daphnes_websocket_protocol() -> None:
    from daphne.ws_protocol import WebSocketFactory

    from config.adapters import frame_guard

    assert frame_guard.install()  # this daphne is the one the guard was written for
    assert frame_guard.install(), "installing twice is harmless"
    assert WebSocketFactory.protocol.is_felt_frame_budget


async def test_felts_on_other_databases_of_one_redis_do_not_hear_each_other():
    """Redis's pub/sub ignores database numbers: two Felts sharing a server (a test run
    beside ``make run``, two clubs' deployments) hear each other's snapshots, hole
    cards and all, unless their channel names differ (``RedisServer.channel_prefix``)."""
    ours = settings.REDIS
    theirs = replace(ours, base_db=ours.base_db + 4 if ours.base_db <= 8 else ours.base_db - 4)

    def layer_of(server: Any) -> PubSubChannelLayer:
        return PubSubChannelLayer(
            hosts=[{"address": server.client_url(0)}], prefix=server.channel_prefix()
        )

    mine, other = layer_of(ours), layer_of(theirs)
    channel = await mine.new_channel()
    await mine.group_add("table-1-user-1", channel)
    await other.group_send("table-1-user-1", {"type": "table.private", "frame": "their cards"})
    await mine.group_send("table-1-user-1", {"type": "table.private", "frame": "our cards"})

    assert (await asyncio.wait_for(mine.receive(channel), 5))["frame"] == "our cards"
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(mine.receive(channel), 0.5)
    await mine.flush()
    await other.flush()


async def test_redis_replies_are_read_by_the_c_parser():
    """hiredis: with redis-py's own parser, reading the published snapshots was a tenth of
    a live server's processor time (docs/performance.md)."""
    client = redis.asyncio.Redis.from_url(settings.CACHES["default"]["LOCATION"])
    try:
        await client.ping()
        connection = await client.connection_pool.get_connection()
        assert "Hiredis" in type(connection._parser).__name__
        await client.connection_pool.release(connection)
    finally:
        await client.aclose()


async def test_group_messages_arrive_as_plain_replies_not_push_replies(monkeypatch):
    """RESP2 for the layer: redis-py's handler of a RESP3 push reply turns the whole
    message into a string for a debug line, for every snapshot every socket receives."""
    pushed: list[Any] = []

    async def record_push(self: Any, response: Any) -> Any:
        pushed.append(response)
        return response

    monkeypatch.setattr(_AsyncHiredisParser, "handle_pubsub_push_response", record_push)
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("table-5", channel)
    await layer.group_send_many([("table-5", {"type": "table.snapshot", "frame": "x" * 4000})])

    assert (await asyncio.wait_for(layer.receive(channel), 5))["frame"] == "x" * 4000
    assert pushed == []
    await layer.flush()
