"""Frames the lobby socket cannot read get the read-only error; the socket stays usable."""

import pytest

from tests.support.lobby import next_count, open_lobby

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]

READ_ONLY = {"type": "error", "code": "read_only"}


@pytest.fixture
def alice(make_user):
    return make_user("alice")


async def test_a_frame_that_is_not_json_gets_the_read_only_error(alice):
    socket, connected = await open_lobby(alice)
    assert connected and await next_count(socket) == 1
    await socket.send_to(text_data="{not json")
    assert await socket.receive_json_from(timeout=10) == READ_ONLY
    await socket.send_to(text_data="[" * 5000)
    assert await socket.receive_json_from(timeout=10) == READ_ONLY
    await socket.disconnect()


async def test_a_binary_frame_gets_the_read_only_error(alice):
    socket, connected = await open_lobby(alice)
    assert connected and await next_count(socket) == 1
    await socket.send_to(bytes_data=b"\x00\xff")
    assert await socket.receive_json_from(timeout=10) == READ_ONLY
    await socket.disconnect()
