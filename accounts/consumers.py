"""The lobby websocket: proves the live stack and shows who is online."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY
from redis.exceptions import RedisError

from accounts import presence
from accounts.sessions import session_is_current, user_group
from config.platform.close_codes import CloseCode

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


class SignedInSocket:
    """For consumers of signed-in members: refusing with a code the browser sees, and
    closing once the log-in the socket was opened with no longer stands."""

    scope: dict[str, Any]
    channel_layer: Any
    channel_name: str
    session_checked_at = 0.0
    auth_hash: str | None = None  # the session's, when the socket opened (log_in_stands)

    async def refuse(self, code: int) -> None:
        """Accept, then close with ``code``: a socket closed before it is accepted
        reaches the browser as a bare HTTP 403, with no code to say why."""
        await self.accept()  # type: ignore[attr-defined]
        await self.close(code=code)  # type: ignore[attr-defined]

    async def follow_session(self, user_id: int) -> None:
        self.session_checked_at = time.monotonic()
        # The session was read (and its hash checked) when the socket authenticated.
        self.auth_hash = self.scope["session"].get(HASH_SESSION_KEY)
        await self.channel_layer.group_add(user_group(user_id), self.channel_name)

    async def leave_session_group(self, user_id: int) -> None:
        await self.channel_layer.group_discard(user_group(user_id), self.channel_name)

    def session_check_due(self) -> bool:
        """True (and the check counted as made) when the session is due to be read
        again: at most every few seconds."""
        recheck = float(settings.SOCKET_SESSION_RECHECK_SECONDS)
        if time.monotonic() - self.session_checked_at < recheck:
            return False
        self.session_checked_at = time.monotonic()
        return True

    async def is_still_signed_in(self) -> bool:
        """Re-read the session now (the periodic check rides with a table command:
        ``session_check_due``, tables/consumers.py)."""
        self.session_checked_at = time.monotonic()
        user = self.scope["user"]
        return bool(
            await database_sync_to_async(session_is_current)(self.scope.get("session"), user.pk)
        )

    async def user_notice(self, event: dict[str, Any]) -> None:
        """A notice for this member on whatever Felt page is open (e.g. "Your sit-n-go
        has started"): ``{"type": "notice", "notice": {...}}``."""
        await self.send(text_data=json.dumps({"type": "notice", "notice": event["notice"]}))  # type: ignore[attr-defined]

    async def tournament_update(self, event: dict[str, Any]) -> None:
        """A club's tournament changed: sent to its members' own groups, which every
        socket of theirs follows; only the lobby socket (below) shows it."""

    async def session_changed(self, event: dict[str, Any]) -> None:
        if not await self.is_still_signed_in():
            await self.close(code=CloseCode.SESSION_ENDED)  # type: ignore[attr-defined]


class LobbyConsumer(SignedInSocket, AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """Sends `{"type": "online", "count": n}` whenever someone comes or goes."""

    user_id: int | None = None
    refresher: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CloseCode.UNAUTHENTICATED)
            return
        self.user_id = user.pk
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.follow_session(user.pk)
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
        await self.leave_session_group(self.user_id)
        count = await presence.connection_closed(self.user_id, self.channel_name)
        await self.announce(count)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        # Nothing is read, so nothing is decoded: a frame that is not JSON
        # (or is binary) would otherwise crash the consumer and leave its presence behind.
        await self.send_json({"type": "error", "code": "read_only"})

    async def online_count(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "online", "count": event["count"]})

    async def tournament_update(self, event: dict[str, Any]) -> None:
        """A tournament's public summary changed (registrations, start, level, results):
        the lobby's to everyone, a club's to its members."""
        await self.send_json({"type": "tournament", "tournament": event["tournament"]})

    async def table_listed(self, event: dict[str, Any]) -> None:
        """A friends' table its host lists, with a seat free: its lobby row."""
        await self.send_json({"type": "table_listed", "table": event["table"]})

    async def table_unlisted(self, event: dict[str, Any]) -> None:
        """A table the host took off the lobby's list: its id only, nothing else of it."""
        await self.send_json({"type": "table_unlisted", "table_id": event["table_id"]})

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
