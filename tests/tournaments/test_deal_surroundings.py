"""A deal at the final table (rule 28) where it meets the rest of Felt: an acceptance
racing the deal's end, the tournament page and the API, a sit-n-go's deal, a
knockout's bounties, the socket's commands, a friends' table, the sweep; the deal
itself is tests/tournaments/test_deals.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import Sum
from django.utils import timezone

import engine
from accounts.models import PointsEntry
from tables import services as table_services
from tables.errors import CannotDeal, NoDeal, TableError
from tables.models import Seat, Table
from tables.play import hand_state
from tests.tournaments.helpers import at_once, balance_total, members, moved_for
from tests.tournaments.test_deals import (
    answer,
    final_table,
    open_deal,
    propose,
    seats,
    snapshot_of,
    table,
)
from tournaments import services
from tournaments.models import Deal, Entry, Tournament

pytestmark = pytest.mark.django_db


def two_shove_step(at: Table) -> None:
    """One decision or deal: the two lowest seats with chips go all in, the others
    fold, so one player at a time goes out."""
    from tests.tables.helpers import decision_of

    state = hand_state(at)
    if state is None or state.is_over:
        table_services.hand_start(table_id=at.pk, seq=at.seq)
        return
    shovers = sorted(n for n, chips in enumerate(state.starting_stacks) if chips)[:2]
    seat = Seat.objects.get(table=at, number=state.actor)
    legal = engine.legal_actions(state)
    if state.actor in shovers and legal.max_raise_to is not None:
        action, amount = "raise", legal.max_raise_to
    elif state.actor in shovers:
        action, amount = ("check" if legal.can_check else "call"), None
    else:
        action, amount = ("check" if legal.can_check else "fold"), None
    table_services.hand_act(
        table_id=at.pk, user=seat.user, action=action, amount=amount, decision=decision_of(at)
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))
def test_the_last_acceptance_racing_the_deals_end_pays_once_or_not_at_all(make_user, round_):
    tournament = final_table(make_user, 3)
    at = seats(tournament)
    propose(at[0])
    answer(at[1])
    deal = open_deal(tournament)

    accepted, ended = at_once(
        [
            lambda: answer(at[2]),
            lambda: services.deals_expire(
                tournament_id=tournament.pk, now=deal.ends_at + timedelta(seconds=1)
            ),
        ],
        errors=(TableError,),
    )

    deal.refresh_from_db()
    paid = PointsEntry.objects.filter(tournament=tournament, reason="prize")
    if isinstance(accepted, TableError):  # the deal ended first: nothing paid
        assert ended == 1 and deal.status == "expired" and not paid.exists()
        assert Tournament.objects.get(pk=tournament.pk).status == "running"
    else:  # the acceptance came first: paid once, the end found nothing open
        assert ended == 0 and deal.status == "accepted"
        assert paid.count() == 3 and paid.aggregate(t=Sum("amount"))["t"] == 300
        assert Tournament.objects.get(pk=tournament.pk).status == "finished"
    assert Entry.objects.filter(tournament=tournament, place=None).count() in (0, 3)


def test_the_tournament_page_and_the_api_show_the_accepted_deal(make_user, client):
    from rest_framework.test import APIClient

    tournament = final_table(make_user, 3)
    at = seats(tournament)
    propose(at[0], kept_for_winner=30)
    for seat in at[1:]:
        answer(seat)
    deal = Deal.objects.get(tournament=tournament)

    api = APIClient()
    api.force_authenticate(at[0].user)
    shown = api.get(f"/api/tournaments/{tournament.pk}/").json()["deal"]
    assert shown["method"] == "icm" and shown["kept_for_winner"] == 30
    assert sum(share["amount"] for share in shown["amounts"]) == 270
    assert {share["amount"] for share in shown["amounts"]} == set(deal.amounts.values())

    client.force_login(at[0].user)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "data-deal" in page and "30 points kept for the winner" in page
    for share in shown["amounts"]:
        assert f"<td>{share['name']}</td>" in page


def test_a_sit_n_go_deals_once_five_are_left_and_the_places_paid_before_stay_paid(make_user):
    from tests.tournaments.helpers import register, sng

    tournament = register(sng("turbo", 100), members(make_user, 6, "sng"))
    before = balance_total()
    for _ in range(3000):
        left = tournament.entries.filter(place=None).count()
        state = hand_state(table(tournament))
        if left <= 5 and (state is None or state.is_over):
            break
        two_shove_step(table(tournament))
    left = list(Entry.objects.filter(tournament=tournament, place=None))
    assert 2 <= len(left) <= 5
    at = seats(tournament)
    assert {s.entry_id for s in at} == {e.pk for e in left}
    propose(at[-1], "chip_chop")
    for seat in at[:-1]:
        answer(seat)

    tournament.refresh_from_db()
    deal = Deal.objects.get(tournament=tournament)
    prizes = tournament.prizes(6)  # 6 entrants: 1st and 2nd paid, both still in
    assert sum(deal.amounts.values()) == sum(prizes[: len(left)])
    assert tournament.status == "finished"
    assert sorted(e.place for e in tournament.entries.all()) == [1, 2, 3, 4, 5, 6]
    assert sum(e.prize for e in tournament.entries.all()) == tournament.prize_pool
    assert moved_for(tournament) == 0
    assert balance_total() == before + 600


def test_after_a_deal_keeping_points_no_second_deal_is_made(make_user):
    tournament = final_table(make_user, 3)
    at = seats(tournament)
    propose(at[0], kept_for_winner=20)
    for seat in at[1:]:
        answer(seat)
    with pytest.raises(CannotDeal, match="made their deal"):
        propose(at[1])
    assert snapshot_of(tournament, at[1])["deal_figures"] is None
    with pytest.raises(NoDeal):
        answer(at[1])


def test_the_socket_commands_are_parsed_and_refused_by_shape():
    from tables.commands import BadMessage, parse_command

    icm = parse_command({"type": "propose_deal", "method": "icm"})
    assert icm.fields == {"method": "icm", "amounts": None, "kept_for_winner": 0}
    custom = parse_command(
        {"type": "propose_deal", "method": "custom", "amounts": {"0": 60, "3": 40}}
    )
    assert custom.fields["amounts"] == {0: 60, 3: 40}
    assert parse_command({"type": "answer_deal", "accept": False}).fields == {"accept": False}
    for bad in (
        {"type": "propose_deal"},
        {"type": "propose_deal", "method": "split"},
        {"type": "propose_deal", "method": "icm", "kept_for_winner": "10"},
        {"type": "propose_deal", "method": "custom"},
        {"type": "propose_deal", "method": "custom", "amounts": {"x": 5}},
        {"type": "propose_deal", "method": "custom", "amounts": {"1": 5.5}},
        {"type": "answer_deal"},
        {"type": "answer_deal", "accept": "yes"},
    ):
        with pytest.raises(BadMessage):
            parse_command(bad)


def test_a_deal_at_a_friends_table_is_refused(make_user):
    from tests.tables.helpers import friends_table

    alice, bob = make_user("alice"), make_user("bob")
    at = friends_table(alice, bob)
    with pytest.raises(CannotDeal):
        table_services.deal_propose(
            table_id=at.pk, user=alice, method="icm", amounts=None, kept_for_winner=0
        )
    with pytest.raises(NoDeal):
        table_services.deal_answer(table_id=at.pk, user=bob, accept=True)


def test_the_sweep_ends_a_deal_whose_task_was_lost_and_the_task_ends_one_on_time(make_user):
    from tournaments import tasks

    tournament = final_table(make_user, 3)
    at = seats(tournament)
    propose(at[0])
    assert tasks.end_deal(tournament.pk) == 0  # early: the deal stands
    Deal.objects.filter(tournament=tournament).update(ends_at=timezone.now() - timedelta(1))
    tasks.sweep()
    assert Deal.objects.get(tournament=tournament).status == "expired"

    propose(at[1])
    Deal.objects.filter(status="open").update(ends_at=timezone.now() - timedelta(1))
    assert tasks.end_deal(tournament.pk) == 1
    assert not Deal.objects.filter(status="open").exists()


def test_a_deal_ending_a_knockout_leaves_each_player_their_own_bounty(make_user):
    tournament = final_table(make_user, 3, prefix="ko", bounty=40)
    at = seats(tournament)

    propose(at[0])
    for seat in at[1:]:
        answer(seat)

    tournament.refresh_from_db()
    assert tournament.status == "finished" and tournament.prize_pool == 3 * 60
    bounties = PointsEntry.objects.filter(tournament=tournament, reason="bounty")
    assert sorted(bounties.values_list("amount", flat=True)) == [40, 40, 40]
    assert all(e.bounty == 0 for e in tournament.entries.all())
    assert moved_for(tournament) == 0  # buy-ins in; the deal and the bounties out


def test_a_command_at_a_final_table_reads_no_deal_while_none_is_open(make_user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.tables.helpers import decision_of

    tournament = final_table(make_user, 3, prefix="quiet")
    at = table(tournament)
    table_services.hand_start(table_id=at.pk, seq=Table.objects.get(pk=at.pk).seq)
    at.refresh_from_db()
    state = hand_state(at)
    assert state is not None and not state.is_over
    actor = Seat.objects.get(table=at, number=state.actor)

    with CaptureQueriesContext(connection) as queries:
        table_services.hand_act(
            table_id=at.pk, user=actor.user, action="fold", decision=decision_of(at)
        )

    assert not [q for q in queries if "tournaments_deal" in q["sql"]]  # the row's flag says
