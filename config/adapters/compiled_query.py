"""A queryset whose SQL is built once per database connection, then run with new ids.

On SQLite the ORM takes several times longer to build a short query's SQL than
the database takes to run it: reading a table's row under its lock cost 0.37 ms
through the ORM and 0.05 ms as the same SQL run directly (docs/performance.md),
and every command at a table makes the same few reads. ``CompiledQuery`` builds
its queryset once per connection with stand-in ids, keeps the SQL and the
compiler's map of its columns, and on each call runs that SQL with the real ids
and makes the model instances as the ORM's own iterator does: the columns through
the fields' converters, the ``select_related`` objects attached.

It reuses the SQL compiler's ``apply_converters`` and ``klass_info``, and the
queryset module's ``get_related_populators``: Django's internals, so
tests/config/test_adapter_pins.py names Django's release and
tests/config/test_compiled_query.py checks the instances against the ORM's.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)

# Stand-in ids, each to be found once among the compiled query's parameters: within
# the range of every integer field (the ORM refuses an out-of-range id before the
# query runs), and unlikely as a constant of the query (which would make two).
_STAND_IN_BASE = 32_000 - 7
_SMALLEST, _LARGEST = -(2**63), 2**63 - 1  # a 64-bit column's range


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[int, int, type[int]], ...]  # (parameter position, argument, its type)
    compiler: Any
    converters: Any
    init_list: list[str]
    model_slice: slice
    populators: list[Any]
    model: type[Model]
    for_update: bool


class CompiledQuery(Generic[M]):
    """``build(*ids)`` returns the queryset; ``rows(*ids)`` runs it for those ids."""

    def __init__(self, build: Callable[..., QuerySet[M]], using: str = DEFAULT_DB_ALIAS) -> None:
        self._build = build
        self._using = using
        self._arity = build.__code__.co_argcount
        # Per connection object: a thread's own, and a new one when tests switch databases.
        self._compiled: weakref.WeakKeyDictionary[Any, _Compiled] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def rows(self, *ids: int) -> list[M]:
        if len(ids) != self._arity or not all(type(value) is int for value in ids):
            raise TypeError(f"expected {self._arity} integer ids, got {ids!r}")
        connection = connections[self._using]
        if not all(_SMALLEST <= value <= _LARGEST for value in ids):
            return []  # as the ORM finds no row for an id no integer column can hold
        compiled = self._compiled.get(connection) or self._compile(connection)
        if compiled.for_update and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(compiled.params)
        for position, index, kind in compiled.slots:
            params[position] = kind(ids[index])
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            fetched = cursor.fetchall()
        return self._instances(compiled, fetched)

    def _instances(self, compiled: _Compiled, fetched: Sequence[Any]) -> list[M]:
        rows: Any = fetched
        if compiled.converters:
            rows = compiled.compiler.apply_converters(rows, compiled.converters)
        out: list[M] = []
        for row in rows:
            values = row[compiled.model_slice]
            instance = compiled.model.from_db(self._using, compiled.init_list, values)
            for populator in compiled.populators:
                populator.populate(row, instance)
            out.append(instance)  # type: ignore[arg-type]
        return out

    def _compile(self, connection: Any) -> _Compiled:
        stand_ins = [_STAND_IN_BASE - index for index in range(self._arity)]
        queryset = self._build(*stand_ins)
        compiler = queryset.query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        # A stand-in may come back wrapped as its column's type (psycopg's Int2 for a
        # small integer column): the id that replaces it is wrapped alike.
        slots = tuple(
            (position, stand_ins.index(value), type(value))
            for position, value in enumerate(params)
            if isinstance(value, int) and not isinstance(value, bool) and value in stand_ins
        )
        if sorted(index for _, index, _ in slots) != list(range(self._arity)):  # each once
            raise ValueError(f"each id must appear once among the query's parameters: {params!r}")
        klass_info = compiler.klass_info
        if (
            klass_info is None
            or compiler.annotation_col_map
            or getattr(queryset, "_known_related_objects", None)
        ):
            raise ValueError("only a model queryset with no annotations can be compiled")
        fields = [selected[0] for selected in compiler.select[: compiler.col_count]]
        if compiler.has_composite_fields(fields):
            raise ValueError("composite primary keys are not supported")
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        compiled = _Compiled(
            sql=sql,
            params=tuple(params),
            slots=slots,
            compiler=compiler,
            converters=compiler.get_converters(fields),
            init_list=[selected[0].target.attname for selected in compiler.select[start:end]],
            model_slice=slice(start, end),
            # The stubs describe a later Django's signature (with a fetch mode).
            populators=get_related_populators(klass_info, compiler.select, self._using),  # type: ignore[call-arg]
            model=klass_info["model"],
            for_update=queryset.query.select_for_update,
        )
        with self._lock:
            self._compiled[connection] = compiled
        return compiled
