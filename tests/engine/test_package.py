"""The engine as a package: pure Python, no import cycles, typed for its users."""

from __future__ import annotations

import ast
from pathlib import Path

import engine

PACKAGE = Path(engine.__file__).parent


def module_imports() -> dict[str, set[str]]:
    """Each engine module and the engine modules it imports, inside functions too
    (an import hidden in a function is still a cycle, only a later one)."""
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.glob("*.py"):
        name = f"engine.{path.stem}" if path.stem != "__init__" else "engine"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
        graph[name] = {m for m in imported if m.startswith("engine.")}
    return graph


def test_no_engine_module_imports_another_that_imports_it_back() -> None:
    graph = module_imports()

    def reaches(start: str, target: str, seen: set[str]) -> bool:
        for module in graph.get(start, ()):
            if module == target or (
                module not in seen and reaches(module, target, seen | {module})
            ):
                return True
        return False

    cycles = sorted(name for name in graph if reaches(name, name, {name}))
    assert cycles == []


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
