"""docs/protocol.md names every error code and close code a socket can send."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from types import ModuleType

import pytest

import accounts.consumers
import config.adapters.frame_guard
import config.platform.socket_limits
import tables.consumers
import tables.services  # noqa: F401 - defines TableErrors of its own
from tables.errors import TableError

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = (ROOT / "docs" / "protocol.md").read_text()
ERROR_CODES_SECTION = PROTOCOL.split("### Error codes", 1)[1]
SOCKET_MODULES: tuple[ModuleType, ...] = (
    accounts.consumers,
    tables.consumers,
    config.adapters.frame_guard,
    config.platform.socket_limits,
)


def table_error_codes() -> set[str]:
    """Every ``TableError``'s code: the table consumer answers any of them as is."""
    found, waiting = set(), list(TableError.__subclasses__())
    while waiting:
        kind = waiting.pop()
        found.add(kind.code)
        waiting += kind.__subclasses__()
    return found


def literal_codes(module: ModuleType) -> set[str]:
    """Codes written out in a consumer: ``BadMessage("code", ...)``,
    ``send_error("code", ...)`` and ``{"code": "..."}``."""
    tree = ast.parse(Path(str(module.__file__)).read_text())
    codes = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            first = node.args[0]
            if name in ("BadMessage", "send_error") and isinstance(first, ast.Constant):
                codes.add(first.value)
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                is_code = isinstance(key, ast.Constant) and key.value == "code"
                if is_code and isinstance(value, ast.Constant):
                    codes.add(value.value)
    return codes


def error_codes() -> set[str]:
    codes = table_error_codes()
    for module in SOCKET_MODULES:
        codes |= literal_codes(module)
    return codes


def close_codes() -> set[int]:
    return {
        value
        for module in SOCKET_MODULES
        for name, value in vars(module).items()
        if name.startswith("CLOSE_") and isinstance(value, int)
    }


def test_the_enumeration_finds_the_codes_of_each_kind() -> None:
    # so the test below cannot pass by finding nothing
    codes = error_codes()
    assert {"seat_taken", "not_found", "bad_json", "unknown_type", "rate_limited"} <= codes
    assert {"server_error", "chat_rate_limited", "read_only"} <= codes
    assert {4401, 4403, 4404, 4406, 4429} <= close_codes()


@pytest.mark.parametrize("code", sorted(error_codes()))
def test_every_error_code_is_documented(code: str) -> None:
    assert f"`{code}`" in ERROR_CODES_SECTION, f"docs/protocol.md's error codes miss {code}"


@pytest.mark.parametrize("code", sorted(close_codes()))
def test_every_close_code_is_documented(code: int) -> None:
    assert re.search(rf"^\| {code} \|", PROTOCOL, re.MULTILINE), (
        f"docs/protocol.md's close codes table has no row for {code}"
    )
