"""docs/protocol.md names every error code a socket can send, and its close codes' table
is config/platform/close_codes.py's, row for row."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from types import ModuleType

import pytest

import accounts.consumers
import config.adapters.frame_guard
import config.platform.socket_limits
import tables.commands
import tables.consumers
import tables.services  # noqa: F401 - defines TableErrors of its own
from config.platform.close_codes import by_name
from tables.errors import TableError

# Touches neither a database nor Redis: the embedded run is enough (scripts/test.sh).
pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = (ROOT / "docs" / "protocol.md").read_text()
ERROR_CODES_SECTION = PROTOCOL.split("### Error codes", 1)[1]
CLOSE_CODES_SECTION = PROTOCOL.split("## Close codes", 1)[1].split("\n## ", 1)[0]
SOCKET_MODULES: tuple[ModuleType, ...] = (
    accounts.consumers,
    tables.commands,
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
    return set(by_name().values())


def documented_close_codes() -> set[int]:
    """The codes of the rows of docs/protocol.md's close codes table."""
    rows = re.findall(r"^\| (\d{4}) \|", CLOSE_CODES_SECTION, re.MULTILINE)
    return {int(code) for code in rows}


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
    assert re.search(rf"^\| {code} \|", CLOSE_CODES_SECTION, re.MULTILINE), (
        f"docs/protocol.md's close codes table has no row for {code}"
    )


def test_the_close_codes_table_has_no_code_the_code_lacks() -> None:
    assert documented_close_codes() == close_codes()


def test_no_socket_module_or_script_writes_a_close_code_as_a_number() -> None:
    # Defined once (config/platform/close_codes.py): the pages read them by name from the page.
    codes = close_codes()
    for module in SOCKET_MODULES:
        tree = ast.parse(Path(str(module.__file__)).read_text())
        numbers = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)}
        assert not numbers & codes, module.__name__
    for script in sorted((ROOT / "static" / "js").glob("*.js")):
        written = {int(n) for n in re.findall(r"\b44\d\d\b", script.read_text())}
        assert not written & codes, script.name
