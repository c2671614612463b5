"""Sit-n-go load runs: six registered websocket clients per SNG, played to a winner, and
SNGs of six bots played in-process; ``manage.py loadtest_sng`` parses and prints.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from typing import Any

from django.core.management.base import CommandError
from django.db import transaction
from django.test import override_settings
from django.utils import timezone
from websockets.asyncio.client import ClientConnection

from accounts.models import User
from tables.loadtest.clients import Client, Player
from tables.loadtest.driver import Setup, lock_for_deletion, log_in
from tables.models import Seat, Table
from tables.play import hand_state
from tables.services import bot_act, hand_start
from tables.services.bots import bot_name
from tournaments import services
from tournaments.models import Entry, Tournament
from tournaments.services.start import tournament_start

STRUCTURE = "turbo"


class SngClient(Client):
    """A registered player: already seated; plays until told its place."""

    def on_connect(self) -> list[dict[str, Any]]:
        return []

    def rebuy(self, table: dict[str, Any]) -> list[dict[str, Any]]:
        return []  # out is out

    async def play(self, socket: ClientConnection, deadline: float) -> None:
        while (left := deadline - time.monotonic()) > 0:
            text = await asyncio.wait_for(socket.recv(), timeout=left)
            frame = json.loads(text)
            notice = frame.get("notice") or {}
            if frame.get("type") == "notice" and notice.get("kind") == "tournament_place":
                return
            for reply in self.on_frame(frame, time.perf_counter()):
                if self.think > 0:
                    await asyncio.sleep(self.rng.uniform(0, self.think))
                await socket.send(json.dumps(reply))
                self.note_sent(reply)
        raise TimeoutError("the sit-n-go did not end in time")


def create_sngs(count: int, level_seconds: float, setup: Setup, ids: list[int]) -> None:
    """``count`` started freeroll SNGs of six fresh logged-in users each; what is made is
    noted in ``setup`` and ``ids`` as it is made, so a failure half-way cleans up too."""
    run = secrets.token_hex(3)
    for number in range(count):
        tournament = open_sng(level_seconds)
        ids.append(tournament.pk)
        users = [
            User.objects.create_user(username=f"loadtest-{run}-{number}-{seat}")
            for seat in range(6)
        ]
        setup.user_ids += [user.pk for user in users]
        for user in users:
            services.tournament_register(tournament_id=tournament.pk, user=user)
        table = Table.objects.get(tournament=tournament)
        setup.table_ids.append(table.pk)
        seats = {s.user_id: s.number for s in Seat.objects.filter(table=table)}
        setup.players += [Player(table.pk, seats[u.pk], log_in(u), u.username) for u in users]


def open_sng(level_seconds: float) -> Tournament:
    """The lobby's open turbo freeroll (opened if missing), with the run's level length."""
    with transaction.atomic():
        tournament = Tournament.objects.filter(
            kind="sng", status="registering", structure=STRUCTURE, buy_in=0
        ).first() or services.sng_open(structure=STRUCTURE, buy_in=0)
        if tournament.entries.exists():
            raise CommandError("the open turbo freeroll has members registered: run elsewhere")
        tournament.level_seconds = level_seconds
        tournament.save(update_fields=["level_seconds"])
    return tournament


def clean_up(setup: Setup, tournament_ids: list[int]) -> None:
    from django.contrib.sessions.models import Session

    with transaction.atomic():
        list(Tournament.objects.select_for_update().filter(pk__in=tournament_ids).order_by("pk"))
        lock_for_deletion(setup.table_ids)
        Tournament.objects.filter(pk__in=tournament_ids).delete()
    Session.objects.filter(session_key__in=[p.session_key for p in setup.players]).delete()
    User.objects.filter(pk__in=setup.user_ids).delete()


def sng_of_bots(level_seconds: float) -> tuple[float, int]:
    """One SNG of six bots played to the end through the services with no delay at all:
    (seconds, hands)."""
    tournament = Tournament.objects.create(
        kind=Tournament.Kind.PRACTICE, structure=STRUCTURE, level_seconds=level_seconds
    )
    for index in range(6):
        name = bot_name(index)
        Entry.objects.create(tournament=tournament, is_bot=True, bot_name=name, name=name)
    started = time.perf_counter()
    with transaction.atomic():
        table = tournament_start(tournament=tournament, now=timezone.now())
    # No delay at all: an all-in's run-out is not revealed street by street (rule 30).
    with override_settings(TABLES_RUNOUT_STREET_SECONDS=0):
        while Tournament.objects.get(pk=tournament.pk).status == "running":
            table.refresh_from_db()
            state = hand_state(table)
            if state is None or state.is_over:
                hand_start(table_id=table.pk, seq=table.seq)
            else:
                bot_act(table_id=table.pk, seq=table.seq)
    elapsed = time.perf_counter() - started
    table.refresh_from_db()
    hands = table.hand_number
    Tournament.objects.filter(pk=tournament.pk).delete()
    return elapsed, hands


async def play(clients: list[SngClient], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    gate = asyncio.Semaphore(20)
    await asyncio.gather(*(client.run(deadline, gate) for client in clients))
