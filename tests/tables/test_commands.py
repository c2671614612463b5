"""The table socket's command table (tables/commands.py) names services that exist."""

from __future__ import annotations

from tables import services
from tables.commands import COMMANDS


def test_every_command_names_a_function_of_the_table_services() -> None:
    for kind, (_, service) in COMMANDS.items():
        assert callable(getattr(services, service, None)), f"{kind}: no services.{service}"
