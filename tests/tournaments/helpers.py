"""Helpers for tournament tests: SNGs set up through the services, points counted."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections
from django.db.models import Sum

from accounts.models import PointsEntry
from tests.tables.helpers import decision_of
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Tournament


def members(make_user: Any, count: int, prefix: str = "player") -> list[Any]:
    return [make_user(f"{prefix}{n}") for n in range(count)]


def sng(structure: str = "turbo", buy_in: int = 100, game: str = "nlhe") -> Tournament:
    """The lobby's open SNG of that kind (opened if there is none)."""
    waiting = Tournament.objects.filter(
        kind="sng", status="registering", structure=structure, buy_in=buy_in, game=game
    ).first()
    return waiting or services.sng_open(structure=structure, buy_in=buy_in, game=game)


def register(tournament: Tournament, users: list[Any]) -> Tournament:
    for user in users:
        services.tournament_register(tournament_id=tournament.pk, user=user)
    return Tournament.objects.get(pk=tournament.pk)


def moved_for(tournament: Tournament) -> int:
    """Points the ledger moved for ``tournament``: zero once it is over."""
    rows = PointsEntry.objects.filter(tournament=tournament)
    return rows.aggregate(total=Sum("amount"))["total"] or 0


def balance_total() -> int:
    """Every balance, as the ledger adds it up (welcome grants included)."""
    return PointsEntry.objects.aggregate(total=Sum("amount"))["total"] or 0


def table_of(tournament: Tournament) -> Any:
    from tables.models import Table

    return Table.objects.filter(tournament=tournament).order_by("pk").first()


def play_one_step(tournament: Tournament, push: bool = True) -> str:
    """Move the SNG on by one decision or deal, as the players and the clock would.

    Members shove (raise all-in, or call) when ``push``, else check or fold;
    bots play their strategy; a finished hand is followed by the next.
    """
    import engine
    from tables import services as table_services
    from tables.models import Seat
    from tables.play import hand_state

    table = table_of(tournament)
    state = hand_state(table)
    if state is None or state.is_over:
        table_services.hand_start(table_id=table.pk, seq=table.seq)
        return "deal"
    seat = Seat.objects.get(table=table, number=state.actor)
    if seat.is_bot:
        table_services.bot_act(table_id=table.pk, seq=table.seq)
        return "bot"
    legal = engine.legal_actions(state)
    if push and legal.max_raise_to is not None:
        action, amount = "raise", legal.max_raise_to
    elif push or legal.can_check:
        action, amount = ("check" if legal.can_check else "call"), None
    else:
        action, amount = "fold", None
    table_services.hand_act(
        table_id=table.pk, user=seat.user, action=action, amount=amount, decision=decision_of(table)
    )
    return action


def play_to_the_end(tournament: Tournament, steps: int = 5000, push: bool = True) -> Tournament:
    for _ in range(steps):
        tournament.refresh_from_db()
        if tournament.status != "running":
            return tournament
        play_one_step(tournament, push)
    raise AssertionError("the tournament did not finish")


def at_once(
    calls: list[Callable[[], Any]], errors: tuple[type[Exception], ...] = (TournamentError,)
) -> list[Any]:
    """Run every call in its own thread, released together; their results, or the
    ``errors`` they raised."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        barrier.wait()
        try:
            outcomes[index] = calls[index]()
        except errors as error:
            outcomes[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes
