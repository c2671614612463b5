"""A club's tournaments over the sockets: its news reach its members' pages only, and a
non-member's socket to one of its tables is refused with a code the page explains."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from config.asgi import application
from config.platform.close_codes import CloseCode
from tests.support.tournaments import next_of_type, open_lobby
from tests.tables.sockets import HEADERS, Client, close_code_after_accepting, session_cookie
from tournaments import broadcast, services
from tournaments.clubs import services as club_services
from tournaments.models import Club, Tournament
from tournaments.tournament_settings import TournamentSettings

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]


def club_and_tournament(make_user: Any) -> tuple[Club, Tournament, list[Any]]:
    owner, bob, carol, outsider = (make_user(n) for n in ("owner", "bob", "carol", "outsider"))
    club = club_services.club_create(user=owner, name="Thursday Crew")
    for user in (bob, carol):
        club_services.club_join(slug=club.slug, user=user, token=club.invite_token)
    tournament = club_services.club_tournament_schedule(
        slug=club.slug,
        admin=owner,
        settings=TournamentSettings(
            name="Club Night", starts_at=timezone.now() + timedelta(minutes=5), seats_per_table=3
        ),
    )
    return club, tournament, [owner, bob, carol, outsider]


async def test_a_club_tournament_s_news_reach_members_and_not_the_lobby(make_user):
    club, tournament, (owner, bob, carol, outsider) = await sync_to_async(club_and_tournament)(
        make_user
    )
    member_socket, outsider_socket = await open_lobby(owner), await open_lobby(outsider)

    await sync_to_async(services.tournament_register)(tournament_id=tournament.pk, user=bob)

    # The lobby's own sit-n-gos may be in the news too (a sweep opens any missing).
    news = await next_of_type(member_socket, "tournament")
    while news["tournament"]["id"] != tournament.pk:
        news = await next_of_type(member_socket, "tournament")
    assert news["tournament"]["registered"] == 1
    frames = []
    while not await outsider_socket.receive_nothing(timeout=0.5):
        frames.append(await outsider_socket.receive_json_from())
    assert not [
        f for f in frames if f["type"] == "tournament" and f["tournament"]["id"] == tournament.pk
    ], frames
    for socket in (member_socket, outsider_socket):
        await socket.disconnect()


async def test_a_non_member_s_socket_to_a_club_table_is_refused_and_a_member_s_is_not(
    make_user,
):
    club, tournament, (owner, bob, carol, outsider) = await sync_to_async(club_and_tournament)(
        make_user
    )

    def start() -> int:
        for user in (bob, carol):
            services.tournament_register(tournament_id=tournament.pk, user=user)
        services.mtt_start(tournament_id=tournament.pk, now=timezone.now() + timedelta(minutes=6))
        return tournament.tables.get().pk

    table_id = await sync_to_async(start)()
    headers = [*HEADERS, (b"cookie", await session_cookie(outsider))]
    refused = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)

    assert await close_code_after_accepting(refused) == CloseCode.MEMBERS_ONLY
    watcher = await Client.open(owner, table_id)  # a member who is not playing may watch
    await watcher.socket.disconnect()


async def test_news_asked_for_while_the_news_thread_is_busy_reach_a_member_once(make_user):
    club, tournament, (owner, bob, carol, outsider) = await sync_to_async(club_and_tournament)(
        make_user
    )
    member_socket = await open_lobby(owner)
    for user in (bob, carol):  # each told at once, outside a server
        await sync_to_async(services.tournament_register)(tournament_id=tournament.pk, user=user)
    await frames_until_quiet(member_socket)

    busy = threading.Event()
    broadcast._summary_thread.submit(busy.wait, 10)  # the thread is building another summary
    try:
        for announcement in (None, "Blinds 20/40 from the next hand", None, None):
            broadcast.queue_summary(tournament.pk, announcement)
    finally:
        busy.set()

    frames = await frames_until_quiet(member_socket)
    news = [f["tournament"] for f in frames if f["type"] == "tournament"]
    assert [n["id"] for n in news] == [tournament.pk], frames
    assert news[0]["registered"] == 2
    assert news[0]["announcement"] == "Blinds 20/40 from the next hand"
    await member_socket.disconnect()


async def frames_until_quiet(socket: WebsocketCommunicator) -> list[dict[str, Any]]:
    frames = []
    while not await socket.receive_nothing(timeout=0.5):
        frames.append(await socket.receive_json_from())
    return frames
