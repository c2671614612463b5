"""engine.construction: values built without ``__init__`` equal normally built ones."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.betting import LegalActions, legal_actions
from engine.events import HoleCardsDealt, PlayerActed, hole_cards_dealt, player_acted
from engine.state import HandState, from_fields
from tests.engine.strategies import EXAMPLES, hands, play_out


@EXAMPLES
@given(hands(), st.data())
def test_every_state_and_its_options_equal_what_init_builds(
    state: HandState, data: st.DataObject
) -> None:
    for step in play_out(data, state):
        fields = dict(vars(step))
        built = HandState(**fields)
        assert from_fields(dict(fields)) == built and vars(built) == vars(step)
        legal = legal_actions(step)
        assert legal == LegalActions(*(getattr(legal, f.name) for f in dataclasses.fields(legal)))


def test_the_fast_events_equal_the_dataclass_ones_and_stay_frozen() -> None:
    acted = player_acted(3, "flop", "raise", 40, 60, False)
    assert acted == PlayerActed(3, "flop", "raise", 40, 60, False)
    assert hole_cards_dealt(2, (0, 51)) == HoleCardsDealt(2, (0, 51))
    with pytest.raises(dataclasses.FrozenInstanceError):
        acted.seat = 1  # type: ignore[misc]
