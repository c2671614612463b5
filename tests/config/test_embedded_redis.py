import pytest
import redis

from config.platform.embedded import EmbeddedRedis


@pytest.fixture
def home(tmp_path_factory):
    # A short path: unix socket paths are limited to 107 characters.
    return tmp_path_factory.mktemp("r")


def test_it_serves_on_a_unix_socket_and_stops_cleanly(home):
    server = EmbeddedRedis(home, persistent=False)
    server.start()
    try:
        with redis.Redis.from_url(server.url) as client:
            assert client.ping()
            assert client.config_get("port")["port"] == "0", "no TCP port is opened"
    finally:
        server.stop()
    assert server.process.returncode == 0
    assert not server.answers()


def test_it_refuses_to_start_a_second_server_on_the_same_home(home):
    first = EmbeddedRedis(home, persistent=False)
    first.start()
    try:
        with pytest.raises(RuntimeError, match="already answers"):
            EmbeddedRedis(home, persistent=False).start()
    finally:
        first.stop()


def test_it_refuses_a_socket_path_too_long_to_bind(tmp_path):
    with pytest.raises(ValueError, match="choose a shorter FELT_HOME"):
        EmbeddedRedis(tmp_path / ("x" * 120))


def test_a_persistent_server_keeps_its_data_across_a_restart(home):
    server = EmbeddedRedis(home)
    server.start()
    try:
        with redis.Redis.from_url(server.url) as client:
            client.rpush("queued-task", "payload")
    finally:
        server.stop()

    again = EmbeddedRedis(home)
    again.start()
    try:
        with redis.Redis.from_url(again.url) as client:
            assert client.lrange("queued-task", 0, -1) == [b"payload"]
    finally:
        again.stop()
