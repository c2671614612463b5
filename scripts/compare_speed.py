"""Live play's speed at another commit beside this checkout's, in one sitting.

    .venv/bin/python scripts/compare_speed.py 7c46421 --tables 50 --pairs 3

Every speed claim about the live path is made this way (docs/performance.md):
the machine is noisy, so figures taken an hour apart say little, while two
servers measured turn about, minutes apart, can be compared.

REF is built in a git worktree of its own (var/compare/<commit>, with its own
`.venv` from its own Makefile). Each pair runs both sides one after the other,
the first side alternating from pair to pair: start that tree's `make run` on
an empty FELT_HOME, run that tree's own `manage.py loadtest` against it with
the pair's seed, stop it. Each side prints its load test's summary line and
the server's processor time per action: the CPU seconds of the whole `make
run` tree (Daphne, the Celery worker and beat, Redis) over the load test,
divided by the actions played in it (the measured rate over the warm-up and
the measured seconds). The medians of the pairs and the ratios this/REF end
the output.

With ``--flat-pause`` every hand on both sides is followed by the same pause,
``TABLES_NEXT_HAND_SECONDS`` (3 s): no longer one after a showdown
(``TABLES_SHOWDOWN_SECONDS``, 5 s) or an all-in run-out. At no think time a
table's actions per second are set by its pauses between hands more than by the
server (a hand plays in well under a second), and commits before those settings
(7c46421, say) paused 3 s after every hand; a side whose code has no such
setting ignores it.

With ``--mtt PLAYERS`` each side plays that tree's ``loadtest_mtt`` instead: a
club tournament of PLAYERS (levels of ``--levels`` seconds) to its winner, the
processor time over the whole tournament divided by all of its actions.

With ``--external`` both sides run on the machine's PostgreSQL and Redis
(127.0.0.1) instead of the embedded defaults: each run gets a new, empty
database (``felt_compare``) and Redis databases 4 to 7 emptied first, so the
processor time then leaves out the PostgreSQL and Redis servers, which are not
the tree's.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psutil
import redis

ROOT = Path(__file__).resolve().parents[1]
READY_LINE = "Felt is running at"
SUMMARY = re.compile(r"([\d.]+) actions/s, round trip ms p50 ([\d.]+) p95 ([\d.]+) p99 ([\d.]+)")
# What the caller's shell may hold that would point a side at other services.
LEFT_OUT = {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DJANGO_SETTINGS_MODULE", "FELT_HOME"}
# --external: clear of make run's Redis databases (0-3) and make test's (8-15).
EXTERNAL_DATABASE = "felt_compare"
EXTERNAL_REDIS_FIRST_DB = 4
# --flat-pause: the pause after a showdown or a run-out no longer than after any hand.
FLAT_PAUSE = {"TABLES_SHOWDOWN_SECONDS": "0", "TABLES_RUNOUT_STREET_SECONDS": "0"}


@dataclass
class Result:
    actions_per_second: float
    p50: float
    p95: float
    p99: float
    cpu_ms_per_action: float


def git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.strip()


def build(ref: str) -> Path:
    """REF's tree with its runtime packages installed, made once and kept."""
    commit = git("rev-parse", "--verify", f"{ref}^{{commit}}")
    tree = ROOT / "var" / "compare" / commit[:12]
    if not tree.exists():
        git("worktree", "add", "--detach", str(tree), commit)
    subprocess.run(
        ["make", "--no-print-directory", ".venv/.runtime-installed"], cwd=tree, check=True
    )
    return tree


def clean_environment() -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name not in LEFT_OUT}
    for name in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
        env.pop(name, None)
    return env


def fresh_external_services() -> dict[str, str]:
    """An empty PostgreSQL database and empty Redis databases, and the URLs naming them."""
    for statement in (
        f"DROP DATABASE IF EXISTS {EXTERNAL_DATABASE} WITH (FORCE)",
        f"CREATE DATABASE {EXTERNAL_DATABASE}",
    ):
        subprocess.run(
            ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", statement],
            check=True,
            capture_output=True,
        )
    for db in range(EXTERNAL_REDIS_FIRST_DB, EXTERNAL_REDIS_FIRST_DB + 4):
        with redis.Redis(host="127.0.0.1", port=6379, db=db) as client:
            client.flushdb()
    return {
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{EXTERNAL_DATABASE}",
        "REDIS_URL": f"redis://127.0.0.1:6379/{EXTERNAL_REDIS_FIRST_DB}",
    }


def tree_cpu(root: psutil.Process) -> float:
    """User and system seconds of ``root`` and every process under it, now."""
    total = 0.0
    for process in [root, *root.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system + times.children_user + times.children_system
    return total


@contextmanager
def served(
    tree: Path, port: int, options: argparse.Namespace
) -> Iterator[tuple[psutil.Process, dict[str, str]]]:
    """``tree``'s ``make run`` on an empty FELT_HOME (with the options' settings), up
    and answering: its root process, and the environment a client of it runs in.
    Stopped (its whole process group) on leaving."""
    with tempfile.TemporaryDirectory(prefix="felt-compare-") as home_name:
        home = Path(home_name)
        env = clean_environment()
        env.update(FELT_HOME=str(home), PORT=str(port), WEB_PROCESSES=str(options.web_processes))
        if getattr(options, "flat_pause", False):
            env.update(FLAT_PAUSE)
        if getattr(options, "external", False):
            env.update(fresh_external_services())
        log_path = home / "run.log"
        with log_path.open("w") as log:
            server = subprocess.Popen(
                ["make", "--no-print-directory", "run"],
                cwd=tree,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            deadline = time.monotonic() + 180
            while READY_LINE not in log_path.read_text():
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{tree} did not start:\n{log_path.read_text()[-2000:]}")
                time.sleep(0.3)
            client_env = dict(env, SECRET_KEY=(home / "secret_key").read_text().strip())
            yield psutil.Process(server.pid), client_env
        finally:
            os.killpg(server.pid, signal.SIGINT)
            try:
                server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()


def load_command(tree: Path, port: int, seed: int, options: argparse.Namespace) -> list[str]:
    """That tree's own load test: ``loadtest`` at friends' tables, or with ``--mtt``
    a club tournament of that many players played to its winner."""
    python = str(tree / ".venv" / "bin" / "python")
    url = f"http://127.0.0.1:{port}"
    if options.mtt:
        return [
            python, "manage.py", "loadtest_mtt", "--players", str(options.mtt),
            "--levels", str(options.levels), "--think", str(options.think),
            "--seed", str(seed), "--url", url,
        ]  # fmt: skip
    return [
        python, "manage.py", "loadtest",
        "--tables", str(options.tables), "--seconds", str(options.seconds),
        "--warmup", str(options.warmup), "--think", str(options.think),
        "--seed", str(seed), "--url", url,
    ]  # fmt: skip


def run_side(tree: Path, port: int, seed: int, options: argparse.Namespace) -> Result:
    with served(tree, port, options) as (root, loadtest_env):
        command = load_command(tree, port, seed, options)
        cpu_before = tree_cpu(root)
        finished = subprocess.run(
            command, cwd=tree, env=loadtest_env, capture_output=True, text=True
        )
        cpu = tree_cpu(root) - cpu_before
    summary = next(
        (line for line in finished.stdout.splitlines() if line.startswith("summary:")), ""
    )
    print(f"    {summary or finished.stdout[-500:] + finished.stderr[-1500:]}", flush=True)
    match = SUMMARY.search(summary)
    if finished.returncode != 0 or match is None:
        raise RuntimeError(f"the load test against {tree} failed")
    rate, p50, p95, p99 = map(float, match.groups())
    if options.mtt:  # measured from the first action to the winner, as the CPU
        actions = float(re.search(r"actions (\d+),", summary)[1])  # type: ignore[index]
    else:  # the warm-up's actions, at the measured rate, and the measured ones
        actions = rate * (options.warmup + options.seconds)
    return Result(rate, p50, p95, p99, cpu * 1000 / actions if actions else float("nan"))


def side_labels(ref: str) -> dict[str, str]:
    """How the report names each side: REF with its commit, and this checkout's."""
    return {
        "ref": f"{ref} ({git('rev-parse', '--short', ref)})",
        "this": f"this checkout ({git('describe', '--always', '--dirty')})",
    }


def turn_about(pairs: int) -> Iterator[tuple[int, str]]:
    """Each pair's two runs, the first side alternating from pair to pair."""
    for pair in range(pairs):
        for side in ("ref", "this") if pair % 2 == 0 else ("this", "ref"):
            yield pair, side


def describe(results: list[Result]) -> dict[str, float]:
    return {
        field: statistics.median(getattr(result, field) for result in results)
        for field in ("actions_per_second", "p50", "p95", "p99", "cpu_ms_per_action")
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ref", help="the commit to compare this checkout with")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=1, help="the first pair's seed")
    parser.add_argument("--web-processes", type=int, default=2)
    parser.add_argument("--port", type=int, default=8811)
    parser.add_argument(
        "--external",
        action="store_true",
        help="PostgreSQL and Redis on 127.0.0.1 instead of the embedded defaults",
    )
    parser.add_argument(
        "--mtt",
        type=int,
        metavar="PLAYERS",
        help="run loadtest_mtt: a club tournament of PLAYERS played to its winner",
    )
    parser.add_argument("--levels", type=float, default=20.0, help="with --mtt: a level's s")
    parser.add_argument(
        "--flat-pause",
        action="store_true",
        help="pause between hands as after any hand, also after a showdown or a run-out",
    )
    options = parser.parse_args(argv)

    sides = {"ref": build(options.ref), "this": ROOT}
    label = side_labels(options.ref)
    results: dict[str, list[Result]] = {"ref": [], "this": []}
    for pair, side in turn_about(options.pairs):
        seed = options.seed + pair
        print(f"pair {pair + 1}, seed {seed}: {label[side]}", flush=True)
        result = run_side(sides[side], options.port, seed, options)
        print(f"    server CPU {result.cpu_ms_per_action:.2f} ms per action", flush=True)
        results[side].append(result)

    medians = {side: describe(found) for side, found in results.items()}
    mode = "PostgreSQL + Redis" if options.external else "embedded"
    if options.flat_pause:
        mode += ", flat pause between hands"
    what = f"a tournament of {options.mtt}" if options.mtt else f"{options.tables} tables"
    print(f"\nmedians of {options.pairs} pairs, {what}, think {options.think:g} s, {mode}:")
    for side in ("ref", "this"):
        m = medians[side]
        print(
            f"  {label[side]}: {m['actions_per_second']:.1f} actions/s, p50 {m['p50']:.1f} "
            f"p95 {m['p95']:.1f} p99 {m['p99']:.1f} ms, "
            f"server CPU {m['cpu_ms_per_action']:.2f} ms per action"
        )
    ratio = {field: medians["this"][field] / medians["ref"][field] for field in medians["ref"]}
    print(
        f"  this/ref: actions/s x{ratio['actions_per_second']:.2f}, p99 x{ratio['p99']:.2f}, "
        f"server CPU per action x{ratio['cpu_ms_per_action']:.2f}"
    )
    pair_ratios = [
        this.cpu_ms_per_action / ref.cpu_ms_per_action
        for this, ref in zip(results["this"], results["ref"], strict=True)
    ]
    print(
        "  server CPU per action, each pair this/ref: "
        + ", ".join(f"x{r:.2f}" for r in pair_ratios)
        + f"; their median x{statistics.median(pair_ratios):.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
