"""Clubs through their services: joining, roles, removals and bans, club points, and
who sees a club's tournaments and tables (docs/clubs.md)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db.models import Sum
from django.utils import timezone

from accounts.models import PointsEntry
from accounts.points import points_balance
from tables.errors import MembersOnly as TableMembersOnly
from tables.kinds import of as behaviour_of
from tests.tournaments.helpers import moved_for
from tournaments import errors, selectors, services
from tournaments.clubs import access as club_access
from tournaments.clubs import errors as club_errors
from tournaments.clubs import services as club_services
from tournaments.models import Club, Membership, Tournament
from tournaments.tournament_settings import TournamentSettings

pytestmark = pytest.mark.django_db


def club_with(make_user: Any, *names: str) -> tuple[Club, Any, list[Any]]:
    """A club owned by "owner" with the named members joined by its link."""
    owner = make_user("owner")
    club = club_services.club_create(user=owner, name="Thursday Crew", description="Home game")
    joined = []
    for name in names:
        user = make_user(name)
        club_services.club_join(slug=club.slug, user=user, token=club.invite_token)
        joined.append(user)
    return club, owner, joined


def club_tournament(club: Club, admin: Any, **settings: Any) -> Tournament:
    settings.setdefault("name", "Club Night")
    settings.setdefault("starts_at", timezone.now() + timedelta(minutes=5))
    return club_services.club_tournament_schedule(
        slug=club.slug, admin=admin, settings=TournamentSettings(**settings)
    )


def credit(club: Club, admin: Any, user: Any, amount: int) -> None:
    club_services.club_points_adjust(
        slug=club.slug, admin=admin, username=user.username, amount=amount, reason="cash in"
    )


def role_of(club: Club, user: Any) -> tuple[str, str] | None:
    found = Membership.objects.filter(club=club, user=user).values_list("role", "status")
    return found.first()


# --- creating and joining ----------------------------------------------------------


def test_the_creator_owns_the_club_and_names_make_distinct_addresses(make_user) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    first = club_services.club_create(user=alice, name="Thursday Crew")
    second = club_services.club_create(user=bob, name="Thursday Crew")

    assert (first.slug, second.slug) == ("thursday-crew", "thursday-crew-2")
    assert role_of(first, alice) == ("owner", "active")
    assert first.scope == f"club:{first.pk}"


@pytest.mark.parametrize("name", ["", "   ", "x" * 61, None, 7])
def test_a_club_needs_a_name_and_nothing_is_saved_without_one(make_user, name) -> None:
    with pytest.raises(club_errors.BadClubRequest) as refused:
        club_services.club_create(user=make_user("alice"), name=name)
    assert refused.value.code == "bad_name"
    assert not Club.objects.exists()


def test_a_member_owns_ten_clubs_at_most(make_user) -> None:
    alice = make_user("alice")
    for n in range(club_services.MAX_CLUBS_OWNED):
        club_services.club_create(user=alice, name=f"Club {n}")
    with pytest.raises(club_errors.BadClubRequest) as refused:
        club_services.club_create(user=alice, name="One more")
    assert refused.value.code == "too_many_clubs"


def test_the_invitation_token_joins_and_a_wrong_one_does_not(make_user) -> None:
    club, _, _ = club_with(make_user)
    carol, dave = make_user("carol"), make_user("dave")

    club_services.club_join(slug=club.slug, user=carol, token=club.invite_token)
    wrong = club.invite_token[:-1] + ("y" if club.invite_token.endswith("x") else "x")
    with pytest.raises(club_errors.BadInvitation):
        club_services.club_join(slug=club.slug, user=dave, token=wrong)
    with pytest.raises(club_errors.AlreadyMember):
        club_services.club_join(slug=club.slug, user=carol, token=club.invite_token)

    assert role_of(club, carol) == ("member", "active")
    assert role_of(club, dave) is None


def test_a_reset_link_makes_the_old_one_useless(make_user) -> None:
    club, owner, _ = club_with(make_user)
    old = club.invite_token

    fresh = club_services.club_reset_invitation(slug=club.slug, admin=owner).invite_token

    assert fresh != old
    with pytest.raises(club_errors.BadInvitation):
        club_services.club_join(slug=club.slug, user=make_user("carol"), token=old)
    club_services.club_join(slug=club.slug, user=make_user("dave"), token=fresh)


def test_asking_to_join_waits_for_an_admin_who_approves_or_declines(make_user) -> None:
    club, owner, _ = club_with(make_user)
    carol, dave = make_user("carol"), make_user("dave")
    club_services.club_ask(slug=club.slug, user=carol)
    club_services.club_ask(slug=club.slug, user=dave)
    with pytest.raises(club_errors.AlreadyAsked):
        club_services.club_ask(slug=club.slug, user=carol)
    with pytest.raises(club_errors.MembersOnly):  # asking is not belonging
        club_access.require_member(club, carol)

    club_services.club_answer(slug=club.slug, admin=owner, username="carol", is_approved=True)
    club_services.club_answer(slug=club.slug, admin=owner, username="dave", is_approved=False)

    assert role_of(club, carol) == ("member", "active")
    assert role_of(club, dave) is None
    club_services.club_ask(slug=club.slug, user=dave)  # declined: may ask again


# --- roles, removals, bans ----------------------------------------------------------


def test_the_owner_appoints_admins_and_an_admin_cannot(make_user) -> None:
    club, owner, (bob, carol) = club_with(make_user, "bob", "carol")

    club_services.club_set_role(slug=club.slug, owner=owner, username="bob", role="admin")
    with pytest.raises(club_errors.OwnerOnly):
        club_services.club_set_role(slug=club.slug, owner=bob, username="carol", role="admin")
    with pytest.raises(club_errors.BadClubRequest):
        club_services.club_set_role(slug=club.slug, owner=owner, username="carol", role="owner")

    assert role_of(club, bob) == ("admin", "active")
    assert role_of(club, carol) == ("member", "active")


def test_an_admin_removes_members_but_not_admins_or_the_owner(make_user) -> None:
    club, owner, (bob, carol, dave, erin) = club_with(make_user, "bob", "carol", "dave", "erin")
    club_services.club_set_role(slug=club.slug, owner=owner, username="bob", role="admin")
    club_services.club_set_role(slug=club.slug, owner=owner, username="carol", role="admin")

    club_services.club_remove(slug=club.slug, admin=bob, username="dave")
    with pytest.raises(club_errors.OwnerOnly):
        club_services.club_remove(slug=club.slug, admin=bob, username="carol")
    with pytest.raises(club_errors.BadClubRequest) as refused:
        club_services.club_remove(slug=club.slug, admin=bob, username="owner")
    assert refused.value.code == "cannot_remove_owner"
    with pytest.raises(club_errors.AdminsOnly):
        club_services.club_remove(slug=club.slug, admin=erin, username="carol")

    assert role_of(club, dave) is None
    assert role_of(club, carol) == ("admin", "active")


def test_a_banned_member_can_neither_join_again_nor_ask(make_user) -> None:
    club, owner, (bob,) = club_with(make_user, "bob")

    club_services.club_remove(slug=club.slug, admin=owner, username="bob", is_banned=True)

    with pytest.raises(club_errors.Banned):
        club_services.club_join(slug=club.slug, user=bob, token=club.invite_token)
    with pytest.raises(club_errors.Banned):
        club_services.club_ask(slug=club.slug, user=bob)
    with pytest.raises(club_errors.Banned):
        club_access.require_member(club, bob)
    assert role_of(club, bob) == ("member", "banned")


def test_a_removed_member_s_registrations_are_refunded_and_their_points_stay(make_user) -> None:
    club, owner, (bob,) = club_with(make_user, "bob")
    credit(club, owner, bob, 500)
    tournament = club_tournament(club, owner, buy_in=200)
    services.tournament_register(tournament_id=tournament.pk, user=bob)
    assert points_balance(user=bob, scope=club.scope) == 300

    club_services.club_remove(slug=club.slug, admin=owner, username="bob")

    tournament.refresh_from_db()
    assert tournament.entries.count() == 0 and tournament.prize_pool == 0
    assert points_balance(user=bob, scope=club.scope) == 500
    assert moved_for(tournament) == 0


def test_the_owner_cannot_leave_and_a_member_can(make_user) -> None:
    club, owner, (bob,) = club_with(make_user, "bob")

    with pytest.raises(club_errors.BadClubRequest):
        club_services.club_leave(slug=club.slug, user=owner)
    club_services.club_leave(slug=club.slug, user=bob)

    assert role_of(club, bob) is None


def test_an_admin_of_one_club_cannot_act_on_another(make_user) -> None:
    club, _, (bob,) = club_with(make_user, "bob")
    other_owner = make_user("mallory")
    club_services.club_create(user=other_owner, name="Other club")

    for attempt in (
        lambda: club_services.club_remove(slug=club.slug, admin=other_owner, username="bob"),
        lambda: credit(club, other_owner, bob, 100),
        lambda: club_tournament(club, other_owner),
        lambda: club_services.club_reset_invitation(slug=club.slug, admin=other_owner),
        lambda: club_services.club_answer(
            slug=club.slug, admin=other_owner, username="bob", is_approved=True
        ),
    ):
        with pytest.raises(club_errors.MembersOnly):
            attempt()
    assert role_of(club, bob) == ("member", "active")
    assert not Tournament.objects.exists()


# --- club points ---------------------------------------------------------------------


def test_admins_credit_and_debit_with_a_reason_and_every_movement_is_a_row(make_user) -> None:
    club, owner, (bob, carol) = club_with(make_user, "bob", "carol")
    club_services.club_set_role(slug=club.slug, owner=owner, username="bob", role="admin")

    credit(club, owner, carol, 1_000)
    club_services.club_points_adjust(
        slug=club.slug, admin=bob, username="carol", amount=-250, reason="paid out in cash"
    )

    rows = PointsEntry.objects.filter(scope=club.scope, user=carol).order_by("pk")
    assert [(r.amount, r.balance_after, r.note, r.actor) for r in rows] == [
        (1_000, 1_000, "cash in", owner),
        (-250, 750, "paid out in cash", bob),
    ]
    assert points_balance(user=carol, scope=club.scope) == 750
    assert points_balance(user=carol) == 10_000  # the site's points are another purse


def test_a_debit_below_zero_is_refused_and_changes_nothing(make_user) -> None:
    club, owner, (bob,) = club_with(make_user, "bob")
    credit(club, owner, bob, 100)

    with pytest.raises(club_errors.BadClubRequest) as refused:
        club_services.club_points_adjust(
            slug=club.slug, admin=owner, username="bob", amount=-101, reason="too much"
        )

    assert refused.value.code == "not_enough_points"
    assert "100" in refused.value.message
    assert points_balance(user=bob, scope=club.scope) == 100
    assert PointsEntry.objects.filter(scope=club.scope).count() == 1


@pytest.mark.parametrize(
    ("amount", "reason", "code"),
    [(0, "x", "bad_amount"), (1.5, "x", "bad_amount"), ("5", "x", "bad_amount"),
     (10**10, "x", "bad_amount"), (5, "", "bad_reason"), (5, "x" * 201, "bad_reason")],
)  # fmt: skip
def test_a_bad_amount_or_reason_is_refused(make_user, amount, reason, code) -> None:
    club, owner, _ = club_with(make_user, "bob")
    with pytest.raises(club_errors.BadClubRequest) as refused:
        club_services.club_points_adjust(
            slug=club.slug, admin=owner, username="bob", amount=amount, reason=reason
        )
    assert refused.value.code == code
    assert not PointsEntry.objects.filter(scope=club.scope).exists()


def test_a_member_cannot_credit_points_nor_credit_a_stranger(make_user) -> None:
    club, owner, (bob,) = club_with(make_user, "bob")
    outsider = make_user("outsider")

    with pytest.raises(club_errors.AdminsOnly):
        credit(club, bob, bob, 1_000)
    with pytest.raises(club_errors.NoSuchMember):
        credit(club, owner, outsider, 1_000)

    assert not PointsEntry.objects.filter(scope=club.scope).exists()


def test_a_club_tournament_is_paid_and_refunded_in_the_club_s_points(make_user) -> None:
    club, owner, players = club_with(make_user, "bob", "carol")
    for player in players:
        credit(club, owner, player, 300)
    tournament = club_tournament(club, owner, buy_in=300)

    for player in players:
        services.tournament_register(tournament_id=tournament.pk, user=player)
    with pytest.raises(errors.NotEnoughPoints):  # the owner has no club points
        services.tournament_register(tournament_id=tournament.pk, user=owner)
    services.tournament_unregister(tournament_id=tournament.pk, user=players[0])

    assert tournament.points_scope == club.scope
    assert points_balance(user=players[0], scope=club.scope) == 300
    assert points_balance(user=players[1], scope=club.scope) == 0
    assert points_balance(user=players[1]) == 10_000
    held = PointsEntry.objects.filter(scope=club.scope).aggregate(total=Sum("amount"))["total"]
    assert held == 600 - 300  # credits in, one buy-in still in the pool
    assert Tournament.objects.get(pk=tournament.pk).prize_pool == 300


# --- who sees what -------------------------------------------------------------------


def test_a_non_member_cannot_see_or_register_for_a_club_tournament(make_user) -> None:
    club, owner, (bob,) = club_with(make_user, "bob")
    tournament = club_tournament(club, owner)
    outsider = make_user("outsider")

    with pytest.raises(club_errors.MembersOnly):
        services.tournament_register(tournament_id=tournament.pk, user=outsider)
    with pytest.raises(club_errors.MembersOnly):
        club_access.check_can_see(tournament, outsider)
    lobby = selectors.tournaments_list(status="registering", viewer=outsider)
    assert tournament not in lobby
    assert tournament in selectors.tournaments_list(status="registering", viewer=bob)
    assert tournament.entries.count() == 0


def test_only_members_see_a_running_club_tournament_s_tables(make_user) -> None:
    club, owner, players = club_with(make_user, "bob", "carol", "dave")
    tournament = club_tournament(club, owner, seats_per_table=3)
    for player in players:
        services.tournament_register(tournament_id=tournament.pk, user=player)
    services.mtt_start(tournament_id=tournament.pk, now=timezone.now() + timedelta(minutes=6))
    table = tournament.tables.order_by("pk").first()
    assert table is not None

    behaviour_of(table).check_watch(table, players[0])
    with pytest.raises(TableMembersOnly):
        behaviour_of(table).check_watch(table, make_user("outsider"))
    club_services.club_remove(slug=club.slug, admin=owner, username="dave", is_banned=True)
    behaviour_of(table).check_watch(table, players[2])  # removed while playing: plays it out


def test_a_deleted_members_club_buy_in_is_given_back_in_the_club_s_points(make_user) -> None:
    club, owner, (bob,) = club_with(make_user, "bob")
    credit(club, owner, bob, 300)
    tournament = club_tournament(club, owner, buy_in=300)
    services.tournament_register(tournament_id=tournament.pk, user=bob)
    bob.delete()  # straight from the ORM: nothing let go of first

    services.tournament_cancel(tournament_id=tournament.pk)

    rows = PointsEntry.objects.filter(tournament=tournament)
    assert rows.aggregate(total=Sum("amount"))["total"] == 0, "the pool gave the buy-in back"
    refund = rows.get(reason=PointsEntry.Reason.REFUND)
    assert (refund.user, refund.scope, refund.amount) == (None, club.scope, 300)
    held = PointsEntry.objects.filter(scope=club.scope).aggregate(total=Sum("amount"))["total"]
    assert held == 300, "the club's ledger still holds what bob was credited"
    assert Tournament.objects.get(pk=tournament.pk).prize_pool == 0
