"""What one table socket may do: a command budget, and only while its log-in stands."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.test import Client as HttpClient
from django.urls import path, reverse

from accounts.sessions import log_in_current, log_in_stands
from config.adapters.frame_guard import FrameGate, Verdict
from config.adapters.session_store import SessionStore
from config.asgi import application
from config.platform.command_budget import CommandBudget
from tables import services
from tables.consumers import TableConsumer
from tables.models import ChatMessage, Seat, Table
from tests.support import PASSWORD
from tests.tables.helpers import act, deal, friends_table, user_to_act
from tests.tables.sockets import HEADERS, Client, session_cookie

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]


def test_the_budget_allows_a_burst_then_a_steady_rate_then_gives_up() -> None:
    now = [0.0]
    budget = CommandBudget(burst=3, per_second=2, strikes=4, clock=lambda: now[0])
    assert [budget.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5  # one more command's worth
    assert budget.take() and not budget.take()
    assert [budget.take() for _ in range(2)] == [False, False] and not budget.is_exhausted
    assert not budget.take() and budget.is_exhausted  # four refusals in a row
    now[0] += 10
    assert budget.take() and not budget.is_exhausted


def test_a_connection_over_its_frame_budget_is_held_then_closed_if_it_keeps_on() -> None:
    now = [0.0]
    gate = FrameGate(CommandBudget(burst=3, per_second=2, strikes=5, clock=lambda: now[0]))
    assert [gate.admit() for _ in range(3)] == [Verdict.PASS] * 3
    # the first frame over: not read for a while; those read with it are dropped
    assert [gate.admit() for _ in range(2)] == [Verdict.HOLD, Verdict.DROP]
    gate.is_holding = False  # the hold ended
    now[0] += 1.0  # two frames' worth
    assert [gate.admit() for _ in range(3)] == [Verdict.PASS, Verdict.PASS, Verdict.HOLD]
    assert [gate.admit() for _ in range(4)] == [Verdict.DROP] * 3 + [Verdict.CLOSE]
    now[0] += 60
    assert gate.admit() is Verdict.DROP, "a closing connection is read no more"


async def heads_up(alice, bob) -> int:
    def setup() -> int:
        table = services.table_create(owner=alice, name="Friday game")
        services.seat_take(table_id=table.pk, user=alice, seat=0)
        services.seat_take(table_id=table.pk, user=bob, seat=1)
        return table.pk

    return await sync_to_async(setup)()


async def closed_with(client: Client) -> int:
    while True:
        message = await client.socket.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            return int(message["code"])


async def test_a_flooding_socket_is_told_to_slow_down_then_closed(alice, bob, settings):
    settings.TABLES_SOCKET_BURST = 5
    settings.TABLES_SOCKET_PER_SECOND = 0.01
    settings.TABLES_SOCKET_STRIKES = 10
    table_id = await heads_up(alice, bob)
    flooder = await Client.open(alice, table_id)
    neighbour = await Client.open(bob, table_id)
    for _ in range(5):  # the burst: each command is answered on its merits
        assert (await flooder.error("not json", raw=True))["code"] == "bad_json"
    frame = await flooder.error({"type": "sit_out"})  # told once...
    assert frame["code"] == "rate_limited" and "slow down" in frame["message"]
    for _ in range(8):  # ...then dropped unanswered: answering each would cost too
        await flooder.socket.send_to(text_data=json.dumps({"type": "sit_out"}))
    assert await flooder.is_quiet()
    await flooder.socket.send_to(text_data=json.dumps({"type": "sit_out"}))  # the 10th
    assert await closed_with(flooder) == 4429
    # nothing the flooder sent over budget reached the table; the neighbour plays on
    assert await neighbour.is_quiet()
    await neighbour.send({"type": "sit_out"})
    assert (await neighbour.snapshot())["seats"][1]["is_sitting_out"]


async def test_an_action_on_a_decision_the_socket_has_seen_answered_is_stale_at_once(alice, bob):
    table_id = await heads_up(alice, bob)
    table = await sync_to_async(Table.objects.get)(pk=table_id)
    await sync_to_async(deal)(table)
    client = await Client.open(alice, table_id)
    answered, seq = client.table["decision"], client.table["seq"]
    await sync_to_async(act)(table, "call")
    await client.snapshot(seq + 1)
    frame = await client.error({"type": "act", "action": "fold", "decision": answered})
    assert frame["code"] == "stale_decision"


async def sign_in(user) -> HttpClient:
    browser = HttpClient()
    assert await sync_to_async(browser.login)(username=user.username, password=PASSWORD)
    return browser


async def test_a_password_change_elsewhere_closes_the_old_sockets(alice, bob):
    table_id = await heads_up(alice, bob)
    old_tab = await Client.open(alice, table_id)  # its own session
    await change_password_in_a_browser(alice)
    assert await closed_with(old_tab) == 4403


async def test_logging_out_closes_that_sessions_sockets(alice, bob, settings):
    settings.SOCKET_SESSION_RECHECK_SECONDS = 0
    table_id = await heads_up(alice, bob)
    browser = await sign_in(alice)
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()
    tab = await Client.open_with_cookie(cookie, table_id)
    await sync_to_async(browser.post)(reverse("accounts:logout"))
    assert await closed_with(tab) == 4403


async def test_a_socket_whose_notice_was_lost_cannot_act_after_the_password_change(
    alice, bob, settings
):
    settings.SOCKET_SESSION_RECHECK_SECONDS = 0
    table_id = await heads_up(alice, bob)
    old_tab = await Client.open(alice, table_id)

    def change_password() -> None:  # no notice sent: only the socket's own check sees it
        alice.set_password("n3w-horse-battery")
        alice.save()

    await sync_to_async(change_password)()
    await old_tab.socket.send_to(text_data=json.dumps({"type": "sit_out"}))
    assert await closed_with(old_tab) == 4403


class NoticeStillOnItsWay(TableConsumer):
    """A table socket the session notice has not reached yet: only the command's own
    check of the log-in can stop it."""

    async def session_changed(self, event: dict[str, object]) -> None:
        return


NOTICE_STILL_ON_ITS_WAY = AuthMiddlewareStack(
    URLRouter([path("ws/tables/<int:table_id>/", NoticeStillOnItsWay.as_asgi())])
)


async def test_a_socket_whose_logout_notice_was_lost_cannot_act_after_the_logout(
    alice, bob, settings
):
    """Logging out leaves the password hash as it was: only the socket's periodic
    session check, made in the same trip as the command, sees that the session is gone."""
    settings.SOCKET_SESSION_RECHECK_SECONDS = 0
    table = await sync_to_async(friends_table)(alice, bob)
    await sync_to_async(deal)(table)
    browser = await sign_in(alice)
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()
    tab = await Client.open_with_cookie(cookie, table.pk, app=NOTICE_STILL_ON_ITS_WAY)
    seq = tab.table["seq"]
    await sync_to_async(browser.post)(reverse("accounts:logout"))
    await tab.send({"type": "sit_out"})
    assert await closed_with(tab) == 4403
    assert (await sync_to_async(Table.objects.get)(pk=table.pk)).seq == seq, "nothing changed"


async def change_password_in_a_browser(user) -> None:
    """The member changes their password on the password page, in another session."""
    browser = await sign_in(user)
    page = await sync_to_async(browser.post)(
        reverse("accounts:password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "n3w-horse-battery",
            "new_password2": "n3w-horse-battery",
        },
    )
    assert page.status_code == 302


@pytest.mark.parametrize(
    "message", [{"type": "sit", "seat": 2}, {"type": "chat", "text": "still me"}]
)
async def test_a_command_sent_right_after_a_password_change_elsewhere_is_refused(
    alice, bob, carol, settings, message
):
    settings.SOCKET_SESSION_RECHECK_SECONDS = 3600  # the socket's own re-read is no help
    table = await sync_to_async(friends_table)(bob, carol, seat_count=3)
    old_tab = await Client.open(alice, table.pk, app=NOTICE_STILL_ON_ITS_WAY)
    neighbour = await Client.open(bob, table.pk)
    await change_password_in_a_browser(alice)
    await old_tab.socket.send_to(text_data=json.dumps(message))
    assert await closed_with(old_tab) == 4403
    assert not await sync_to_async(Seat.objects.filter(user=alice).exists)()
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    assert await neighbour.is_quiet(), "nothing changed at the table"
    await neighbour.close()


async def test_an_action_sent_right_after_a_password_change_elsewhere_is_refused(
    alice, bob, settings
):
    settings.SOCKET_SESSION_RECHECK_SECONDS = 3600
    table = await sync_to_async(friends_table)(alice, bob)
    await sync_to_async(deal)(table)
    player = await sync_to_async(user_to_act)(table)
    old_tab = await Client.open(player, table.pk, app=NOTICE_STILL_ON_ITS_WAY)
    seq = old_tab.table["seq"]
    await change_password_in_a_browser(player)
    await old_tab.send({"type": "act", "action": "fold", "decision": old_tab.table["decision"]})
    assert await closed_with(old_tab) == 4403
    assert (await sync_to_async(Table.objects.get)(pk=table.pk)).seq == seq, "no fold"


def test_a_standing_log_in_is_confirmed_from_the_cache_without_a_query(
    alice, django_assert_num_queries
):
    auth_hash = alice.get_session_auth_hash()
    assert log_in_stands(alice.pk, auth_hash)  # reads the account at most once
    with django_assert_num_queries(0):
        assert log_in_stands(alice.pk, auth_hash)
    assert not log_in_stands(alice.pk, "the hash of an older password")
    assert not log_in_stands(alice.pk, None)


def test_a_due_session_check_judges_the_log_in_from_the_database_alone(alice, monkeypatch):
    """The command that carries the periodic session check reads the account anyway:
    it needs no read of the cache besides, and sees a password change at once."""
    browser = HttpClient()
    browser.force_login(alice)
    session = SessionStore(browser.cookies["sessionid"].value)
    auth_hash = alice.get_session_auth_hash()

    def no_cache(*args: object, **kwargs: object) -> None:
        raise AssertionError("the cache was read")

    monkeypatch.setattr(cache, "get", no_cache)
    assert log_in_current(session, alice.pk, auth_hash)
    assert not log_in_current(session, alice.pk, "the hash of an older password")
    assert not log_in_current(session, alice.pk, None)
    alice.set_password("n3w-horse-battery")
    alice.save()  # no notice, and a cache that would still hold the old hash
    assert not log_in_current(session, alice.pk, auth_hash)


async def socket_code(user, path: str = "/ws/lobby/", app=application) -> int | None:
    """None when ``user``'s new socket at ``path`` is accepted and stays open, else
    the code it was closed with."""
    headers = [*HEADERS, (b"cookie", await session_cookie(user))]
    socket = WebsocketCommunicator(app, path, headers=headers)
    connected, _ = await socket.connect(timeout=5)  # a refusal pauses a second first
    assert connected
    code = None
    while not await socket.receive_nothing(timeout=0.2):
        message = await socket.receive_output()
        if message["type"] == "websocket.close":
            code = int(message["code"])
            break
    await socket.disconnect()
    return code


def from_address(address: str):
    """The site's websockets, as Daphne serves them to a client at ``address``."""

    async def app(scope, receive, send):
        return await application({**scope, "client": [address, 50000]}, receive, send)

    return app


async def test_a_member_opening_sockets_too_fast_is_refused_for_the_rest_of_the_window(
    alice, bob, settings
):
    settings.SOCKET_HANDSHAKES_PER_USER = 3
    assert [await socket_code(alice) for _ in range(3)] == [None, None, None]
    assert await socket_code(alice) == 4430
    table_id = await heads_up(alice, bob)
    assert await socket_code(alice, f"/ws/tables/{table_id}/") == 4430, "any page's socket"
    assert await socket_code(bob) is None, "other members are not held up"


async def test_an_address_opening_sockets_too_fast_is_refused(alice, bob, carol, settings):
    settings.SOCKET_HANDSHAKES_PER_ADDRESS = 2
    crowded, elsewhere = from_address("10.0.0.7"), from_address("10.0.0.8")
    assert await socket_code(alice, app=crowded) is None
    assert await socket_code(bob, app=crowded) is None
    assert await socket_code(carol, app=crowded) == 4430
    assert await socket_code(carol, app=elsewhere) is None


async def test_after_a_4429_the_member_and_the_address_cool_off(alice, bob, carol, settings):
    settings.TABLES_SOCKET_BURST = 1
    settings.TABLES_SOCKET_PER_SECOND = 0.01
    settings.TABLES_SOCKET_STRIKES = 3
    settings.SOCKET_COOL_OFF_SECONDS = 2
    table_id = await heads_up(alice, bob)
    there = from_address("10.0.0.9")
    flooder = await Client.open(alice, table_id, app=there)
    for _ in range(5):
        await flooder.socket.send_to(text_data=json.dumps({"type": "sit_out"}))
    assert await closed_with(flooder) == 4429
    assert await socket_code(alice) == 4430, "the flooding member, from anywhere"
    assert await socket_code(carol, app=there) == 4430, "anyone from the flooding address"
    assert await socket_code(bob) is None
    # the cool-off ends on its own
    for _ in range(50):
        if await socket_code(alice) is None:
            break
        await asyncio.sleep(0.2)
    else:
        pytest.fail("still refused after the cool-off")
