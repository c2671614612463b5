"""Django's ``JSONField``, its values read and written with orjson.

Every command at a table reads the table's row, whose hand log is a JSON list,
and writes the log back when the hand moved on. Django encodes and decodes JSON
columns with the standard library's ``json``: 16 µs to write a six-player
hand's log of 18 events and 12 µs to read it, where orjson takes 1.4 and 5
(docs/performance.md, session 22). The values are the same JSON either way,
so the database's own JSON functions and Django's key lookups read them
alike; only what a column's text looks like differs (no spaces after ``,``
and ``:``, non-ASCII characters written as themselves).

Only the two ends change: ``from_db_value`` for a column's text, and
``get_db_prep_save`` for a plain list or dict being saved. Expressions,
``None`` and queries' right-hand sides still go through Django's own code.
The field reports itself as Django's in migrations: the columns are the same.
"""

from __future__ import annotations

from typing import Any

import orjson
from django.db import models
from psycopg.types.json import Jsonb  # installed with the project (requirements.txt)

# json.dumps writes a dict's int keys as strings; so does this.
_OPTIONS = orjson.OPT_NON_STR_KEYS


def _dumps(value: Any) -> bytes:
    return orjson.dumps(value, option=_OPTIONS)


class JSONField(models.JSONField):
    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if not isinstance(value, str | bytes):  # None, or a key lookup's own SQL value
            return value
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:  # as Django's: text that is not JSON comes back as is
            return value

    def get_db_prep_save(self, value: Any, connection: Any) -> Any:
        if type(value) is not list and type(value) is not dict or self.encoder is not None:
            return super().get_db_prep_save(value, connection)
        if connection.vendor == "postgresql":
            return Jsonb(value, dumps=_dumps)  # psycopg takes the encoded bytes as they are
        return _dumps(value).decode()

    def deconstruct(self) -> Any:
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.JSONField", args, kwargs
