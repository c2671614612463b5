"""scripts/bench_actions.py plays its table through the services and times it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.import_graph import ROOT

# Its own database and Redis in a temporary home: none of the test run's.
pytestmark = pytest.mark.pure


def test_the_action_benchmark_plays_hands_and_reports_its_medians() -> None:
    result = subprocess.run(
        [sys.executable, "scripts/bench_actions.py", "--hands", "3", "--runs", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert result.returncode == 0, result.stderr
    first, last = result.stdout.splitlines()
    assert first.startswith("run 1: ") and " 3 deals," in first
    assert last.startswith("median of runs: action ")
