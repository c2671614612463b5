"""The engine as a package: pure Python, no import cycles, typed for its users."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import engine
from tests.import_graph import import_graph, modules_in_cycles

PACKAGE = Path(engine.__file__).parent


def test_no_engine_module_imports_another_that_imports_it_back() -> None:
    assert modules_in_cycles(import_graph(["engine"])) == []


def test_no_engine_module_imports_django_anywhere() -> None:
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            assert not any(name.split(".")[0] == "django" for name in names), path.name


def test_the_package_says_it_is_typed() -> None:
    assert (PACKAGE / "py.typed").is_file()


def measuring_coverage(request: pytest.FixtureRequest) -> bool:
    return request.config.pluginmanager.hasplugin("_cov")


def test_an_engine_test_runs_under_the_coverage_tracer(request: pytest.FixtureRequest) -> None:
    if not measuring_coverage(request):
        pytest.skip("this run does not measure coverage")
    assert sys.gettrace() is not None


@pytest.mark.exhaustive
def test_an_exhaustive_engine_test_runs_with_the_tracer_paused(
    request: pytest.FixtureRequest,
) -> None:
    """conftest.py pauses it there: it doubled their time, for no branch the others miss."""
    if not measuring_coverage(request):
        pytest.skip("this run does not measure coverage")
    assert sys.gettrace() is None
