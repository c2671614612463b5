"""The table websocket (`/ws/tables/<id>/`): a transport adapter, nothing more.

It authenticates, reads each frame, looks its type up in ``tables/commands.py``
(which checks its fields and names its service), runs that service, turns any
refusal into an error frame (codes in docs/protocol.md) and relays the
snapshots the services broadcast after commit. It keeps no game state; its
only state is per socket: the last seq it showed, and its command budget.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase

from accounts.consumers import SignedInSocket
from accounts.models import User
from accounts.sessions import log_in_current, log_in_stands
from config.platform.broadcast import Messages, collected, relay, serve_from_running_loop
from config.platform.close_codes import CloseCode
from config.platform.command_budget import CommandBudget
from config.platform.db_connections import retried_on_a_new_connection
from tables import command_threads, kinds, links, selectors, wake_timers, wakeups
from tables.commands import (
    BadMessage,
    Command,
    command_named,
    parse_command,
    read_frame,
    run_command,
)
from tables.errors import MembersOnly, StaleDecision, StaleSeq, TableError, TableNotFound
from tables.groups import chat_group, private_group, public_group
from tables.lease_renewals import renewals
from tables.services import chat, presence
from tables.snapshot import snapshot_frame
from tables.wakeups import Wake

RATE_LIMITED = "Too many messages at once: slow down, then try again."
# Chat lines per socket: a few at once, then one every two seconds.
CHAT_BURST = 5
CHAT_PER_SECOND = 0.5
CHAT_RATE_LIMITED = "Too many chat messages: wait a moment before the next one."

logger = logging.getLogger(__name__)


class LogInEnded(Exception):
    """The log-in the socket was opened with no longer stands; nothing was run."""


def run_signed_in(
    table_id: int,
    user: User,
    command: Command,
    auth_hash: str | None,
    session: SessionBase | None,
    outbox: Messages,
    wakes: list[Wake],
) -> None:
    """Run ``command`` for ``user``, once sure their log-in still stands: a password
    changed elsewhere a moment ago ends it before the notice reaches this socket.

    ``session`` is the socket's when its periodic session check is due: read again
    here, in the command's own trip to the database thread. Checked in a trip of its
    own, the command queued twice behind every other table's work. What the command
    broadcasts is left in ``outbox`` for the caller to ``relay``, and the wake-up it
    asks for in ``wakes``, for the process's timers (tables/wake_timers.py). A command whose
    database connection had died is run once more on a new one
    (config/platform/db_connections.py).
    """

    def attempt() -> None:
        if session is not None:  # the account is read for it: the cache is not needed
            if not log_in_current(session, user.pk, auth_hash):
                raise LogInEnded()
        elif not log_in_stands(user.pk, auth_hash):
            raise LogInEnded()
        with collected(outbox), wakeups.collected(wakes):
            run_command(table_id=table_id, user=user, command=command)

    # A connection that died unseen fails the attempt before anything is committed
    # (and told: the outbox is still empty), so it is run again on a new one.
    retried_on_a_new_connection(attempt, may_retry=lambda: not outbox)


@database_sync_to_async
def check_watch(table_id: int, user: User, session: SessionBase | None) -> None:
    """Refuse a table that does not exist (``TableNotFound``), or that the member may
    not reach (an unlisted friends' table they neither play at nor came to with its
    link's key, which ``session`` remembers: tables/links.py), as if it did not; or
    that is not the member's to see (``MembersOnly``: a club's table, or a guest at
    any but a friends' table)."""
    table = selectors.table_get(table_id=table_id)
    if not selectors.may_reach(table, user, admitted=links.admitted_ids(session)):
        raise TableNotFound()
    kinds.check_watch(table, user)


@database_sync_to_async
def load_snapshot(table_id: int, user: User) -> dict[str, Any]:
    return selectors.table_snapshot(table_id=table_id, user=user)


@database_sync_to_async
def load_first_snapshot(table_id: int, user: User) -> dict[str, Any]:
    """The snapshot on connect, with the last lines of the table's chat."""
    snapshot = selectors.table_snapshot(table_id=table_id, user=user)
    return {**snapshot, "chat": chat.chat_recent(table_id=table_id)}


note_presence = database_sync_to_async(presence.seat_presence)


class TableConsumer(SignedInSocket, AsyncWebsocketConsumer):  # type: ignore[misc]
    table_id: int
    user: User
    groups_joined: tuple[str, ...] = ()
    last_seq = -1
    last_decision: str | None = None  # of the last snapshot this socket showed
    budget: CommandBudget
    chat_budget: CommandBudget
    # Holds a presence lease for the seat (tables/services/presence.py), held by this
    # server process and renewed with it (tables/lease_renewals.py).
    is_counted_present = False
    resends: set[asyncio.Task[None]]  # snapshots read again after a failed broadcast

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CloseCode.UNAUTHENTICATED)
            return
        self.user = user
        self.resends = set()
        # This socket's commands broadcast through this loop without waiting for it.
        serve_from_running_loop()
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        try:
            await check_watch(self.table_id, user, self.scope.get("session"))
        except TableNotFound:
            await self.refuse(CloseCode.NOT_FOUND)
            return
        except MembersOnly:
            await self.refuse(CloseCode.MEMBERS_ONLY)
            return
        self.budget = CommandBudget(
            burst=settings.TABLES_SOCKET_BURST,
            per_second=settings.TABLES_SOCKET_PER_SECOND,
            strikes=settings.TABLES_SOCKET_STRIKES,
        )
        self.chat_budget = CommandBudget(
            burst=CHAT_BURST, per_second=CHAT_PER_SECOND, strikes=settings.TABLES_SOCKET_STRIKES
        )
        self.groups_joined = (
            public_group(self.table_id),
            private_group(self.table_id, user.pk),
            chat_group(self.table_id),
        )
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.follow_session(user.pk)
        await self.accept()
        # Joined before reading again, so no change between the two is missed.
        await self.send_snapshot(await load_first_snapshot(self.table_id, user))

    async def disconnect(self, code: int) -> None:
        self.stop_renewing()  # unlisted before its lease is given back (lease_renewals.py)
        if self.is_counted_present:
            await self.note_presence(is_open=False)
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.groups_joined:
            await self.leave_session_group(self.user.pk)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.budget.take():  # over budget: refused without touching the database
            if self.budget.is_exhausted:
                await self.close(code=CloseCode.RATE_LIMITED)
            elif self.budget.refused_in_a_row == 1:  # told once per run of refusals:
                await self.send_error("rate_limited", RATE_LIMITED)  # answering each costs
            return
        decision = None  # the decision an action answered, where it is this socket's last
        replying_to = None  # the command an error answers, once the frame names one
        try:
            message = read_frame(text_data)
            replying_to = command_named(message)
            command = parse_command(message)
            if command.type == "act" and command.fields["decision"] != self.last_decision:
                raise StaleDecision()  # this socket already showed a later one: no need to ask
            decision = self.last_decision
            if command.type == "chat" and not self.chat_budget.take():
                raise BadMessage("chat_rate_limited", CHAT_RATE_LIMITED)
            session = self.scope.get("session") if self.session_check_due() else None
            outbox: Messages = []
            wakes: list[Wake] = []
            try:
                await command_threads.runner(run_signed_in)(
                    self.table_id, self.user, command, self.auth_hash, session, outbox, wakes
                )
            finally:  # what committed is told and kept on time, whatever happened after
                self.watch_relay(relay(outbox))
                wake_timers.timers.schedule_all(wakes)
            if command.type == "cut":  # kept: said to this socket alone (nothing else changed)
                await self.send_cut_accepted(command.fields)
        except LogInEnded:
            await self.close(code=CloseCode.SESSION_ENDED)
        except (BadMessage, TableError) as error:  # the codes docs/protocol.md lists
            await self.send_error(error.code, error.message, replying_to)
            if isinstance(error, StaleDecision | StaleSeq) and self.last_decision == decision:
                # The table moved on without this socket seeing it (its broadcast was
                # lost: a service blinked). Shown the table as it stands, the player can
                # act at once rather than wait for its next change.
                await self.send_table_as_it_stands(is_repeat_allowed=False)
        except Exception:
            # The service's transaction rolled back, so nothing changed; keep the socket open.
            logger.exception("table %s: a command failed", self.table_id)
            await self.send_error(
                "server_error",
                "Something went wrong on our side and nothing changed. Try again.",
                replying_to,
            )
            # The table as it stands, so the client can try again at once rather than
            # wait for the table's next change (the clock's 20 s, if nobody else acts).
            await self.send_table_as_it_stands()

    async def send_cut_accepted(self, fields: dict[str, Any]) -> None:
        """The client's proof of time: its value reached the table before the deal, so a
        cut that leaves it out is disputed (docs/fairness.md)."""
        commit, reveal = fields["commit"], fields["reveal"]
        answer = {
            "type": "cut_accepted",
            "commit": commit[0] if commit else None,
            "reveal": reveal[0] if reveal else None,
        }
        await self.send(text_data=json.dumps(answer))

    def watch_relay(self, sending: asyncio.Future[None] | None) -> None:
        """When a command's broadcast fails (the channel layer's Redis is down), its
        sender still sees what the command did: the table is read for this socket."""

        def after(sent: asyncio.Future[None]) -> None:
            if not sent.cancelled() and sent.exception() is not None:
                task = asyncio.ensure_future(self.send_table_as_it_stands())
                self.resends.add(task)
                task.add_done_callback(self.resends.discard)

        if sending is not None:
            sending.add_done_callback(after)

    async def send_table_as_it_stands(self, is_repeat_allowed: bool = True) -> None:
        """This viewer's snapshot, read now, by default even when its ``seq`` is one
        already shown."""
        try:
            table = await load_snapshot(self.table_id, self.user)
        except TableNotFound:
            return
        except Exception:  # the database is down too: the next snapshot will do
            logger.warning("table %s: could not read the table again", self.table_id, exc_info=True)
            return
        await self.send_snapshot(table, is_repeat_allowed=is_repeat_allowed)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its ``close_old_connections`` before every handler.

        That call is a hop to the one thread all of the server's database work
        shares, once for every snapshot each socket relays, queued behind other
        tables' commands. Every handler here reaches the database only through
        ``database_sync_to_async``, which closes old connections itself.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def table_snapshot(self, event: dict[str, Any]) -> None:
        """A change: this member's own view of it, or the spectators' (tables/messages.py)."""
        own = event["frames"].get(str(self.user.pk))
        await self.send_frame(
            {
                "seq": event["seq"],
                "decision": event["decision"],
                "is_seated": own is not None,
                "frame": event["frame"] if own is None else own,
            }
        )

    async def table_chat(self, event: dict[str, Any]) -> None:
        """A chat line for everyone at this table (sent as JSON text, shown as text)."""
        await self.send(text_data=json.dumps(event["chat"]))

    async def table_presence(self, event: dict[str, Any]) -> None:
        """A seated player's connection dropped, or came back."""
        await self.send(text_data=json.dumps(event["presence"]))

    async def table_notice(self, event: dict[str, Any]) -> None:
        """A notice for everyone at the table (a tournament's coming blind level)."""
        await self.send(text_data=json.dumps({"type": "notice", "notice": event["notice"]}))

    async def send_snapshot(
        self, table: dict[str, Any], *, is_repeat_allowed: bool = False
    ) -> None:
        await self.send_frame(
            {
                "seq": table["seq"],
                "decision": table["decision"],
                "is_seated": table["your_seat"] is not None,
                "frame": snapshot_frame(table),
            },
            is_repeat_allowed=is_repeat_allowed,
        )

    async def send_frame(self, event: dict[str, Any], *, is_repeat_allowed: bool = False) -> None:
        """Show a snapshot (``seq``, ``decision``, ``is_seated`` and its encoded ``frame``);
        one of the ``seq`` last shown only when ``is_repeat_allowed`` (the table read
        again for this socket after a failed command or broadcast)."""
        # A broadcast queued while connecting can be older than the first snapshot:
        # the client only ever sees seq go up.
        if event["seq"] < self.last_seq or (
            event["seq"] == self.last_seq and not is_repeat_allowed
        ):
            return
        self.last_seq, self.last_decision = event["seq"], event["decision"]
        frame, is_seated = event["frame"], event["is_seated"]
        await self.send(text_data=frame)
        if is_seated != self.is_counted_present:  # sat down (or lost the seat) on this socket
            self.is_counted_present = is_seated
            if is_seated:
                # Listed before the lease is taken, so no renewal sees the lease
                # without the socket and gives it back (tables/lease_renewals.py).
                renewals.add(self.channel_name, self.table_id, self.user)
                await self.note_presence(is_open=True)
            else:  # the seat and its leases are gone
                self.stop_renewing()

    async def note_presence(self, *, is_open: bool) -> None:
        """Take or give back this socket's presence lease. Presence is not play: a
        database that fails here (a restart under way) costs the socket nothing: the
        process's next renewal takes an open socket's lease again, and gives a closed
        one's back."""
        try:
            await note_presence(
                table_id=self.table_id,
                user=self.user,
                channel_name=self.channel_name,
                is_open=is_open,
                holder=renewals.holder,
            )
        except Exception:
            logger.warning("table %s: presence not noted", self.table_id, exc_info=True)

    def stop_renewing(self) -> None:
        renewals.discard(self.channel_name)

    async def send_error(self, code: str, message: str, replying_to: str | None = None) -> None:
        error = {"type": "error", "code": code, "message": message, "in_reply_to": replying_to}
        await self.send(text_data=json.dumps(error))
