"""The fault drill's short version (`scripts/fault_drill.py`): one node (`scripts/run.py`,
as `make run` starts it) on a Redis and a PostgreSQL cluster of the drill's own,
soak players at its tables, then Redis killed and started again, then PostgreSQL
stopped at once and started again. After each, issue 42's bar: every table plays
again within 10 s, no hand lost, no chip off, no HTTP 5xx and at most one refused
command for any player."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from drill.servers import postgresql_binaries  # noqa: E402

pytestmark = [
    pytest.mark.load,
    pytest.mark.skipif(
        postgresql_binaries() is None, reason="no PostgreSQL binaries to start a cluster with"
    ),
]

DRILL_TIMEOUT = 180.0


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
        assert fault["stuck"] == [], f"{name}: tables that never played again\n{report}"
        assert fault["recovered_in"] <= 10.0, f"{name}: every table back within 10 s\n{report}"
        assert fault["hands_lost"] == [], f"{name}: no hand lost\n{report}"
        assert fault["chips_off"] == [], f"{name}: no chip off\n{report}"
        assert fault["http_5xx"] == {}, f"{name}: no HTTP 5xx shown to anyone\n{report}"
        assert fault["most_refused"] <= 1, f"{name}: one refused command at most\n{report}"
        assert fault["players_lost"] == 0, f"{name}: every player back\n{report}"
    assert finished.returncode == 0, report
