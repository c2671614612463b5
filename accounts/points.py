"""Points: every movement is a ledger row written with the balance it changes.

``points_move`` is the one way points move. It must run inside the
transaction of whatever moved them (a buy-in, a refund, a prize, an admin's
grant), so the row and its cause commit or roll back together. It locks the
member's account row; callers that also lock a tournament lock that first. A
transaction that moves several members' points locks their accounts in user id
order (``accounts_locked``), whatever order it pays them in.
A member's account is opened with the welcome grant of ``STARTING_POINTS``,
at sign-up or, for members made otherwise, when points first move. A guest
(accounts/guests.py) has no account and none is opened for it: it gets its
grant when it becomes a member.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from accounts.models import SITE_SCOPE, STARTING_POINTS, PointsAccount, PointsEntry
from config.platform.domain_errors import DomainError


class PointsError(DomainError):
    code = "points"


class NotEnoughPoints(PointsError):
    code = "not_enough_points"


class GuestHasNoPoints(PointsError):
    code = "guest"


def _locked_account(user: Any, scope: str) -> PointsAccount:
    """The member's account, locked; opened with the welcome grant if it is new."""
    account = PointsAccount.objects.select_for_update().filter(user=user, scope=scope).first()
    if account is not None:
        return account
    if getattr(user, "is_guest", False):  # opening it would hand a guest the welcome grant
        raise GuestHasNoPoints("A guest account has no points: save it as a full account first.")
    account = PointsAccount.objects.create(user=user, scope=scope, balance=0)
    if scope == SITE_SCOPE:
        _write(account, STARTING_POINTS, PointsEntry.Reason.WELCOME, None)
    return account


def _write(
    account: PointsAccount,
    amount: int,
    reason: str,
    tournament: Any,
    note: str = "",
    actor: Any = None,
) -> PointsEntry:
    account.balance += amount
    account.save(update_fields=["balance"])
    return PointsEntry.objects.create(
        user=account.user,
        scope=account.scope,
        amount=amount,
        balance_after=account.balance,
        reason=reason,
        tournament=tournament,
        note=note,
        actor=actor,
    )


def accounts_locked(*, user_ids: Iterable[int | None], scope: str = SITE_SCOPE) -> None:
    """Lock the existing accounts of ``user_ids`` in ``scope``, in user id order (call
    inside the transaction that will move their points).

    Prizes are paid in place order and refunds in entry order, while an admin's grant
    to many goes by user id: on PostgreSQL two such transactions, each holding one
    member's account and wanting the other's, would deadlock, and one would fail.
    Taken first, in one order, they wait for each other instead. One member needs no
    order; an account not yet open is opened (and so locked) when points first move.
    """
    ids = sorted({user_id for user_id in user_ids if user_id is not None})
    if len(ids) < 2:
        return
    accounts = PointsAccount.objects.select_for_update().filter(scope=scope, user_id__in=ids)
    list(accounts.order_by("user_id").values_list("pk", flat=True))


def points_account_open(*, user: Any) -> PointsAccount:
    """Open the member's site account with the welcome grant (nothing if already open)."""
    with transaction.atomic():
        return _locked_account(user, SITE_SCOPE)


def points_move(
    *,
    user: Any,
    amount: int,
    reason: str,
    tournament: Any = None,
    scope: str = SITE_SCOPE,
    note: str = "",
    actor: Any = None,
) -> PointsEntry:
    """Add ``amount`` (negative: take it) to the member's balance, with its ledger row
    (``note`` and ``actor``: why and by whom, for an admin's adjustment).

    Refuses with ``NotEnoughPoints`` (and changes nothing) when the balance
    would go below zero.
    """
    if type(amount) is not int or amount == 0:
        raise ValueError("points move in whole, non-zero amounts")
    with transaction.atomic():
        account = _locked_account(user, scope)
        if account.balance + amount < 0:
            raise NotEnoughPoints(f"You have {account.balance:,} points; this needs {-amount:,}.")
        return _write(account, amount, reason, tournament, note, actor)


def points_record_without_account(
    *, amount: int, reason: str, tournament: Any, scope: str = SITE_SCOPE
) -> PointsEntry:
    """The ledger row of a movement whose member's account was deleted (a prize won, or
    a buy-in refunded, after the member was deleted): no balance changes, but the row
    keeps the tournament's ledger summing to zero, as that member's buy-in row does."""
    if type(amount) is not int or amount == 0:
        raise ValueError("points move in whole, non-zero amounts")
    return PointsEntry.objects.create(
        user=None,
        scope=scope,
        amount=amount,
        balance_after=0,
        reason=reason,
        tournament=tournament,
    )


def points_balance(*, user: Any, scope: str = SITE_SCOPE) -> int:
    """The member's balance (an account not yet opened holds the welcome grant to come;
    a guest's holds nothing)."""
    balance = (
        PointsAccount.objects.filter(user=user, scope=scope)
        .values_list("balance", flat=True)
        .first()
    )
    if balance is None:
        is_granted = scope == SITE_SCOPE and not getattr(user, "is_guest", False)
        return STARTING_POINTS if is_granted else 0
    return int(balance)
