"""Daphne's walks over its connections (config/adapters/connection_checks.py): the
same checks and the same reaping, with quiet open websockets left out of most passes.

Each test drives a real Daphne server object on Twisted's deterministic clock."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import daphne.server
import pytest
from daphne.server import Server
from daphne.ws_protocol import WebSocketProtocol
from twisted.internet.task import Clock

from config.adapters import connection_checks


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    clock.advance(1_000_000)
    monkeypatch.setattr(connection_checks, "_clock", lambda: clock)
    monkeypatch.setattr(daphne.server, "reactor", clock)  # where Daphne's own walk schedules
    assert connection_checks.install()
    return clock


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


def serving() -> Server:
    """A Daphne server as it is once running (``run`` makes its connections)."""
    server = Server(application=None, endpoints=["tcp:port=0"])
    server.connections = {}
    return server


def websocket(server: Server, state: int, checked: list[Any]) -> WebSocketProtocol:
    """A websocket connection in ``state``, noting in ``checked`` each time its
    timeouts are looked at."""
    protocol = WebSocketProtocol()
    protocol.state = state
    protocol.check_timeouts = lambda: checked.append(protocol)
    server.protocol_connected(protocol)
    return protocol


def test_an_open_websocket_is_checked_every_thirty_seconds_a_handshaking_one_every_pass(
    clock: Clock,
) -> None:
    server = serving()
    checked: list[Any] = []
    open_socket = websocket(server, WebSocketProtocol.STATE_OPEN, checked)
    handshaking = websocket(server, WebSocketProtocol.STATE_CONNECTING, checked)
    server.timeout_checker()
    for _ in range(14):  # 28 s of 2 s passes
        clock.advance(connection_checks.TIMEOUT_CHECK_SECONDS)
    assert checked.count(handshaking) == 15 and checked.count(open_socket) == 0
    clock.advance(connection_checks.TIMEOUT_CHECK_SECONDS)  # 30 s in
    assert checked.count(open_socket) == 1 and checked.count(handshaking) == 16


def quiet_for_a_while(clock: Clock) -> Server:
    """A running server whose reaping walk has been quiet long enough that its next
    pass is an ordinary one."""
    server = serving()
    server.application_checker()
    for _ in range(20):
        clock.advance(connection_checks.REAP_CHECK_SECONDS)
    return server


def finished_application(loop: asyncio.AbstractEventLoop) -> asyncio.Future[None]:
    instance: asyncio.Future[None] = loop.create_future()
    instance.set_result(None)
    return instance


def test_a_connection_that_ended_is_reaped_within_a_second(
    clock: Clock, loop: asyncio.AbstractEventLoop
) -> None:
    server = quiet_for_a_while(clock)
    protocol = WebSocketProtocol()
    server.protocol_connected(protocol)
    server.connections[protocol]["application_instance"] = finished_application(loop)
    server.protocol_disconnected(protocol)
    clock.advance(connection_checks.REAP_CHECK_SECONDS)
    assert protocol not in server.connections


def test_an_application_that_finished_while_its_client_stayed_is_reaped_within_a_second(
    clock: Clock, loop: asyncio.AbstractEventLoop
) -> None:
    server = quiet_for_a_while(clock)

    async def application(scope: Any, receive: Any, send: Any) -> None:
        raise asyncio.CancelledError  # ended at once, as a consumer that closed

    server.application = application
    protocol = WebSocketProtocol()
    server.protocol_connected(protocol)
    asyncio.set_event_loop(loop)
    server.create_application(protocol, {"type": "websocket"})
    loop.run_until_complete(asyncio.sleep(0))  # the instance runs, and its callbacks
    loop.run_until_complete(asyncio.sleep(0))
    clock.advance(connection_checks.REAP_CHECK_SECONDS)
    assert "application_instance" not in server.connections[protocol]


def test_with_nothing_ended_the_connections_are_walked_only_every_ten_seconds(
    clock: Clock, loop: asyncio.AbstractEventLoop
) -> None:
    server = quiet_for_a_while(clock)
    protocol = WebSocketProtocol()
    server.protocol_connected(protocol)
    # Ended behind the hooks' back: only the walk finds it.
    server.connections[protocol].update(
        application_instance=finished_application(loop), disconnected=1.0
    )
    for _ in range(int(connection_checks.QUIET_REAP_SECONDS) - 2):
        clock.advance(connection_checks.REAP_CHECK_SECONDS)
    assert protocol in server.connections, "found before the quiet walk"
    for _ in range(3):
        clock.advance(connection_checks.REAP_CHECK_SECONDS)
    assert protocol not in server.connections
