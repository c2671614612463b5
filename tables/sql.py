"""The few statements Felt writes itself, where the ORM's building of each statement
cost more than running it (docs/performance.md): a model's table and columns,
quoted for the database in use, and a row's chosen columns saved."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Field, Model


def table_name(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def column_name(model: type[Model], field_name: str) -> str:
    """The column of ``field_name`` (a foreign key's: its id's column)."""
    column = _field(model, field_name).column
    assert column is not None
    return connection.ops.quote_name(column)


def save_fields(instance: Model, field_names: Sequence[str]) -> int:
    """What ``instance.save(update_fields=field_names)`` writes to its existing row, in
    one UPDATE whose SQL is built once per model and set of columns; the rows it
    changed (0: there was no such row). (No model of Felt's listens for ``save``
    signals, and these columns have no ``auto_now``.)"""
    if not field_names:
        return 0
    model = type(instance)
    fields = [_field(model, name) for name in field_names]
    values = [
        field.get_db_prep_save(getattr(instance, field.attname), connection) for field in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(update_statement(model, field_names), [*values, instance.pk])
        return int(cursor.rowcount)


def update_statement(model: type[Model], field_names: Sequence[str]) -> str:
    """``UPDATE`` of ``field_names`` (in that order) for the row whose key is the last
    parameter, built once per model and columns for the database in use."""
    return _update(model, tuple(field_names), connection.vendor)


@cache
def _update(model: type[Model], field_names: tuple[str, ...], vendor: str) -> str:
    assignments = ", ".join(f"{column_name(model, name)} = %s" for name in field_names)
    key = column_name(model, model._meta.pk.name)
    return f"UPDATE {table_name(model)} SET {assignments} WHERE {key} = %s"


def _field(model: type[Model], field_name: str) -> Field[Any, Any]:
    field: Any = model._meta.get_field(field_name)
    assert isinstance(field, Field) and field.column and not getattr(field, "auto_now", False)
    return field
