"""The kernel's TCP keepalive on every websocket, in place of most of Daphne's pings.

A player whose connection vanished without a close (a phone out of signal, a
laptop shut) must not show as present at the table for long, and finding
such connections is what a server's pings are for. Daphne pinged every quiet
websocket every 20 s and closed it when the pong was 30 s late; each ping and
its pong were most of what an idle socket cost the server
(docs/performance.md, session 28). The kernel finds the same dead peers at no
cost to the process: after ``IDLE_SECONDS`` without a packet it probes the
peer every ``PROBE_SECONDS``, and after ``PROBES`` probes unanswered it ends
the connection, which Daphne reports to the consumer as a disconnect. That is
50 s, as Daphne's pings took (20 s, its 2 s check, 30 s). The probes also
keep a quiet connection open through the NATs of mobile networks.

Daphne still pings, every ``PING_SECONDS`` (its ``--ping-interval``, which
``scripts/run.py`` and the deployment's units pass): behind a balancer the
kernel probes the balancer, not the player, so the balancer must probe the
client side itself (haproxy's ``option clitcpka``; docs/deploy.md), and the
slow ping is what remains where it does not.
"""

from __future__ import annotations

import logging
import socket
from typing import Any

log = logging.getLogger(__name__)

IDLE_SECONDS = 20
PROBE_SECONDS = 10
PROBES = 3
PING_SECONDS = 300  # Daphne's --ping-interval


def keep_alive(transport: Any) -> bool:
    """Turn the kernel's keepalive on for ``transport``'s socket (a Twisted TCP
    transport); False where the platform or the transport does not allow it."""
    handle = getattr(transport, "getHandle", None)
    sock = handle() if handle is not None else None
    if not isinstance(sock, socket.socket) or not hasattr(socket, "TCP_KEEPIDLE"):
        return False
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, IDLE_SECONDS)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, PROBE_SECONDS)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, PROBES)
    except OSError:  # closed meanwhile, or not TCP
        log.debug("no keepalive for a websocket", exc_info=True)
        return False
    return True
