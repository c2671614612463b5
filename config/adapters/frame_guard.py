"""A frame budget per websocket, enforced where Daphne reads the frames.

Daphne parses every frame a client sends and queues it for the consumer
before any of Felt's code sees it. A client writing frames as fast as TCP
allows kept its Daphne process busy parsing (the load test's ``--flood``: the
other tables on that process went from 8 to about 200 ms per action), while
the consumer, starved, saw too few frames for its own budget
(``config/platform/command_budget.py``) to notice. So Daphne's websocket protocol gets a
budget of its own, looser than the consumer's. At the first frame over it,
Daphne stops reading that connection for ``FRAME_HOLD_SECONDS`` (the
transport is paused: what the client writes meanwhile waits in its own
buffers, unparsed); the frames already read with it are dropped. A
connection still over budget for ``FRAME_STRIKES`` frames in a row is
closed with 4429: the sender's cool-off starts (config/platform/socket_limits.py),
its consumer is told at once (a disconnect with code 4429; frames still
queued for it are dropped) and nothing more it sends reaches the application.

The same protocol drops, quietly, what the application sends to a socket that
is already closing. Once either side has sent its close frame, autobahn
raises "Attempt to send on a closed protocol" for every send until the
connection is gone; that is normal (a snapshot or an answer crossing the
client's goodbye, or the answers to a flood queued before its 4429), but
raised through the consumer it ended it with a traceback and skipped its
clean-up (its presence and groups).

The same protocol also turns the kernel's TCP keepalive on for each websocket
as it opens (config/adapters/tcp_keepalive.py says why), and has its frames
written at once rather than on the loop's next turn
(config/adapters/prompt_writes.py).

This module and config/adapters/connection_checks.py are where Felt reaches
into Daphne's internals (prompt_writes.py and plain_debug_text.py reach into
Twisted's and autobahn's, under it): ``install`` adds the check only where Daphne's
websocket protocol still looks as it did in the version it was written
against (daphne 4.2), and otherwise logs that the guard is off and leaves
Daphne as it is.
"""

from __future__ import annotations

import enum
import logging
from dataclasses import dataclass, field
from typing import Any

from config.adapters.prompt_writes import write_promptly
from config.adapters.tcp_keepalive import keep_alive
from config.platform import socket_limits
from config.platform.close_codes import CloseCode
from config.platform.command_budget import CommandBudget

log = logging.getLogger(__name__)

FRAME_BURST = 100
FRAME_PER_SECOND = 50.0
FRAME_STRIKES = 200  # frames dropped in a row before the connection is closed
FRAME_HOLD_SECONDS = 1.0  # how long a connection over budget is not read


class Verdict(enum.Enum):
    PASS = "pass"  # to the application
    DROP = "drop"
    HOLD = "hold"  # dropped, and the connection is not read for a while
    CLOSE = "close"  # dropped, and the connection closed with 4429


@dataclass
class FrameGate:
    """What becomes of each frame one connection sends."""

    budget: CommandBudget = field(
        default_factory=lambda: CommandBudget(
            burst=FRAME_BURST, per_second=FRAME_PER_SECOND, strikes=FRAME_STRIKES
        )
    )
    is_holding: bool = False
    is_closing: bool = False

    def admit(self) -> Verdict:
        if self.is_closing:
            return Verdict.DROP
        if self.budget.take():
            return Verdict.PASS
        if self.budget.is_exhausted:
            self.is_closing = True
            return Verdict.CLOSE
        if self.is_holding:  # read along with the frame that started the hold
            return Verdict.DROP
        self.is_holding = True
        return Verdict.HOLD


def install() -> bool:
    """Put the frame budget in front of Daphne's ``onMessage``; False if Daphne changed."""
    try:
        from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
    except ImportError:
        return False
    if getattr(WebSocketFactory.protocol, "is_felt_frame_budget", False):
        return True  # installed already
    expected = ("onOpen", "onMessage", "serverSend", "STATE_OPEN")
    if getattr(WebSocketFactory, "protocol", None) is not WebSocketProtocol or not all(
        hasattr(WebSocketProtocol, name) for name in expected
    ):
        log.warning("daphne's websocket protocol is not the one expected: no frame budget")
        return False

    class FrameBudgetProtocol(WebSocketProtocol):  # type: ignore[misc]
        frame_gate: FrameGate | None = None
        is_felt_frame_budget = True

        def onOpen(self) -> None:  # noqa: N802
            keep_alive(self.transport)  # config/adapters/tcp_keepalive.py
            write_promptly(self.transport)  # config/adapters/prompt_writes.py
            super().onOpen()

        def onMessage(self, payload: bytes, isBinary: bool) -> None:  # noqa: N802, N803
            if self.frame_gate is None:
                self.frame_gate = FrameGate()
            verdict = self.frame_gate.admit()
            if verdict is Verdict.PASS:
                super().onMessage(payload, isBinary)
            elif verdict is Verdict.HOLD:
                hold_reading(self)
            elif verdict is Verdict.CLOSE:
                close_flooding(self)

        def serverSend(self, content: bytes | str, binary: bool = False) -> None:  # noqa: N802
            if self.state in (self.STATE_CLOSING, self.STATE_CLOSED):
                log.debug("dropped a frame for a closing websocket (%s)", self.client_addr)
                return
            super().serverSend(content, binary)

    WebSocketFactory.protocol = FrameBudgetProtocol
    return True


def hold_reading(protocol: Any) -> None:
    """Read nothing more from ``protocol``'s client for a while."""
    from twisted.internet import reactor

    protocol.transport.pauseProducing()
    clock: Any = reactor  # typed as the bare interface, whose methods take ``self``
    clock.callLater(FRAME_HOLD_SECONDS, resume_reading, protocol)


def resume_reading(protocol: Any) -> None:
    protocol.frame_gate.is_holding = False
    if getattr(protocol.transport, "connected", False):
        protocol.transport.resumeProducing()


def close_flooding(protocol: Any) -> None:
    log.warning("closing a websocket that sent too many frames (%s)", protocol.client_addr)
    socket_limits.note_flood(protocol.client_addr)  # before the client can reconnect
    # Daphne forwards nothing more (muted) and would then not report the end either.
    # The frames still queued are the flood's: the consumer skips them, and hears at
    # once that its socket is gone, and why.
    protocol.muted = True
    queue = protocol.application_queue
    while not queue.empty():
        queue.get_nowait()
    queue.put_nowait({"type": "websocket.disconnect", "code": CloseCode.RATE_LIMITED})
    protocol.sendClose(code=CloseCode.RATE_LIMITED, reason="Too many messages.")
    if getattr(protocol.transport, "connected", False):
        protocol.transport.resumeProducing()  # to read the client's reply to the close
