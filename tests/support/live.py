"""What the end-to-end tests share: a real Felt server (Daphne and a Celery worker as
child processes). The browser that drives its pages is tests/support/chromium.py's.

The fixtures (``server_url``, ``live_server_options``, ``live_servers``) are offered
to every test by tests/conftest.py. A module whose server needs other settings
overrides ``live_server_options``.

The servers are started as fresh interpreters (never forked from pytest, whose
threads and event loops a fork would copy half-alive) on the test database
and the test session's Redis, exactly as `make run` would serve them.

Starting the pair costs a few seconds of processor time, so the browser tests
share them: ``LiveServers`` keeps the servers a test process has started, one
per set of options, and hands the same one to every test that asks for those
options; options that differ only in the pauses (between hands, the bots') are
given to a running pair (tests/support/server_timing.py). Tests stay apart
because each ends with the database flushed (``transactional_db``) and its
pending tasks revoked; ids are never reused within a session, so nothing a
server remembers of one test (a cached table, a presence entry) can be
mistaken for another's. A shared server's Celery worker
consumes a queue of its own, which the test process publishes to only while a
test uses that server: the tasks other tests queue never reach it.
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from config.adapters.tcp_keepalive import PING_SECONDS
from config.celery import app as celery_app
from config.platform.embedded import die_with_parent
from tests.support import server_timing

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0
# Servers kept running per test process: enough for the browser modules that
# ask for different options to interleave on one process, few enough to leave
# memory for everything else.
KEPT_SERVERS = 3

# The server's settings: the test database, static files straight from the
# source folders (a fresh clone has run no collectstatic), the pauses the test
# chose (which follow the tests' changes: tests/support/server_timing.py), the
# server's own Celery queue, and the test process's password hasher.
SERVER_SETTINGS = """
import os
from pathlib import Path
from config.settings import *  # noqa: F403
from tests.support import server_timing

DATABASES["default"]["NAME"] = os.environ["LIVE_SERVER_DATABASE_NAME"]  # noqa: F405
_timing = Path(os.environ["LIVE_SERVER_TIMING"])
globals().update(server_timing.read(_timing)[1])
server_timing.follow(_timing)
CELERY_TASK_DEFAULT_QUEUE = os.environ["LIVE_SERVER_QUEUE"]
WHITENOISE_USE_FINDERS = True
# conftest.py's: a real hash costs 0.2 s of the server's time per sign-up or log-in.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
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


@dataclass
class Server:
    """One running Daphne + Celery worker pair."""

    url: str
    queue: str  # the Celery queue its worker consumes, and its worker's node name
    children: list[subprocess.Popen[bytes]]
    log_path: Path
    timing_path: Path  # its pauses (tests/support/server_timing.py)
    timing: dict[str, Any]
    timing_version: int = 1
    log_offset: int = 0  # where the current test's part of the log starts
    environment: dict[str, str] = field(default_factory=dict)  # the processes' own

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    @property
    def web(self) -> subprocess.Popen[bytes]:
        return self.children[0]

    @property
    def alive(self) -> bool:
        return all(child.poll() is None for child in self.children)

    @property
    def worker_name(self) -> str:
        return f"{self.queue}@felt-tests"

    def stop(self) -> None:
        stop(self.children)

    def use_timing(self, timing: dict[str, Any]) -> None:
        """Give both processes these pauses, and wait until they use them."""
        if timing == self.timing:
            return
        self.timing_version += 1
        self.timing = timing
        server_timing.write(self.timing_path, self.timing_version, timing)
        pids = [child.pid for child in self.children]
        server_timing.wait_until_applied(self.timing_path, self.timing_version, pids)

    def log_since_offset(self) -> str:
        return self.log_path.read_bytes()[self.log_offset :].decode(errors="replace")


def web_command(port: int) -> list[str]:
    return [
        "daphne", "-b", "127.0.0.1", "-p", str(port),
        "--ping-interval", str(PING_SECONDS), "config.asgi:application",
    ]  # fmt: skip


def spawn(command: list[str], env: dict[str, str], log_path: Path) -> subprocess.Popen[bytes]:
    """``python -m <command>`` in a session of its own, its output added to the log."""
    with log_path.open("ab") as log:
        return subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
            [sys.executable, "-m", *command],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=die_with_parent,  # noqa: PLW1509 - no orphans if pytest is killed
        )


def start_server(
    *,
    database_name: str,
    workdir: Path,
    host: str = "127.0.0.1",
    environment: dict[str, str] | None = None,
    beat: bool = False,
    **timing_options: Any,
) -> Server:
    """Start Daphne and a Celery worker and wait until Daphne listens.
    ``timing_options`` are ``server_timing.timing_settings``'s (``next_hand_seconds``
    at least). ``environment`` adds variables to the server's (settings read from
    it, such as ``SOCKET_HANDSHAKES_PER_USER``). ``beat``: a Celery beat too, as
    ``make run`` starts, for a test that restarts Daphne: the timers it held are
    lost with it, and beat's sweep applies what they would have."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "live_server_settings.py").write_text(SERVER_SETTINGS)
    timing = server_timing.timing_settings(**timing_options)
    timing_path = workdir / "timing.json"
    server_timing.write(timing_path, 1, timing)
    port = free_port()
    queue = f"live-{port}"
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="live_server_settings",
        PYTHONPATH=os.pathsep.join([str(workdir), str(ROOT)]),
        LIVE_SERVER_DATABASE_NAME=database_name,
        LIVE_SERVER_QUEUE=queue,
        LIVE_SERVER_TIMING=str(timing_path),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        # Every browser test signs its players up from 127.0.0.1, and the session's
        # Redis keeps the count from test to test.
        SIGNUP_ADDRESS_LIMIT="10000",
        # Celery's worker runs Django's system checks as it starts (0.23 s of
        # processor time, dozens of starts per make test); they read the settings,
        # which are the same for every server a test starts.
        CELERY_SKIP_CHECKS="1",
        **(environment or {}),
    )
    log_path = workdir / "server.log"
    commands = [
        web_command(port),
        ["celery", "-A", "config", "worker", "--pool", "solo", "--loglevel", "WARNING",
         "--hostname", f"{queue}@felt-tests"],
    ]  # fmt: skip
    if beat:
        commands.append(
            ["celery", "-A", "config", "beat", "--loglevel", "WARNING",
             "--schedule", str(workdir / "celerybeat-schedule")]
        )  # fmt: skip
    children = [spawn(command, env, log_path) for command in commands]
    server = Server(
        f"http://{host}:{port}", queue, children, log_path, timing_path, timing, environment=env
    )
    try:
        wait_until_listening(port, children)
    except BaseException:
        server.stop()
        print(log_path.read_text()[-3000:])
        raise
    return server


@contextlib.contextmanager
def live_server(*, workdir: Path, **options: Any) -> Iterator[str]:
    """A server of the block's own until the block ends; yields the base URL
    (``http://host:port``). For the tests that load it hard or need it alone;
    the options are ``start_server``'s."""
    server = start_server(workdir=workdir, **options)
    _serving[server.url] = server
    try:
        with publishing_to(server.queue):
            yield server.url
    finally:
        del _serving[server.url]
        server.stop()
        print(server.log_path.read_text()[-3000:])  # shown only when a test fails


@contextlib.contextmanager
def publishing_to(queue: str) -> Iterator[None]:
    """Tasks the test process queues (``delay``, ``apply_async``) go to ``queue``
    while the block runs: the live server's worker picks them up."""
    # Celery builds the app's list of queues once, from the default queue of that
    # moment. Built first inside this block, it would hold ``queue`` alone, emptied
    # below: a worker started later in this process (the celery_worker fixture)
    # would then consume nothing its ping could reach.
    celery_app.amqp.queues  # noqa: B018 - built now, around the usual default queue
    before = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = queue
    try:
        yield
    finally:
        celery_app.conf.task_default_queue = before
        # Publishing declared the queue in the app's list, which a worker started in
        # the test process (the celery_worker fixture) would consume from.
        celery_app.amqp.queues.pop(queue, None)


@contextlib.contextmanager
def kept_from_the_live_worker() -> Iterator[None]:
    """Tasks queued in the block go to a queue no worker reads, and are dropped: for
    data a test writes straight to the database (recorded hands at a table nobody
    plays) that the server's worker must not deal on from."""
    held_back = "held-back"
    try:
        with publishing_to(held_back):
            yield
    finally:
        purge(held_back)


def purge(queue: str) -> None:
    with celery_app.connection_for_write() as connection:
        connection.default_channel.queue_purge(queue)


def revoke_pending(server: Server) -> None:
    """Revoke the tasks the server's worker holds for later (wake-ups with a countdown,
    a tournament's start), and drop the queued ones: they belong to the test that
    has just ended."""
    purge(server.queue)
    inspect = celery_app.control.inspect(destination=[server.worker_name], timeout=5)
    held = (inspect.scheduled() or {}).get(server.worker_name, [])
    ids = [entry["request"]["id"] for entry in held]
    if ids:
        celery_app.control.revoke(ids, destination=[server.worker_name])


class LiveServers:
    """The servers one test process shares between its tests, by their options."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.running: dict[str, Server] = {}  # by options; the most recently used last
        self.started = 0

    @contextlib.contextmanager
    def serving(self, **options: Any) -> Iterator[Server]:
        """A server with ``options``; one that differs only in its pauses is given
        the new ones rather than started afresh."""
        pauses = {name: options.pop(name) for name in server_timing.OPTIONS if name in options}
        key = repr(sorted(options.items()))
        server = self.running.pop(key, None)
        if server is not None and not server.alive:
            server.stop()
            server = None
        if server is None:
            while len(self.running) >= KEPT_SERVERS:
                self.running.pop(next(iter(self.running))).stop()
            self.started += 1
            server = start_server(
                workdir=self.workdir / f"server-{self.started}", **options, **pauses
            )
        server.use_timing(server_timing.timing_settings(**pauses))
        self.running[key] = server
        _serving[server.url] = server
        server.log_offset = server.log_path.stat().st_size
        purge(server.queue)
        try:
            with publishing_to(server.queue):
                yield server
        finally:
            del _serving[server.url]
            if server.alive:
                revoke_pending(server)
            else:  # a test stopped it (stop_web_server): the next one gets a new pair
                self.running.pop(key).stop()
            print(server.log_since_offset()[-3000:])  # shown only when a test fails

    def close(self) -> None:
        for server in self.running.values():
            server.stop()
        self.running.clear()


# The server a test is using, by its base URL: a test stops its Daphne to see what
# the page does when the server goes away (stop_web_server).
_serving: dict[str, Server] = {}


def stop_web_server(url: str) -> None:
    """Kill the Daphne behind ``url`` at once, as a crash or a lost network would: every
    open socket drops without a closing handshake. Celery and Redis stay up."""
    web = _serving[url].web
    with contextlib.suppress(ProcessLookupError):
        os.killpg(web.pid, signal.SIGKILL)
    web.wait()


def restart_web_server(url: str) -> None:
    """Kill the Daphne behind ``url`` as ``stop_web_server`` does, then start a new one
    on the same port, as a supervisor (``make run``, systemd) would, and wait until it
    listens: every socket drops, and the clients may come back."""
    server = _serving[url]
    stop_web_server(url)
    server.children[0] = spawn(web_command(server.port), server.environment, server.log_path)
    wait_until_listening(server.port, server.children)


@pytest.fixture
def live_server_options() -> dict[str, Any]:
    """Keyword arguments for ``start_server``: a pause between hands long enough to see
    a finished hand (the first hand waits for it too)."""
    return {"next_hand_seconds": 3.0}


@pytest.fixture(scope="session")
def live_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServers]:
    servers = LiveServers(tmp_path_factory.mktemp("live-servers"))
    yield servers
    servers.close()


@pytest.fixture
def server_url(
    transactional_db: None, live_servers: LiveServers, live_server_options: dict[str, Any]
) -> Iterator[str]:
    """The base URL of a live server with ``live_server_options``, shared with the other
    tests of this process that ask for the same options."""
    database_name = str(connection.settings_dict["NAME"])
    options = {"host": "localhost", **live_server_options}
    with live_servers.serving(database_name=database_name, **options) as server:
        yield server.url
