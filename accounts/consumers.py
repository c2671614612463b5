"""The lobby websocket: proves the live stack and shows who is online."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from redis.exceptions import RedisError

from accounts import presence

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
CLOSE_UNAUTHENTICATED = 4401


class LobbyConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """Sends `{"type": "online", "count": n}` whenever someone comes or goes."""

    user_id: int | None = None
    refresher: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.user_id = user.pk
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        count = await presence.connection_opened(user.pk, self.channel_name)
        await self.announce(count)
        self.refresher = asyncio.create_task(self.keep_presence_fresh())

    async def disconnect(self, code: int) -> None:
        if self.user_id is None:
            return
        if self.refresher is not None:
            self.refresher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.refresher
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)
        count = await presence.connection_closed(self.user_id, self.channel_name)
        await self.announce(count)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Nothing is read, so nothing is decoded: a frame that is not JSON
        # (or is binary) would otherwise crash the consumer and leave its presence behind.
        await self.send_json({"type": "error", "code": "read_only"})

    async def online_count(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "online", "count": event["count"]})

    async def announce(self, count: int) -> None:
        await self.channel_layer.group_send(LOBBY_GROUP, {"type": "online.count", "count": count})

    async def keep_presence_fresh(self) -> None:
        assert self.user_id is not None
        while True:
            await asyncio.sleep(presence.REFRESH_EVERY)
            try:
                await presence.connection_refreshed(self.user_id, self.channel_name)
            except RedisError:  # try again next time; the socket itself is fine
                logger.warning("Could not refresh lobby presence", exc_info=True)
