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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from celery import Celery
from django.utils import timezone

from config.platform.embedded import die_with_parent
from tables.models import Table
from tests.support.live import ROOT
from tests.support.private_services import PrivateRedis

START_TIMEOUT = 60.0

NODE_SETTINGS = """
import os
from config.settings import *  # noqa: F403

DATABASES["default"]["NAME"] = os.environ["NODE_DATABASE_NAME"]  # noqa: F405
"""


def control_app(server: PrivateRedis) -> Celery:
    """A Celery app on ``server``'s broker database (Felt's is the one after
    REDIS_URL's), to ask the nodes' workers what they hold and to queue tasks for them."""
    # Not the current app: Felt's shared tasks would publish through it from then on,
    # to this test's Redis, and once it is gone every later test in the process waited
    # on the broker's connection retries for each task it queued.
    app = Celery(
        "felt-test-control",
        broker=f"redis://127.0.0.1:{server.port}/1",
        set_as_current=False,
    )
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
        CELERY_SKIP_CHECKS="1",  # as the live servers' workers (tests/support/live.py)
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


def due_now(table: Table) -> None:
    """Its first hand is due now: the next sweep deals it."""
    now = timezone.now()
    Table.objects.filter(pk=table.pk).update(wake_at=now, next_hand_at=now)
