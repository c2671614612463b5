"""The one text form of an action: ``str(action)`` out, ``engine.parse_action`` in."""

from __future__ import annotations

import pytest

import engine
from engine.actions import Call, Check, Fold, RaiseTo, parse_action


@pytest.mark.parametrize(
    ("action", "text"),
    [(Fold(), "fold"), (Check(), "check"), (Call(), "call"), (RaiseTo(300), "raise 300")],
)
def test_an_action_reads_back_from_its_text(action: engine.Action, text: str) -> None:
    assert str(action) == text
    assert parse_action(text) == action


def test_a_bet_is_a_raise_from_nothing_and_case_and_spaces_do_not_matter() -> None:
    assert parse_action("bet 40") == RaiseTo(40)
    assert parse_action("  RAISE   1200 ") == RaiseTo(1200)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "is not an action"),
        ("shove", "is not an action"),
        ("raise", "is not an action"),
        ("fold 10", "is not an action"),
        ("raise 10 20", "is not an action"),
        ("raise -5", "'-5' is not a whole number of chips"),
        ("raise 1e3", "'1e3' is not a whole number of chips"),
        ("raise ٣", "is not a whole number of chips"),  # a digit, but not an ASCII one
    ],
)
def test_a_text_that_is_no_action_is_refused_saying_why(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        parse_action(text)
