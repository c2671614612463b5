"""Staff delete a member (the admin's delete page or its bulk action; or the ORM does):
their seats are released, every ledger row stays with no member, every ledger adds up."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db.models import Q, Sum
from django.test import Client
from django.urls import reverse

import engine
from accounts.models import PointsAccount, PointsEntry, User
from accounts.points import points_account_open, points_balance, points_move
from tables import services as table_services
from tables.models import ChipMovement, Seat, Table
from tables.play import hand_state
from tests.accounts.test_data_export import play_hand
from tests.support.tables import fast_tables  # noqa: F401 - no pause between hands
from tests.tables.helpers import act, chips_on_table, deal, fresh, friends_table, state_of
from tests.tournaments.helpers import members, moved_for, play_one_step, register, sng, table_of
from tournaments import services as tournament_services
from tournaments.clubs import services as club_services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, make_user):
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


def signed_up(make_user: Callable[..., Any], username: str) -> Any:
    """A member as sign-up makes one: with the welcome grant."""
    member = make_user(username)
    points_account_open(user=member)
    return member


def delete_on_its_page(client: Any, member: Any) -> None:
    url = reverse("admin:accounts_user_delete", args=[member.pk])
    assert "Are you sure you want to delete the user" in client.get(url).content.decode()
    assert client.post(url, {"post": "yes"}).status_code == 302


def delete_with_the_bulk_action(client: Any, member: Any) -> None:
    url = reverse("admin:accounts_user_changelist")
    chosen = {"action": "delete_selected", "_selected_action": [member.pk]}
    confirm = client.post(url, chosen).content.decode()
    assert "Are you sure you want to delete the selected user" in confirm
    assert client.post(url, {**chosen, "post": "yes"}).status_code == 302


def delete_through_the_orm(client: Any, member: Any) -> None:
    member.delete()  # no service sees it coming


DELETIONS = [delete_on_its_page, delete_with_the_bulk_action, delete_through_the_orm]


def total(rows: Any, field: str = "amount") -> int:
    return int(rows.aggregate(total=Sum(field))["total"] or 0)


@pytest.mark.parametrize("delete", DELETIONS)
def test_a_deleted_members_points_rows_stay_and_every_balance_adds_up(
    staff_client, make_user, delete
):
    owner, bob = signed_up(make_user, "olive"), signed_up(make_user, "bob")
    points_move(user=bob, amount=500, reason=PointsEntry.Reason.GRANT)
    club = club_services.club_create(user=owner, name="Thursday club")
    club_services.club_join(slug=club.slug, user=bob, token=club.invite_token)
    club_services.club_points_adjust(
        slug=club.slug, admin=owner, username="bob", amount=300, reason="settled up"
    )
    played = register(sng(buy_in=100), [bob, *members(make_user, 5)])
    rows = {row.pk: row.amount for row in PointsEntry.objects.filter(user=bob)}
    held = points_balance(user=bob) + points_balance(user=bob, scope=club.scope)

    delete(staff_client, bob)

    assert not User.objects.filter(username="bob").exists()
    kept = PointsEntry.objects.filter(pk__in=rows)
    assert {row.pk: (row.amount, row.user_id) for row in kept} == {
        pk: (amount, None) for pk, amount in rows.items()
    }
    # Every remaining member's rows add up to their balances; what left is bob's.
    assert total(PointsEntry.objects.filter(user__isnull=False)) == total(
        PointsAccount.objects.all(), "balance"
    )
    assert total(PointsEntry.objects.filter(user__isnull=True)) == held == 10_000 + 500 + 300 - 100
    assert moved_for(played) == -Tournament.objects.get(pk=played.pk).prize_pool


def finish_the_hand(table: Table) -> None:
    while not state_of(table).is_over:
        seat = Seat.objects.get(table=table, number=state_of(table).actor)
        if seat.has_departed:  # a deleted account's turn: its wake-up folds it
            table_services.hand_timeout(table_id=table.pk, seq=fresh(table).seq)
        else:
            act(table, "check" if engine.legal_actions(state_of(table)).can_check else "call")


def chips_add_up(table: Table) -> bool:
    """What the players brought less what they took is what is on the table."""
    movements = ChipMovement.objects.filter(table=table)
    brought = total(movements.filter(Q(kind="buy_in") | Q(kind="rebuy")))
    return brought - total(movements.filter(kind="cash_out")) == chips_on_table(table)


@pytest.mark.parametrize("delete", DELETIONS)
def test_a_deleted_members_seats_are_freed_and_every_chip_is_counted(
    staff_client, make_user, delete
):
    alice, bob, carol = (signed_up(make_user, name) for name in ("alice", "bob", "carol"))
    mid_hand = friends_table(alice, bob, name="Mid-hand")
    deal(mid_hand)
    between_hands = friends_table(carol, bob, alice, name="Between hands")

    delete(staff_client, bob)

    assert chips_add_up(mid_hand) and chips_add_up(between_hands)
    finish_the_hand(mid_hand)
    deal(between_hands)  # the next hand deals without bob
    for table, left in ((mid_hand, {"alice"}), (between_hands, {"alice", "carol"})):
        assert {seat.user.username for seat in Seat.objects.filter(table=table)} == left
        assert chips_add_up(table)
        bobs = ChipMovement.objects.filter(table=table, user__isnull=True)
        assert sorted(bobs.values_list("kind", flat=True)) == ["buy_in", "cash_out"]


def play_to_the_end(tournament: Tournament) -> Tournament:
    """As the players and the clock would; a deleted member's turn waits for its wake-up."""
    for _ in range(5000):
        tournament.refresh_from_db()
        if tournament.status != "running":
            return tournament
        table = table_of(tournament)
        state = hand_state(table)
        seat = None if state is None or state.is_over else table.seats.get(number=state.actor)
        if seat is not None and seat.has_departed:
            table_services.hand_timeout(table_id=table.pk, seq=table.seq)
        else:
            play_one_step(tournament)
    raise AssertionError("the tournament did not finish")


# Each door then plays the SNG to its end. The doors' own database paths have the
# shorter tests above on every run; PostgreSQL plays the SNG out behind one door.
@pytest.mark.parametrize(
    "delete",
    [
        pytest.param(delete_on_its_page, marks=pytest.mark.long_game),
        pytest.param(delete_with_the_bulk_action, marks=pytest.mark.long_game),
        delete_through_the_orm,
    ],
)
def test_a_deleted_members_tournament_entries_stay_and_each_ledger_sums_to_zero(
    staff_client, make_user, delete
):
    bob = signed_up(make_user, "bob")
    running = register(sng(structure="turbo", buy_in=100), [bob, *members(make_user, 5)])
    waiting = register(sng(structure="hyper", buy_in=100), [bob])

    delete(staff_client, bob)

    entry = running.entries.get(user=None)
    assert entry.buy_in == 100, "in play: kept, played as away"
    if delete is not delete_through_the_orm:  # the admin closes the account: no name kept
        assert entry.name.startswith("Closed account #")
    assert moved_for(running) == -running.prize_pool
    waiting.refresh_from_db()
    if delete is not delete_through_the_orm:  # the admin lets go of what bob held first
        assert not waiting.entries.exists() and waiting.prize_pool == 0, "refunded"
    assert moved_for(waiting) == -waiting.prize_pool
    tournament_services.tournament_cancel(tournament_id=waiting.pk)
    assert moved_for(waiting) == 0, "a cancellation after it leaves the ledger at zero"
    finished = play_to_the_end(running)
    entries = list(finished.entries.all())
    assert all(entry.place is not None for entry in entries)
    assert moved_for(finished) == 0, "every buy-in is paid out, bob's prize too"
    gone = finished.entries.get(user=None)
    departed_rows = PointsEntry.objects.filter(tournament=finished, user__isnull=True)
    assert total(departed_rows) == gone.prize - gone.buy_in


def test_deactivating_a_member_refunds_their_registrations_to_tournaments_not_started(
    staff_client, make_user
):
    bob = signed_up(make_user, "bob")
    waiting = register(sng(structure="hyper", buy_in=100), [bob])
    assert points_balance(user=bob) == 9_900
    page = reverse("admin:accounts_user_change", args=[bob.pk])
    form = staff_client.get(page).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None}
    data.update(is_active="", date_joined_0="2026-01-01", date_joined_1="00:00:00")
    response = staff_client.post(page, data)
    assert response.status_code == 302, response.content[:500]
    assert not User.objects.get(pk=bob.pk).is_active
    assert not waiting.entries.exists() and points_balance(user=bob) == 10_000
    assert moved_for(waiting) == 0


def club_of(owner: Any, *people: Any) -> Any:
    """A club ``owner`` made, which ``people`` joined in that order."""
    club = club_services.club_create(user=owner, name="Thursday club")
    for person in people:
        club_services.club_join(slug=club.slug, user=person, token=club.invite_token)
    return club


def roles_in(club: Any) -> dict[str, str]:
    return {m.user.username: m.role for m in club.memberships.select_related("user")}


@pytest.mark.parametrize("delete", [delete_on_its_page, delete_with_the_bulk_action])
def test_a_deleted_owners_club_passes_to_its_longest_standing_admin(
    staff_client, make_user, delete
):
    owner, early, admin, later = (make_user(n) for n in ("olive", "early", "adam", "lena"))
    club = club_of(owner, early, admin, later)
    for username in ("adam", "lena"):
        club_services.club_set_role(slug=club.slug, owner=owner, username=username, role="admin")
    delete(staff_client, owner)
    assert roles_in(club) == {"early": "member", "adam": "owner", "lena": "admin"}
    # The new owner runs the club: they make the earliest member an admin.
    club_services.club_set_role(slug=club.slug, owner=admin, username="early", role="admin")


def test_a_deactivated_owners_club_passes_to_its_longest_standing_member(staff_client, make_user):
    owner, first, second = (make_user(n) for n in ("olive", "fay", "sam"))
    club = club_of(owner, first, second)
    page = reverse("admin:accounts_user_change", args=[owner.pk])
    form = staff_client.get(page).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None}
    data.update(is_active="", date_joined_0="2026-01-01", date_joined_1="00:00:00")
    assert staff_client.post(page, data).status_code == 302
    assert roles_in(club) == {"olive": "member", "fay": "owner", "sam": "member"}


def test_a_club_with_nobody_else_in_it_keeps_its_owner_until_the_account_goes(
    staff_client, make_user
):
    owner, banned = make_user("olive"), make_user("bo")
    club = club_of(owner, banned)
    club_services.club_remove(slug=club.slug, admin=owner, username="bo", is_banned=True)
    assert club_services.clubs_release(user=owner) == 0
    assert roles_in(club) == {"olive": "owner", "bo": "member"}
    delete_on_its_page(staff_client, owner)
    assert roles_in(club) == {"bo": "member"}  # banned: not a member to pass it to


@pytest.mark.parametrize("delete", [delete_on_its_page, delete_with_the_bulk_action])
def test_others_histories_keep_a_deleted_members_hands_under_an_anonymous_label(
    staff_client, make_user, delete
):
    alice, bob = signed_up(make_user, "alice"), signed_up(make_user, "bob")
    alice.display_name = "Lucky Lou"
    alice.save()
    hand = play_hand(friends_table(alice, bob, seat_count=2))

    delete(staff_client, alice)

    bobs = Client()
    bobs.force_login(bob)
    detail = bobs.get(reverse("api:hand_detail", args=[hand.pk])).json()
    names = [p["name"] for p in detail["players"]]
    assert "Lucky Lou" not in names and "alice" not in names
    label = next(name for name in names if name != "bob")
    assert label.startswith("Closed account #")
    text = bobs.get(reverse("api:hand_pokerstars", args=[hand.pk])).content.decode()
    assert label in text and "Lucky Lou" not in text and "alice" not in text
