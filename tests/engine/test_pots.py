"""Uncalled bets, side pots, split pots and odd chips (rules 7, 11, 12, 16)."""

from __future__ import annotations

import pytest

from engine.events import PotAwarded, UncalledBetReturned
from engine.pots import Pot, build_pots, split_pot
from tests.engine.dealing import deal, play


def awards(state) -> list[PotAwarded]:  # type: ignore[no-untyped-def]
    return [e for e in state.events if isinstance(e, PotAwarded)]


# rule 7
def test_the_uncalled_part_of_a_bet_is_returned_before_the_pot_is_awarded() -> None:
    state = play(deal([100, 100, 100], button=0), 10, "f", "f")
    returned = state.events.index(UncalledBetReturned(0, 8))
    awarded = state.events.index(awards(state)[0])
    assert returned < awarded
    assert awards(state)[0].amount == 5  # the raiser's 2 called chips + blinds
    assert state.stacks == (103, 99, 98)


# rule 7
def test_an_all_in_bigger_than_every_caller_gets_the_excess_back() -> None:
    holes = {0: "AsAh", 1: "KsKh"}
    state = play(deal([500, 200, 100], button=2, holes=holes, board="2c3d8h9sTc"), "f", 500, "c")
    assert UncalledBetReturned(0, 300) in state.events
    assert state.is_over
    assert state.stacks == (700, 0, 100)


# rule 11
def test_each_all_in_level_makes_a_side_pot_only_its_contributors_can_win() -> None:
    holes = {0: "AsAh", 1: "KsKh", 2: "QsQh", 3: "JsJh"}
    stacks: list[int | None] = [50, 100, 200, 300]
    state = deal(stacks, button=3, holes=holes, board="2c3d8h9s4c")
    state = play(state, 200, "c", "c", "c")  # seat 2 all-in, everyone calls
    assert [(a.amount, a.eligible) for a in awards(state)] == [
        (200, (0, 1, 2, 3)),
        (150, (1, 2, 3)),
        (200, (2, 3)),
    ]
    # rule 11: each pot is awarded on its own
    assert [a.shares for a in awards(state)] == [((0, 200),), ((1, 150),), ((2, 200),)]
    assert state.stacks == (200, 150, 200, 100)


# rule 12
def test_a_split_pot_gives_the_odd_chip_to_the_first_winner_left_of_the_button() -> None:
    holes = {0: "AsKh", 1: "AhKs", 2: "2c3c"}
    state = deal([100, 100, 100], button=0, holes=holes, board="AdKdQh7s2s", ante=1)
    state = play(state, "c", "c", "x", *"xxxxxxxxx")  # pot of 3 antes + 6 = 9
    assert awards(state)[0].shares == ((1, 5), (0, 4))
    assert state.stacks == (101, 102, 97)


# rule 12
def test_odd_chips_of_different_pots_are_not_combined() -> None:
    # Seats 1 and 3 tie; seat 2 is all-in short. Each pot has one odd chip,
    # and each goes to seat 1, the first tied winner left of the button.
    holes = {1: "AsKh", 3: "AhKs", 2: "2c3d", 0: "4c5d"}
    stacks: list[int | None] = [100, 100, 6, 100, 100]
    state = deal(stacks, button=0, holes=holes, board="AdKdQh7s8s", ante=1)
    state = play(state, "c", "f", "c", "c", 5, "c", "c", "c")  # seat 2 all-in for 5
    state = play(state, 9, "c", "c", 10, "c", "f", "x", "x")  # seat 0 folds the turn
    pots = awards(state)
    assert [(p.amount, p.eligible) for p in pots] == [(25, (1, 2, 3)), (47, (1, 3))]
    assert [p.shares for p in pots] == [((1, 13), (3, 12)), ((1, 24), (3, 23))]


def test_build_pots_layers_chips_by_all_in_level() -> None:
    pots = build_pots((50, 100, 100, 30), (True, True, True, False), (0, 10, 10, 500))
    assert pots == (Pot(180, (0, 1, 2)), Pot(100, (1, 2)))


def test_chips_above_every_live_stake_are_refused_not_awarded() -> None:
    # Betting cannot leave a folded player's chips above every live player
    # (rule 9's exception); if a caller builds that, nobody silently wins them.
    with pytest.raises(ValueError, match="no live player reached the pot layer up to 100"):
        build_pots((100, 40), (False, True), (0, 0))


def test_split_pot_orders_winners_from_the_left_of_the_button() -> None:
    assert split_pot(10, (4, 1, 2), button=1, seat_count=6) == ((2, 4), (4, 3), (1, 3))
    assert split_pot(9, (0, 5), button=5, seat_count=6) == ((0, 5), (5, 4))


def test_the_pots_property_shows_chips_gathered_from_finished_streets() -> None:
    state = play(deal([100, 100, 100], button=0, ante=1), "c", "c", "x")
    assert state.pots == (Pot(9, (0, 1, 2)),)
    state = play(state, 10)
    assert state.pots == (Pot(9, (0, 1, 2)),)
    assert state.bets == (0, 10, 0)


def test_once_the_hand_is_over_every_pot_is_paid_out() -> None:
    state = play(deal([100, 100, 100], button=0), "f", "f")
    assert state.pots == ()
    assert sum(state.stacks) == 300
