"""Command line: ``python -m engine replay FILE.phh [FILE ...]``.

Each file is played through the engine; one JSON line per good file gives its
finishing stacks in PHH player order. A file that cannot be read or replayed
is named on stderr with the action's index, its text and the reason, and the
exit status is 1 (2 for bad usage).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.phh import from_phh, phh_order


def replay_files(paths: Sequence[str]) -> int:
    """Replay each file, print its JSON line or its error; 1 if any failed."""
    status = 0
    for path in paths:
        try:
            state = from_phh(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as error:
            print(f"{path}: {error}", file=sys.stderr)
            status = 1
            continue
        stacks = [state.stacks[seat] for seat in phh_order(state)]
        print(json.dumps({"file": path, "finishing_stacks": stacks}))
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default: the process's arguments) and run the command."""
    parser = argparse.ArgumentParser(prog="python -m engine", description="Felt's poker engine")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay PHH hand histories")
    replay.add_argument("files", nargs="+", metavar="FILE.phh")
    arguments = parser.parse_args(argv)
    return replay_files(arguments.files)


if __name__ == "__main__":  # pragma: no cover - exercised by a subprocess test
    sys.exit(main())
