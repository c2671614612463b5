"""A frame budget per websocket, enforced where Daphne reads the frames.

Daphne parses every frame a client sends and queues it for the consumer
before any of Felt's code sees it. A client writing frames as fast as TCP
allows kept its Daphne process busy parsing (the load test's ``--flood``: the
other tables on that process went from 8 to about 200 ms per action), while
the consumer, starved, saw too few frames for its own budget
(``tables/rate_limit.py``) to notice. So Daphne's websocket protocol gets a
budget of its own, looser than the consumer's: frames over it are dropped
unread, and a connection that keeps on is closed with 4429, so the rest of
its flood is never parsed.

The same protocol drops, quietly, what the application sends to a socket that
is already closing. Once either side has sent its close frame, autobahn
raises "Attempt to send on a closed protocol" for every send until the
connection is gone; that is normal (a snapshot or an answer crossing the
client's goodbye, or the answers to a flood queued before its 4429), but
raised through the consumer it ended it with a traceback and skipped its
clean-up (its presence and groups).

This is the one place Felt reaches into Daphne's internals: ``install`` adds
the check only where Daphne's websocket protocol still looks as it did in
the version it was written against (daphne 4.2), and otherwise logs that the
guard is off and leaves Daphne as it is.
"""

from __future__ import annotations

import logging
from typing import Any

from tables.rate_limit import CommandBudget

log = logging.getLogger(__name__)

FRAME_BURST = 100
FRAME_PER_SECOND = 50.0
FRAME_STRIKES = 200  # frames dropped in a row before the connection is closed
CLOSE_RATE_LIMITED = 4429


def install() -> bool:
    """Put the frame budget in front of Daphne's ``onMessage``; False if Daphne changed."""
    try:
        from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
    except ImportError:
        return False
    if getattr(WebSocketFactory.protocol, "is_felt_frame_budget", False):
        return True  # installed already
    if getattr(WebSocketFactory, "protocol", None) is not WebSocketProtocol or not all(
        hasattr(WebSocketProtocol, name) for name in ("onMessage", "serverSend", "STATE_OPEN")
    ):
        log.warning("daphne's websocket protocol is not the one expected: no frame budget")
        return False

    class FrameBudgetProtocol(WebSocketProtocol):  # type: ignore[misc]
        frame_budget: CommandBudget | None = None
        is_felt_frame_budget = True

        def onMessage(self, payload: bytes, isBinary: bool) -> None:  # noqa: N802, N803
            if self.frame_budget is None:
                self.frame_budget = CommandBudget(
                    burst=FRAME_BURST, per_second=FRAME_PER_SECOND, strikes=FRAME_STRIKES
                )
            if self.frame_budget.take():
                super().onMessage(payload, isBinary)
            elif self.frame_budget.is_exhausted and not getattr(self, "felt_closing", False):
                self.felt_closing = True
                close_flooding(self)

        def serverSend(self, content: bytes | str, binary: bool = False) -> None:  # noqa: N802
            if self.state in (self.STATE_CLOSING, self.STATE_CLOSED):
                log.debug("dropped a frame for a closing websocket (%s)", self.client_addr)
                return
            super().serverSend(content, binary)

    WebSocketFactory.protocol = FrameBudgetProtocol
    return True


def close_flooding(protocol: Any) -> None:
    log.warning("closing a websocket that sent too many frames (%s)", protocol.client_addr)
    protocol.sendClose(code=CLOSE_RATE_LIMITED, reason="Too many messages.")
