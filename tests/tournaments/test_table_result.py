"""A player out of a tournament sees their place and prize at the table (``your_result``)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

import engine
from tables import services as table_services
from tables.models import Seat
from tables.play import hand_state
from tables.selectors import table_snapshot
from tests.tables.helpers import decision_of, friends_table
from tests.tables.sockets import Client
from tests.tournaments.helpers import members, play_to_the_end, register, sng
from tests.tournaments.helpers import table_of as tournament_table
from tournaments.models import Entry, Tournament


def first_out(tournament: Tournament) -> Entry:
    """Everyone calls and checks down, and one player has at most 20 chips at the start
    of every hand: they go out (alone) within a few hands. Their entry."""
    table = tournament_table(tournament)
    short = None
    for _ in range(2000):
        out = tournament.entries.filter(place__isnull=False).first()
        if out is not None:
            return out
        table.refresh_from_db()
        state = hand_state(table)
        if state is None or state.is_over:
            if short is None:
                short = Seat.objects.filter(table=table).order_by("number").first()
            # Kept at 20 chips before every hand, so a pot won does not keep them in
            # for long: a checked-down pot is theirs only about one hand in six.
            Seat.objects.filter(pk=short.pk, stack__gt=20).update(stack=20)
            table_services.hand_start(table_id=table.pk, seq=table.seq)
            continue
        seat = Seat.objects.get(table=table, number=state.actor)
        legal = engine.legal_actions(state)
        table_services.hand_act(
            table_id=table.pk,
            user=seat.user,
            action="check" if legal.can_check else "call",
            amount=None,
            decision=decision_of(table),
        )
    raise AssertionError("nobody went out")


@pytest.mark.django_db
def test_the_player_out_sees_their_place_and_the_others_see_none(make_user):
    players = members(make_user, 6)
    tournament = register(sng("hyper", 100), players)
    out = first_out(tournament)
    table = tournament_table(tournament)
    assert Seat.objects.get(table=table, user=out.user).stack == 0, "seated until the next hand"

    mine = table_snapshot(table_id=table.pk, user=out.user)["your_result"]
    assert mine == {
        "place": out.place,
        "entrants": 6,
        "prize": out.prize,
        "text": f"You finished {out.place}th of 6",
        "url": f"/tournaments/{tournament.pk}/",
    }
    still_in = next(p for p in players if p != out.user)
    assert table_snapshot(table_id=table.pk, user=still_in)["your_result"] is None
    assert table_snapshot(table_id=table.pk, user=None)["your_result"] is None

    table.refresh_from_db()
    table_services.hand_start(table_id=table.pk, seq=table.seq)  # the seat is cleared
    assert not Seat.objects.filter(table=table, user=out.user).exists()
    assert table_snapshot(table_id=table.pk, user=out.user)["your_result"] == mine


@pytest.mark.django_db
def test_the_winner_sees_the_win_and_the_prize(make_user):
    tournament = play_to_the_end(register(sng("hyper", 100), members(make_user, 6)))
    winner = tournament.entries.get(place=1)
    result = table_snapshot(table_id=tournament_table(tournament).pk, user=winner.user)
    prize = f"{winner.prize:,} points"
    assert result["your_result"]["text"] == f"You won the tournament! Prize: {prize}."
    assert result["your_result"]["place"] == 1


@pytest.mark.django_db
def test_other_tables_end_for_nobody(make_user):
    alice, bob = members(make_user, 2)
    table = friends_table(alice, bob)
    Seat.objects.filter(table=table, user=bob).update(stack=0)
    assert table_snapshot(table_id=table.pk, user=bob)["your_result"] is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_database_connections")
async def test_the_hand_that_puts_a_player_out_tells_their_socket_the_place(make_user):
    players = await sync_to_async(members)(make_user, 6)
    tournament = await sync_to_async(register)(await sync_to_async(sng)("hyper", 100), players)
    table = await sync_to_async(tournament_table)(tournament)
    clients = {p.pk: await Client.open(p, table.pk) for p in players}

    out = await sync_to_async(first_out)(tournament)

    client = clients[out.user_id]
    snapshot: dict = {"your_result": None}
    while snapshot["your_result"] is None:
        frame = await client.next_but_presence()  # the place notice comes too
        if frame["type"] == "snapshot":
            snapshot = frame["table"]
    assert snapshot["your_seat"] is not None and snapshot["your_result"]["place"] == out.place
    for user_id, other in clients.items():
        if user_id != out.user_id:
            assert all(
                f["table"]["your_result"] is None for f in other.frames if f["type"] == "snapshot"
            )
        await other.close()
