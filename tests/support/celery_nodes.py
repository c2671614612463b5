"""Felt's timed work as real processes, for the tests that kill them: a Redis
server of the test's own (killed with -9 and started again on the same port),
and nodes, each a Celery worker and a Celery beat on it and on the test
database, as docs/deploy.md has every node run them.

Like tests/support/live.py's servers, each process is a fresh interpreter with
Felt's settings and the test database's name. A process dies with the test
process (``die_with_parent``) and in its own process group, so killing a node
also kills the worker's pool processes, as losing a machine would.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis
from celery import Celery

from config.platform.embedded import die_with_parent, redis_server_binary
from tests.support.live import ROOT, free_port

START_TIMEOUT = 60.0

NODE_SETTINGS = """
import os
from config.settings import *  # noqa: F403

DATABASES["default"]["NAME"] = os.environ["NODE_DATABASE_NAME"]  # noqa: F405
"""


class PrivateRedis:
    """A redis-server on a free TCP port of 127.0.0.1, keeping nothing on disk."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Felt's REDIS_URL for it (Felt uses this database and the three after it)."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        with (self.workdir / "redis.log").open("ab") as log:
            self.process = subprocess.Popen(  # noqa: S603 - the bundled binary, our arguments
                [redis_server_binary(), "--port", str(self.port), "--bind", "127.0.0.1",
                 "--save", "", "--appendonly", "no", "--dir", str(self.workdir)],
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent,  # noqa: PLW1509 - no orphans if pytest is killed
            )  # fmt: skip
        client = redis.Redis(port=self.port, socket_connect_timeout=1)
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(redis.RedisError):
                if client.ping():
                    return
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"redis-server on port {self.port} did not start")
            time.sleep(0.05)

    def kill(self) -> None:
        """kill -9: clients see their connections drop, and everything queued is lost."""
        assert self.process is not None
        self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.kill()


@contextlib.contextmanager
def private_redis(workdir: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(workdir)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def control_app(server: PrivateRedis) -> Celery:
    """A Celery app on ``server``'s broker database (Felt's is the one after
    REDIS_URL's), to ask the nodes' workers what they hold and to queue tasks for them."""
    app = Celery("felt-test-control", broker=f"redis://127.0.0.1:{server.port}/1")
    app.conf.broker_connection_retry_on_startup = True
    return app


@dataclass
class Node:
    """One node's timed work: a Celery worker and a Celery beat."""

    name: str
    worker: subprocess.Popen[bytes]
    beat: subprocess.Popen[bytes]
    log_path: Path

    @property
    def worker_name(self) -> str:
        return f"{self.name}@felt-tests"

    @property
    def is_alive(self) -> bool:
        return self.worker.poll() is None and self.beat.poll() is None

    def kill(self) -> None:
        """kill -9 of everything the node runs, the worker's pool processes too."""
        for process in (self.worker, self.beat):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


def start_node(name: str, *, redis_url: str, database_name: str, workdir: Path) -> Node:
    """Start ``name``'s worker and beat on ``redis_url`` and the test database;
    ``wait_until_ready`` waits for the worker."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "node_settings.py").write_text(NODE_SETTINGS)
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="node_settings",
        PYTHONPATH=os.pathsep.join([str(workdir), str(ROOT)]),
        NODE_DATABASE_NAME=database_name,
        REDIS_URL=redis_url,
        PYTHONUNBUFFERED="1",
    )
    commands = [
        ["celery", "-A", "config", "worker", "--concurrency", "1", "--loglevel", "INFO",
         "--hostname", f"{name}@felt-tests"],
        ["celery", "-A", "config", "beat", "--loglevel", "INFO",
         "--schedule", str(workdir / f"{name}-beat-schedule")],
    ]  # fmt: skip
    log_path = workdir / f"{name}.log"
    with log_path.open("ab") as log:
        worker, beat = (
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
        )
    return Node(name, worker, beat, log_path)


def wait_until_ready(node: Node, app: Celery) -> None:
    """Until ``node``'s worker answers a ping through the broker."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if not node.is_alive:
            raise RuntimeError(f"a process of node {node.name} exited:\n{node.log()[-3000:]}")
        with contextlib.suppress(Exception):  # the broker may be starting or restarting
            if app.control.ping(destination=[node.worker_name], timeout=1):
                return
    tail = node.log()[-3000:]
    raise RuntimeError(f"node {node.name} did not answer in {START_TIMEOUT} s:\n{tail}")


def held_by(node: Node, app: Celery) -> list[tuple[str, list[Any]]]:
    """The tasks (name, arguments) ``node``'s worker holds for a later time: their
    countdown or eta has not come."""
    answer = app.control.inspect(destination=[node.worker_name], timeout=2).scheduled() or {}
    return [
        (entry["request"]["name"], list(entry["request"]["args"]))
        for entry in answer.get(node.worker_name, [])
    ]


def stop_all(nodes: list[Node]) -> None:
    for node in nodes:
        node.kill()
