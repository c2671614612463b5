"""A deal at the final table (rule 28): proposed from the table between hands by one of
2 to 5 players left, answered by the others, paid into the ledger as prizes or
dropped (docs/tournaments.md, "A deal at the final table"). Where deals meet the rest
of Felt (races, pages, other formats, the socket) is test_deal_surroundings.py."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db.models import Sum
from django.utils import timezone

import engine
from accounts.models import PointsEntry
from tables import services as table_services
from tables.errors import BadDeal, CannotDeal, NoDeal
from tables.models import Seat, Table
from tables.play import hand_state
from tables.snapshot import build_snapshot
from tests.support.tournaments import registered, scheduled, started
from tests.tournaments.helpers import balance_total, members, moved_for
from tests.tournaments.test_rebuys import shove_step
from tournaments import services
from tournaments.models import Deal, Tournament

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
    snapshot = snapshot_of(tournament, at[1])
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
    assert snapshot_of(six, seats(six)[0])["deal_figures"] is None

    three = final_table(make_user, 3, prefix="other", name="Three")
    at = seats(three)
    snapshot = snapshot_of(three, at[0])
    assert snapshot["can_propose_deal"] is True
    figures = snapshot["deal_figures"]
    assert figures["to_pay"] == 300 and sum(figures["icm"].values()) == 300
    propose(at[0])
    with pytest.raises(CannotDeal, match="already waiting"):
        propose(at[1])
    with pytest.raises(NoDeal, match="answered"):
        answer(at[0])
    assert snapshot_of(three, at[1])["can_propose_deal"] is False


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


def _play_out(tournament: Tournament) -> None:
    at = table(tournament)
    for _ in range(3000):
        if Tournament.objects.get(pk=tournament.pk).status == "finished":
            return
        shove_step(at)
    raise AssertionError("the tournament did not finish")


def snapshot_of(tournament: Tournament, viewer: Seat) -> dict[str, Any]:

    from tables import selectors

    at = table(tournament)
    seated = selectors.table_seats(at)
    return build_snapshot(at, seated, hand_state(at), seated[viewer.number], timezone.now())
