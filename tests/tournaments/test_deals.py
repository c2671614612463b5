"""A deal at the final table (rule 28): proposed from the table between hands by one of
2 to 5 players left, answered by the others, paid into the ledger as prizes or
dropped (docs/tournaments.md, "A deal at the final table")."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db.models import Sum
from django.utils import timezone

import engine
from accounts.models import PointsEntry
from tables import services as table_services
from tables.errors import BadDeal, CannotDeal, NoDeal, TableError
from tables.models import Seat, Table
from tables.play import hand_state
from tables.snapshot import build_snapshot
from tests.support.tournaments import registered, scheduled, started
from tests.tournaments.helpers import at_once, balance_total, members, moved_for
from tests.tournaments.test_rebuys import shove_step
from tournaments import services
from tournaments.models import Deal, Entry, Tournament

pytestmark = pytest.mark.django_db

PAYOUTS = [50, 30, 20]


def final_table(
    make_user: Any, players: int = 3, prefix: str = "player", **settings: Any
) -> Tournament:
    options = {"buy_in": 100, "seats_per_table": 6, "payout_percentages": PAYOUTS, **settings}
    if players < 3:
        options["payout_percentages"] = [100]
    tournament = started(registered(scheduled(**options), members(make_user, players, prefix)))
    finish_the_hand(table(tournament))
    return tournament


def finish_the_hand(at: Table) -> None:
    """Everyone checks or folds the hand in play to its end: the table is between hands."""
    from tests.tables.helpers import decision_of

    for _ in range(100):
        at.refresh_from_db()
        state = hand_state(at)
        if state is None or state.is_over:
            return
        seat = Seat.objects.get(table=at, number=state.actor)
        action = "check" if engine.legal_actions(state).can_check else "fold"
        table_services.hand_act(
            table_id=at.pk, user=seat.user, action=action, amount=None, decision=decision_of(at)
        )
    raise AssertionError("the hand did not end")


def table(tournament: Tournament) -> Table:
    return Table.objects.get(tournament=tournament)


def seats(tournament: Tournament) -> list[Seat]:
    return list(Seat.objects.filter(table__tournament=tournament, stack__gt=0).order_by("number"))


def propose(seat: Seat, method: str = "icm", **fields: Any) -> int:
    fields.setdefault("amounts", None)
    fields.setdefault("kept_for_winner", 0)
    return table_services.deal_propose(
        table_id=seat.table_id, user=seat.user, method=method, **fields
    )


def answer(seat: Seat, accept: bool = True) -> int:
    return table_services.deal_answer(table_id=seat.table_id, user=seat.user, accept=accept)


def open_deal(tournament: Tournament) -> Deal:
    return Deal.objects.get(tournament=tournament, status="open")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_an_icm_deal_accepted_by_everyone_pays_the_prizes_left_and_ends_it(make_user, players):
    tournament = final_table(make_user, players)
    before = balance_total()
    at = seats(tournament)
    stacks = [s.stack for s in at]

    propose(at[0])
    deal = open_deal(tournament)
    assert deal.answers == {str(at[0].entry_id): True}  # the proposer accepts their own
    for seat in at[1:]:
        answer(seat)

    deal.refresh_from_db()
    tournament.refresh_from_db()
    prizes = tournament.prizes(players)[:players]
    assert deal.status == "accepted" and deal.decided_at is not None
    assert sum(deal.amounts.values()) == sum(prizes) == tournament.prize_pool
    assert tournament.status == "finished" and tournament.ended_at is not None
    entries = {e.pk: e for e in tournament.entries.all()}
    assert sorted(e.place for e in entries.values()) == list(range(1, players + 1))
    for seat in at:
        assert entries[seat.entry_id].prize == deal.amounts[str(seat.entry_id)]
    paid = PointsEntry.objects.filter(tournament=tournament, reason=PointsEntry.Reason.PRIZE)
    assert paid.aggregate(total=Sum("amount"))["total"] == sum(prizes)
    assert moved_for(tournament) == 0  # buy-ins in, the deal out
    assert balance_total() == before + 100 * players
    # everyone started with the same stack: places in seat order from the button's left
    if len(set(stacks)) == 1:
        button = table(tournament).button
        first = min(at, key=lambda s: (s.number - button - 1) % 6)
        assert entries[first.entry_id].place == 1
    assert table(tournament).wake_at is None  # the table deals no more


def test_a_chip_chop_follows_the_stacks_and_places_follow_the_chips(make_user):
    tournament = final_table(make_user, 3)
    at = seats(tournament)
    Seat.objects.filter(pk=at[0].pk).update(stack=2500)
    Seat.objects.filter(pk=at[1].pk).update(stack=1200)
    Seat.objects.filter(pk=at[2].pk).update(stack=800)

    propose(at[1], "chip_chop")
    for seat in (at[0], at[2]):
        answer(seat)

    deal = Deal.objects.get(tournament=tournament)
    tournament.refresh_from_db()
    prizes = tournament.prizes(3)
    button = table(tournament).button
    order = sorted(at, key=lambda s: (s.number - button - 1) % 6)
    by_entry = dict(
        zip(
            [str(s.entry_id) for s in order],
            engine.chip_chop_deal(
                [{at[0].pk: 2500, at[1].pk: 1200, at[2].pk: 800}[s.pk] for s in order], prizes
            ),
            strict=True,
        )
    )
    assert deal.amounts == by_entry
    places = dict(tournament.entries.values_list("pk", "place"))
    assert [places[s.entry_id] for s in at] == [1, 2, 3]


def test_one_refusal_ends_the_deal_and_play_goes_on(make_user):
    tournament = final_table(make_user, 3)
    at = seats(tournament)
    propose(at[0])
    assert table(tournament).next_hand_at is None  # paused while the players answer
    snapshot = _snapshot(tournament, at[1])
    assert snapshot["waiting_for"] == "Waiting for the players to answer a deal"
    assert snapshot["deal"]["amounts"].keys() == {s.number for s in at}

    answer(at[1], accept=False)

    deal = Deal.objects.get(tournament=tournament)
    assert deal.status == "refused" and deal.answers[str(at[1].entry_id)] is False
    assert not PointsEntry.objects.filter(tournament=tournament, reason="prize").exists()
    assert table(tournament).next_hand_at is not None  # dealing again
    assert Tournament.objects.get(pk=tournament.pk).status == "running"
    with pytest.raises(NoDeal):
        answer(at[2])


def test_a_deal_not_answered_in_time_expires_and_pays_nothing(make_user):
    tournament = final_table(make_user, 3)
    at = seats(tournament)
    propose(at[0])
    answer(at[1])
    deal = open_deal(tournament)

    assert services.deals_expire(tournament_id=tournament.pk, now=deal.ends_at - timedelta(1)) == 0
    later = deal.ends_at + timedelta(seconds=1)
    assert services.deals_due(now=later) == [tournament.pk]
    assert services.deals_expire(tournament_id=tournament.pk, now=later) == 1

    deal.refresh_from_db()
    assert deal.status == "expired" and deal.decided_at == later
    assert not PointsEntry.objects.filter(tournament=tournament, reason="prize").exists()
    assert table(tournament).next_hand_at is not None
    assert services.deals_due(now=later) == []


def test_custom_amounts_must_add_up_to_what_is_left_to_pay(make_user):
    tournament = final_table(make_user, 3)  # 300 points to pay: 150, 90, 60
    at = seats(tournament)
    numbers = [s.number for s in at]
    with pytest.raises(BadDeal, match="add up to 290"):
        propose(at[0], "custom", amounts=dict(zip(numbers, [150, 90, 50], strict=True)))
    with pytest.raises(BadDeal, match="each player left"):
        propose(at[0], "custom", amounts={numbers[0]: 200, numbers[1]: 100})
    with pytest.raises(BadDeal, match="below 0"):
        propose(at[0], "custom", amounts=dict(zip(numbers, [320, 10, -30], strict=True)))
    with pytest.raises(BadDeal, match="kept for the winner"):
        propose(at[0], kept_for_winner=61)  # at most the first prize less the second
    assert not Deal.objects.exists()

    shares = dict(zip(numbers, [120, 100, 40], strict=True))
    propose(at[0], "custom", amounts=shares, kept_for_winner=40)
    deal = open_deal(tournament)
    assert deal.amounts == {str(s.entry_id): shares[s.number] for s in at}
    assert deal.kept_for_winner == 40


def test_a_deal_proposed_during_a_hand_is_refused(make_user):
    tournament = final_table(make_user, 3)
    at = table(tournament)
    table_services.hand_start(table_id=at.pk, seq=at.seq)
    assert not hand_state(table(tournament)).is_over
    with pytest.raises(CannotDeal, match="between hands"):
        propose(seats(tournament)[0])
    assert not Deal.objects.exists()


def test_six_players_left_cannot_deal_and_only_one_deal_is_open(make_user):
    six = final_table(make_user, 6)
    with pytest.raises(CannotDeal, match="2 to 5"):
        propose(seats(six)[0])
    assert _snapshot(six, seats(six)[0])["deal_figures"] is None

    three = final_table(make_user, 3, prefix="other", name="Three")
    at = seats(three)
    snapshot = _snapshot(three, at[0])
    assert snapshot["can_propose_deal"] is True
    figures = snapshot["deal_figures"]
    assert figures["to_pay"] == 300 and sum(figures["icm"].values()) == 300
    propose(at[0])
    with pytest.raises(CannotDeal, match="already waiting"):
        propose(at[1])
    with pytest.raises(NoDeal, match="answered"):
        answer(at[0])
    assert _snapshot(three, at[1])["can_propose_deal"] is False


def test_points_kept_for_the_winner_are_played_for_and_the_ledger_sums_to_zero(make_user):
    tournament = final_table(make_user, 3)
    before = balance_total()
    at = seats(tournament)
    propose(at[0], kept_for_winner=40)
    for seat in at[1:]:
        answer(seat)
    deal = Deal.objects.get(tournament=tournament)
    assert sum(deal.amounts.values()) == 300 - 40
    tournament.refresh_from_db()
    assert tournament.status == "running"
    assert tournament.entries.filter(place=None).count() == 3

    _play_out(tournament)

    tournament.refresh_from_db()
    assert tournament.status == "finished"
    entries = list(tournament.entries.all())
    winner = next(e for e in entries if e.place == 1)
    for entry in entries:
        kept = 40 if entry is winner else 0
        assert entry.prize == deal.amounts[str(entry.pk)] + kept
    assert sum(e.prize for e in entries) == 300
    assert moved_for(tournament) == 0
    assert balance_total() == before + 300


def test_a_tournament_played_to_its_end_without_a_deal_pays_the_prize_table(make_user):
    tournament = final_table(make_user, 3)
    at = seats(tournament)
    propose(at[0])
    answer(at[1], accept=False)
    _play_out(tournament)
    tournament.refresh_from_db()
    prizes = {e.place: e.prize for e in tournament.entries.all()}
    assert prizes == {1: 150, 2: 90, 3: 60}
    assert moved_for(tournament) == 0


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


def _play_out(tournament: Tournament) -> None:
    at = table(tournament)
    for _ in range(3000):
        if Tournament.objects.get(pk=tournament.pk).status == "finished":
            return
        shove_step(at)
    raise AssertionError("the tournament did not finish")


def _snapshot(tournament: Tournament, viewer: Seat) -> dict[str, Any]:
    from django.utils import timezone

    from tables import selectors

    at = table(tournament)
    seated = selectors.table_seats(at)
    return build_snapshot(at, seated, hand_state(at), seated[viewer.number], timezone.now())


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
    assert _snapshot(tournament, at[1])["deal_figures"] is None
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
