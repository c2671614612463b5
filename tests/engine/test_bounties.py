"""Knock-outs and bounties: who knocked a player out and who takes the bounty
(rule 26), progressive knockout halves (rule 27)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.bounties import knockouts, progressive_bounty, split_bounty
from engine.cards import DECK, cards
from engine.deal import new_hand
from engine.streets import choose_runouts
from tests.engine.dealing import deal, play
from tests.engine.strategies import EXAMPLES, hands, play_out


def stacked(*dealt: str) -> tuple[int, ...]:
    """A deck dealing ``dealt`` first (cards in dealing order), the rest after."""
    front = cards("".join(dealt))
    return (*front, *[c for c in DECK if c not in front])


# ---------------------------------------------------------------- rule 26: knock-outs


def test_the_winner_of_the_all_in_knocks_the_player_out() -> None:
    holes = {0: "7c2d", 1: "KsKd"}
    state = play(deal([100, 300], button=0, holes=holes, board="As9c8h4sJd"), 100, "c")
    assert state.stacks == (0, 400)
    assert knockouts(state) == {0: (1,)}


def test_a_player_who_wins_the_all_in_is_not_knocked_out() -> None:
    holes = {0: "KsKd", 1: "7c2d"}
    state = play(deal([100, 300], button=0, holes=holes, board="As9c8h4sJd"), 100, "c")
    assert state.stacks == (200, 200)
    assert knockouts(state) == {}


def test_each_player_busted_in_a_hand_is_knocked_out_by_the_winners_of_their_last_pot() -> None:
    # main pot (seats 0-2) to seat 2's kings; seat 1's side pot to seat 3's queens
    holes = {0: "7c2d", 1: "8c3d", 2: "KsKh", 3: "QsQh"}
    stacks: list[int | None] = [300, 50, 100, 500]
    state = deal(stacks, button=3, holes=holes, board="Ad9c5h4sJd")
    # seat 2 (first to act) is all-in for 100, seat 3 raises to 500, both blinds call
    state = play(state, 100, 500, "c", "c")
    assert state.stacks == (0, 0, 350, 600)
    # seat 1 was in the main pot only (kings win it); seat 0's last chips are in the
    # top side pot between seats 0 and 3 (queens win it)
    assert knockouts(state) == {0: (3,), 1: (2,)}


def test_a_split_pot_knocks_out_with_every_winner_listed_from_the_left_of_the_button() -> None:
    # seats 0 and 2 hold the same straight; seat 1 busts
    holes = {0: "JcTd", 1: "7c2d", 2: "JdTc"}
    stacks: list[int | None] = [300, 100, 200]
    state = play(deal(stacks, button=0, holes=holes, board="9s8h7d2c3s"), 300, "c", "c")
    assert state.stacks[1] == 0
    assert knockouts(state) == {1: (2, 0)}


# rule 7
def test_a_player_whose_uncalled_chips_come_back_is_not_knocked_out() -> None:
    holes = {0: "7c2d", 1: "KsKd"}
    # seat 0 covers seat 1, loses to it, and has the unmatched 300 returned
    state = play(deal([500, 200], button=0, holes=holes, board="As9c8h4sJd"), 500, "c")
    assert state.stacks == (300, 400)
    assert knockouts(state) == {}
    # everyone folds to an all-in: its chips come back and the blinds with them
    state = play(deal([100, 300, 300], button=0), 100, "f", "f")
    assert knockouts(state) == {}


# rule 25
def test_run_twice_the_winners_of_either_board_knock_the_player_out() -> None:
    # dealing order seats 1, 2, 0: seat 1 has 7-2, seat 2 kings, seat 0 aces; the
    # first board goes to the aces, the second to the kings
    deck = stacked("7c Ks As", "2d Kh Ah", "Qd Jc 9h 5s 3c", "Kd 8c 4h Ts 6d")
    hand = new_hand([100, 100, 100], button=0, deck=deck, run_it_twice=True)
    hand = choose_runouts(play(hand, 100, "c", "c"), 2)
    assert hand.stacks == (150, 0, 150)
    assert knockouts(hand) == {1: (2, 0)}


def test_knock_outs_are_known_only_once_the_hand_is_over() -> None:
    with pytest.raises(ValueError, match="once the hand is over"):
        knockouts(deal([100, 300], button=0))


@EXAMPLES
@given(st.data())
def test_a_knocked_out_player_ends_with_nothing_and_the_knockers_won_chips(
    data: st.DataObject,
) -> None:
    *_, state = play_out(data, data.draw(hands()))
    found = knockouts(state)
    for busted, knockers in found.items():
        assert state.starting_stacks[busted] and state.stacks[busted] == 0
        assert knockers and busted not in knockers
        assert all(state.stacks[seat] > 0 for seat in knockers)
    assert set(found) == {seat for seat in state.players if state.stacks[seat] == 0}


# ---------------------------------------------------------------- rule 26: the bounty


def test_the_covering_stack_takes_the_whole_bounty() -> None:
    assert split_bounty(25, {1: 800, 4: 1200}, order=(4, 1)) == {4: 25}


def test_equal_covering_stacks_share_the_bounty_odd_point_first_in_order() -> None:
    assert split_bounty(25, {1: 800, 3: 800, 4: 500}, order=(3, 4, 1)) == {3: 13, 1: 12}
    assert split_bounty(25, {1: 800, 3: 800, 4: 500}, order=(1, 3, 4)) == {1: 13, 3: 12}
    assert split_bounty(24, {1: 800, 3: 800}, order=(1, 3)) == {1: 12, 3: 12}


def test_a_bounty_smaller_than_the_players_sharing_it_leaves_some_with_nothing() -> None:
    assert split_bounty(1, {0: 9, 1: 9, 2: 9}, order=(2, 1, 0)) == {2: 1, 1: 0, 0: 0}


def test_a_bounty_needs_a_taker_an_order_for_them_and_no_debt() -> None:
    with pytest.raises(ValueError, match="seat 3 is not in the order"):
        split_bounty(10, {1: 800, 3: 800}, order=(1,))
    with pytest.raises(ValueError, match="at least one seat"):
        split_bounty(10, {}, order=())
    with pytest.raises(ValueError, match="cannot be negative"):
        split_bounty(-1, {1: 800}, order=(1,))


@given(
    st.integers(0, 10**6),
    st.dictionaries(st.integers(0, 9), st.integers(1, 5), min_size=1),
    st.randoms(use_true_random=False),
)
def test_the_whole_bounty_is_always_paid_to_the_covering_stacks(
    amount: int, starting: dict[int, int], rng: random.Random
) -> None:
    order = list(range(10))
    rng.shuffle(order)
    shares = split_bounty(amount, starting, order)
    assert sum(shares.values()) == amount
    assert {starting[seat] for seat in shares} == {max(starting.values())}
    assert max(shares.values()) - min(shares.values()) <= 1


# ---------------------------------------------------------------- rule 27


def test_a_progressive_bounty_pays_half_now_and_adds_half_to_the_winner_s_own() -> None:
    assert progressive_bounty(10) == (5, 5)
    assert progressive_bounty(25) == (13, 12)  # the odd point is paid now
    assert progressive_bounty(1) == (1, 0)
    assert progressive_bounty(0) == (0, 0)


def test_a_progressive_bounty_cannot_be_negative() -> None:
    with pytest.raises(ValueError, match="cannot be negative"):
        progressive_bounty(-2)
