"""Tournaments and the points ledger in the admin: read-only, and cancel refunds."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.points import points_balance
from tests.tournaments.helpers import members, moved_for, register, sng

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, make_user):
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


def test_an_admin_cancelling_a_running_sng_refunds_every_buy_in(staff_client, make_user):
    players = members(make_user, 6)
    tournament = register(sng(buy_in=100), players)

    response = staff_client.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "cancel_and_refund", "_selected_action": [tournament.pk]},
        follow=True,
    )

    assert "cancelled; every buy-in refunded" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == "cancelled"
    assert all(points_balance(user=p) == 10_000 for p in players)
    assert moved_for(tournament) == 0


def test_cancelling_a_finished_sng_is_refused_with_a_message(staff_client, make_user):
    from tests.tournaments.helpers import play_to_the_end

    tournament = play_to_the_end(register(sng(buy_in=100), members(make_user, 6)))
    response = staff_client.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "cancel_and_refund", "_selected_action": [tournament.pk]},
        follow=True,
    )
    assert "Only a tournament that has not finished can be cancelled." in response.content.decode()
    assert moved_for(tournament) == 0


def test_the_ledger_pages_list_rows_and_cannot_change_them(staff_client, make_user):
    register(sng(buy_in=100), [make_user("alice")])

    entries = staff_client.get(reverse("admin:accounts_pointsentry_changelist"))
    accounts = staff_client.get(reverse("admin:accounts_pointsaccount_changelist"))
    tournaments = staff_client.get(reverse("admin:tournaments_tournament_changelist"))

    assert entries.status_code == accounts.status_code == tournaments.status_code == 200
    assert "Tournament buy-in" in entries.content.decode()
    assert staff_client.get(reverse("admin:accounts_pointsentry_add")).status_code == 403
