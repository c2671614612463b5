"""The Django apps import each other in one direction: no module imports another
that imports it back (the services, for one, never import the Celery tasks), and
no module imports one of a higher layer (docs/architecture.md, "Layers")."""

from __future__ import annotations

import pytest

from tests.import_graph import ROOT, import_graph, imports_of, modules_in_cycles, upward_arrows

# Touches neither a database nor Redis: the embedded run is enough (scripts/test.sh).
pytestmark = pytest.mark.pure

APPS = ["accounts", "config", "tables", "tournaments"]

# Lowest first. What a layer needs from a higher one it gets through a hook or a
# registry that the higher layer fills in its AppConfig.ready().
LAYERS = ["engine", "platform", "accounts", "tables", "tournaments", "root"]

# The composition root: the config modules that put the apps together. Every
# other module of config is a platform piece that knows no app.
COMPOSITION_ROOT = {
    "config",
    "config.apps",
    "config.asgi",
    "config.celery",
    "config.health",
    "config.routing",
    "config.settings",
    "config.urls",
}

# Inside tables, what a live table is, read bottom-up: the rows, a table's play
# (row, seats, hand), the kinds' hooks asked about a play, the per-viewer snapshot,
# the group messages built from it, and the services that write and send them.
TABLE_LINE = [
    "tables.models",
    "tables.play",
    "tables.kinds",
    "tables.snapshot",
    "tables.messages",
    "tables.services",
]


def layer(module: str) -> int | None:
    top = module.split(".")[0]
    if top == "config":
        return LAYERS.index("root" if module in COMPOSITION_ROOT else "platform")
    return LAYERS.index(top) if top in LAYERS else None


def place_in_table_line(module: str) -> int | None:
    for place, name in enumerate(TABLE_LINE):
        if module == name or module.startswith(f"{name}."):
            return place
    return None


def test_no_module_of_the_apps_imports_another_that_imports_it_back() -> None:
    assert modules_in_cycles(import_graph(APPS)) == []


def test_no_module_imports_one_of_a_higher_layer_not_even_for_its_types() -> None:
    graph = import_graph(["engine", *APPS], with_type_checking=True)
    arrows = upward_arrows(graph, layer)
    assert not arrows, "imports pointing up a layer:\n" + "\n".join(arrows)


def test_a_table_is_built_from_its_rows_up_to_the_services() -> None:
    graph = import_graph(["tables"], with_type_checking=True)
    arrows = upward_arrows(graph, place_in_table_line)
    assert not arrows, "imports pointing up the table line:\n" + "\n".join(arrows)


def engine_part(module: str) -> int | None:
    """The engine's core (rules, state, evaluator) below its record formats; the
    package's front (``import engine``) and its command line use both."""
    if module.split(".")[0] != "engine":
        return None
    front = module in ("engine", "engine.__main__") or module.startswith("engine.formats")
    return 1 if front else 0


def test_the_engine_core_plays_hands_without_its_record_formats() -> None:
    graph = import_graph(["engine"], with_type_checking=True)
    arrows = upward_arrows(graph, engine_part)
    assert not arrows, "core modules importing a format:\n" + "\n".join(arrows)


def test_the_table_services_know_nothing_of_celery_or_its_tasks() -> None:
    # The hand-history record and the all-in EV fill are written by the services too.
    paths = sorted((ROOT / "tables" / "services").glob("*.py"))
    paths += sorted((ROOT / "tables" / "history").glob("*.py"))
    assert paths, "the services were found"
    for path in paths:
        imported = imports_of(path)
        assert not any(name.split(".")[0] == "celery" for name in imported), path.name
        assert "tables.tasks" not in imported, path.name
