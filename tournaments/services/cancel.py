"""An admin's cancel of an unfinished tournament: its tables closed and what is left
of its pool given back (rule 31, ``tournaments/refunds.py``).

Prizes, deal amounts and bounties already paid stay paid, so what is left is
read from the tournament's own ledger rows (every buy-in, rebuy and add-on in,
every prize, bounty and refund out): after the refunds the rows sum to zero.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from accounts import points
from accounts.models import PointsEntry
from tournaments import broadcast
from tournaments.errors import CannotCancel
from tournaments.models import Tournament
from tournaments.refunds import claim, share_pool
from tournaments.services.bounties import pay_entry
from tournaments.services.registration import locked, sng_open
from tournaments.services.start import tables_close


def tournament_cancel(*, tournament_id: int) -> Tournament:
    """An admin stops an unfinished tournament: its tables closed, its pool refunded."""
    with transaction.atomic():
        tournament = locked(tournament_id)
        if tournament.is_over:
            raise CannotCancel()
        was_registering = tournament.status == Tournament.Status.REGISTERING
        tables_close(tournament)
        refund_pool(tournament)
        tournament.status = Tournament.Status.CANCELLED
        tournament.ended_at = timezone.now()
        tournament.prize_pool = 0
        tournament.save(update_fields=["status", "ended_at", "prize_pool"])
        if was_registering and tournament.kind == Tournament.Kind.SNG:
            fresh = sng_open(
                structure=tournament.structure, buy_in=tournament.buy_in, game=tournament.game
            )
            broadcast.lobby_update(fresh.pk)
        broadcast.lobby_update(tournament.pk)
        return tournament


def pool_left(tournament: Tournament) -> int:
    """The points the tournament still holds: what its ledger rows took in, less what
    they paid out."""
    moved = PointsEntry.objects.filter(tournament=tournament).aggregate(total=Sum("amount"))
    return -(moved["total"] or 0)


def refund_pool(tournament: Tournament) -> None:
    """Share what is left of the pool among the members' entries by what each is owed
    (tournament locked); bots paid nothing in and get nothing back."""
    entries = list(tournament.entries.filter(is_bot=False).select_related("user").order_by("pk"))
    claims = {
        entry: claim(entry.paid or entry.buy_in, entry.prize + entry.bounties_won)
        for entry in entries  # entries made before Entry.paid have only buy_in
    }
    refunds = share_pool(pool_left(tournament), claims, entries)
    points.accounts_locked(
        user_ids=[entry.user_id for entry in entries if refunds[entry]],
        scope=tournament.points_scope,
    )
    for entry in entries:
        pay_entry(tournament, entry, refunds[entry], PointsEntry.Reason.REFUND)
