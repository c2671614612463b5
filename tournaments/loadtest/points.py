"""What a club tournament's load run bought and paid, read from its entries and the club's
points ledger once it is over, and whether every point granted is still accounted for:
``manage.py loadtest_mtt`` reports it before the clean-up."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q, Sum

from accounts.models import PointsAccount, PointsEntry
from tournaments.models import Entry


@dataclass(frozen=True)
class Outcome:
    """Rebuys and add-ons taken, bounties paid, and the points that moved (all of the
    club's scope: the run's own)."""

    rebuys: int
    add_ons: int
    bounties: int  # bounty payments (a shared bounty is one per taker; the winner's own)
    bounty_points: int
    granted: int  # the club admin's grants to the members
    paid_in: int  # buy-ins, rebuys and add-ons
    paid_out: int  # prizes, bounties and refunds
    balances: int  # what the members' club accounts hold

    @property
    def is_conserved(self) -> bool:
        """Every point paid in was paid out, and the accounts hold what was granted."""
        return self.paid_in == self.paid_out and self.balances == self.granted

    def report(self) -> str:
        verdict = "every point accounted for" if self.is_conserved else "POINTS DO NOT ADD UP"
        return (
            f"format: rebuys {self.rebuys}, add-ons {self.add_ons}, bounties paid "
            f"{self.bounties} ({self.bounty_points} points); points: granted {self.granted}, "
            f"paid in {self.paid_in}, paid out {self.paid_out}, members hold "
            f"{self.balances}: {verdict}"
        )

    def summary(self) -> str:
        """The summary line's part."""
        return f"rebuys {self.rebuys}, add-ons {self.add_ons}, bounties {self.bounties}"


def outcome_of(tournament_id: int, club_id: int) -> Outcome:
    entries = Entry.objects.filter(tournament_id=tournament_id).aggregate(
        rebuys=Sum("rebuys", default=0), add_ons=Count("pk", filter=Q(has_added_on=True))
    )
    scope = f"club:{club_id}"
    rows = PointsEntry.objects.filter(scope=scope)
    played = rows.filter(tournament_id=tournament_id)
    bounties = played.filter(reason=PointsEntry.Reason.BOUNTY).aggregate(
        count=Count("pk"), points=Sum("amount", default=0)
    )
    granted = rows.filter(tournament=None, reason=PointsEntry.Reason.ADJUSTMENT)
    held = PointsAccount.objects.filter(scope=scope).aggregate(total=Sum("balance", default=0))
    return Outcome(
        rebuys=entries["rebuys"],
        add_ons=entries["add_ons"],
        bounties=bounties["count"],
        bounty_points=bounties["points"],
        granted=granted.aggregate(total=Sum("amount", default=0))["total"],
        paid_in=-played.filter(amount__lt=0).aggregate(total=Sum("amount", default=0))["total"],
        paid_out=played.filter(amount__gt=0).aggregate(total=Sum("amount", default=0))["total"],
        balances=held["total"],
    )
