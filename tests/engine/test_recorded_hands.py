"""The recorded-hands regression corpus: tests/engine/hands/*.phh.

Each file is a PHH hand history named after the docs/rules.md line it shows
(``rule04_short_all_in_does_not_reopen.phh``), with ``_rule`` quoting that
line and TOML comments working out the result by hand. Two kinds of file:

- a hand that must replay: it carries the standard ``finishing_stacks``
  field (PHH player order). The replay must end the hand with exactly those
  stacks and conserve chips (rule 16), and ``to_phh`` of the replay must
  write the same ``actions`` back, so the file also pins down who shows
  first, who mucks and when a run-out is turned face up (rules 13-15);
- a hand where players bust may add ``_expected_places`` (``{ p1 = 3 }``):
  the finishing places ``engine.tournament.finishing_places`` gives the
  players who end with no chips, counting the hand's players as those left
  (rule 19);
- a hand whose point is how a hand is valued may add
  ``_expected_winning_hand`` (``"Straight, Queen High"``): what every pot
  won at the showdown is won with (rule 21);
- a hand that must be refused: it carries ``_expected_error`` (part of the
  reason) and ``_expected_error_action`` (the index in ``actions`` of the
  offending action).

To add a hand: write the file by hand, work the stacks out in comments, and
run this module.

Omaha hands (variant ``PO``) are also replayed in PokerKit's
``PotLimitOmahaHoldem``, which must agree on the finishing stacks, or, for a
refused raise (the last action of its file), on the largest raise allowed
there. So are the recorded straddle and bomb pot (rules 23 and 24), which
must end on the same stacks; PokerKit reads a hand run twice (rule 25) as run
once, since PHH cannot say otherwise.
"""

from __future__ import annotations

import re
import tomllib
import warnings
from pathlib import Path
from typing import Any

import pytest
from pokerkit import HandHistory, State

from engine.betting import legal_actions
from engine.events import PotAwarded
from engine.formats.phh import PhhError, from_phh, phh_order, to_phh
from engine.formats.phh_notation import toml_value
from engine.tournament import finishing_places

HANDS = Path(__file__).parent / "hands"
FILES = sorted(HANDS.glob("*.phh"))
SINGLE_HAND_RULES = (*range(1, 17), 19, *range(21, 26))  # 17, 18 and 20 need several hands


def _load(path: Path) -> tuple[str, dict[str, Any]]:
    text = path.read_text(encoding="utf-8")
    return text, tomllib.loads(text)


@pytest.mark.parametrize("path", [f for f in FILES if "_expected_error" not in _load(f)[1]],
                         ids=lambda f: f.stem)  # fmt: skip
def test_the_recorded_hand_replays_to_its_finishing_stacks(path: Path) -> None:
    text, fields = _load(path)
    state = from_phh(text)
    assert state.is_over
    assert [state.stacks[seat] for seat in phh_order(state)] == fields["finishing_stacks"]
    assert sum(state.stacks) == sum(fields["starting_stacks"])  # rule 16
    assert tomllib.loads(to_phh(state))["actions"] == fields["actions"]
    if "_expected_places" in fields:
        stacks = fields["starting_stacks"]
        busted = {
            f"p{i + 1}": stacks[i]
            for i, chips in enumerate(fields["finishing_stacks"])
            if not chips
        }
        assert finishing_places(busted, len(stacks)) == fields["_expected_places"]
    if "_expected_winning_hand" in fields:
        won_with = {
            e.description for e in state.events if isinstance(e, PotAwarded) and e.description
        }
        assert won_with == {fields["_expected_winning_hand"]}


@pytest.mark.parametrize("path", [f for f in FILES if "_expected_error" in _load(f)[1]],
                         ids=lambda f: f.stem)  # fmt: skip
def test_the_recorded_illegal_hand_is_refused_with_its_reason(path: Path) -> None:
    text, fields = _load(path)
    with pytest.raises(PhhError) as caught:
        from_phh(text)
    assert fields["_expected_error"] in caught.value.reason
    assert caught.value.action_index == fields["_expected_error_action"]


OMAHA_FILES = [f for f in FILES if _load(f)[1]["variant"] == "PO"]


def _pokerkit_end(text: str) -> State:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(HandHistory.loads(text))[-1]


@pytest.mark.parametrize("path", OMAHA_FILES, ids=lambda f: f.stem)
def test_pokerkit_plays_the_recorded_omaha_hand_as_felt_does(path: Path) -> None:
    text, fields = _load(path)
    if "_expected_error" not in fields:
        assert _pokerkit_end(text).stacks == fields["finishing_stacks"]
        return
    refused = fields["actions"][fields["_expected_error_action"]]
    assert refused == fields["actions"][-1]
    before = text.replace(f"  {toml_value(refused)},\n", "")
    largest = _pokerkit_end(before).max_completion_betting_or_raising_to_amount
    assert largest == legal_actions(from_phh(before)).max_raise_to


HOME_OPTION_FILES = [
    f
    for f in FILES
    if f.name.startswith(("rule23_", "rule24_")) and "_expected_error" not in _load(f)[1]
]


@pytest.mark.parametrize("path", HOME_OPTION_FILES, ids=lambda f: f.stem)
def test_pokerkit_plays_the_recorded_straddle_and_bomb_pot_as_felt_does(path: Path) -> None:
    text, fields = _load(path)
    assert _pokerkit_end(text).stacks == fields["finishing_stacks"]


def test_every_rule_a_single_hand_can_show_has_a_recorded_hand() -> None:
    covered = {int(m.group(1)) for f in FILES if (m := re.match(r"rule(\d\d)_", f.name))}
    assert set(SINGLE_HAND_RULES) <= covered


def test_every_recorded_hand_quotes_its_rule() -> None:
    for path in FILES:
        number = int(path.name[4:6])
        assert _load(path)[1]["_rule"].startswith(f"{number}. "), path.name
