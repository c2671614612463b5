"""A moved player's table page follows them (static/js/live.js, ``followsMove``): when
the final table is drawn, the page of the old table a member has open goes to the new
one by itself, with their seat there (tests/support/live.py and chromium.py have the set-up)."""

from __future__ import annotations

import contextlib
import time
from datetime import timedelta
from typing import Any

from django.utils import timezone
from playwright.sync_api import Browser, expect

import engine
from tables import services as table_services
from tables.errors import TableError
from tables.models import Seat, Table
from tables.play import hand_state
from tests.support.chromium import BROWSER_TEST, DESKTOP, outside_the_browser_loop, sign_up
from tests.tables.helpers import decision_of
from tournaments import services
from tournaments.models import Tournament
from tournaments.tournament_settings import TournamentSettings

pytestmark = BROWSER_TEST

SECONDS = 90


def started_with(usernames: list[str]) -> Tournament:
    """A scheduled tournament of three-seat tables those members registered for,
    started: four players make two tables of two."""
    from accounts.models import User

    tournament = services.schedule_tournament(
        settings=TournamentSettings(
            name="Moving Night", starts_at=timezone.now() + timedelta(minutes=5), seats_per_table=3
        )
    )
    for user in User.objects.filter(username__in=usernames):
        services.tournament_register(tournament_id=tournament.pk, user=user)
    services.mtt_start(tournament_id=tournament.pk, now=timezone.now() + timedelta(minutes=6))
    return Tournament.objects.get(pk=tournament.pk)


def table_of(username: str) -> int:
    return Seat.objects.get(user__username=username).table_id


def final_table(tournament_id: int) -> int | None:
    final = Table.objects.filter(tournament_id=tournament_id, name__endswith="Final table")
    return final.values_list("pk", flat=True).first()


def act_at(table_id: int, choose: Any) -> None:
    """The player to act at the table does what ``choose(legal)`` says, if a hand is on
    (the live server's worker deals the next one, and may have moved on meanwhile)."""
    table = Table.objects.get(pk=table_id)
    state = hand_state(table)
    if state is None or state.is_over:
        time.sleep(0.2)
        return
    seat = Seat.objects.get(table=table, number=state.actor)
    action, amount = choose(engine.legal_actions(state))
    with contextlib.suppress(TableError):  # a timeout or the next deal got there first
        table_services.hand_act(
            table_id=table_id,
            user=seat.user,
            action=action,
            amount=amount,
            decision=decision_of(table),
        )


def all_in_or_call(legal: engine.LegalActions) -> tuple[str, int | None]:
    return ("raise", legal.max_raise_to) if legal.max_raise_to else ("call", None)


def fold(legal: engine.LegalActions) -> tuple[str, int | None]:
    return ("check", None) if legal.can_check else ("fold", None)


def bust_one_at(table_id: int) -> None:
    """All in at the table until one of its two players is out."""
    deadline = time.monotonic() + SECONDS
    while Seat.objects.filter(table_id=table_id, stack__gt=0).count() > 1:
        assert time.monotonic() < deadline, "nobody went out"
        act_at(table_id, all_in_or_call)


def play_to_the_final_table(tournament_id: int, table_id: int) -> int:
    """Three players left: the final table is drawn once ``table_id``'s hand ends."""
    deadline = time.monotonic() + SECONDS
    while (final := final_table(tournament_id)) is None:
        assert time.monotonic() < deadline, "no final table"
        act_at(table_id, fold)
    return final


def test_a_moved_player_s_table_page_follows_them_to_the_final_table(
    server_url: str, browser: Browser, make_user: Any
) -> None:
    bob = sign_up(browser, server_url, "bob", DESKTOP)
    others = ["carol", "dan", "erin"]
    for name in others:
        outside_the_browser_loop(make_user, name)
    tournament = outside_the_browser_loop(started_with, ["bob", *others])
    mine = outside_the_browser_loop(table_of, "bob")
    other = next(t for t in (outside_the_browser_loop(table_of, n) for n in others) if t != mine)
    bob.goto(f"{server_url}/tables/{mine}/")
    expect(bob.locator("[data-connection-status]")).to_have_text("Live")
    expect(bob.locator(".seat.occupied")).to_have_count(2)

    outside_the_browser_loop(bust_one_at, other)  # bob's table holds the other two
    final = outside_the_browser_loop(play_to_the_final_table, tournament.pk, mine)

    bob.wait_for_url(f"{server_url}/tables/{final}/")
    expect(bob.locator(".seat.occupied")).to_have_count(3)
    expect(bob.locator(".seat.occupied.you")).to_have_count(1)
    expect(bob.locator("[data-connection-status]")).to_have_text("Live")
