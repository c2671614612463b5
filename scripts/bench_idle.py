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
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare_speed import (  # noqa: E402
    ROOT,
    build,
    give_this_schema,
    quiet_rate,
    served,
    side_labels,
    tree_cpu,
    turn_about,
)

START, END = "measure: start", "measure: end"  # tables/management/commands/idle_sockets.py


def run_side(tree: Path, seed: int, options: argparse.Namespace) -> float:
    """Microseconds of server processor time per open socket per second."""
    with served(tree, options.port, options) as (root, env):
        python = str(ROOT / ".venv" / "bin" / "python")
        if tree != ROOT:
            give_this_schema(env)
        quiet = quiet_rate(root, options.seconds)
        command = [
            python, "manage.py", "idle_sockets", "--tables", str(options.sockets),
            "--seconds", str(options.seconds), "--warmup", str(options.warmup),
            "--seed", str(seed), "--url", f"http://127.0.0.1:{options.port}",
        ]  # fmt: skip
        holding = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        assert holding.stdout is not None
        marks: dict[str, tuple[float, float]] = {}
        for line in holding.stdout:
            if line.strip() in (START, END):
                marks[line.strip()] = (tree_cpu(root), time.monotonic())
            elif line.startswith("idle:"):
                print(f"    {line.strip()}", flush=True)
        if holding.wait() != 0 or len(marks) != 2:
            raise RuntimeError(f"idle_sockets against {tree} failed")
    cpu = marks[END][0] - marks[START][0]
    seconds = marks[END][1] - marks[START][1]
    sockets: int = options.sockets
    per_socket = (cpu / seconds - quiet) / sockets * 1e6
    print(
        f"    quiet {quiet * 1000:.1f} ms/s; with {options.sockets} sockets "
        f"{cpu / seconds * 1000:.1f} ms/s: {per_socket:.1f} µs per socket per second",
        flush=True,
    )
    return per_socket


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
    results: dict[str, list[float]] = {"ref": [], "this": []}
    for pair, side in turn_about(options.pairs):
        print(f"pair {pair + 1}: {label[side]}", flush=True)
        results[side].append(run_side(sides[side], options.seed + pair, options))
    medians = {side: statistics.median(found) for side, found in results.items()}
    print(f"\nmedians of {options.pairs} pairs, {options.sockets} idle sockets:")
    for side in ("ref", "this"):
        print(f"  {label[side]}: {medians[side]:.1f} µs per socket per second")
    ratios = [t / r for t, r in zip(results["this"], results["ref"], strict=True)]
    print(f"  this/ref: x{medians['this'] / medians['ref']:.2f} (pairs: "
          + ", ".join(f"x{ratio:.2f}" for ratio in ratios) + ")")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
