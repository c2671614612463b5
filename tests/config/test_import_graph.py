"""The Django apps import each other in one direction: no module imports another
that imports it back (the services, for one, never import the Celery tasks)."""

from __future__ import annotations

from tests.import_graph import ROOT, import_graph, imports_of, modules_in_cycles

APPS = ["accounts", "config", "tables", "tournaments"]


def test_no_module_of_the_apps_imports_another_that_imports_it_back() -> None:
    assert modules_in_cycles(import_graph(APPS)) == []


def test_the_table_services_know_nothing_of_celery_or_its_tasks() -> None:
    # The hand-history record and the all-in EV fill are written by the services too.
    paths = sorted((ROOT / "tables" / "services").glob("*.py"))
    paths += sorted((ROOT / "tables" / "history").glob("*.py"))
    assert paths, "the services were found"
    for path in paths:
        imported = imports_of(path)
        assert not any(name.split(".")[0] == "celery" for name in imported), path.name
        assert "tables.tasks" not in imported, path.name
