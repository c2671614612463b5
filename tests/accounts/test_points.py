"""Points: a ledger row for every movement, a balance that never goes below zero."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.urls import reverse

from accounts.models import STARTING_POINTS, PointsAccount, PointsEntry, User
from accounts.points import NotEnoughPoints, points_account_open, points_balance, points_move

pytestmark = pytest.mark.django_db


def ledger_sum(user) -> int:
    return PointsEntry.objects.filter(user=user).aggregate(total=Sum("amount"))["total"] or 0


def test_a_new_member_starts_with_ten_thousand_points_as_a_ledger_row(client):
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "newcomer",
            "email": "new@example.com",
            "password1": "a-long-enough-secret-42",
            "password2": "a-long-enough-secret-42",
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="newcomer")
    entry = PointsEntry.objects.get(user=user)
    assert (entry.amount, entry.reason, entry.balance_after) == (10_000, "welcome", 10_000)
    assert points_balance(user=user) == STARTING_POINTS == 10_000


def test_opening_an_account_twice_grants_once(make_user):
    user = make_user()
    points_account_open(user=user)
    points_account_open(user=user)
    assert PointsEntry.objects.filter(user=user).count() == 1


def test_every_movement_is_a_row_and_the_rows_sum_to_the_balance(make_user):
    user = make_user()
    points_move(user=user, amount=-300, reason=PointsEntry.Reason.BUY_IN)
    points_move(user=user, amount=300, reason=PointsEntry.Reason.REFUND)
    points_move(user=user, amount=-1000, reason=PointsEntry.Reason.BUY_IN)
    points_move(user=user, amount=1950, reason=PointsEntry.Reason.PRIZE)

    assert points_balance(user=user) == 10_950
    assert ledger_sum(user) == 10_950
    assert [e.reason for e in PointsEntry.objects.filter(user=user).order_by("pk")] == [
        "welcome",
        "buy_in",
        "refund",
        "buy_in",
        "prize",
    ]


def test_a_movement_past_the_balance_is_refused_and_changes_nothing(make_user):
    user = make_user()
    points_account_open(user=user)
    with pytest.raises(NotEnoughPoints, match="You have 10,000 points; this needs 10,001"):
        points_move(user=user, amount=-10_001, reason=PointsEntry.Reason.BUY_IN)
    assert points_balance(user=user) == 10_000
    assert PointsEntry.objects.filter(user=user).count() == 1


def test_the_database_refuses_a_negative_balance_whatever_the_code_does(make_user):
    user = make_user()
    points_account_open(user=user)
    with pytest.raises(IntegrityError), transaction.atomic():
        PointsAccount.objects.filter(user=user).update(balance=-1)
    assert points_balance(user=user) == 10_000


def test_a_ledger_row_cannot_move_nothing(make_user):
    user = make_user()
    with pytest.raises(ValueError):
        points_move(user=user, amount=0, reason=PointsEntry.Reason.GRANT)
    with pytest.raises(IntegrityError), transaction.atomic():
        PointsEntry.objects.create(user=user, amount=0, balance_after=0, reason="grant")


def test_a_member_made_without_signing_up_gets_the_grant_when_points_first_move(make_user):
    user = make_user()
    assert points_balance(user=user) == 10_000  # shown before the account is opened
    points_move(user=user, amount=-100, reason=PointsEntry.Reason.BUY_IN)
    assert points_balance(user=user) == 9_900
    assert ledger_sum(user) == 9_900


def test_a_deleted_members_rows_stay_in_the_ledger(make_user):
    user = make_user()
    points_move(user=user, amount=-100, reason=PointsEntry.Reason.BUY_IN)
    user.delete()
    assert PointsEntry.objects.filter(user=None).aggregate(total=Sum("amount"))["total"] == 9_900
