"""autobahn's debug lines, worded without colours.

autobahn (under Daphne) logs a debug line for every frame a websocket sends
and every read it takes, and builds that line's values before the call, debug
on or not: the method's qualified name and the peer, each styled in terminal
colours by ``click``. That was 15 µs a frame sent or read, about 2% of a Daphne
process's time under a 50-table load test (docs/performance.md, session 33),
for text nobody reads.

``install`` gives autobahn's websocket modules plain versions of those two
helpers: the same words, without colours, at a twentieth of the cost. Like the
other adapters here, it changes nothing unless the modules still hold the
helpers it was written against (autobahn 26.10), and says so.
"""

from __future__ import annotations

import logging
from types import ModuleType
from typing import Any

log = logging.getLogger(__name__)

HELPERS = ("hltype", "hlval")


def plain_type(obj: Any) -> str:
    """``<module.Class.method>`` for a function, method or class, as autobahn words it."""
    module, name = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    return f"<{module}.{name}>" if module and name else "<unknown>"


def plain_value(value: Any, *style: Any, **styles: Any) -> str:
    return f"{value}"


def _modules() -> list[ModuleType]:
    from autobahn.twisted import websocket as twisted_websocket
    from autobahn.websocket import protocol

    return [protocol, twisted_websocket]


def install() -> bool:
    """Plain debug text in autobahn's websocket modules; False if they changed."""
    try:
        modules = _modules()
    except ImportError:
        return False
    if not all(callable(getattr(module, name, None)) for module in modules for name in HELPERS):
        log.warning("autobahn's websocket modules changed: their debug text keeps its colours")
        return False
    for module in modules:
        module.hltype = plain_type  # type: ignore[attr-defined]
        module.hlval = plain_value  # type: ignore[attr-defined]
    return True
