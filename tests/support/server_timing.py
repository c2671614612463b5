"""A live server's pauses (between hands, at a showdown, per street run out, and the
bots' delay), which a test process changes between tests without starting the
server again.

Starting a Daphne and Celery worker pair costs about 2.5 s of processor time, and
the browser modules ask for a handful of different pauses: with the pauses in the
server's settings, every change of module on a test process started a pair. Here
the test process writes them to a file with a version number. The server's
settings read it when they load; then a thread in each of its two processes
applies any newer version to ``django.conf.settings`` (the code reads these
settings at each use) and writes the version it applied to a file of its own, so
the next test starts only once both processes use the new pauses.

Imported by the server's settings module, so it imports nothing heavy.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

POLL_SECONDS = 0.05
APPLY_TIMEOUT = 20.0

# The options of ``start_server`` (tests/support/live.py) that are pauses.
OPTIONS = ("next_hand_seconds", "showdown_seconds", "runout_street_seconds", "bot_delay")


def timing_settings(
    *,
    next_hand_seconds: float,
    bot_delay: Sequence[float] = (0.8, 2.0),
    showdown_seconds: float | None = None,
    runout_street_seconds: float = 0.0,
) -> dict[str, Any]:
    """The settings for these options; a showdown waits as long as any other hand's
    end unless told otherwise."""
    return {
        "TABLES_NEXT_HAND_SECONDS": float(next_hand_seconds),
        "TABLES_SHOWDOWN_SECONDS": float(
            next_hand_seconds if showdown_seconds is None else showdown_seconds
        ),
        "TABLES_RUNOUT_STREET_SECONDS": float(runout_street_seconds),
        "TABLES_BOT_DELAY_SECONDS": [float(bot_delay[0]), float(bot_delay[1])],
    }


def write(path: Path, version: int, settings: dict[str, Any]) -> None:
    """Replaced whole (a rename), so a reader never sees half a file."""
    partial = path.with_name(f"{path.name}.partial")
    partial.write_text(json.dumps({"version": version, "settings": settings}))
    partial.replace(path)


def read(path: Path) -> tuple[int, dict[str, Any]]:
    written = json.loads(path.read_text())
    settings = dict(written["settings"])
    settings["TABLES_BOT_DELAY_SECONDS"] = tuple(settings["TABLES_BOT_DELAY_SECONDS"])
    return int(written["version"]), settings


def applied_path(path: Path, pid: int) -> Path:
    return path.with_name(f"{path.name}.applied-by-{pid}")


def wait_until_applied(path: Path, version: int, pids: Sequence[int]) -> None:
    deadline = time.monotonic() + APPLY_TIMEOUT
    for pid in pids:
        marker = applied_path(path, pid)
        while not (marker.exists() and marker.read_text() == str(version)):
            if time.monotonic() > deadline:
                raise RuntimeError(f"server process {pid} did not take pauses {version}")
            time.sleep(POLL_SECONDS / 2)


def follow(path: Path) -> None:
    """In the server: apply each newer version (from a daemon thread) once Django's
    settings are loaded."""
    threading.Thread(target=_follow, args=(path,), name="timing", daemon=True).start()


def _follow(path: Path) -> None:
    from django.conf import settings

    applied = None
    while True:
        time.sleep(POLL_SECONDS)
        if not settings.configured:
            continue
        version, values = read(path)
        if version == applied:
            continue
        for name, value in values.items():
            setattr(settings, name, value)
        applied = version
        applied_path(path, os.getpid()).write_text(str(version))
