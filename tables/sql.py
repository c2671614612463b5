"""Names for the few statements Felt writes itself, where the ORM's building of each
statement cost more than running it (docs/performance.md): a model's table and
columns, quoted for the database in use."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.models import Field, Model


def table_name(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def column_name(model: type[Model], field_name: str) -> str:
    """The column of ``field_name`` (a foreign key's: its id's column)."""
    field: Any = model._meta.get_field(field_name)
    assert isinstance(field, Field) and field.column
    return connection.ops.quote_name(field.column)
