"""A websocket client on a bare TCP socket, for tests against a real Daphne.

Client libraries answer a close frame and keep reading on their own; a
misbehaving client does neither. This one writes exactly the bytes a test
chooses (many frames in one write, no close reply) and reads only when asked.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
from typing import Any
from urllib.parse import urlsplit

TEXT, CLOSE = 0x1, 0x8


def frame(text: str, opcode: int = TEXT) -> bytes:
    """One masked client frame (RFC 6455 section 5.2)."""
    payload = text.encode()
    mask = os.urandom(4)
    if len(payload) < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | len(payload))
    else:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, len(payload))
    masked = bytes(byte ^ mask[n % 4] for n, byte in enumerate(payload))
    return header + mask + masked


class RawSocket:
    def __init__(self, sock: socket.socket, status: int, buffered: bytes) -> None:
        self.sock = sock
        self.status = status  # of the HTTP handshake: 101 when upgraded
        self.buffer = buffered

    @classmethod
    def open(cls, base_url: str, path: str, cookie: str, timeout: float = 15) -> RawSocket:
        netloc = urlsplit(base_url).netloc
        host, port = netloc.rsplit(":", 1)
        sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {netloc}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: {base_url}\r\nCookie: {cookie}\r\n\r\n"
        )
        sock.sendall(request.encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = sock.recv(4096)
            if not chunk:
                raise ConnectionError(f"closed during the handshake: {response!r}")
            response += chunk
        head, _, rest = response.partition(b"\r\n\r\n")
        return cls(sock, int(head.split()[1]), rest)

    def _read(self, count: int) -> bytes:
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self) -> tuple[int, bytes]:
        """The next frame from the server: (opcode, payload)."""
        first, second = self._read(2)
        length = second & 0x7F
        if length == 126:
            (length,) = struct.unpack("!H", self._read(2))
        elif length == 127:
            (length,) = struct.unpack("!Q", self._read(8))
        return first & 0x0F, self._read(length)

    def receive_json(self) -> dict[str, Any]:
        opcode, payload = self.receive()
        assert opcode == TEXT, (opcode, payload)
        return dict(json.loads(payload))

    def close_code(self) -> int:
        """Read until the server's close frame; its code."""
        while True:
            opcode, payload = self.receive()
            if opcode == CLOSE:
                return int(struct.unpack("!H", payload[:2])[0])

    def send_all(self, texts: list[str]) -> None:
        """Every text as a frame, in one write."""
        self.sock.sendall(b"".join(frame(text) for text in texts))

    def close(self) -> None:
        self.sock.close()
