"""A real Felt server for end-to-end tests: Daphne and a Celery worker as child processes.

They are started as fresh interpreters (never forked from pytest, whose
threads and event loops a fork would copy half-alive) on the test database
and the test session's Redis, exactly as `make run` would serve them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from config.celery import app as celery_app
from config.platform.embedded import die_with_parent

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0

# The server's settings: the test database, static files straight from the
# source folders (a fresh clone has run no collectstatic), a chosen pause
# between hands.
SERVER_SETTINGS = """
import os
from config.settings import *  # noqa: F403

DATABASES["default"]["NAME"] = os.environ["LIVE_SERVER_DATABASE_NAME"]  # noqa: F405
TABLES_NEXT_HAND_SECONDS = float(os.environ["LIVE_SERVER_NEXT_HAND_SECONDS"])
TABLES_BOT_DELAY_SECONDS = tuple(map(float, os.environ["LIVE_SERVER_BOT_DELAY"].split(",")))
TABLES_SHOWDOWN_SECONDS = float(os.environ["LIVE_SERVER_SHOWDOWN_SECONDS"])
TABLES_RUNOUT_STREET_SECONDS = float(os.environ["LIVE_SERVER_RUNOUT_STREET_SECONDS"])
WHITENOISE_USE_FINDERS = True
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_listening(port: int, children: list[subprocess.Popen[bytes]]) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if any(child.poll() is not None for child in children):
            raise RuntimeError("a server process exited while starting")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        time.sleep(0.2)
    raise RuntimeError(f"nothing listens on port {port} after {START_TIMEOUT} s")


# The Daphne process serving each running live server, by its base URL: a test stops it
# to see what the page does when the server goes away (stop_web_server).
_web_servers: dict[str, subprocess.Popen[bytes]] = {}


def stop_web_server(url: str) -> None:
    """Kill the Daphne behind ``url`` at once, as a crash or a lost network would: every
    open socket drops without a closing handshake. Celery and Redis stay up."""
    daphne = _web_servers[url]
    with contextlib.suppress(ProcessLookupError):
        os.killpg(daphne.pid, signal.SIGKILL)
    daphne.wait()


def stop(children: list[subprocess.Popen[bytes]]) -> None:
    for child in children:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGTERM)
    for child in children:
        try:
            child.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()


@contextlib.contextmanager
def live_server(
    *,
    database_name: str,
    workdir: Path,
    next_hand_seconds: float,
    host: str = "127.0.0.1",
    bot_delay: tuple[float, float] = (0.8, 2.0),
    showdown_seconds: float | None = None,
    runout_street_seconds: float = 0.0,
    environment: dict[str, str] | None = None,
) -> Iterator[str]:
    """Serve Felt until the block ends; yields the base URL (``http://host:port``).
    ``environment`` adds variables to the server's (settings read from it, such as
    ``SOCKET_HANDSHAKES_PER_USER``)."""
    (workdir / "live_server_settings.py").write_text(SERVER_SETTINGS)
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="live_server_settings",
        PYTHONPATH=os.pathsep.join([str(workdir), str(ROOT)]),
        LIVE_SERVER_DATABASE_NAME=database_name,
        LIVE_SERVER_NEXT_HAND_SECONDS=str(next_hand_seconds),
        LIVE_SERVER_BOT_DELAY=",".join(map(str, bot_delay)),
        LIVE_SERVER_RUNOUT_STREET_SECONDS=str(runout_street_seconds),
        LIVE_SERVER_SHOWDOWN_SECONDS=str(
            next_hand_seconds if showdown_seconds is None else showdown_seconds
        ),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        # Every browser test signs its players up from 127.0.0.1, and the session's
        # Redis keeps the count from test to test.
        SIGNUP_ADDRESS_LIMIT="10000",
        **(environment or {}),
    )
    celery_app.control.purge()  # wake tasks left by earlier tests would only be skipped
    port = free_port()
    log_path = workdir / "server.log"
    commands = [
        ["daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        ["celery", "-A", "config", "worker", "--pool", "solo", "--loglevel", "WARNING",
         "--hostname", f"live-{port}@%h"],
    ]  # fmt: skip
    with log_path.open("wb") as log:
        children = [
            subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
                [sys.executable, "-m", *command],
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=die_with_parent,  # noqa: PLW1509 - no orphans if pytest is killed
            )
            for command in commands
        ]
        url = f"http://{host}:{port}"
        _web_servers[url] = children[0]
        try:
            wait_until_listening(port, children)
            yield url
        finally:
            del _web_servers[url]
            stop(children)
            print(log_path.read_text()[-3000:])  # shown only when a test fails
