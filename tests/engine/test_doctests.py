"""Every example in the engine's docstrings runs as written (python -m doctest style)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import engine

# walk_packages, not iter_modules: the hand-history formats sit in a sub-package.
MODULES = sorted(info.name for info in pkgutil.walk_packages(engine.__path__, "engine."))


@pytest.mark.parametrize("name", ["engine", *MODULES])
def test_the_examples_in_the_docstrings_hold(name: str) -> None:
    module: ModuleType = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_most_modules_show_an_example() -> None:
    with_examples = [
        name
        for name in MODULES
        if doctest.DocTestFinder().find(importlib.import_module(name))
        and any(
            test.examples for test in doctest.DocTestFinder().find(importlib.import_module(name))
        )
    ]
    assert len(with_examples) >= len(MODULES) // 2, with_examples
