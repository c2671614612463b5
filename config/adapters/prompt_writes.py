"""A websocket's frames written to its socket at once, not on the event loop's next turn.

Twisted's TCP transport never writes when asked: it buffers the bytes, asks
the event loop to watch the socket for room (an ``epoll_ctl``), writes on the
loop's next turn and stops watching (another). For a table socket that is one
frame at a time into a kernel buffer with room to spare, so the watching was
two system calls and a turn of the loop for every frame, about 5% of a Daphne
process's time under a 50-table load test (docs/performance.md, session 33).

``write_promptly`` gives one open websocket's transport a ``write`` that
sends at once while nothing is waiting before it: what the kernel takes is
gone, and only what it does not take (a slow reader's full buffer) is handed
to Twisted's own buffering, in order, which then works as before. Anything
unusual (TLS, a connection closing, a send that fails) goes Twisted's way
untouched, so it handles its errors and its close as it always has.

Like config/adapters/frame_guard.py (which calls this as each websocket
opens), this reaches into Twisted's internals, so it changes nothing unless the
transport has the parts it was written against (Twisted 26.10), and says so.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)
_warned = False  # of a transport not as expected: once per process, not per socket

_EXPECTED = (
    "dataBuffer",
    "offset",
    "_tempDataBuffer",
    "_writeDisconnected",
    "disconnecting",
    "connected",
    "writeSomeData",
)


def write_promptly(transport: Any) -> bool:
    """Give ``transport`` (a Twisted TCP transport) the prompt ``write``; False where it
    is not the transport this was written against, which keeps its own."""
    global _warned
    if getattr(transport, "TLS", True) or not all(hasattr(transport, n) for n in _EXPECTED):
        if not _warned:
            _warned = True
            log.warning("a websocket's transport is not the one expected: its writes wait a turn")
        return False
    buffered_write = transport.write

    def write(data: bytes) -> None:
        if (
            type(data) is bytes
            and transport.connected
            and not transport.disconnecting
            and not transport._writeDisconnected
            and not transport._tempDataBuffer
            and transport.offset == len(transport.dataBuffer)
        ):
            sent = transport.writeSomeData(data)
            if type(sent) is int and sent >= 0:  # else lost: Twisted's write finds out
                if sent == len(data):
                    return
                data = data[sent:]
        buffered_write(data)

    transport.write = write
    return True
