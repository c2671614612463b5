"""The engine as a package: pure Python, no import cycles, typed for its users."""

from __future__ import annotations

import ast
from pathlib import Path

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
