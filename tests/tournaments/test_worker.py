"""Sit-n-gos played through a real Celery worker: nobody drives them but the players."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db.models import Sum
from django.utils import timezone

from accounts.models import PointsEntry
from accounts.points import points_account_open
from tables import services as table_services
from tables.models import Hand, HandPlayer, Table
from tests.support import wait_for
from tests.tables.sockets import Client
from tests.tournaments.helpers import balance_total, members, moved_for, register, sng
from tournaments import services
from tournaments.models import Tournament
from tournaments.tournament_settings import TournamentSettings

pytestmark = pytest.mark.django_db(transaction=True)


def status_of(tournament: Tournament) -> str:
    return Tournament.objects.get(pk=tournament.pk).status


def test_a_practice_sng_with_its_player_sitting_out_plays_to_the_end_unattended(
    celery_worker, make_user, settings
):
    settings.TOURNAMENTS_LEVEL_SECONDS = 1.0  # the blinds climb every second
    alice = make_user("alice")
    tournament, table = services.practice_sng_start(user=alice)
    table_services.seat_sit_out(table_id=table.pk, user=alice)

    wait_for(lambda: status_of(tournament) == "finished", seconds=120)

    places = sorted(tournament.entries.values_list("place", flat=True))
    assert places[0] == 1 and None not in places
    assert tournament.entries.get(user=alice).place is not None
    assert Table.objects.get(pk=table.pk).wake_at is None, "nothing more is due"


def test_levels_are_announced_by_the_worker_one_after_another(celery_worker, make_user, settings):
    settings.TOURNAMENTS_LEVEL_SECONDS = 1.0
    tournament = register(sng(structure="turbo", buy_in=0), members(make_user, 6))

    wait_for(lambda: Tournament.objects.get(pk=tournament.pk).announced_level >= 2, seconds=20)


def test_a_lost_level_task_is_announced_by_the_sweep(make_user, settings, time_machine):
    from tournaments.tasks import sweep

    tournament = register(sng(structure="turbo", buy_in=0), members(make_user, 6))
    # No worker here: the queued task is lost. Five minutes later the sweep finds it due.
    time_machine.move_to(timezone.now() + timedelta(minutes=5, seconds=1))

    assert sweep() == 1
    assert Tournament.objects.get(pk=tournament.pk).announced_level == 1
    assert sweep() == 0, "once"


def decide(table: dict[str, Any]) -> dict[str, Any]:
    """First in shoves, the big blind calls, everyone else folds: one all-in pair a hand,
    so players go out one at a time."""
    legal, hand = table["legal"], table["hand"]
    move: dict[str, Any] = {"type": "act", "decision": table["decision"]}
    if legal["can_check"]:
        return {**move, "action": "check"}
    nobody_raised = hand["current_bet"] <= table["big_blind"]
    if nobody_raised and legal["max_raise_to"] is not None:
        return {**move, "action": "raise", "amount": legal["max_raise_to"]}
    if nobody_raised or hand["big_blind_seat"] == table["your_seat"]:
        return {**move, "action": "call"}
    return {**move, "action": "fold"}


async def play_until_placed(client: Client) -> dict[str, Any]:
    """Act whenever it is this player's turn, until told their place."""
    while True:
        frame = await client.next(timeout=60)
        if frame["type"] == "notice" and frame["notice"]["kind"] == "tournament_place":
            return frame["notice"]
        if frame["type"] != "snapshot":
            continue
        table = frame["table"]
        if table["legal"] and table["to_act"] == table["your_seat"]:
            await client.send(decide(table))


def leaked_cards(texts: list[str], seat: int | None, hands: dict[int, list[HandPlayer]]) -> list:
    """Hole cards of other players, never shown, found in frames sent to ``seat``."""
    leaks = []
    for text in texts:
        frame = json.loads(text)
        if frame["type"] != "snapshot":
            continue
        for player in hands.get(frame["table"]["hand_number"], []):
            if player.seat == seat or player.was_shown:
                continue
            leaks += [card for card in player.hole_cards if f'"{card}"' in text]
    return leaks


async def test_six_players_over_websockets_play_a_shortened_sng_to_a_winner(
    celery_worker, make_user, settings, close_database_connections
):
    settings.TOURNAMENTS_LEVEL_SECONDS = 5.0
    players = await sync_to_async(members)(make_user, 6)
    for player in players:
        await sync_to_async(points_account_open)(user=player)
    before = await sync_to_async(balance_total)()
    tournament = await sync_to_async(register)(await sync_to_async(sng)("turbo", 100), players[:5])
    spectator_user = await sync_to_async(make_user)("spectator")
    await sync_to_async(register)(tournament, players[5:])
    table = await Table.objects.aget(tournament=tournament)
    clients = [await Client.open(player, table.pk) for player in players]
    spectator = await Client.open(spectator_user, table.pk)

    notices = await asyncio.wait_for(
        asyncio.gather(*(play_until_placed(c) for c in clients)), timeout=240
    )

    tournament = await Tournament.objects.aget(pk=tournament.pk)
    assert tournament.status == "finished"
    places = sorted([e.place async for e in tournament.entries.all()])
    assert places == [1, 2, 3, 4, 5, 6], "one player out per hand: every place once"
    assert [n["place"] for n in notices].count(1) == 1
    prizes = await tournament.entries.aaggregate(total=Sum("prize"))
    assert prizes["total"] == 600
    assert await sync_to_async(moved_for)(tournament) == 0
    assert await sync_to_async(balance_total)() == before
    assert await PointsEntry.objects.filter(tournament=tournament, reason="prize").acount() == 2
    await asyncio.sleep(0.5)
    while not await spectator.is_quiet():
        await spectator.next()
    hands: dict[int, list[HandPlayer]] = {}
    async for player in HandPlayer.objects.filter(hand__table=table):
        number = (await Hand.objects.aget(pk=player.hand_id)).number
        hands.setdefault(number, []).append(player)
    seats = [(c, c.frames[0]["table"]["your_seat"]) for c in clients]  # seated from the start
    for client, seat in [(spectator, None), *seats]:
        assert leaked_cards(client.texts, seat, hands) == [], client.name
    for client in [*clients, spectator]:
        await client.close()


def test_a_scheduled_tournament_starts_at_its_time_and_plays_to_a_winner_unattended(
    celery_worker, make_user, settings
):
    from tournaments.models import Entry

    settings.TOURNAMENTS_LEVEL_SECONDS = 1.0
    tournament = services.schedule_tournament(
        settings=TournamentSettings(
            name="Worker Cup", starts_at=timezone.now() + timedelta(seconds=2), seats_per_table=4
        )
    )
    for n in range(10):  # bots: the worker plays every move
        Entry.objects.create(
            tournament=tournament, is_bot=True, bot_name=f"Bot {n}", name=f"Bot {n}"
        )
    assert status_of(tournament) == "registering"

    wait_for(lambda: status_of(tournament) != "registering", seconds=30)
    assert Table.objects.filter(tournament=tournament).count() == 3  # 4, 3 and 3 players
    wait_for(lambda: status_of(tournament) == "finished", seconds=180)

    places = sorted(tournament.entries.values_list("place", flat=True))
    assert places[0] == 1 and None not in places
    assert Table.objects.filter(tournament=tournament, name__endswith="Final table").exists()
