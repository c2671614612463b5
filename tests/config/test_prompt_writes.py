"""A websocket's frames written at once (config/adapters/prompt_writes.py): each
reaches the peer without waiting for the event loop's next turn, in the order written,
and what the kernel cannot take yet is left to Twisted's buffering, which sends it
once there is room, as before.

Each test drives a real Twisted TCP connection over a real socket pair, with a
reactor that only records what it was asked to watch."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from twisted.internet import tcp
from twisted.internet.abstract import FileDescriptor
from twisted.internet.protocol import Protocol
from twisted.internet.testing import MemoryReactor

from config.adapters.prompt_writes import write_promptly


@pytest.fixture
def pair() -> Iterator[tuple[tcp.Connection, socket.socket, MemoryReactor]]:
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    theirs.settimeout(2)
    reactor = MemoryReactor()
    connection = tcp.Connection(ours, Protocol(), reactor)
    connection.connected = True
    yield connection, theirs, reactor
    ours.close()
    theirs.close()


def received(peer: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        data += peer.recv(size - len(data))
    return data


def test_a_frame_reaches_the_peer_without_a_turn_of_the_loop(pair) -> None:
    connection, peer, reactor = pair
    assert write_promptly(connection)

    connection.write(b"frame one")
    connection.write(b", frame two")

    assert received(peer, 20) == b"frame one, frame two"
    assert reactor.writers == set(), "the loop was never asked to watch the socket"


def test_a_frame_behind_buffered_bytes_waits_its_turn(pair) -> None:
    connection, peer, reactor = pair
    FileDescriptor.write(connection, b"first, ")  # buffered, as Twisted's own write does
    assert write_promptly(connection)

    connection.write(b"second")

    assert reactor.writers == {connection}
    connection.doWrite()  # the loop's turn
    assert received(peer, 13) == b"first, second"


def test_what_a_slow_reader_s_buffer_cannot_take_is_sent_when_there_is_room(pair) -> None:
    connection, peer, reactor = pair
    assert write_promptly(connection)
    frame = bytes(range(256)) * 64  # 16 KB
    frames = 200  # more than the socket pair's buffers hold

    for _ in range(frames):
        connection.write(frame)

    assert reactor.writers == {connection}, "the rest waits in Twisted's buffer"
    data = b""
    while len(data) < len(frame) * frames:
        data += peer.recv(1 << 20)
        connection.doWrite()
    assert data == frame * frames


def test_a_closing_connection_and_a_tls_one_keep_twisted_s_way(pair) -> None:
    connection, peer, reactor = pair
    assert write_promptly(connection)
    connection.disconnecting = True

    connection.write(b"goodbye")

    assert reactor.writers == {connection}
    connection.TLS = True
    assert not write_promptly(connection)
