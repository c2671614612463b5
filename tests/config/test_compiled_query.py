"""A compiled query gives the rows the ORM would, as the ORM would build them, with
one statement; and ``save_fields`` writes what ``save(update_fields=...)`` would."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from config.adapters.compiled_query import CompiledQuery
from tables.models import Seat, Table
from tables.sql import save_fields
from tests.tables.helpers import deal, fresh, friends_table

pytestmark = pytest.mark.django_db

seats_with_users = CompiledQuery(
    lambda table_id: (
        Seat.objects.filter(table_id=table_id).select_related("user").order_by("number")
    )
)
table_locked = CompiledQuery(lambda table_id: Table.objects.select_for_update().filter(pk=table_id))
seat_at = CompiledQuery(
    lambda table_id, number: Seat.objects.filter(table_id=table_id, number=number)
)


def columns(row: Any) -> dict[str, Any]:
    return {f.attname: getattr(row, f.attname) for f in type(row)._meta.concrete_fields}


@pytest.fixture
def table(make_user: Any) -> Table:
    played = friends_table(make_user("alice"), make_user("bob"), make_user("carol"))
    deal(played)  # JSON columns, times and booleans all hold something
    return fresh(played)


def test_rows_come_back_as_the_orm_builds_them_with_their_related_users(table: Table) -> None:
    expected = list(table.seats.select_related("user").order_by("number"))

    with CaptureQueriesContext(connection) as queries:
        seats = seats_with_users.rows(table.pk)
        names = [seat.user.username for seat in seats]

    assert len(queries) == 1, "the users come with the seats, in the one statement"
    assert names == ["alice", "bob", "carol"]
    assert [columns(s) for s in seats] == [columns(s) for s in expected]
    assert [columns(s.user) for s in seats] == [columns(s.user) for s in expected]
    assert all(type(s.is_bot) is bool and s._state.db == "default" for s in seats)
    assert not any(s._state.adding for s in seats), "saved rows, as the ORM marks them"


def test_columns_pass_through_their_fields_converters(table: Table) -> None:
    with transaction.atomic():
        (locked,) = table_locked.rows(table.pk)

    assert columns(locked) == columns(fresh(table))
    assert isinstance(locked.hand_events, list) and locked.hand_events, "JSON, decoded"
    assert locked.created_at.tzinfo is not None, "an aware time, as the ORM gives"


def test_each_call_runs_with_its_own_ids(table: Table, make_user: Any) -> None:
    other = friends_table(make_user("dave"), make_user("erin"))

    assert [s.user.username for s in seats_with_users.rows(other.pk)] == ["dave", "erin"]
    assert [s.user.username for s in seats_with_users.rows(table.pk)] == ["alice", "bob", "carol"]
    assert [s.user.username for s in seat_at.rows(table.pk, 1)] == ["bob"]
    assert [s.user.username for s in seat_at.rows(other.pk, 1)] == ["erin"]
    assert seat_at.rows(table.pk, 5) == [] and seats_with_users.rows(10**9) == []
    assert seats_with_users.rows(10**30) == [], "no row, as the ORM says, not an overflow"


@pytest.mark.django_db(transaction=True)  # the others run inside a test's transaction
def test_a_lock_outside_a_transaction_is_refused_as_the_orm_refuses_it(table: Table) -> None:
    with pytest.raises(TransactionManagementError):
        table_locked.rows(table.pk)


def test_ids_are_checked_before_anything_runs(table: Table) -> None:
    with pytest.raises(TypeError):
        seat_at.rows(table.pk)
    with pytest.raises(TypeError):
        seats_with_users.rows(str(table.pk))  # type: ignore[arg-type]


def test_a_query_that_does_not_use_each_id_once_is_refused() -> None:
    twice = CompiledQuery(lambda seat_id: Seat.objects.filter(pk=seat_id, table_id=seat_id))
    unused = CompiledQuery(lambda table_id, number: Seat.objects.filter(table_id=table_id))

    with pytest.raises(ValueError, match="once"):
        twice.rows(1)
    with pytest.raises(ValueError, match="once"):
        unused.rows(1, 2)


def test_save_fields_writes_the_named_columns_and_leaves_the_others(table: Table) -> None:
    changed = fresh(table)
    changed.hand_events = [*changed.hand_events, {"kind": "a test's own"}]
    changed.name = "Saturday game"
    changed.small_blind = 99  # changed in memory, not named: not written

    save_fields(changed, ["hand_events", "name"])

    after = fresh(table)
    assert after.name == "Saturday game"
    assert after.hand_events[-1] == {"kind": "a test's own"}
    assert after.small_blind == table.small_blind
    assert {k: v for k, v in columns(after).items() if k not in ("name", "hand_events")} == {
        k: v for k, v in columns(table).items() if k not in ("name", "hand_events")
    }
