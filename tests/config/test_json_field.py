"""The JSON columns, written and read with orjson (config/adapters/json_field.py),
hold the same JSON as Django's own field would: the database's JSON functions and
Django's key lookups read them, values come back equal, and the migrations see
no change. These run on SQLite and, in make test's second run, on PostgreSQL."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

from tables.models import Table
from tables.sql import save_fields
from tests.tables.helpers import deal, fresh, friends_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_user: Any) -> Table:
    return friends_table(make_user("alice"), make_user("zoë"), make_user("carol"))


def test_a_hands_log_saved_by_a_command_reads_back_equal(table: Table) -> None:
    state = deal(table)  # the deal's commit writes the log through save_fields

    saved = fresh(table)

    assert saved.hand_events == [event.to_dict() for event in state.events]
    assert saved.hand_names[:2] == ["alice", "zoë"]


def test_the_database_reads_the_columns_as_json(table: Table) -> None:
    deal(table)
    table = fresh(table)
    table.runout_answers = {"2": True, "0": False}
    save_fields(table, ["runout_answers"])

    assert Table.objects.filter(pk=table.pk, runout_answers__has_key="2").exists()
    assert not Table.objects.filter(pk=table.pk, runout_answers__has_key="1").exists()
    if connection.vendor == "postgresql":  # SQLite has no JSON containment
        assert Table.objects.filter(pk=table.pk, runout_answers__contains={"2": True}).exists()
    assert Table.objects.filter(pk=table.pk, hand_names__1="zoë").exists()
    first_type = Table.objects.values_list("hand_events__0__kind", flat=True).get(pk=table.pk)
    assert first_type == "hand_started"


def test_int_keys_are_written_as_strings_as_django_writes_them(table: Table) -> None:
    table.runout_answers = {3: True}
    save_fields(table, ["runout_answers"])

    assert fresh(table).runout_answers == {"3": True}


def test_the_migrations_see_the_fields_as_djangos_own() -> None:
    out = io.StringIO()

    call_command("makemigrations", "--check", "--dry-run", stdout=out)

    assert "No changes detected" in out.getvalue()
