"""The fault drill's short version (`scripts/fault_drill.py`): one node (`scripts/run.py`,
as `make run` starts it) on a Redis and a PostgreSQL cluster of the drill's own,
soak players at its tables, then Redis killed and started again, then PostgreSQL
stopped at once and started again. After each, issue 42's bar: every table plays
again within 10 s, no hand lost, no chip off, no HTTP 5xx and at most one refused
command for any player. The drill's cluster runs with ``synchronous_commit=off``
(for speed), so the PostgreSQL restart also checks that Felt's own sessions commit
durably (config/environment.py, ``DURABLE_COMMITS``)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import urllib.request
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from drill.proxy import wait_until_listening  # noqa: E402
from drill.servers import postgresql_binaries  # noqa: E402

from tests.support.live import free_port  # noqa: E402

pytestmark = pytest.mark.load

DRILL_TIMEOUT = 180.0


@pytest.mark.skipif(
    postgresql_binaries() is None, reason="no PostgreSQL binaries to start a cluster with"
)
def test_every_table_plays_on_after_a_redis_and_a_postgresql_restart(tmp_path: Path) -> None:
    figures_path = tmp_path / "figures.json"
    finished = subprocess.run(  # noqa: S603 - our interpreter and script
        [
            sys.executable, str(ROOT / "scripts" / "fault_drill.py"),
            "--nodes", "1", "--proxy", "none", "--faults", "redis,postgres", "--port", "0",
            "--practice", "2", "--friends", "2", "--steady", "3", "--watch", "10",
            "--outage", "2", "--json", str(figures_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=DRILL_TIMEOUT,
    )  # fmt: skip
    report = finished.stdout + finished.stderr[-3000:]
    print(report)  # the figures, for `pytest -s` and a failure's report
    assert finished.returncode in (0, 1), report  # 2: the drill could not be set up
    figures = json.loads(figures_path.read_text())
    assert [fault["fault"] for fault in figures["faults"]] == [
        "Redis killed, back empty after 2 s",
        "PostgreSQL stopped at once, back after 2 s",
    ]
    assert figures["setup"]["players"] >= 6
    for fault in figures["faults"]:
        name = fault["fault"]
        assert fault["hands_lost"] == [], f"{name}: no hand lost\n{report}"
        assert fault["chips_off"] == [], f"{name}: no chip off\n{report}"
        assert fault["http_5xx"] == {}, f"{name}: no HTTP 5xx shown to anyone\n{report}"
        assert fault["most_refused"] <= 1, f"{name}: one refused command at most\n{report}"
        assert fault["players_lost"] == 0, f"{name}: every player back\n{report}"
    redis, postgresql = figures["faults"]
    assert redis["stuck"] == [], f"tables that never played again\n{report}"
    assert redis["recovered_in"] <= 10.0, f"every table back within 10 s\n{report}"
    assert postgresql["stuck"] == [], f"tables that never played again\n{report}"
    assert postgresql["recovered_in"] <= 10.0, f"every table back within 10 s\n{report}"
    assert finished.returncode == 0, report


def test_the_drills_own_proxy_hands_a_connection_to_a_node_that_accepts(tmp_path: Path) -> None:
    """Where haproxy is not installed: a node that refuses (killed) is passed over."""
    (tmp_path / "index.html").write_text("felt")
    node = ThreadingHTTPServer(
        ("127.0.0.1", 0), partial(SimpleHTTPRequestHandler, directory=str(tmp_path))
    )
    threading.Thread(target=node.serve_forever, daemon=True).start()
    dead, port = free_port(), free_port()
    proxy = subprocess.Popen(  # noqa: S603 - our interpreter and script
        [sys.executable, str(ROOT / "scripts" / "drill" / "tcp_proxy.py"), str(port),
         f"127.0.0.1:{dead}", f"127.0.0.1:{node.server_address[1]}"],
    )  # fmt: skip
    try:
        wait_until_listening(port, proxy, "the TCP proxy")
        for _ in range(3):  # each turn, whichever node it starts from
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/index.html") as answer:
                assert answer.read() == b"felt"
    finally:
        proxy.terminate()
        proxy.wait()
        node.shutdown()


def test_a_drill_that_hangs_is_ended_with_every_stack_and_its_servers_stopped(
    tmp_path: Path,
) -> None:
    stopped = tmp_path / "stopped"
    hanging = f"""
import asyncio, sys, time
sys.path.insert(0, {str(ROOT / "scripts")!r})
from drill.watchdog import Watchdog

watchdog = Watchdog(1.0, lambda: open({str(stopped)!r}, "w").close(), lambda: "fault 2 of 4")
watchdog.start()

async def a_read_that_never_returns():
    watchdog.watch_loop(asyncio.get_running_loop())
    await asyncio.sleep(3600)

asyncio.run(a_read_that_never_returns())
"""
    finished = subprocess.run(  # noqa: S603 - our interpreter, our code
        [sys.executable, "-c", hanging], capture_output=True, text=True, timeout=60
    )
    assert finished.returncode == 2
    assert "The drill hung: not finished after 1 s; its last stage: fault 2 of 4" in (
        finished.stderr
    )
    assert "a_read_that_never_returns" in finished.stderr  # the stuck task's stack
    assert stopped.exists()  # what the drill started is stopped
