"""Daphne's periodic checks of its connections, paid for by the connections that need them.

Daphne walks every connection it holds twice on a timer: each second, to
reap application instances that finished and to cancel those still running
too long after their client left; every 2 s, to enforce timeouts (a
handshake not finished in time, an HTTP response never sent, a websocket
open past its longest life) and to ping quiet websockets. With a club's
thousands of quiet table sockets open, those walks were the larger part of
what an idle socket still cost the server (docs/performance.md, session
29), though an open, healthy websocket almost never needs either.

So, with the same rules and the same outcomes:

- The reaping walk runs only while it can find something: for
  ``BUSY_SECONDS_AFTER`` (Daphne's ``--application-close-timeout`` plus a
  margin) after a connection ended or an application instance finished, both
  of which this module hears about as they happen, and otherwise once every
  ``QUIET_REAP_SECONDS`` as a backstop. Daphne's own walk does the work when
  it runs.
- The timeout walk still visits every connection every 2 s, but looks at an
  open websocket's timers only every ``OPEN_SOCKET_CHECK_SECONDS``: what they
  govern (Daphne's ping, every ``PING_SECONDS``; a socket's longest life, a day)
  is measured in minutes, while HTTP requests and handshakes, whose limits are
  seconds, are checked on every pass as before. A dead peer is found by the
  kernel's keepalive, not by this walk (config/adapters/tcp_keepalive.py).

Like the frame budget (config/adapters/frame_guard.py), this reaches into
Daphne's internals, so ``install`` changes nothing unless Daphne's server
still has the methods it was written against (daphne 4.2), and logs why.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger(__name__)

TIMEOUT_CHECK_SECONDS = 2.0  # Daphne's own cadence for its timeout walk
REAP_CHECK_SECONDS = 1.0  # ... and for its reaping walk
OPEN_SOCKET_CHECK_SECONDS = 30.0
QUIET_REAP_SECONDS = 10.0
BUSY_MARGIN_SECONDS = 2.0

_EXPECTED = (
    "application_checker",
    "timeout_checker",
    "protocol_disconnected",
    "create_application",
)


def _clock() -> Any:
    """The reactor the checks are scheduled on (a test's own clock in the tests)."""
    from twisted.internet import reactor

    return reactor


class CheckState:
    """When one server's walks are next due, and until when it is busy reaping."""

    def __init__(self, now: float) -> None:
        self.next_open_socket_check = now + OPEN_SOCKET_CHECK_SECONDS
        self.next_quiet_reap = now + QUIET_REAP_SECONDS
        self.busy_until = 0.0

    def note_activity(self, server: Any) -> None:
        """A connection ended or an application finished: reap every second until
        Daphne's close timeout for it has run out."""
        close_timeout = float(getattr(server, "application_close_timeout", 10) or 0)
        self.busy_until = _clock().seconds() + close_timeout + BUSY_MARGIN_SECONDS


def state_of(server: Any) -> CheckState:
    state: CheckState | None = server.__dict__.get("felt_check_state")
    if state is None:
        state = server.felt_check_state = CheckState(_clock().seconds())
    return state


def install() -> bool:
    """Replace Daphne's walks with these; False (and Daphne untouched) if it changed."""
    try:
        from daphne.server import Server
        from daphne.ws_protocol import WebSocketProtocol
    except ImportError:
        return False
    if getattr(Server, "is_felt_connection_checks", False):
        return True
    if not all(callable(getattr(Server, name, None)) for name in _EXPECTED) or not hasattr(
        WebSocketProtocol, "STATE_OPEN"
    ):
        log.warning("daphne's server is not the one expected: its checks stay as they are")
        return False

    daphne_reap = Server.application_checker
    daphne_disconnected = Server.protocol_disconnected
    daphne_create_application = Server.create_application
    open_state = WebSocketProtocol.STATE_OPEN

    def application_checker(self: Any) -> None:
        state, now = state_of(self), _clock().seconds()
        if now < state.busy_until or now >= state.next_quiet_reap:
            state.next_quiet_reap = now + QUIET_REAP_SECONDS
            daphne_reap(self)  # schedules the next call itself
        else:
            _clock().callLater(REAP_CHECK_SECONDS, self.application_checker)

    def timeout_checker(self: Any) -> None:
        state, now = state_of(self), _clock().seconds()
        open_sockets_due = now >= state.next_open_socket_check
        if open_sockets_due:
            state.next_open_socket_check = now + OPEN_SOCKET_CHECK_SECONDS
        for protocol in list(self.connections):
            if (
                not open_sockets_due
                and isinstance(protocol, WebSocketProtocol)
                and protocol.state == open_state
            ):
                continue
            protocol.check_timeouts()
        _clock().callLater(TIMEOUT_CHECK_SECONDS, self.timeout_checker)

    def protocol_disconnected(self: Any, protocol: Any) -> None:
        daphne_disconnected(self, protocol)
        state_of(self).note_activity(self)

    def create_application(self: Any, protocol: Any, scope: Any) -> Any:
        queue = daphne_create_application(self, protocol, scope)
        instance = self.connections.get(protocol, {}).get("application_instance")
        if isinstance(instance, asyncio.Future):
            instance.add_done_callback(lambda _: state_of(self).note_activity(self))
        return queue

    Server.application_checker = application_checker
    Server.timeout_checker = timeout_checker
    Server.protocol_disconnected = protocol_disconnected
    Server.create_application = create_application
    Server.is_felt_connection_checks = True
    return True
