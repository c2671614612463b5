"""A member deleted or deactivated in the middle of a hand: every table plays on."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

import engine
from tables import services, tasks
from tables.models import DEPARTED_NAME, Hand, Seat, Table
from tests.tables.helpers import act, deal, fresh, friends_table, state_of

pytestmark = pytest.mark.django_db


def check_or_call(table: Table) -> None:
    act(table, "check" if engine.legal_actions(state_of(table)).can_check else "call")


def finish_against_the_one_who_left(table: Table) -> None:
    """Heads-up: whoever left was folded at once if they were to act; otherwise the
    one left bets and they are folded at once, with no clock to wait for."""
    if not state_of(table).is_over:
        act(table, "raise", 60)
    assert state_of(table).is_over


def expire_the_clock(table: Table) -> None:
    past = timezone.now() - timedelta(seconds=1)
    Table.objects.filter(pk=table.pk).update(deadline=past, wake_at=past)


def test_an_account_deleted_mid_hand_is_folded_and_its_seat_freed(alice, bob, carol):
    table = friends_table(alice, bob, carol)
    state = deal(table)
    total = sum(state.starting_stacks[s] or 0 for s in state.players)
    carol_seat = Seat.objects.get(table=table, user=carol).number
    carol.delete()  # straight through the ORM: no service saw it coming

    seat = Seat.objects.get(table=table, number=carol_seat)
    assert seat.has_departed and seat.name == DEPARTED_NAME
    while not state_of(table).is_over:
        if state_of(table).actor == carol_seat:  # her clock runs out: folded at once
            expire_the_clock(table)
            assert tasks.sweep() == 1
        else:
            check_or_call(table)
    final = state_of(table)
    assert sum(final.stacks) == total, "every chip of the hand is accounted for"
    assert final.has_folded[carol_seat] or final.bets[carol_seat] == 0
    assert not Seat.objects.filter(table=table, number=carol_seat).exists(), "gone after the hand"
    hand = Hand.objects.get(table=table, number=1)
    assert hand.is_over and hand.players.get(seat=carol_seat).name == DEPARTED_NAME


def test_the_next_hand_deals_without_the_deleted_member(alice, bob, carol):
    table = friends_table(alice, bob, carol)
    carol.delete()  # between hands
    state = deal(table)
    assert len(state.players) == 2
    assert Seat.objects.filter(table=table).count() == 2


def test_deleting_a_member_in_the_admin_makes_them_leave_every_table(
    client, make_user, alice, bob, carol
):
    first = friends_table(carol, alice)
    second = friends_table(bob, carol)
    deal(first)
    deal(second)
    client.force_login(make_user("root", is_staff=True, is_superuser=True))

    page = client.post(reverse("admin:accounts_user_delete", args=[carol.pk]), {"post": "yes"})

    assert page.status_code == 302
    for table in (first, second):
        finish_against_the_one_who_left(table)
        assert not Seat.objects.filter(table=table, user__isnull=True).exists()
        assert fresh(table).seats.count() == 1


def test_deactivating_a_member_in_the_admin_makes_them_leave(client, make_user, alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    form = client.get(reverse("admin:accounts_user_change", args=[bob.pk])).context["adminform"]
    data = {k: v for k, v in form.form.initial.items() if v is not None}
    data.update(
        {
            "is_active": "",
            "date_joined_0": bob.date_joined.date().isoformat(),
            "date_joined_1": bob.date_joined.time().isoformat(timespec="seconds"),
            "last_login_0": "",
            "last_login_1": "",
        }
    )
    data.pop("groups", None)
    data.pop("user_permissions", None)
    data.pop("date_joined", None)
    data.pop("last_login", None)
    page = client.post(reverse("admin:accounts_user_change", args=[bob.pk]), data)

    assert page.status_code == 302, page.content.decode()[:2000]
    bob.refresh_from_db()
    assert not bob.is_active
    assert not Seat.objects.filter(table=table, user=bob, is_leaving=False).exists()
    finish_against_the_one_who_left(table)
    assert not Seat.objects.filter(table=table, user=bob).exists()


def test_one_broken_table_does_not_stop_the_sweep(alice, bob, carol, caplog):
    broken = friends_table(alice, bob, name="Broken")
    deal(broken)
    healthy = friends_table(carol, alice, name="Healthy")
    deal(healthy)
    Table.objects.filter(pk=broken.pk).update(hand_events=[{"kind": "nonsense"}])
    for table in (broken, healthy):
        expire_the_clock(table)

    with caplog.at_level(logging.ERROR, logger="tables.tasks"):
        assert tasks.sweep() == 1

    assert f"table {broken.pk}" in caplog.text
    assert fresh(healthy).seq > healthy.seq


def test_a_host_deleted_in_the_admin_hands_the_table_to_a_seated_friend(
    client, make_user, alice, bob, carol
):
    hosted = friends_table(carol, alice, bob)  # carol opened it: the host
    alone = services.table_create(owner=carol, name="Nobody else here")
    assert fresh(hosted).host == carol
    client.force_login(make_user("root", is_staff=True, is_superuser=True))

    page = client.post(reverse("admin:accounts_user_delete", args=[carol.pk]), {"post": "yes"})

    assert page.status_code == 302
    assert fresh(hosted).host == alice, "the person in the lowest seat runs the game now"
    assert fresh(alone).host is None, "nobody seated to take it"
