"""What an open socket costs the server when nothing happens, beside another commit's.

    .venv/bin/python scripts/bench_idle.py REF --sockets 300 --seconds 60 --pairs 3

Each side (REF built as ``scripts/compare_speed.py`` builds it, and this checkout),
turn about: its ``make run`` on an empty FELT_HOME; the processor time of its whole
process tree over ``--seconds`` with nothing open (the beat's sweeps, the worker's
heartbeats: the server's own idle cost); then this checkout's ``manage.py
idle_sockets`` holds ``--sockets`` seated players' table sockets at tables where no
hand is dealt, and the tree's processor time is read between its ``measure:`` lines.
The figure is the difference per socket per second, in microseconds. The client is
always this checkout's, so REF's database first gets this checkout's schema
(``scripts/reference_schema.py``).

Opening them is measured on the way: the tree's processor time from the client's
start to its ``measure: seated`` line (every player shown in their seat), less the
quiet rate over that time, per socket, in milliseconds: a handshake, the first
snapshot, sitting down and the presence lease, what a server pays again for every
socket when all of them come back at once (a restart, a network blink).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare_speed import (  # noqa: E402
    ROOT,
    SETTLE_SECONDS,
    build,
    give_this_schema,
    served,
    side_labels,
    tree_cpu,
    turn_about,
)

# tables/management/commands/idle_sockets.py
SEATED, START, END = "measure: seated", "measure: start", "measure: end"


def web_cpu(root: psutil.Process) -> float:
    """User and system seconds of the tree's web processes (its Daphnes), now: where
    the sockets are held, and whose own quiet time varies far less than the tree's."""
    total = 0.0
    for process in root.children(recursive=True):
        try:
            if "daphne" in " ".join(process.cmdline()):
                times = process.cpu_times()
                total += times.user + times.system
        except psutil.Error:
            continue
    return total


def both_cpu(root: psutil.Process) -> tuple[float, float, float]:
    """The whole tree's and the web processes' processor seconds, and the clock, now."""
    return tree_cpu(root), web_cpu(root), time.monotonic()


def per_socket(
    quiet: tuple[float, float, float], start: tuple[float, float, float],
    end: tuple[float, float, float], sockets: int,
) -> tuple[float, float]:  # fmt: skip
    """Microseconds a socket a second, the tree's and the web processes': each one's
    rate with the sockets open less its rate in the quiet window before."""
    (quiet_tree, quiet_web, quiet_seconds) = quiet
    seconds = end[2] - start[2]
    return (
        ((end[0] - start[0]) / seconds - quiet_tree / quiet_seconds) / sockets * 1e6,
        ((end[1] - start[1]) / seconds - quiet_web / quiet_seconds) / sockets * 1e6,
    )


def opening_cost(
    quiet: tuple[float, float, float], launched: tuple[float, float, float],
    seated: tuple[float, float, float], sockets: int,
) -> float:  # fmt: skip
    """Milliseconds of the tree's processor time per socket opened and seated, less its
    quiet rate over the opening."""
    seconds = seated[2] - launched[2]
    return (seated[0] - launched[0] - quiet[0] / quiet[2] * seconds) / sockets * 1000


def run_side(tree: Path, seed: int, options: argparse.Namespace) -> tuple[float, float, float]:
    """Microseconds of server processor time per open socket per second, the whole
    tree's and its web processes' alone; and milliseconds per socket opened."""
    with served(tree, options.port, options) as (root, env):
        python = str(ROOT / ".venv" / "bin" / "python")
        if tree != ROOT:
            give_this_schema(env)
        time.sleep(SETTLE_SECONDS)  # after start-up
        before = both_cpu(root)
        time.sleep(options.seconds)
        after = both_cpu(root)
        quiet = (after[0] - before[0], after[1] - before[1], after[2] - before[2])
        command = [
            python, "manage.py", "idle_sockets", "--tables", str(options.sockets),
            "--seconds", str(options.seconds), "--warmup", str(options.warmup),
            "--seed", str(seed), "--url", f"http://127.0.0.1:{options.port}",
        ]  # fmt: skip
        launched = both_cpu(root)
        holding = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        assert holding.stdout is not None
        marks: dict[str, tuple[float, float, float]] = {}
        for line in holding.stdout:
            if line.strip() in (SEATED, START, END):
                marks[line.strip()] = both_cpu(root)
            elif line.startswith("idle:"):
                print(f"    {line.strip()}", flush=True)
        if holding.wait() != 0 or len(marks) != 3:
            raise RuntimeError(f"idle_sockets against {tree} failed")
    whole, web = per_socket(quiet, marks[START], marks[END], options.sockets)
    opening = opening_cost(quiet, launched, marks[SEATED], options.sockets)
    seconds = marks[END][2] - marks[START][2]
    print(
        f"    opened and seated in {marks[SEATED][2] - launched[2]:.1f} s: {opening:.2f} ms "
        "of server time per socket",
        flush=True,
    )
    print(
        f"    quiet {quiet[0] / quiet[2] * 1000:.1f} ms/s; with {options.sockets} sockets "
        f"{(marks[END][0] - marks[START][0]) / seconds * 1000:.1f} ms/s: {whole:.1f} µs per "
        f"socket per second; the web processes' alone {web:.1f} µs",
        flush=True,
    )
    return whole, web, opening


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ref", help="the commit to compare this checkout with")
    parser.add_argument("--sockets", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=15.0)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--web-processes", type=int, default=2)
    parser.add_argument("--port", type=int, default=8811)
    options = parser.parse_args(argv)
    sides = {"ref": build(options.ref), "this": ROOT}
    label = side_labels(options.ref)
    results: dict[str, list[tuple[float, float, float]]] = {"ref": [], "this": []}
    for pair, side in turn_about(options.pairs):
        print(f"pair {pair + 1}: {label[side]}", flush=True)
        results[side].append(run_side(sides[side], options.seed + pair, options))
    print(f"\nmedians of {options.pairs} pairs, {options.sockets} idle sockets:")
    measures = (
        (0, "the whole server", "µs per socket per second"),
        (1, "its web processes alone", "µs per socket per second"),
        (2, "opening and seating a socket", "ms of the whole server's time"),
    )
    for which, name, unit in measures:
        medians = {
            side: statistics.median(found[which] for found in results[side]) for side in results
        }
        ratios = [t[which] / r[which] for t, r in zip(results["this"], results["ref"], strict=True)]
        print(
            f"  {name}: {label['ref']} {medians['ref']:.2f}, {label['this']} "
            f"{medians['this']:.2f} {unit}; median of the pairs' "
            f"this/ref x{statistics.median(ratios):.2f} ("
            + ", ".join(f"x{ratio:.2f}" for ratio in ratios) + ")"
        )  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
