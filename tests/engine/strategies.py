"""Hypothesis strategies for random hands."""

from __future__ import annotations

import os
from collections.abc import Iterator

from hypothesis import settings
from hypothesis import strategies as st

from engine.betting import apply_action
from engine.state import HandState, new_hand
from tests.engine.dealing import offered_actions

# The property tests' budget; FELT_HYPOTHESIS_EXAMPLES=2000 for a deeper run than the everyday one.
EXAMPLES = settings(
    max_examples=int(os.environ.get("FELT_HYPOTHESIS_EXAMPLES", "150")), deadline=None
)


@st.composite
def hands(draw: st.DrawFn) -> HandState:
    """A fresh hand: 2-6 seats (some empty), uneven stacks, maybe antes."""
    seat_count = draw(st.integers(2, 6))
    stack = st.one_of(st.integers(1, 30), st.integers(31, 400))
    stacks = draw(st.lists(st.one_of(st.none(), stack), min_size=seat_count, max_size=seat_count))
    for seat in draw(st.permutations(range(seat_count)))[:2]:
        if not stacks[seat]:
            stacks[seat] = draw(stack)
    small_blind, big_blind = draw(st.sampled_from([(1, 2), (5, 10), (2, 5)]))
    ante = draw(st.sampled_from([0, 0, 1, 3]))
    players = [seat for seat in range(seat_count) if stacks[seat]]
    # heads-up the button is a player (rule 8); otherwise any seat, maybe empty
    button = draw(st.sampled_from(players) if len(players) == 2 else st.integers(0, seat_count - 1))
    deck = draw(st.permutations(range(52)))
    return new_hand(stacks, button, small_blind, big_blind, ante, deck=deck)


def play_out(data: st.DataObject, state: HandState) -> Iterator[HandState]:
    """Yield the hand after each decision, choosing among the offered actions."""
    yield state
    while not state.is_over:
        between = data.draw(st.integers(0, 1000), label="raise size")
        options = offered_actions(state, between)
        state = apply_action(state, data.draw(st.sampled_from(options), label="action"))
        yield state
