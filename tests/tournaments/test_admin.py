"""Tournaments and the points ledger in the admin: read-only, cancel refunds, grants add rows."""

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


def grant(staff_client, users, **fields):
    return staff_client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "grant_points", "_selected_action": [u.pk for u in users], **fields},
        follow=True,
    )


def test_an_admin_grants_points_to_members_as_ledger_rows(staff_client, make_user):
    from accounts.models import PointsEntry

    alice, bob = make_user("alice"), make_user("bob")
    asked = grant(staff_client, [alice, bob])
    assert "Grant site points to 2 members" in asked.content.decode()
    assert points_balance(user=alice) == 10_000, "nothing moves before the amount is given"

    done = grant(staff_client, [alice, bob], amount="2500")

    assert "Granted 2,500 points to 2 member(s)." in done.content.decode()
    assert points_balance(user=alice) == points_balance(user=bob) == 12_500
    rows = PointsEntry.objects.filter(reason="grant").order_by("user__username")
    assert [(r.user, r.amount, r.balance_after) for r in rows] == [
        (alice, 2500, 12_500),
        (bob, 2500, 12_500),
    ]


@pytest.mark.parametrize("amount", ["0", "-50", "2000000", "lots"])
def test_a_grant_out_of_range_is_asked_again_and_moves_nothing(staff_client, make_user, amount):
    from accounts.models import PointsEntry

    alice = make_user("alice")
    response = grant(staff_client, [alice], amount=amount)
    assert response.status_code == 200
    assert "Grant site points to 1 member" in response.content.decode()
    assert 'class="errorlist' in response.content.decode()
    assert not PointsEntry.objects.filter(reason="grant").exists()


def test_a_member_who_is_not_staff_cannot_grant(client, make_user):
    alice = make_user("alice")
    client.force_login(alice)
    response = client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "grant_points", "_selected_action": [alice.pk], "amount": "5000"},
    )
    assert response.status_code == 302  # to the admin's log-in
    assert points_balance(user=alice) == 10_000


def _schedule_form(**changes):
    from datetime import timedelta

    from django.utils import timezone

    form = {
        "name": "Admin's Open",
        "starts_at": (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%d %H:%M:%S"),
        "buy_in": 50,
        "seats_per_table": 6,
        "max_entrants": 120,
        "structure": "turbo",
        "levels": "",
        "starting_stack": "",
        "late_registration_levels": 2,
        "break_every_minutes": 60,
        "break_minutes": 5,
        "payout_percentages": "50, 30, 20",
        "points_scope": "site",
    }
    form.update(changes)
    return form


def test_staff_schedule_a_multi_table_tournament_from_the_admin(staff_client):
    from tournaments.models import Tournament

    response = staff_client.post(
        reverse("admin:tournaments_tournament_add"), _schedule_form(), follow=True
    )

    assert response.status_code == 200
    made = Tournament.objects.get()
    assert (made.kind, made.name, made.seats, made.max_entrants) == ("mtt", "Admin's Open", 6, 120)
    assert made.payout_percentages == [50, 30, 20] and made.break_minutes == 5
    assert "Admin&#x27;s Open" in response.content.decode()


def test_a_bad_setting_in_the_admin_shows_the_service_s_sentence(staff_client):
    from tournaments.models import Tournament

    response = staff_client.post(
        reverse("admin:tournaments_tournament_add"),
        _schedule_form(levels='[{"small_blind": 5}]'),
    )

    page = response.content.decode()
    assert "Level 1 needs a small blind, a big blind and minutes." in page
    response = staff_client.post(
        reverse("admin:tournaments_tournament_add"), _schedule_form(seats_per_table=12)
    )
    assert "Seats per table must be a whole number from 2 to 9." in response.content.decode()
    assert not Tournament.objects.exists()
    response = staff_client.post(
        reverse("admin:tournaments_tournament_add"), _schedule_form(payout_percentages="60, 30")
    )
    assert "Payout percentages must add up to 100." in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_club_reads_in_the_admin_with_its_members_but_not_its_secret(staff_client, make_user):
    from tournaments.clubs import services as club_services

    club = club_services.club_create(user=make_user("owner"), name="Thursday Crew")
    club_services.club_join(slug=club.slug, user=make_user("bob"), token=club.invite_token)
    page = reverse("admin:tournaments_club_change", args=[club.pk])

    shown = staff_client.get(page).content.decode()
    saved = staff_client.post(page, {"name": "Renamed"})

    assert "Thursday Crew" in shown and "bob" in shown and "owner" in shown
    assert club.invite_token not in shown
    assert saved.status_code == 403
    club.refresh_from_db()
    assert club.name == "Thursday Crew"
