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

With ``--mtt PLAYERS`` each side plays a club tournament of PLAYERS (levels of
``--levels`` seconds) to its winner instead: the processor time over the whole
tournament divided by all of its actions. Both sides are played by this
checkout's ``loadtest_mtt``, as ``scripts/bench_idle.py`` plays both, so that
REF is given this checkout's schema first (``scripts/reference_schema.py``);
``--buy-in``, ``--rebuys``, ``--rebuy-levels``, ``--add-on`` and ``--bounty``
make it a rebuy and knockout tournament (an older commit's own client could
not rebuy), and ``--starting-stack`` sets its stacks. A tournament plays a few
actions a second, so the server's fixed background (beat's sweeps, the
worker's heartbeats) is a large part of each action's time: before the
tournament each side's quiet server is measured for ``--quiet-seconds``, as
bench_idle.py measures it, and each side also reports the time per action less
that quiet rate over the tournament's wall time.

With ``--external`` both sides run on the machine's PostgreSQL and Redis
(127.0.0.1) instead of the embedded defaults: each run gets a new, empty
database (``felt_compare``) and Redis databases 4 to 7 emptied first, so the
processor time then leaves out the PostgreSQL and Redis servers, which are not
the tree's. A second ``--external`` run on the machine meanwhile refuses to start.
"""

from __future__ import annotations

import argparse
import fcntl
import math
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
from typing import IO

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
EXTERNAL_LOCK = Path(tempfile.gettempdir()) / "felt-compare-external.lock"
# --flat-pause: the pause after a showdown or a run-out no longer than after any hand.
FLAT_PAUSE = {"TABLES_SHOWDOWN_SECONDS": "0", "TABLES_RUNOUT_STREET_SECONDS": "0"}


SETTLE_SECONDS = 5.0  # after start-up, before the quiet server is measured
# loadtest_mtt's summary line: what a rebuy and knockout tournament sold and paid.
FORMAT_SUMMARY = re.compile(r"rebuys (\d+), add-ons (\d+), bounties (\d+)")
# --mtt's options passed on to loadtest_mtt when given.
FORMAT_OPTIONS = ("buy_in", "rebuys", "rebuy_levels", "add_on", "bounty", "starting_stack")
NAN = float("nan")


@dataclass
class Result:
    actions_per_second: float
    p50: float
    p95: float
    p99: float
    cpu_ms_per_action: float
    # --mtt: the tournament's actions, its rebuys, add-ons and bounties paid, and the
    # time per action less the quiet server's rate over the tournament's wall time.
    actions: int = 0
    rebuys: int = 0
    add_ons: int = 0
    bounties: int = 0
    quiet_ms_per_second: float = NAN
    less_quiet_ms_per_action: float = NAN


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


def give_this_schema(env: dict[str, str]) -> None:
    """The database of the server ``env`` names gets this checkout's schema, in a way
    its older code still writes to (scripts/reference_schema.py)."""
    python = str(ROOT / ".venv" / "bin" / "python")
    subprocess.run(
        [python, "scripts/reference_schema.py"],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def quiet_rate(root: psutil.Process, seconds: float) -> float:
    """Processor seconds a second of ``root``'s tree with nothing to serve (the beat's
    sweeps, the worker's heartbeats), once it has settled after start-up."""
    time.sleep(SETTLE_SECONDS)
    before, started = tree_cpu(root), time.monotonic()
    time.sleep(seconds)
    return (tree_cpu(root) - before) / (time.monotonic() - started)


def load_command(tree: Path, port: int, seed: int, options: argparse.Namespace) -> list[str]:
    """The load test: that tree's own ``loadtest`` at friends' tables, or with
    ``--mtt`` this checkout's ``loadtest_mtt``, a club tournament of that many players
    played to its winner (in the format the options give)."""
    python = str(tree / ".venv" / "bin" / "python")
    url = f"http://127.0.0.1:{port}"
    if options.mtt:
        tournament_format = [
            part
            for name in FORMAT_OPTIONS
            if getattr(options, name) is not None
            for part in ("--" + name.replace("_", "-"), str(getattr(options, name)))
        ]
        return [
            str(ROOT / ".venv" / "bin" / "python"), "manage.py", "loadtest_mtt",
            "--players", str(options.mtt), "--levels", str(options.levels),
            "--think", str(options.think), "--seed", str(seed), "--url", url,
            *tournament_format,
        ]  # fmt: skip
    return [
        python, "manage.py", "loadtest",
        "--tables", str(options.tables), "--seconds", str(options.seconds),
        "--warmup", str(options.warmup), "--think", str(options.think),
        "--seed", str(seed), "--url", url,
    ]  # fmt: skip


def run_side(tree: Path, port: int, seed: int, options: argparse.Namespace) -> Result:
    with served(tree, port, options) as (root, loadtest_env):
        quiet = NAN
        if options.mtt:
            if tree != ROOT:
                give_this_schema(loadtest_env)
            quiet = quiet_rate(root, options.quiet_seconds)
        command = load_command(tree, port, seed, options)
        cpu_before, started = tree_cpu(root), time.monotonic()
        finished = subprocess.run(
            command,
            cwd=ROOT if options.mtt else tree,
            env=loadtest_env,
            capture_output=True,
            text=True,
        )
        cpu, seconds = tree_cpu(root) - cpu_before, time.monotonic() - started
    summary = next(
        (line for line in finished.stdout.splitlines() if line.startswith("summary:")), ""
    )
    print(f"    {summary or finished.stdout[-500:] + finished.stderr[-1500:]}", flush=True)
    match = SUMMARY.search(summary)
    if finished.returncode != 0 or match is None:
        raise RuntimeError(f"the load test against {tree} failed")
    rate, p50, p95, p99 = map(float, match.groups())
    if not options.mtt:  # the warm-up's actions, at the measured rate, and the measured ones
        actions = rate * (options.warmup + options.seconds)
        return Result(rate, p50, p95, p99, cpu * 1000 / actions if actions else NAN)
    # every action of the tournament; the CPU is the whole run's, set-up and clean-up too
    actions = int(re.search(r"actions (\d+),", summary)[1])  # type: ignore[index]
    sold = FORMAT_SUMMARY.search(summary)
    rebuys, add_ons, bounties = map(int, sold.groups()) if sold else (0, 0, 0)
    per_action = 1000 / actions if actions else NAN
    return Result(
        rate, p50, p95, p99, cpu * per_action,
        actions=actions, rebuys=rebuys, add_ons=add_ons, bounties=bounties,
        quiet_ms_per_second=quiet * 1000,
        less_quiet_ms_per_action=(cpu - quiet * seconds) * per_action,
    )  # fmt: skip


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


MEDIANS = (
    "actions_per_second", "p50", "p95", "p99", "cpu_ms_per_action",
    "quiet_ms_per_second", "less_quiet_ms_per_action",
)  # fmt: skip


def describe(results: list[Result]) -> dict[str, float]:
    return {
        name: statistics.median(getattr(result, name) for result in results) for name in MEDIANS
    }


def side_line(result: Result) -> str:
    """One run's processor time per action (with --mtt: less the quiet server's)."""
    line = f"    server CPU {result.cpu_ms_per_action:.2f} ms per action"
    if math.isnan(result.quiet_ms_per_second):
        return line
    return (
        f"{line}; quiet {result.quiet_ms_per_second:.1f} ms/s, less it over the "
        f"tournament {result.less_quiet_ms_per_action:.2f} ms per action ({result.actions} "
        f"actions, rebuys {result.rebuys}, add-ons {result.add_ons}, bounties {result.bounties})"
    )


def report(
    results: dict[str, list[Result]], label: dict[str, str], options: argparse.Namespace
) -> None:
    """The medians of each side, their ratios, and the ratios of each pair."""
    medians = {side: describe(found) for side, found in results.items()}
    mode = "PostgreSQL + Redis" if options.external else "embedded"
    if options.flat_pause:
        mode += ", flat pause between hands"
    what = f"a tournament of {options.mtt}" if options.mtt else f"{options.tables} tables"
    print(f"\nmedians of {options.pairs} pairs, {what}, think {options.think:g} s, {mode}:")
    for side in ("ref", "this"):
        m = medians[side]
        less_quiet = m["less_quiet_ms_per_action"]
        print(
            f"  {label[side]}: {m['actions_per_second']:.1f} actions/s, p50 {m['p50']:.1f} "
            f"p95 {m['p95']:.1f} p99 {m['p99']:.1f} ms, "
            f"server CPU {m['cpu_ms_per_action']:.2f} ms per action"
            + (f" ({less_quiet:.2f} less the quiet server's)" if options.mtt else "")
        )
    ratio = {name: medians["this"][name] / medians["ref"][name] for name in MEDIANS}
    print(
        f"  this/ref: actions/s x{ratio['actions_per_second']:.2f}, p99 x{ratio['p99']:.2f}, "
        f"server CPU per action x{ratio['cpu_ms_per_action']:.2f}"
        + (f", less the quiet x{ratio['less_quiet_ms_per_action']:.2f}" if options.mtt else "")
    )
    names = {"cpu_ms_per_action": "server CPU per action"}
    if options.mtt:
        names |= {"less_quiet_ms_per_action": "less the quiet", "p99": "p99"}
    for name, words in names.items():
        pair_ratios = [
            getattr(this, name) / getattr(ref, name)
            for this, ref in zip(results["this"], results["ref"], strict=True)
        ]
        print(
            f"  {words}, each pair this/ref: "
            + ", ".join(f"x{r:.2f}" for r in pair_ratios)
            + f"; their median x{statistics.median(pair_ratios):.2f}"
        )


def arguments(argv: list[str]) -> argparse.Namespace:
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
        "--flat-pause",
        action="store_true",
        help="pause between hands as after any hand, also after a showdown or a run-out",
    )
    mtt = parser.add_argument_group("a club tournament (this checkout's loadtest_mtt)")
    mtt.add_argument(
        "--mtt",
        type=int,
        metavar="PLAYERS",
        help="run loadtest_mtt: a club tournament of PLAYERS played to its winner",
    )
    mtt.add_argument("--levels", type=float, default=20.0, help="a level's seconds")
    mtt.add_argument("--quiet-seconds", type=float, default=20.0, help="the quiet server's")
    mtt.add_argument("--buy-in", type=int, default=0, help="points (0: a freeroll)")
    mtt.add_argument("--rebuys", type=int, default=0, help="per player (0: none)")
    mtt.add_argument("--rebuy-levels", type=int, default=2, help="levels rebuys are sold")
    mtt.add_argument("--add-on", type=int, default=0, help="chips, for the buy-in (0: none)")
    mtt.add_argument("--bounty", type=int, default=0, help="points of the buy-in")
    mtt.add_argument("--starting-stack", type=int, help="chips (default: the structure's)")
    return parser.parse_args(argv)


def hold_the_external_services() -> IO[str] | None:
    """The machine's lock on ``EXTERNAL_DATABASE`` and its Redis databases while the file
    is open; None if another run holds it (each run empties them for its servers)."""
    lock = open(EXTERNAL_LOCK, "a")  # noqa: SIM115 - held until the process ends
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        return None
    return lock


def main(argv: list[str]) -> int:
    options = arguments(argv)
    held = hold_the_external_services() if options.external else None  # kept to the end
    if options.external and held is None:
        sys.exit(f"Another --external run holds {EXTERNAL_DATABASE} (and its Redis): wait for it.")
    sides = {"ref": build(options.ref), "this": ROOT}
    label = side_labels(options.ref)
    results: dict[str, list[Result]] = {"ref": [], "this": []}
    for pair, side in turn_about(options.pairs):
        seed = options.seed + pair
        print(f"pair {pair + 1}, seed {seed}: {label[side]}", flush=True)
        result = run_side(sides[side], options.port, seed, options)
        print(side_line(result), flush=True)
        results[side].append(result)
    report(results, label, options)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
