"""One member cannot flood the lobby with tables: a limit on open tables, and per hour."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tables import services
from tables.models import Table

pytestmark = pytest.mark.django_db


def open_tables(owner, count: int) -> None:
    for number in range(count):
        services.table_create(owner=owner, name=f"Game {number}")


def test_a_member_may_have_five_tables_open_and_is_told_why_not_a_sixth(client, alice):
    open_tables(alice, 5)
    client.force_login(alice)
    page = client.post(
        reverse("tables:table_new"),
        {"name": "One more", "seat_count": 6, "small_blind": 10, "big_blind": 20,
         "ante": 0, "starting_stack": 1500, "action_seconds": 20},
    )  # fmt: skip
    assert page.status_code == 200
    assert "You already have 5 tables open" in page.content.decode()
    assert Table.objects.filter(owner=alice).count() == 5


def test_the_practice_button_says_so_too(client, alice):
    open_tables(alice, 5)
    client.force_login(alice)
    page = client.post(reverse("tables:table_practice"), {"bots": 3})
    assert "You already have 5 tables open" in page.content.decode()
    assert not Table.objects.filter(owner=alice, kind=Table.Kind.PRACTICE).exists()


def test_a_table_nobody_sits_at_stops_counting_after_an_hour(alice, time_machine):
    time_machine.move_to(timezone.now() - timedelta(hours=2))
    open_tables(alice, 5)
    time_machine.move_to(timezone.now() + timedelta(hours=2))
    services.table_create(owner=alice, name="Tonight")  # the old empty ones are not open


def test_a_table_someone_sits_at_keeps_counting(alice, bob, time_machine):
    time_machine.move_to(timezone.now() - timedelta(hours=2))
    for number in range(5):
        table = services.table_create(owner=alice, name=f"Game {number}")
        services.seat_take(table_id=table.pk, user=bob, seat=0)
    time_machine.move_to(timezone.now() + timedelta(hours=2))
    with pytest.raises(services.TooManyTables):
        services.table_create(owner=alice, name="Tonight")


def test_no_more_than_twenty_tables_an_hour(alice, settings):
    settings.TABLES_OPEN_PER_USER = 100
    open_tables(alice, 20)
    with pytest.raises(services.TooManyTables, match="too many tables this hour"):
        services.table_create(owner=alice, name="The 21st")
    assert Table.objects.filter(owner=alice).count() == 20


@pytest.mark.parametrize(
    ("settings_", "field"),
    [({"action_seconds": 4}, "action_seconds"), ({"starting_stack": 39}, "starting_stack")],
)
def test_the_service_refuses_exactly_what_the_form_refuses(alice, settings_, field):
    # once the form asked for 5 s and two big blinds while the service took 1 s and one
    with pytest.raises(services.BadTableSettings) as refused:
        services.table_create(owner=alice, name="Odd", big_blind=20, **settings_)
    assert refused.value.field == field
    assert not Table.objects.exists()
