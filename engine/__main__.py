"""Command line: ``python -m engine replay FILE.phh [FILE ...]`` and
``python -m engine verify HAND.json`` and
``python -m engine consistency OLD_HEAD.json NEW_HEAD.json PROOF.json``.

``replay``: each file is played through the engine; one JSON line per good file
gives its finishing stacks in PHH player order. A file that cannot be read or
replayed is named on stderr with the action's index in ``actions`` (from 0),
its text and the reason, and the exit status is 1 (2 for bad usage).

``verify``: HAND.json is a hand as Felt's API gives it to one viewer
(``GET /api/hands/<id>/``: ``button``, ``players`` with their ``seat`` and
``hole_cards``, ``board``, ``second_board`` when run twice, and ``fairness``;
``game`` if it names one, else the game is told by the number of hole cards
shown). It prints "verified" when every card
the viewer saw matches the deck committed to before the deal, else what does
not match, one line each, and exits 1. A hand whose ``fairness`` carries a
``cut`` (engine.cut) is checked at the sealed positions the cut deals from, and
the line says how many values cut it, how many were left out, or that it was
uncut. ``--seal HEX``: the commitment the table showed before the deal, which the
hand's must be; ``--value HEX``: the cut value your client revealed, which the cut
must have used.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.fairness import verify
from engine.fairness_log import check_consistency, check_inclusion
from engine.formats.phh import from_phh, phh_order


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


def _dealt_board(board: list[str], second: list[str]) -> list[str]:
    """The board cards in the order dealt: a second run-out's own cards follow the first
    board (``engine.fairness.dealt_board``)."""
    return [*board, *[card for card in second if card not in board]]


def _cut_summary(cut: object) -> str:
    """How a verified hand was cut, for the "verified" line ("" for a hand with no cut)."""
    if not isinstance(cut, dict):
        return ""
    values = [entry for entry in cut["contributions"] if entry["value"] is not None]
    if not values:
        return " (uncut: no player's value went into the cut)"
    left_out = len(cut["contributions"]) - len(values)
    return f" (cut by {len(values)} value(s), {left_out} left out)"


def verify_file(path: str, seal: str | None = None, value: str | None = None) -> int:
    """Check one hand's fairness object against the cards it shows; 1 if anything is off."""
    try:
        hand = json.loads(Path(path).read_text(encoding="utf-8"))
        problems = verify(
            hand["fairness"],
            button=hand["button"],
            hole_cards={player["seat"]: player["hole_cards"] for player in hand["players"]},
            board=_dealt_board(hand["board"], hand.get("second_board") or []),
            game=hand.get("game"),
            published_commitment=seal,
            own_value=value,
        )
        log = hand["fairness"].get("log")
        if log is not None:
            problems += check_inclusion(
                log, hand=hand["id"], commitment=hand["fairness"]["commitment"]
            )
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as error:
        print(f"{path}: not a hand with a fairness object ({error!r})", file=sys.stderr)
        return 1
    for problem in problems:
        print(f"{path}: {problem}")
    if problems:
        return 1
    print("verified" + _cut_summary(hand["fairness"].get("cut")))
    return 0


def consistency_files(older: str, newer: str, proof: str) -> int:
    """Check a consistency proof between two kept heads; 1 if it fails."""
    try:
        heads = [json.loads(Path(path).read_text(encoding="utf-8")) for path in (older, newer)]
        answer = json.loads(Path(proof).read_text(encoding="utf-8"))
        sizes = (answer["first"], answer["second"])
        path = answer["proof"]
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as error:
        print(f"{proof}: not two heads and a consistency proof ({error!r})", file=sys.stderr)
        return 1
    problems = check_consistency(heads[0], heads[1], path)
    if sizes != (heads[0].get("tree_size"), heads[1].get("tree_size")):
        problems.insert(0, f"the proof is from {sizes[0]} to {sizes[1]} entries, not the heads'")
    for problem in problems:
        print(f"{newer}: {problem}")
    if problems:
        return 1
    print("consistent")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default: the process's arguments) and run the command."""
    parser = argparse.ArgumentParser(prog="python -m engine", description="Felt's poker engine")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay PHH hand histories")
    replay.add_argument("files", nargs="+", metavar="FILE.phh")
    check = commands.add_parser("verify", help="check a hand's cards against its commitment")
    check.add_argument("file", metavar="HAND.json")
    check.add_argument("--seal", metavar="HEX", help="the commitment shown before the deal")
    check.add_argument("--value", metavar="HEX", help="the cut value your client revealed")
    consistent = commands.add_parser(
        "consistency", help="check that a newer head of the public log extends an older one"
    )
    consistent.add_argument("older", metavar="OLD_HEAD.json")
    consistent.add_argument("newer", metavar="NEW_HEAD.json")
    consistent.add_argument("proof", metavar="PROOF.json")
    arguments = parser.parse_args(argv)
    if arguments.command == "verify":
        return verify_file(arguments.file, arguments.seal, arguments.value)
    if arguments.command == "consistency":
        return consistency_files(arguments.older, arguments.newer, arguments.proof)
    return replay_files(arguments.files)


if __name__ == "__main__":  # pragma: no cover - exercised by a subprocess test
    sys.exit(main())
