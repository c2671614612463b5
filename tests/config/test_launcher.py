"""`make run`'s launcher: serves Felt, then stops every process it started."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil
import pytest

from config.platform.private_files import FILE_MODE, HOME_MODE

ROOT = Path(__file__).resolve().parents[2]
READY_LINE = "Felt is running at"
ENVIRONMENT_OF_THE_TESTS = {
    "DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE",
    "MAKEFLAGS", "MFLAGS", "MAKELEVEL",  # from `make test`: `make run` is no sub-make of it
}  # fmt: skip
# `make run` as a person types it, except that the test run already has the
# packages: make must not reinstall them into the shared .venv. A test run in
# the background of a non-interactive shell ignores SIGINT, and make would
# inherit that; a terminal's make has every signal at its default.
MAKE_RUN = [
    "env", "--default-signal=HUP,INT,QUIT",
    "make", "--no-print-directory", "--old-file=.venv/.runtime-installed", "run",
]  # fmt: skip


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def felt_environment(home: Path) -> dict[str, str]:
    env = {
        name: value for name, value in os.environ.items() if name not in ENVIRONMENT_OF_THE_TESTS
    }  # the embedded defaults, whatever mode the test run is in
    return {**env, "FELT_HOME": str(home)}


class RunningFelt:
    """scripts/run.py, or with ``through_make`` the whole `make run`, with its own
    home and port, in its own process group."""

    def __init__(self, home: Path, *, through_make: bool = False, **extra_env: str) -> None:
        self.home = home
        self.port = free_port()
        self.log = home / "run.log"
        env = {**felt_environment(home), "PORT": str(self.port), "WEB_PROCESSES": "2", **extra_env}
        command = MAKE_RUN if through_make else [sys.executable, "scripts/run.py"]
        with self.log.open("w") as log:
            self.process = subprocess.Popen(  # noqa: S603 - our own commands
                command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True
            )

    def wait_until_ready(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while READY_LINE not in self.log.read_text():
            assert self.process.poll() is None, self.log.read_text()
            assert time.monotonic() < deadline, self.log.read_text()
            time.sleep(0.2)

    def get(self, path: str, timeout: float = 10) -> tuple[int, str]:
        url = f"http://127.0.0.1:{self.port}{path}"
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read().decode()

    def descendants(self) -> list[psutil.Process]:
        return psutil.Process(self.process.pid).children(recursive=True)

    def stop_with(self, signum: int) -> int:
        self.process.send_signal(signum)
        return self.process.wait(timeout=60)

    def kill(self) -> None:
        """After a failed test: the launcher too, should make not have stopped it."""
        for process in [*psutil.Process(self.process.pid).children(), self.process]:
            with contextlib.suppress(psutil.Error, ProcessLookupError):
                process.kill()
        self.process.wait(timeout=60)

    def port_is_closed(self) -> bool:
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", self.port)) != 0


def still_running(processes: list[psutil.Process]) -> list[str]:
    alive = []
    for process in processes:
        try:
            if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                alive.append(" ".join(process.cmdline()))
        except psutil.NoSuchProcess:
            pass
    return alive


@pytest.fixture(scope="module")
def migrated_home(tmp_path_factory):
    """A home whose database is migrated, made once (about 3 s of processor time):
    the tests after the first are about signals and supervision, not migrations,
    and a fresh database made each of their starts' prepare step (scripts/run.py)
    cost 2.9 s where a migrated one costs 1.0 s."""
    home = tmp_path_factory.mktemp("migrated")
    migrate = [sys.executable, "manage.py", "migrate", "--no-input", "--verbosity", "0"]
    env = {**felt_environment(home), "SECRET_KEY": "migrating-only"}  # stored nowhere
    subprocess.run(migrate, cwd=ROOT, env=env, check=True)  # noqa: S603 - our own command
    return home


@pytest.fixture
def felt_home(tmp_path_factory, migrated_home):
    """A fresh home holding a copy of the migrated database, private as
    scripts/run.py leaves a home (the first test checks that it does)."""
    home = tmp_path_factory.mktemp("run")
    home.chmod(HOME_MODE)
    for made in migrated_home.iterdir():
        shutil.copyfile(made, home / made.name)
        (home / made.name).chmod(FILE_MODE)
    return home


@pytest.fixture
def felt(felt_home):
    # One Daphne: it is the one killed, and only the restarted one can answer after.
    running = RunningFelt(felt_home, WEB_PROCESSES="1")
    yield running
    if running.process.poll() is None:
        running.stop_with(signal.SIGKILL)


@pytest.fixture
def felt_by_make(felt_home):
    # One Daphne: these tests are about signals reaching every kind of child, and
    # each Daphne costs about 2 s of processor time to start (two are tested above).
    running = RunningFelt(felt_home, through_make=True, WEB_PROCESSES="1")
    yield running
    if running.process.poll() is None:
        running.kill()


def test_it_serves_the_site_keeps_its_files_private_and_ctrl_c_stops_everything(
    tmp_path_factory,
):
    home = tmp_path_factory.mktemp("run") / "home"
    home.mkdir(mode=0o755)
    old_file = home / "felt.sqlite3"
    old_file.write_text("")
    old_file.chmod(0o644)  # made by an older Felt
    felt = RunningFelt(home)
    try:
        felt.wait_until_ready()
        mail_line = f"is written as files to {home / 'mail'}."  # where to look for it
        assert mail_line in felt.log.read_text()
        status, page = felt.get("/accounts/signup/")  # the database has been written to
        assert status == 200 and "Create account" in page
        assert felt.get("/healthz")[0] == 200
        status, css = felt.get("/static/css/felt.css")
        assert status == 200 and "--felt" in css, "static files come from the ASGI app"
        children = felt.descendants()
        names = " ".join(" ".join(child.cmdline()) for child in children)
        for expected in ["redis-server", "daphne", "worker", "beat"]:
            assert expected in names
        daphnes = [child for child in children if "daphne" in " ".join(child.cmdline())]
        assert len(daphnes) == 2, "one Daphne per WEB_PROCESSES, sharing the port"

        assert felt.stop_with(signal.SIGINT) == 0
    finally:
        if felt.process.poll() is None:
            felt.stop_with(signal.SIGKILL)

    assert still_running(children) == []
    assert "Felt has stopped." in felt.log.read_text()
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    files = {p.name: stat.S_IMODE(p.stat().st_mode) for p in home.iterdir() if p.is_file()}
    assert {"felt.sqlite3", "secret_key", "redis.log"} <= files.keys()
    assert {name: mode for name, mode in files.items() if mode != 0o600} == {}


def send_to_make_alone(felt: RunningFelt, signum: int) -> None:
    os.kill(felt.process.pid, signum)


def send_to_makes_group(felt: RunningFelt, signum: int) -> None:
    os.killpg(felt.process.pid, signum)  # what Ctrl-C in a terminal does


@pytest.mark.parametrize(
    ("signum", "send"),
    [
        (signal.SIGINT, send_to_make_alone),  # `kill -INT <make>`
        (signal.SIGTERM, send_to_make_alone),  # what a supervisor sends
        (signal.SIGINT, send_to_makes_group),
    ],
    ids=["sigint-to-make", "sigterm-to-make", "ctrl-c"],
)
def test_a_signal_to_make_run_stops_every_process(felt_by_make, signum, send):
    felt_by_make.wait_until_ready()
    children = felt_by_make.descendants()
    names = " ".join(" ".join(child.cmdline()) for child in children)
    for expected in ["scripts/run.py", "redis-server", "daphne", "worker", "beat"]:
        assert expected in names

    send(felt_by_make, signum)

    # make exits the way it was told to, once its recipe, the launcher, has ended.
    assert felt_by_make.process.wait(timeout=60) == -signum, felt_by_make.log.read_text()
    assert still_running(children) == []
    assert felt_by_make.port_is_closed()
    log = felt_by_make.log.read_text()
    assert "Felt has stopped." in log and "Felt stopped:" not in log, log


def daphnes_of(felt: RunningFelt) -> list[psutil.Process]:
    daphnes = []
    for child in felt.descendants():
        with contextlib.suppress(psutil.Error):  # e.g. the killed one, a zombie until reaped
            if child.status() != psutil.STATUS_ZOMBIE and "daphne" in " ".join(child.cmdline()):
                daphnes.append(child)
    return daphnes


def test_a_child_that_dies_is_started_again_and_all_follow_a_killed_launcher(felt):
    felt.wait_until_ready()
    [first] = daphnes_of(felt)

    first.kill()

    restarted = "daphne exited (killed by SIGKILL); starting it again"
    deadline = time.monotonic() + 30
    while True:
        pids = {daphne.pid for daphne in daphnes_of(felt)}  # one look per round
        if restarted in felt.log.read_text() and len(pids) == 1 and first.pid not in pids:
            break
        assert felt.process.poll() is None, felt.log.read_text()
        assert time.monotonic() < deadline, felt.log.read_text()
        time.sleep(0.2)
    # The request waits in the shared socket's queue until the new Daphne takes it.
    assert felt.get("/healthz", timeout=30)[0] == 200, "the restarted Daphne serves"
    children = felt.descendants()  # the new Daphne among them

    felt.stop_with(signal.SIGKILL)  # the launcher itself: no chance to stop them

    deadline = time.monotonic() + 30
    while still_running(children) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert still_running(children) == []


def test_a_child_that_keeps_dying_stops_everything(felt_home):
    felt = RunningFelt(felt_home, FELT_RESTART_LIMIT="2", WEB_PROCESSES="1")
    try:
        felt.wait_until_ready()
        children = felt.descendants()
        worker = next(c for c in children if " worker" in " ".join(c.cmdline()))
        worker.kill()
        deadline = time.monotonic() + 30
        while "starting it again" not in felt.log.read_text():
            assert time.monotonic() < deadline, felt.log.read_text()
            time.sleep(0.2)
        time.sleep(2)  # the pause, then the new worker
        again = next(c for c in felt.descendants() if " worker" in " ".join(c.cmdline()))
        again.kill()
        assert felt.process.wait(timeout=60) == 1
    finally:
        if felt.process.poll() is None:
            felt.stop_with(signal.SIGKILL)
    assert (
        "celery worker exited (killed by SIGKILL) 2 times in 60 s; giving up"
        in felt.log.read_text()
    )
    assert still_running(children) == []


def test_a_bad_email_url_stops_it_before_anything_starts(tmp_path):
    env = {**felt_environment(tmp_path), "EMAIL_URL": "mail.example.org:25", "PORT": "1"}
    run = [sys.executable, "scripts/run.py"]
    ended = subprocess.run(run, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)  # noqa: S603 - our own command
    assert ended.returncode == 1
    assert "Felt did not start: EMAIL_URL must start with smtp:// or smtps://" in ended.stderr
