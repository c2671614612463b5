"""A member with something in every part of the API, for the tests that drive the API
with outside tools (schemathesis, a generated client): hands, a club, tournaments."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.utils import timezone

from accounts.tokens import token_create
from tests.tables.helpers import friends_table
from tests.tables.recorded import (
    FOLDED_TO_A_RAISE,
    SHOWDOWN_WITH_MUCK,
    record_hand,
    recorded_state,
)
from tests.tournaments.helpers import members, register, sng
from tournaments.clubs import services as club_services
from tournaments.tournament_settings import TournamentSettings


@dataclass(frozen=True)
class Member:
    username: str
    token: str
    hand_id: int  # the latest of the member's two hands (a showdown)
    open_tournament_id: int  # an SNG still registering: the member may (un)register
    running_tournament_id: int  # an SNG the member plays: levels, stacks, tables
    club_slug: str  # the member owns it: every club operation is theirs to make
    club_member: str  # another member of that club
    series_id: int  # the club's weekly game, which the member may stop


def member_with_data(make_user: Callable[..., Any]) -> Member:
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    table = friends_table(alice, bob, carol, seat_count=3)
    earlier = timezone.now() - timedelta(minutes=5)
    record_hand(table, recorded_state(FOLDED_TO_A_RAISE), started_at=earlier)
    hand = record_hand(table, recorded_state(SHOWDOWN_WITH_MUCK))
    running = register(sng(structure="turbo", buy_in=100), [alice, *members(make_user, 5)])
    club = club_services.club_create(user=alice, name="Thursday Crew", description="Cards at 8.")
    club_services.club_join(slug=club.slug, user=bob, token=club.invite_token)
    club_services.club_ask(slug=club.slug, user=carol)
    weekly = club_services.club_tournament_schedule(
        slug=club.slug,
        admin=alice,
        settings=TournamentSettings(
            name="Club Night", starts_at=timezone.now() + timedelta(days=1), buy_in=0
        ),
        every_days=7,
        time_zone="UTC",
    )
    return Member(
        username="alice",
        token=token_create(user=alice, name="outside tools")[1],
        hand_id=hand.pk,
        open_tournament_id=sng(structure="hyper", buy_in=0).pk,
        running_tournament_id=running.pk,
        club_slug=club.slug,
        club_member="bob",
        series_id=weekly.series_id,
    )


def wsgi_app_in_test() -> Iterator[WSGIHandler]:
    """Felt's WSGI application, as a server runs it, inside a database test: requests
    share the test's connection and transaction (rolled back at its end), so Django must
    not close the connection after each request as it does in a server."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield WSGIHandler()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
