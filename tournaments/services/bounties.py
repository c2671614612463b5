"""Knockout bounties: part of each buy-in rides on the player's head
(``Entry.bounty``) and goes to whoever knocks them out (docs/rules.md, rules
26 and 27; docs/tournaments.md, "Knockout bounties").

Who knocked a player out is read from the hand that left them without chips
(``engine.knockouts``) and kept on their entry (``Entry.knocked_out_by``) until
they are out, which a rebuy offer may put off. When they are out the bounty is
paid, in points, in that transaction: all of it to the player who took it, or
in a progressive knockout half of it, the other half going onto that player's
own bounty. The winner is paid their own bounty when the tournament ends, so
every point of every bounty is paid out: each payment is a ledger row
(``bounty``) and a ``Knockout`` row says who took whose.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db.models import F

import engine
from accounts import points
from accounts.models import PointsEntry
from tables.models import Hand
from tables.play import Play
from tournaments.models import Entry, Knockout, Tournament


def record_knockouts(play: Play, state: engine.HandState, out: Mapping[int, Entry]) -> None:
    """Keep on each entry out of chips in this hand (by seat) who knocked them out, with
    the chips each of those started the hand with (not yet saved)."""
    knocks = engine.knockouts(state)
    for number, entry in out.items():
        knockers = []
        for seat_number in knocks.get(number, ()):
            seat = play.seats.get(seat_number)
            if seat is not None and seat.entry_id is not None:
                knockers.append([seat.entry_id, state.starting_stacks[seat_number] or 0])
        entry.knocked_out_by = knockers or None


def pay_bounties(
    tournament: Tournament, out: list[Entry], still_in: list[Entry], hand: Hand | None
) -> None:
    """The bounties of ``out`` (players just out of the tournament) paid to who knocked
    them out; ``still_in`` are the entries loaded in this transaction, kept in step."""
    if not tournament.bounty:
        return
    loaded = {entry.pk: entry for entry in still_in}
    for entry in out:
        knockers = entry.knocked_out_by or []
        if not entry.bounty or not knockers:
            continue
        paid, added = (
            engine.progressive_bounty(entry.bounty)
            if tournament.is_progressive_bounty
            else (entry.bounty, 0)
        )
        stacks = {entry_id: chips for entry_id, chips in knockers}
        order = [entry_id for entry_id, _ in knockers]
        paid_shares = engine.split_bounty(paid, stacks, order)
        added_shares = engine.split_bounty(added, stacks, order) if added else {}
        winners = Entry.objects.in_bulk(list(paid_shares))
        for winner_id, share in paid_shares.items():
            winner = winners[winner_id]
            extra = added_shares.get(winner_id, 0)
            _pay(tournament, winner, share)
            after = 0
            if extra:
                Entry.objects.filter(pk=winner_id).update(bounty=F("bounty") + extra)
                after = Entry.objects.values_list("bounty", flat=True).get(pk=winner_id)
                if winner_id in loaded:
                    loaded[winner_id].bounty = after
            Knockout.objects.create(
                tournament=tournament,
                hand_id=hand.pk if hand is not None else entry.final_hand_id,
                busted=entry,
                winner=winner,
                paid=share,
                added=extra,
                bounty_after=after,
            )
        entry.bounty = 0
        Entry.objects.filter(pk=entry.pk).update(bounty=0)


def pay_own_bounty(tournament: Tournament, winner: Entry) -> None:
    """The winner keeps the bounty on their own head: nobody knocked them out."""
    bounty = Entry.objects.filter(pk=winner.pk).values_list("bounty", flat=True).first() or 0
    if not tournament.bounty or not bounty:
        return
    _pay(tournament, winner, bounty)
    winner.bounty = 0
    Entry.objects.filter(pk=winner.pk).update(bounty=0)


def _pay(tournament: Tournament, entry: Entry, amount: int) -> None:
    if amount:
        Entry.objects.filter(pk=entry.pk).update(bounties_won=F("bounties_won") + amount)
        pay_entry(tournament, entry, amount, PointsEntry.Reason.BOUNTY)


def pay_entry(tournament: Tournament, entry: Entry, amount: int, reason: str) -> None:
    """``amount`` points to ``entry``'s member in the ledger (a prize or a bounty): a
    row without a balance for a member deleted while playing; bots are not paid."""
    if not amount:
        return
    if entry.user is not None:
        points.points_move(
            user=entry.user,
            amount=amount,
            reason=reason,
            tournament=tournament,
            scope=tournament.points_scope,
        )
    elif not entry.is_bot:
        points.points_record_without_account(
            amount=amount, reason=reason, tournament=tournament, scope=tournament.points_scope
        )
