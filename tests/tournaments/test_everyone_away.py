"""Rule 33: while every player left in a tournament is away, each hand is dealt at the
next level, so a tournament nobody is playing ends in minutes; one player back and
the clock keeps the wall's pace again."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from tables import services as table_services
from tables.models import Hand, Seat, Table
from tables.play import hand_state
from tests.tables.helpers import decision_of
from tests.tables.sockets import Client
from tests.tournaments.helpers import members, register, sng, table_of
from tournaments import services
from tournaments.models import Tournament


def sit_everyone_out(tournament: Tournament) -> list[Seat]:
    table = table_of(tournament)
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    for seat in seats:
        table_services.seat_sit_out(table_id=table.pk, user=seat.user)
    return seats


def deal_next_hand(tournament: Tournament) -> Table:
    """The next hand, once the one in play is over (away players' turns are played at
    once, rule 20, so a table of away players ends its hand as it deals it)."""
    table = table_of(tournament)
    assert hand_state(table).is_over, "every turn was an away player's, played at once"
    table_services.hand_start(table_id=table.pk, seq=table.seq)
    return table_of(tournament)


def pause_after(table: Table) -> timedelta:
    """From the end of the table's last hand to the next one's deal."""
    ended = Hand.objects.filter(table=table).order_by("-number").first().ended_at
    return table.next_hand_at - ended


def test_run_ahead_moves_the_clock_to_the_next_level_past_a_break() -> None:
    start = timezone.now()
    tournament = Tournament(  # the regular structure: 10-minute levels
        kind="mtt", started_at=start, level_breaks=[{"after_level": 2, "minutes": 5}]
    )
    moment = start + timedelta(minutes=12)  # level 2 (index 1), 8 minutes to go

    assert tournament.run_ahead_to_next_level(moment)

    assert tournament.level_at(moment)[0] == 2, "the level after the break"
    assert tournament.break_ends_at(moment) is None, "no break to sit through"
    assert abs((tournament.level_ends_at(2) - moment).total_seconds() - 600) < 1
    last = len(tournament.blind_structure.levels) - 1
    while tournament.level_at(moment)[0] < last:
        assert tournament.run_ahead_to_next_level(moment)
    assert not tournament.run_ahead_to_next_level(moment), "the last level lasts for ever"


@pytest.mark.django_db
def test_each_hand_dealt_while_everyone_is_away_is_at_the_next_level(make_user) -> None:
    tournament = register(sng(structure="regular", buy_in=0), members(make_user, 6))
    sit_everyone_out(tournament)
    first = table_of(tournament).level

    levels = [deal_next_hand(tournament).level for _ in range(3)]

    assert levels == [first + 1, first + 2, first + 3]
    table = table_of(tournament)
    assert (table.small_blind, table.big_blind) == (50, 100), "the fourth level's blinds"
    state = hand_state(table)
    assert state.is_over and sum(state.stacks) == 6 * 1500, "the blinds only change hands"


@pytest.mark.django_db
def test_a_table_of_away_players_keeps_the_fast_pace_and_shows_no_run_out(make_user, settings):
    settings.TABLES_NEXT_HAND_SECONDS, settings.TABLES_SHOWDOWN_SECONDS = 3.0, 5.0
    settings.TABLES_RUNOUT_STREET_SECONDS = 1.2
    tournament = register(sng(structure="regular", buy_in=0), members(make_user, 6))
    seats = sit_everyone_out(tournament)
    table = deal_next_hand(tournament)
    assert pause_after(table) < timedelta(seconds=1.01)

    # Everyone's stack is a blind or less: the blinds are all in, and the board is run
    # out at once, with a short look at the showdown before the next hand.
    Seat.objects.filter(pk__in=[seat.pk for seat in seats]).update(stack=10)
    table = deal_next_hand(tournament)

    assert table.runout_revealed is None, "no street-by-street reveal for nobody"
    assert hand_state(table).is_over and len(hand_state(table).board) == 5
    assert pause_after(table) < timedelta(seconds=1.51)


@pytest.mark.django_db
def test_one_player_back_and_the_level_keeps_the_wall_clock(make_user) -> None:
    tournament = register(sng(structure="regular", buy_in=0), members(make_user, 6))
    seats = sit_everyone_out(tournament)
    ahead = deal_next_hand(tournament).level
    table_services.seat_sit_in(table_id=table_of(tournament).pk, user=seats[0].user)

    table = table_of(tournament)
    for _ in range(3):  # everyone else still away: the one back acts, the rest fold
        while not (state := hand_state(table)).is_over:
            mover = Seat.objects.get(table=table, number=state.actor)
            assert mover.pk == seats[0].pk, "only the player who is back is waited for"
            table_services.hand_act(
                table_id=table.pk, user=mover.user, action="fold", decision=decision_of(table)
            )
            table = table_of(tournament)
        table = deal_next_hand(tournament)
        assert table.level == ahead, "someone is there: ten minutes a level again"


@pytest.mark.django_db
def test_an_away_table_does_not_hurry_a_tournament_played_at_another(make_user) -> None:
    tournament = register(sng(structure="regular", buy_in=0), members(make_user, 6))
    table = table_of(tournament)
    tournament.kind = Tournament.Kind.MTT  # as if a second table played on
    tournament.save(update_fields=["kind"])
    other = Table.objects.create(name="Table 2", tournament=tournament, seat_count=6)
    Seat.objects.create(table=other, number=0, user=make_user("there"), stack=1500)
    sit_everyone_out(tournament)

    assert deal_next_hand(tournament).level == table.level

    Seat.objects.filter(table=other).update(is_sitting_out=True)
    assert deal_next_hand(tournament).level == table.level + 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_database_connections")
async def test_the_table_is_told_why_the_blinds_went_up(make_user) -> None:
    players = await sync_to_async(members)(make_user, 6)
    tournament = await sync_to_async(register)(await sync_to_async(sng)("regular", 0), players)
    table = await Table.objects.aget(tournament=tournament)
    await sync_to_async(sit_everyone_out)(tournament)
    rail = await Client.open(await sync_to_async(make_user)("rail"), table.pk)
    await sync_to_async(deal_next_hand)(tournament)

    level = await sync_to_async(services.tournament_level_announce)(tournament_id=tournament.pk)

    assert level == 1
    frame = await rail.next()
    while frame["type"] != "notice":
        frame = await rail.next()
    assert frame["notice"]["text"] == (
        "Blinds 15/30 now: every player left is away, so each hand is dealt at the next level"
    )
    await rail.close()
