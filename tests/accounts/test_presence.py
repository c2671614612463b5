"""The online list in Redis, which every Daphne process shares."""

from accounts import presence


async def test_users_count_once_however_many_connections_they_have():
    await presence.connection_opened(1, "a")
    await presence.connection_opened(1, "b")
    assert await presence.connection_opened(2, "c") == 2
    assert await presence.connection_closed(1, "a") == 2
    assert await presence.connection_closed(1, "b") == 1


async def test_connections_that_stop_refreshing_are_forgotten(time_machine):
    time_machine.move_to("2030-01-01 12:00:00", tick=False)
    await presence.connection_opened(1, "crashed-process")
    await presence.connection_opened(2, "healthy")
    time_machine.move_to("2030-01-01 12:01:00", tick=False)
    await presence.connection_refreshed(2, "healthy")

    time_machine.move_to("2030-01-01 12:02:00", tick=False)

    assert await presence.online_count() == 1


async def test_closing_an_unknown_connection_changes_nothing():
    await presence.connection_opened(1, "a")
    assert await presence.connection_closed(1, "never-opened") == 1
