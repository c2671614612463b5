"""Live news over the sockets: the lobby's rows, the start notice, levels and places."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async

from tables.models import Table
from tests.support.tournaments import next_of_type, open_lobby
from tests.tables.sockets import Client
from tests.tournaments.helpers import members, register, sng
from tournaments import services
from tournaments.models import Tournament
from tournaments.tournament_settings import TournamentSettings

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]


async def test_a_registration_updates_the_lobby_row_of_everyone_watching(make_user):
    alice, watcher = await sync_to_async(members)(make_user, 2)
    tournament = await sync_to_async(sng)("hyper", 100)
    socket = await open_lobby(watcher)

    await sync_to_async(register)(tournament, [alice])

    message = await next_of_type(socket, "tournament")
    row = message["tournament"]
    assert (row["id"], row["registered"], row["prize_pool"]) == (tournament.pk, 1, 100)
    assert row["payouts"] == [390, 210], "what the full table pays"
    await socket.disconnect()


async def test_every_registered_player_is_told_the_sng_started_with_the_table_link(make_user):
    players = await sync_to_async(members)(make_user, 6)
    outsider = await sync_to_async(make_user)("outsider")
    tournament = await sync_to_async(sng)("turbo", 100)
    await sync_to_async(register)(tournament, players[:5])
    sockets = [await open_lobby(user) for user in (players[0], outsider)]

    await sync_to_async(register)(tournament, players[5:])

    notice = (await next_of_type(sockets[0], "notice"))["notice"]
    table = await Table.objects.aget(tournament=tournament)
    assert notice["text"] == "Your sit-n-go has started — take your seat"
    assert notice["url"] == f"/tables/{table.pk}/"
    started = await next_of_type(sockets[1], "tournament")
    while started["tournament"]["id"] != tournament.pk:
        started = await next_of_type(sockets[1], "tournament")
    assert started["tournament"]["status"] == "running"
    frames = []
    while not await sockets[1].receive_nothing(timeout=0.3):
        frames.append(await sockets[1].receive_json_from())
    assert not [f for f in frames if f["type"] == "notice"], "only the players are told"
    for socket in sockets:
        await socket.disconnect()


async def test_the_coming_level_is_announced_at_the_table_and_in_the_lobby(make_user):
    players = await sync_to_async(members)(make_user, 6)
    tournament = await sync_to_async(register)(await sync_to_async(sng)("turbo", 0), players)
    table = await Table.objects.aget(tournament=tournament)
    spectator = await sync_to_async(make_user)("spectator")
    at_table = [await Client.open(players[0], table.pk), await Client.open(spectator, table.pk)]
    lobby = await open_lobby(spectator)
    later = tournament.started_at + timedelta(minutes=5, seconds=1)

    level = await sync_to_async(services.tournament_level_announce)(
        tournament_id=tournament.pk, now=later
    )

    assert level == 1
    for client in at_table:
        frame = await client.next()
        while frame["type"] != "notice":
            frame = await client.next()
        assert frame["notice"]["text"] == "Blinds 15/30 from the next hand"
    row = (await next_of_type(lobby, "tournament"))["tournament"]
    while row["id"] != tournament.pk:  # the lobby also hears of the SNG that opened
        row = (await next_of_type(lobby, "tournament"))["tournament"]
    assert row["announcement"] == "Blinds 15/30 from the next hand"
    again = await sync_to_async(services.tournament_level_announce)(
        tournament_id=tournament.pk, now=later
    )
    assert again is None, "announced once"
    assert (await Tournament.objects.aget(pk=tournament.pk)).announced_level == 1
    for client in at_table:
        await client.close()
    await lobby.disconnect()


async def test_a_busted_player_hears_their_place_and_the_winner_the_result(make_user):
    from tests.tournaments.helpers import play_to_the_end

    players = await sync_to_async(members)(make_user, 6)
    tournament = await sync_to_async(register)(await sync_to_async(sng)("hyper", 100), players)
    sockets = {p.pk: await open_lobby(p) for p in players}

    tournament = await sync_to_async(play_to_the_end)(tournament)

    entries = {e.user_id: e async for e in tournament.entries.all()}
    for user_id, socket in sockets.items():
        entry = entries[user_id]
        notice = (await next_of_type(socket, "notice", timeout=10))["notice"]
        while notice["kind"] != "tournament_place":
            notice = (await next_of_type(socket, "notice", timeout=10))["notice"]
        if entry.place == 1:
            assert notice["text"] == f"You won the tournament! Prize: {entry.prize:,} points."
        else:
            assert notice["text"].startswith(f"You finished {entry.place}")
            assert notice["text"].split(":")[0].endswith("of 6")
        assert notice["url"] == f"/tournaments/{tournament.pk}/"
        await socket.disconnect()


def _shove_until_the_final_table(tournament_id: int) -> tuple[int, list[int]]:
    """Members move all-in (or call) at every table until the final table is drawn; its
    id and the members drawn to it."""
    import engine
    from tables import services as table_services
    from tables.models import Seat
    from tables.play import hand_state
    from tests.tables.helpers import decision_of

    for _ in range(5000):
        for table in Table.objects.filter(tournament_id=tournament_id, wake_at__isnull=False):
            final = Table.objects.filter(tournament_id=tournament_id, name__endswith="Final table")
            if final.exists():
                seated = Seat.objects.filter(table=final.get())
                return final.get().pk, list(seated.values_list("user_id", flat=True))
            table.refresh_from_db()
            state = hand_state(table)
            if state is None or state.is_over:
                if table.wake_at is not None:
                    table_services.hand_start(table_id=table.pk, seq=table.seq)
                continue
            seat = Seat.objects.get(table=table, number=state.actor)
            legal = engine.legal_actions(state)
            action, amount = ("call", None) if legal.max_raise_to is None else ("raise", None)
            if action == "raise":
                amount = legal.max_raise_to
            table_services.hand_act(
                table_id=table.pk,
                user=seat.user,
                action=action,
                amount=amount,
                decision=decision_of(table),
            )
    raise AssertionError("no final table")


async def test_a_moved_player_s_table_socket_is_told_the_new_table(make_user):
    from django.utils import timezone

    from tables.models import Seat

    players = await sync_to_async(members)(make_user, 5)
    settings = TournamentSettings(
        name="Socket Cup", starts_at=timezone.now() + timedelta(minutes=5), seats_per_table=4
    )
    tournament = await sync_to_async(services.schedule_tournament)(settings=settings)
    for player in players:
        await sync_to_async(services.tournament_register)(tournament_id=tournament.pk, user=player)
    await sync_to_async(services.mtt_start)(
        tournament_id=tournament.pk, now=timezone.now() + timedelta(minutes=6)
    )
    tabs = {}
    for player in players:
        seat = await Seat.objects.aget(user=player)
        tabs[player.pk] = await Client.open(player, seat.table_id)

    final, moved = await sync_to_async(_shove_until_the_final_table)(tournament.pk)

    assert 2 <= len(moved) <= 4
    for user_id in moved:
        frame = await tabs[user_id].next()
        while frame["type"] != "notice" or frame["notice"]["kind"] != "table_moved":
            frame = await tabs[user_id].next()
        assert frame["notice"]["url"] == f"/tables/{final}/"
    for tab in tabs.values():
        await tab.close()


async def test_a_hand_ended_from_the_players_sockets_updates_the_lobby_row(make_user):
    # The summary is built on a thread of its own when a socket's command ends the hand
    # (tournaments/broadcast.py): it still reaches the lobby, with the stacks after it.
    from django.core.cache import cache

    from tables.models import Seat
    from tables.play import hand_state
    from tests.tables.helpers import decision_of

    players = await sync_to_async(members)(make_user, 6)
    watcher = await sync_to_async(make_user)("watcher")
    tournament = await sync_to_async(register)(await sync_to_async(sng)("turbo", 0), players)
    table = await Table.objects.aget(tournament=tournament)
    tabs = {p.pk: await Client.open(p, table.pk) for p in players}
    lobby = await open_lobby(watcher)
    await sync_to_async(cache.delete)(f"tournaments:stacks:{tournament.pk}")  # due now

    def to_act() -> tuple[int, int, str] | None:
        fresh = Table.objects.get(pk=table.pk)
        state = hand_state(fresh)
        if state is None or state.is_over:
            return None
        seat = Seat.objects.get(table=fresh, number=state.actor)
        return seat.user_id, fresh.seq, decision_of(fresh)

    while (turn := await sync_to_async(to_act)()) is not None:  # folds to the big blind
        user_id, seq, decision = turn
        await tabs[user_id].send({"type": "act", "action": "fold", "decision": decision})
        await tabs[user_id].snapshot(seq + 1)

    row = (await next_of_type(lobby, "tournament"))["tournament"]
    while row["id"] != tournament.pk:  # the lobby also hears of the SNG that opened
        row = (await next_of_type(lobby, "tournament"))["tournament"]
    stacks = [s async for s in Seat.objects.filter(table=table).values_list("stack", flat=True)]
    assert sorted(p["stack"] for p in row["players"]) == sorted(stacks)
    assert len(set(stacks)) == 3  # the blinds went to the big blind: three stacks differ
    for tab in tabs.values():
        await tab.close()
    await lobby.disconnect()
