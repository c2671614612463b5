"""A websocket that fails to open is closed with 4503, never answered with an HTTP 500
(config/platform/unavailable_sockets.py); the live server's side of it, with Redis
down, is in tests/config/test_redis_blinks.py."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from redis.exceptions import ConnectionError as RedisConnectionError

from config.platform.close_codes import CloseCode
from config.platform.unavailable_sockets import CloseWhenUnavailable

pytestmark = pytest.mark.pure


def failing_before_it_opens(error: Exception) -> Any:
    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        raise error  # as the channel layer's subscription does while Redis is down

    return CloseWhenUnavailable(application)


@pytest.mark.parametrize(
    "error", [RedisConnectionError("Error 111 connecting"), AttributeError("writelines")]
)
async def test_a_socket_that_cannot_open_is_accepted_then_closed_with_4503(error) -> None:
    socket = WebsocketCommunicator(failing_before_it_opens(error), "/ws/lobby/")
    connected, _ = await socket.connect(timeout=5)
    assert connected
    closing = await socket.receive_output(timeout=5)
    assert closing == {"type": "websocket.close", "code": CloseCode.UNAVAILABLE}


async def test_a_bug_in_an_open_socket_is_raised_as_before() -> None:
    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        raise ZeroDivisionError

    socket = WebsocketCommunicator(CloseWhenUnavailable(application), "/ws/lobby/")
    assert (await socket.connect(timeout=5))[0]
    with pytest.raises(ZeroDivisionError):
        await socket.wait(timeout=5)
