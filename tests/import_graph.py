"""Which of our modules import which, read from the source (imports inside functions too:
an import hidden in a function is still a cycle, only a later one)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TYPE_CHECKING = ("TYPE_CHECKING", "typing.TYPE_CHECKING")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(
    path: Path, known: set[str] | None = None, *, with_type_checking: bool = False
) -> set[str]:
    """The modules the file at ``path`` imports (only those in ``known``, if given).

    ``from package import name`` counts as importing the submodule when ``name``
    is one (not the package's ``__init__``, which is where such imports usually run).
    Imports under ``if TYPE_CHECKING:`` never run, so they make no cycle; they still
    tie one module's meaning to another's, so the layers count them
    (``with_type_checking``).
    """
    tree = ast.parse(path.read_text("utf-8"))
    if not with_type_checking:
        tree = _without_type_checking_blocks(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            submodules = {f"{node.module}.{alias.name}" for alias in node.names}
            named = submodules & (known or set())
            found |= named if named else {node.module}
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found if known is None else found & known


def _without_type_checking_blocks(tree: ast.Module) -> ast.Module:
    """Imports under ``if TYPE_CHECKING:`` are for the type checker and never run."""
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in (
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        ):
            node.body = []
    return tree


def import_graph(packages: list[str], *, with_type_checking: bool = False) -> dict[str, set[str]]:
    paths = [
        path
        for package in packages
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    ]
    known = {module_name(path) for path in paths}
    return {
        module_name(path): imports_of(path, known, with_type_checking=with_type_checking)
        - {module_name(path)}
        for path in paths
    }


def modules_in_cycles(graph: dict[str, set[str]]) -> list[str]:
    def reaches(start: str, target: str, seen: set[str]) -> bool:
        for module in graph.get(start, ()):
            if module == target or (
                module not in seen and reaches(module, target, seen | {module})
            ):
                return True
        return False

    return sorted(name for name in graph if reaches(name, name, {name}))


def upward_arrows(graph: dict[str, set[str]], rank: Callable[[str], int | None]) -> list[str]:
    """Each import of a module ranked higher than the importer, as ``importer -> imported``
    (modules that ``rank`` leaves unranked, ``None``, are not checked)."""
    return [
        f"{module} -> {imported}"
        for module in sorted(graph)
        for imported in sorted(graph[module])
        if (low := rank(module)) is not None and (high := rank(imported)) is not None and high > low
    ]
