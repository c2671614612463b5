"""scripts/test.sh (what `make test` runs) fails on failures and on empty runs."""

import subprocess
from pathlib import Path

import pytest

# Touches neither a database nor Redis: the embedded run is enough (scripts/test.sh).
pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[2]


def run_test_script(
    tmp_path: Path, pytest_exit_code: int, mypy_exit_code: int = 0
) -> subprocess.CompletedProcess[str]:
    fake_pytest = tmp_path / "pytest"
    fake_pytest.write_text(f'#!/bin/sh\necho fake pytest "$@"\nexit {pytest_exit_code}\n')
    fake_pytest.chmod(0o755)
    fake_mypy = tmp_path / "mypy"
    fake_mypy.write_text(f"#!/bin/sh\necho fake mypy\nexit {mypy_exit_code}\n")
    fake_mypy.chmod(0o755)
    return subprocess.run(
        ["bash", "scripts/test.sh"],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTEST": str(fake_pytest), "MYPY": str(fake_mypy)},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_it_passes_when_every_run_passes(tmp_path):
    result = run_test_script(tmp_path, 0)
    assert result.returncode == 0
    assert "all runs passed" in result.stdout
    assert "--cov=engine" in result.stdout, "the embedded run measures engine coverage"
    assert "tests/engine -n 2" in result.stdout, "the engine's tests in two processes"
    assert result.stdout.count("fake pytest tests/engine") == 1, "in one pass, exhaustive ones too"
    assert "tests -n 3" in result.stdout, "the embedded run, which waits most, in three"
    assert "fake mypy" in result.stdout, "the types are checked too"


def test_it_fails_when_the_type_check_fails(tmp_path):
    result = run_test_script(tmp_path, 0, mypy_exit_code=1)
    assert result.returncode == 1
    assert "type check failed" in result.stderr


def test_it_fails_when_a_run_fails(tmp_path):
    result = run_test_script(tmp_path, 1)
    assert result.returncode == 1
    assert "FAILED" in result.stderr


def test_it_fails_when_a_run_collects_no_tests(tmp_path):
    result = run_test_script(tmp_path, 5)
    assert result.returncode == 1
    assert "no tests were collected" in result.stdout + result.stderr  # in the run's log
