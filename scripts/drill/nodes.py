"""A fault drill's node: one ``scripts/run.py`` (what ``make run`` starts) on a port
of its own, with its Daphne, Celery worker and, on one node, Celery beat; the
drill kills every process of it at once, as a machine that dies would.

The node's output goes to its log, which ``log_counts`` reads for what a person
running it would look for: tracebacks, HTTP 5xx answered (not ``/healthz``'s,
which is allowed to say a service is down), processes the launcher had to start
again, and the launcher giving up.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 90.0
STOP_TIMEOUT = 20.0

# What a node's log says, counted (scripts/run.py's own lines, Daphne's access log).
LOG_PATTERNS = {
    "tracebacks": re.compile(r"^Traceback \(most recent call last\)", re.M),
    "HTTP 5xx answered": re.compile(r'"[A-Z]+ (?!/healthz)[^"]*" 5\d\d ', re.M),
    "processes restarted": re.compile(r"exited \(.*\); starting it again", re.M),
    "worker unrecoverable errors": re.compile(r"Unrecoverable error", re.M),
    "nodes that gave up": re.compile(r"^Felt stopped: ", re.M),
}


def descendants(pid: int) -> list[int]:
    """``pid``'s children, their children, ... as /proc has them now."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            # The field after the command's closing parenthesis: state, then ppid.
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            parents.setdefault(parent, []).append(int(entry.name))
    found, waiting = [], [pid]
    while waiting:
        children = parents.get(waiting.pop(), [])
        found += children
        waiting += children
    return found


class Node:
    """One ``scripts/run.py`` on ``port``, started and killed by the drill."""

    def __init__(self, name: str, port: int, home: Path, env: dict[str, str], *, beat: bool):
        self.name = name
        self.port = port
        self.home = home
        self.runs_beat = beat
        self.env = dict(env, PORT=str(port), FELT_HOME=str(home), RUN_BEAT="1" if beat else "0")
        self.log_path = home.parent / f"{name}.log"
        self.launcher: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def is_running(self) -> bool:
        return self.launcher is not None and self.launcher.poll() is None

    def start(self) -> None:
        """The launcher, and back once the node's Daphne answers HTTP."""
        with self.log_path.open("ab") as log:
            self.launcher = subprocess.Popen(  # noqa: S603 - our interpreter and script
                [sys.executable, str(ROOT / "scripts" / "run.py")],
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + START_TIMEOUT
        while not self.answers():
            if not self.is_running or time.monotonic() > deadline:
                raise RuntimeError(f"node {self.name} did not start: see {self.log_path}")
            time.sleep(0.2)

    def answers(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=2):  # noqa: S310
                return True
        except urllib.error.HTTPError:
            return True  # an answer, even 503, means Daphne serves
        except OSError:
            return False

    def kill(self) -> int:
        """kill -9 of the launcher and every process under it (Daphne, the worker and
        its pool, beat), all at once; how many there were."""
        if self.launcher is None:
            return 0
        pids = [self.launcher.pid, *descendants(self.launcher.pid)]
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.launcher.wait()
        return len(pids)

    def stop(self) -> None:
        """SIGTERM to the launcher (it stops its children), then kill -9 what is left."""
        if not self.is_running or self.launcher is None:
            return
        self.launcher.terminate()
        try:
            self.launcher.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.kill()

    def log_counts(self) -> Counter[str]:
        try:
            text = self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return Counter()
        return Counter({name: len(pattern.findall(text)) for name, pattern in LOG_PATTERNS.items()})
