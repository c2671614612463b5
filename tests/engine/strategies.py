"""Hypothesis strategies for random hands."""

from __future__ import annotations

import os
from collections.abc import Iterator

from hypothesis import settings
from hypothesis import strategies as st

from engine.betting import apply_action
from engine.deal import new_hand
from engine.state import HandState
from tests.engine.dealing import awkward_stacks, offered_actions

# The property tests' budget; FELT_HYPOTHESIS_EXAMPLES=2000 for a deeper run than the everyday one.
EXAMPLES = settings(
    max_examples=int(os.environ.get("FELT_HYPOTHESIS_EXAMPLES", "150")), deadline=None
)


@st.composite
def hands(draw: st.DrawFn, short_big_blind: bool = False) -> HandState:
    """A fresh hand: 2-6 players (heads-up as likely as six-handed) at up to six seats,
    uneven stacks, about a fifth of them awkward (``awkward_stacks``), maybe antes.

    ``short_big_blind=True``: the big blind cannot post a full blind (rule 9).
    """
    player_count = draw(st.integers(2, 6))
    seat_count = draw(st.integers(player_count, 6))
    occupied = draw(st.permutations(range(seat_count)))[:player_count]
    small_blind, big_blind = draw(st.sampled_from([(1, 2), (5, 10), (2, 5)]))
    ante = draw(st.sampled_from([0, 0, 1, 3, 10]))
    regular = st.one_of(st.integers(1, 30), st.integers(31, 400))
    awkward = st.sampled_from(awkward_stacks(small_blind, big_blind, ante))
    stack = st.one_of(awkward, regular, regular, regular, regular)
    stacks: list[int | None] = [None] * seat_count
    for seat in occupied:
        stacks[seat] = draw(stack)
    players = sorted(occupied)
    # heads-up the button is a player (rule 8); otherwise any seat, maybe empty
    button = draw(st.sampled_from(players) if len(players) == 2 else st.integers(0, seat_count - 1))
    deck = draw(st.permutations(range(52)))
    state = new_hand(stacks, button, small_blind, big_blind, ante, deck=deck)
    if short_big_blind:
        short = [c for c in awkward_stacks(small_blind, big_blind, ante) if c < ante + big_blind]
        stacks[state.big_blind_seat] = draw(st.sampled_from(short))
        state = new_hand(stacks, button, small_blind, big_blind, ante, deck=deck)
    return state


def play_out(data: st.DataObject, state: HandState) -> Iterator[HandState]:
    """Yield the hand after each decision, choosing among the offered actions."""
    yield state
    while not state.is_over:
        between = data.draw(st.integers(0, 1000), label="raise size")
        options = offered_actions(state, between)
        state = apply_action(state, data.draw(st.sampled_from(options), label="action"))
        yield state
