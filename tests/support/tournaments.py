"""Tournament helpers more than one test module uses: a scheduled multi-table
tournament set up through the services, one step of play at a table, the tournament
lobby's socket and an API client."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta
from typing import Any

from channels.testing import WebsocketCommunicator
from django.utils import timezone
from rest_framework.test import APIClient

import engine
from accounts.tokens import token_create
from config.asgi import application
from tables import services as table_services
from tables.models import Seat, Table
from tables.play import hand_state
from tests.tables.helpers import decision_of
from tests.tables.sockets import HEADERS, session_cookie
from tournaments import services
from tournaments.models import Tournament
from tournaments.tournament_settings import TournamentSettings


def scheduled(**settings: Any) -> Tournament:
    settings.setdefault("name", "Friday Night")
    settings.setdefault("starts_at", timezone.now() + timedelta(seconds=30))
    return services.schedule_tournament(settings=TournamentSettings(**settings))


def registered(tournament: Tournament, users: list[Any]) -> Tournament:
    for user in users:
        services.tournament_register(tournament_id=tournament.pk, user=user)
    return Tournament.objects.get(pk=tournament.pk)


def started(tournament: Tournament) -> Tournament:
    later = timezone.now() + timedelta(minutes=1)
    result = services.mtt_start(tournament_id=tournament.pk, now=later)
    assert result is not None
    return Tournament.objects.get(pk=tournament.pk)


def sizes(tournament: Tournament) -> dict[int, int]:
    seats = Seat.objects.filter(table__tournament=tournament, stack__gt=0)
    counted = Counter(seats.values_list("table_id", flat=True))
    return {t: counted[t] for t in tournament.tables.values_list("pk", flat=True) if counted[t]}


# One generator for every caller, as when the steps lived in test_multi_table.py.
RNG = random.Random(15)


def step(table: Table) -> None:
    """One decision or deal at ``table``: members play the bots' strategy."""
    table.refresh_from_db()  # another table's hand may have moved players here
    if table.wake_at is None:
        return
    state = hand_state(table)
    if state is None or state.is_over:
        table_services.hand_start(table_id=table.pk, seq=table.seq)
        return
    seat = Seat.objects.get(table=table, number=state.actor)
    move = engine.choose_action(engine.view(state, seat.number), RNG)
    legal = engine.legal_actions(state)
    action, amount = "fold", None
    if isinstance(move, engine.Check):
        action = "check"
    elif isinstance(move, engine.Call):
        action = "call"
    elif isinstance(move, engine.RaiseTo):
        action, amount = "raise", max(legal.min_raise_to or move.amount, move.amount)
    table_services.hand_act(
        table_id=table.pk, user=seat.user, action=action, amount=amount, decision=decision_of(table)
    )


async def open_lobby(user: Any) -> WebsocketCommunicator:
    headers = [*HEADERS, (b"cookie", await session_cookie(user))]
    socket = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await socket.connect(timeout=10)
    assert connected
    return socket


async def next_of_type(socket: WebsocketCommunicator, kind: str, timeout: float = 5) -> dict:
    while True:
        message = await socket.receive_json_from(timeout=timeout)
        if message["type"] == kind:
            return message


def api_for(user: Any) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token_create(user=user, name='tests')[1]}")
    return api
