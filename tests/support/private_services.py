"""A Redis and a PostgreSQL of a test's own, to stop and start under a live server.

The machine's shared servers (PostgreSQL on 5432, Redis on 6379) are never
stopped by a test: other test runs use them. A test that restarts a service
starts its own here, on a free port, in a temporary directory, and restarts
that one. PostgreSQL refuses to run as root, so when the tests run as root its
commands run as the ``postgres`` user (``runuser``); a machine without the
PostgreSQL binaries skips those tests (``POSTGRES_BIN``).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from config.platform.embedded import die_with_parent, redis_server_binary
from tests.support.live import ROOT, free_port

START_TIMEOUT = 30.0


def _answers(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
        return True
    return False


def _wait(condition: object, what: str, timeout: float = START_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} after {timeout} s")


class PrivateRedis:
    """A redis-server on a free port of 127.0.0.1 that keeps nothing on disk."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        with (self.workdir / "redis.log").open("ab") as log:
            # The redis-server Felt ships (config/platform/embedded.py): no machine's own needed.
            self.process = subprocess.Popen(  # noqa: S603 - the bundled binary, our arguments
                [redis_server_binary(), "--port", str(self.port), "--bind", "127.0.0.1",
                 "--save", "", "--appendonly", "no", "--dir", str(self.workdir)],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                preexec_fn=die_with_parent,  # noqa: PLW1509 - no orphans if pytest is killed
            )  # fmt: skip
        _wait(lambda: _answers(self.port), f"redis-server is not listening on {self.port}")

    def kill(self) -> None:
        """Gone at once, as a crash would take it: every client's connection drops."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            self.process = None
        _wait(lambda: not _answers(self.port), "redis-server still answers")

    def restart(self) -> None:
        self.kill()
        self.start()


@contextlib.contextmanager
def private_redis(workdir: Path) -> Iterator[PrivateRedis]:
    workdir.mkdir(parents=True, exist_ok=True)
    redis = PrivateRedis(workdir)
    redis.start()
    try:
        yield redis
    finally:
        redis.kill()


def _postgres_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
    return found[-1].parent if found else None


POSTGRES_BIN = _postgres_bin()
needs_postgres_binaries = pytest.mark.skipif(
    POSTGRES_BIN is None, reason="the PostgreSQL server binaries (initdb, pg_ctl) are absent"
)


class PrivatePostgres:
    """A PostgreSQL cluster in a temporary directory, on a free port of 127.0.0.1, that
    trusts local connections (user ``postgres``, no password)."""

    def __init__(self, datadir: Path) -> None:
        assert POSTGRES_BIN is not None
        self.bin = POSTGRES_BIN
        self.datadir = datadir
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL will not run as root
            self.as_user = ["runuser", "-u", "postgres", "--"]
            owner = pwd.getpwnam("postgres")
            os.chown(datadir, owner.pw_uid, owner.pw_gid)

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, program: str, *arguments: str) -> None:
        subprocess.run(  # noqa: S603 - our own binaries and arguments
            [*self.as_user, str(self.bin / program), *arguments],
            check=True, capture_output=True, stdin=subprocess.DEVNULL,
        )  # fmt: skip

    def init(self) -> None:
        self._run("initdb", "-D", str(self.datadir / "data"), "-U", "postgres",
                  "--auth=trust", "--no-sync", "-E", "UTF8")  # fmt: skip

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.datadir} -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run("pg_ctl", "-D", str(self.datadir / "data"), "-o", options,
                  "-l", str(self.datadir / "postgres.log"), "-w", "start")  # fmt: skip

    def stop(self) -> None:
        """A fast shutdown: the server ends every session and closes its connections."""
        self._run("pg_ctl", "-D", str(self.datadir / "data"), "-m", "fast", "-w", "stop")

    def create_database(self, name: str) -> None:
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)


@contextlib.contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    datadir = Path(tempfile.mkdtemp(prefix="felt-pg-"))
    postgres = PrivatePostgres(datadir)
    postgres.init()
    postgres.start()
    try:
        yield postgres
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            postgres._run("pg_ctl", "-D", str(datadir / "data"), "-m", "immediate", "stop")
        shutil.rmtree(datadir, ignore_errors=True)


def run_felt_python(code: str, environment: dict[str, str]) -> str:
    """Run ``code`` in a fresh interpreter with Felt's settings and ``environment``
    (``DATABASE_URL``, ``REDIS_URL``) after Django is set up; its standard output."""
    prelude = "import django\ndjango.setup()\n"
    done = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", prelude + code],
        cwd=ROOT, env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **environment},
        check=False, capture_output=True, text=True, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"the script failed:\n{done.stderr[-3000:]}")
    return done.stdout
