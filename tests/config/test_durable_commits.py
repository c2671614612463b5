"""A commit Felt acknowledges survives a PostgreSQL crash, whatever the server's
default for ``synchronous_commit`` (config/environment.py, ``DURABLE_COMMITS``).

In issue 42's fault drill, a server run with ``synchronous_commit=off`` and
stopped with ``-m immediate`` lost moves players had already been shown, and a
table waited on a player who had been told it was another's turn."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from django.db import connection

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's setting"),
    pytest.mark.django_db(transaction=True),
]


def setting_of_a_new_session() -> str:
    """``synchronous_commit`` in a session opened with the parameters Felt's backend
    gives its pool (Django's ``get_connection_params``)."""
    with psycopg.connect(**connection.get_connection_params()) as session:
        row = session.execute("SHOW synchronous_commit").fetchone()
    assert row is not None
    return str(row[0])


@pytest.fixture
def server_default_off() -> Iterator[None]:
    """The test database's own default turned off, as a server tuned for speed has it."""
    name = connection.settings_dict["NAME"]
    with connection.cursor() as cursor:
        cursor.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'ALTER DATABASE "{name}" RESET synchronous_commit')


def test_felts_sessions_commit_durably_where_the_server_would_not(server_default_off):
    connection_parameters = dict(connection.get_connection_params())
    connection_parameters.pop("options", None)
    with psycopg.connect(**connection_parameters) as bare:  # what the server now hands out
        assert bare.execute("SHOW synchronous_commit").fetchone() == ("off",)
    assert setting_of_a_new_session() == "on"
