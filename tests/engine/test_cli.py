"""The command line: ``python -m engine replay FILE.phh [FILE ...]``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.__main__ import main

HANDS = Path(__file__).parent / "hands"
ROOT = Path(__file__).parents[2]
GOOD = HANDS / "rule11_side_pots_awarded_separately.phh"
HEADS_UP = HANDS / "rule08_heads_up_button_posts_small_blind.phh"
ILLEGAL = HANDS / "rule04_reraise_after_short_all_in_is_illegal.phh"
OMAHA = HANDS / "rule21_omaha_plays_two_hole_cards_with_three_of_the_board.phh"
OMAHA_OVER_THE_POT = HANDS / "rule22_raise_above_the_pot_is_illegal.phh"


def test_it_prints_one_json_line_per_file_in_phh_player_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["replay", str(GOOD), str(HEADS_UP)]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line) for line in out.splitlines()] == [
        {"file": str(GOOD), "finishing_stacks": [400, 300, 200, 700]},
        {"file": str(HEADS_UP), "finishing_stacks": [940, 1060]},
    ]
    assert err == ""


def test_an_illegal_action_names_the_file_index_text_and_reason(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["replay", str(ILLEGAL), str(GOOD)]) == 1
    out, err = capsys.readouterr()
    assert err == (
        f"{ILLEGAL}: actions[10] 'p1 cbr 400': you cannot raise: the all-in was less than a"
        " full raise, so you can only call or fold (rule 4)\n"
    )
    assert json.loads(out)["file"] == str(GOOD)  # the other files are still replayed


def test_it_replays_pot_limit_omaha_files_by_omaha_rules(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["replay", str(OMAHA), str(OMAHA_OVER_THE_POT)]) == 1
    out, err = capsys.readouterr()
    # rule 21: the straight wins against four aces and a lone spade on four spades
    assert json.loads(out) == {"file": str(OMAHA), "finishing_stacks": [0, 0, 600]}
    assert err == (
        f"{OMAHA_OVER_THE_POT}: actions[4] 'p1 cbr 231': raise to 231 is more than the pot"
        " limit: the most is 230\n"
    )


OUT_OF_TURN = """variant = "NT"
antes = [0, 0, 0, 0, 0, 0]
blinds_or_straddles = [10, 20, 0, 0, 0, 0]
min_bet = 20
starting_stacks = [1000, 1000, 1000, 1000, 1000, 1000]
actions = ["p3 cc", "p4 cc", "p2 cc", "p5 cc", "p6 f", "p1 f"]
"""
OUT_OF_TURN_REFUSAL = "actions[2] 'p2 cc': it is not p2's turn: p5 is to act"


def test_a_history_naming_a_player_out_of_turn_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "out_of_turn.phh"
    path.write_text(OUT_OF_TURN, encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"{path}: {OUT_OF_TURN_REFUSAL}\n"


def test_a_malformed_or_missing_file_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.phh"
    broken.write_text('variant = "NT"\nactions = [\n', encoding="utf-8")
    missing = tmp_path / "missing.phh"
    assert main(["replay", str(broken), str(missing)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    first, second = err.splitlines()
    assert first.startswith(f"{broken}: not valid TOML")
    assert second.startswith(f"{missing}: ") and "No such file" in second


def test_it_needs_a_command_and_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in ([], ["replay"], ["fly"]):
        with pytest.raises(SystemExit) as caught:
            main(argv)
        assert caught.value.code == 2
    assert "usage: python -m engine" in capsys.readouterr().err


def test_python_dash_m_engine_runs_as_a_program() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(GOOD), str(ILLEGAL)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=60,
    )
    assert result.returncode == 1
    assert json.loads(result.stdout) == {
        "file": str(GOOD),
        "finishing_stacks": [400, 300, 200, 700],
    }
    assert f"{ILLEGAL}: actions[10] 'p1 cbr 400'" in result.stderr


def test_the_program_refuses_an_out_of_turn_history_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "out_of_turn.phh"
    path.write_text(OUT_OF_TURN, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=60,
    )
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"{path}: {OUT_OF_TURN_REFUSAL}\n"
