"""A deal at the final table (rule 28): proposed, answered, and paid or dropped.

With 2 to 5 players left, all at one table, between hands, any of them proposes
how to share what is left to pay (the prizes of places 1 to the players left):
by ICM, a chip chop (``engine/icm.py``) or amounts of their own, optionally
keeping points back for the winner. Play pauses (``TournamentBehaviour.can_deal``)
until every player accepts (the deal is paid into the ledger as prizes, in the
same transaction), one refuses, or ``TOURNAMENTS_DEAL_SECONDS`` pass (a task at
that moment, the tournaments' sweep behind it). An accepted deal keeping nothing
back ends the tournament: places by the chips at the deal. One keeping points
back plays on for them (``results._award`` pays them to the winner, nothing
more to the others).

Called with the tournament locked first, then its tables in id order, then points
accounts: through a table command (``tables.kinds``: the table's lock takes the
tournament's row first), so refusals are the table's errors, or from the task.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction

from accounts import points
from tables.errors import BadDeal, NoDeal
from tables.models import Seat
from tables.play import Play
from tables.services import play as p
from tournaments import broadcast
from tournaments.deals import (
    figures,
    finalists,
    most_kept,
    open_deal,
    prizes_left,
    remember_open_deal,
    seat_order,
)
from tournaments.models import Deal, Entry, Tournament
from tournaments.services.bounties import pay_own_bounty
from tournaments.services.results import pay_prize, tell_places

DealScheduler = Callable[[int, datetime], None]
_deal_scheduler: DealScheduler | None = None


def set_deal_scheduler(scheduler: DealScheduler) -> None:
    """The app's ready() gives the function that ends a deal not answered in time."""
    global _deal_scheduler
    _deal_scheduler = scheduler


def propose_deal(
    play: Play,
    tournament: Tournament,
    seat: Seat,
    *,
    method: str,
    amounts: Mapping[int, int] | None,
    kept_for_winner: int,
) -> Deal:
    """``seat``'s player proposes a deal (``amounts`` by seat for a custom one); the
    tournament and the table locked. ``CannotDeal`` when none may be proposed now,
    ``BadDeal`` when its figures are not possible; the proposer has accepted it."""
    ordered = finalists(tournament, play.table, play.seats, play.is_hand_running, play.now)
    if seat.number not in {s.number for s in ordered} or seat.entry_id is None:
        raise NoDeal("Only a player still in the tournament proposes a deal.")
    prizes = prizes_left(tournament, len(ordered))
    if not sum(prizes):
        raise BadDeal("Nothing is left to pay: there is nothing to deal.")
    if not 0 <= kept_for_winner <= most_kept(prizes):
        raise BadDeal(
            "The points kept for the winner must be between 0 and the first prize less "
            f"the second ({most_kept(prizes):,})."
        )
    stacks = [s.stack + s.chips_to_add for s in ordered]
    if method == Deal.Method.CUSTOM:
        shares = _custom_shares(ordered, amounts or {}, sum(prizes) - kept_for_winner)
    else:
        shares = list(figures(method, stacks, prizes, kept_for_winner))
    answers = {str(s.entry_id): True for s in ordered if s.is_bot or s.number == seat.number}
    deal = Deal.objects.create(
        tournament=tournament,
        proposer_id=seat.entry_id,
        method=method,
        kept_for_winner=kept_for_winner,
        amounts={str(s.entry_id): share for s, share in zip(ordered, shares, strict=True)},
        stacks={str(s.entry_id): chips for s, chips in zip(ordered, stacks, strict=True)},
        answers=answers,
        hand_number=play.table.hand_number,
        ends_at=play.now + timedelta(seconds=settings.TOURNAMENTS_DEAL_SECONDS),
    )
    remember_open_deal(tournament, deal)
    if len(answers) == len(ordered):  # bots against the proposer: all say yes at once
        _accept(tournament, deal, [play], play.now)
    else:
        broadcast.lobby_update(tournament.pk)  # its page says play waits for the answers
        if _deal_scheduler is not None:
            scheduler, ends_at = _deal_scheduler, deal.ends_at
            transaction.on_commit(lambda: scheduler(tournament.pk, ends_at))
    p.plan_next_hand(play)  # no next hand while the deal waits
    return deal


def _custom_shares(ordered: list[Seat], amounts: Mapping[int, int], dealt: int) -> list[int]:
    seats = [s.number for s in ordered]
    if sorted(amounts) != sorted(seats):
        listed = ", ".join(str(n + 1) for n in sorted(seats))
        raise BadDeal(f"Give an amount to each player left, no one else: seats {listed}.")
    if any(amount < 0 for amount in amounts.values()):
        raise BadDeal("An amount cannot be below 0.")
    if sum(amounts.values()) != dealt:
        raise BadDeal(
            f"The amounts add up to {sum(amounts.values()):,}: they must add up to "
            f"{dealt:,}, what is left to pay less the points kept for the winner."
        )
    return [amounts[number] for number in seats]


def answer_deal(play: Play, tournament: Tournament, seat: Seat, *, accept: bool) -> None:
    """``seat``'s player accepts or refuses the open deal; the tournament and the table
    locked. One refusal ends it; the last acceptance pays it."""
    deal = open_deal(tournament)
    if deal is None:
        raise NoDeal()
    key = str(seat.entry_id)
    if key not in deal.amounts:
        raise NoDeal("This deal is between the players left: you are not one of them.")
    if play.now >= deal.ends_at:
        raise NoDeal("The time to answer this deal is over.")
    if key in deal.answers:
        raise NoDeal("You have answered this deal already.")
    deal.answers = {**deal.answers, key: accept}
    if not accept:
        _close(tournament, deal, Deal.Status.REFUSED, play.now)
    elif len(deal.answers) == len(deal.amounts):
        _accept(tournament, deal, [play], play.now)
    else:
        deal.save(update_fields=["answers"])
    p.plan_next_hand(play)


def deals_expire(*, tournament_id: int, now: datetime) -> int:
    """The open deal whose time has passed is dropped (expired) and its tables deal
    again; how many deals (0 or 1). Nothing is paid."""
    from tournaments.services.registration import locked

    with transaction.atomic():
        tournament = locked(tournament_id)
        deal = tournament.deals.filter(status=Deal.Status.OPEN, ends_at__lte=now).first()
        if deal is None:
            return 0
        plays = _lock_tables(tournament)
        _close(tournament, deal, Deal.Status.EXPIRED, now)
        for each in plays:
            p.plan_next_hand(each)
            p.commit(each)
        return 1


def deals_due(*, now: datetime) -> list[int]:
    """Running tournaments with an open deal whose time has passed (a lost task)."""
    due = Deal.objects.filter(
        status=Deal.Status.OPEN, ends_at__lte=now, tournament__status=Tournament.Status.RUNNING
    )
    return sorted(set(due.values_list("tournament_id", flat=True)))


def _lock_tables(tournament: Tournament) -> list[Play]:
    """The tournament's tables with players, locked in id order, sharing ``tournament``
    (already locked) as their tournament."""
    table_ids = sorted(
        set(Seat.objects.filter(table__tournament=tournament).values_list("table_id", flat=True))
    )
    plays = [p.lock(table_id) for table_id in table_ids]
    for each in plays:
        each.table.tournament = tournament
    return plays


def _close(tournament: Tournament, deal: Deal, status: str, now: datetime) -> None:
    deal.status = status
    deal.decided_at = now
    deal.save(update_fields=["status", "decided_at", "answers"])
    remember_open_deal(tournament, None)
    broadcast.lobby_update(tournament.pk)


def _accept(tournament: Tournament, deal: Deal, plays: list[Play], now: datetime) -> None:
    """Pay the deal into the ledger as prizes; keeping nothing back, the tournament
    ends: places by the chips at the deal, equal stacks in seat order from the
    button's left (the better place to the first), and in a knockout every player
    left keeps the bounty on their own head."""
    _close(tournament, deal, Deal.Status.ACCEPTED, now)
    entries = {e.pk: e for e in tournament.entries.filter(place=None).select_related("user")}
    points.accounts_locked(
        user_ids=[entry.user_id for entry in entries.values()], scope=tournament.points_scope
    )
    for key, amount in deal.amounts.items():
        entry = entries[int(key)]
        entry.prize = int(amount)
        pay_prize(tournament, entry, int(amount))
    if deal.kept_for_winner:
        Entry.objects.bulk_update(list(entries.values()), ["prize"])
        return
    play = plays[0]  # the players left are all at the final table
    seated = [s for s in play.seats.values() if s.entry_id in entries]
    order = {s.entry_id: rank for rank, s in enumerate(seat_order(play.table, seated))}
    ranked = sorted(entries.values(), key=lambda e: (-int(deal.stacks[str(e.pk)]), order[e.pk]))
    for place, entry in enumerate(ranked, start=1):
        entry.place = place
        entry.eliminated_at = now if place > 1 else None
    Entry.objects.bulk_update(ranked, ["prize", "place", "eliminated_at"])
    for entry in ranked:  # a knockout's: nobody knocked them out, each keeps their own
        pay_own_bounty(tournament, entry)
    tournament.status = Tournament.Status.FINISHED
    tournament.ended_at = now
    tournament.save(update_fields=["status", "ended_at"])
    tell_places(tournament, tournament.entries.count(), ranked[1:])
