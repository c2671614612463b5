"""Who is online, kept in Redis so that every Daphne process agrees.

Each open lobby socket is a member `<user id>:<channel name>` of one sorted
set, scored by the time it expires unless refreshed. A crashed process
therefore leaves nothing behind for long, and a user with two tabs open
counts once. The client is the one the socket guards share
(``config/platform/redis_clients.py``: one per event loop, its connections
pooled, a dead one retried once).
"""

from __future__ import annotations

import time

import redis.asyncio as aioredis

from config.platform.redis_clients import realtime_client

ONLINE_KEY = "felt:online"
CONNECTION_TTL = 90  # seconds; consumers refresh well within this
REFRESH_EVERY = 30


async def _update_and_count(client: aioredis.Redis, *, add: str = "", remove: str = "") -> int:
    now = time.time()
    async with client.pipeline(transaction=True) as pipe:
        if add:
            pipe.zadd(ONLINE_KEY, {add: now + CONNECTION_TTL})
        if remove:
            pipe.zrem(ONLINE_KEY, remove)
        pipe.zremrangebyscore(ONLINE_KEY, "-inf", now)
        pipe.zrange(ONLINE_KEY, 0, -1)
        *_, members = await pipe.execute()
    return len({member.split(b":", 1)[0] for member in members})


async def connection_opened(user_id: int, channel_name: str) -> int:
    """Record a live connection; returns how many users are online."""
    return await _update_and_count(realtime_client(), add=f"{user_id}:{channel_name}")


async def connection_refreshed(user_id: int, channel_name: str) -> int:
    return await connection_opened(user_id, channel_name)


async def connection_closed(user_id: int, channel_name: str) -> int:
    return await _update_and_count(realtime_client(), remove=f"{user_id}:{channel_name}")


async def online_count() -> int:
    """Users online now, after dropping connections that stopped refreshing."""
    return await _update_and_count(realtime_client())
