"""Blind structures, payouts and finishing places (rule 19, sit-n-go conventions)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.tournament import (
    HYPER,
    REGULAR,
    STRUCTURES,
    TURBO,
    BlindLevel,
    finishing_places,
    payout_percentages,
    payouts,
)


def test_the_named_structures_have_their_stacks_and_level_lengths() -> None:
    assert (REGULAR.starting_stack, REGULAR.levels[0].minutes) == (1500, 10)
    assert (TURBO.starting_stack, TURBO.levels[0].minutes) == (1500, 5)
    assert (HYPER.starting_stack, HYPER.levels[0].minutes) == (500, 3)
    assert STRUCTURES["turbo"] is TURBO


def test_the_ladder_follows_the_common_sit_n_go_levels() -> None:
    ladder = [(lv.small_blind, lv.big_blind, lv.ante) for lv in REGULAR.levels]
    assert ladder[:9] == [
        (10, 20, 0),
        (15, 30, 0),
        (25, 50, 0),
        (50, 100, 0),
        (75, 150, 0),
        (100, 200, 0),
        (100, 200, 25),
        (150, 300, 25),
        (200, 400, 50),
    ]
    assert len(ladder) >= 15
    assert all(a[1] <= b[1] for a, b in zip(ladder, ladder[1:], strict=False))


def test_the_level_changes_when_its_time_is_up() -> None:
    assert TURBO.level_at(0) == (0, BlindLevel(10, 20, 0, 5))
    assert TURBO.level_at(299.9)[0] == 0
    assert TURBO.level_at(300)[0] == 1
    assert HYPER.level_at(3 * 60 * 7 + 1) == (7, BlindLevel(150, 300, 25, 3))


def test_after_the_last_level_the_structure_stays_on_it() -> None:
    last = len(REGULAR.levels) - 1
    assert REGULAR.level_at(10**9) == (last, REGULAR.levels[-1])


def test_elapsed_time_cannot_be_negative() -> None:
    with pytest.raises(ValueError, match="negative"):
        REGULAR.level_at(-1)


def test_six_player_sit_n_go_pays_65_and_35_percent() -> None:
    assert payouts(600, 6) == (390, 210)
    assert payouts(1001, 6) == (651, 350)  # the odd point goes to first place


@pytest.mark.parametrize(
    ("entrants", "paid"), [(1, 1), (2, 1), (3, 2), (7, 3), (10, 3), (18, 5), (27, 6), (45, 8)]
)
def test_bigger_fields_pay_more_places(entrants: int, paid: int) -> None:
    assert len(payout_percentages(entrants)) == paid
    assert sum(payout_percentages(entrants)) == 100


@given(st.integers(0, 10**7), st.integers(1, 200))
def test_payouts_add_up_to_the_pool_and_never_grow_down_the_places(
    pool: int, entrants: int
) -> None:
    prizes = payouts(pool, entrants)
    assert sum(prizes) == pool
    assert list(prizes) == sorted(prizes, reverse=True)


def test_payouts_refuse_impossible_fields() -> None:
    with pytest.raises(ValueError, match="at least one entrant"):
        payouts(100, 0)
    with pytest.raises(ValueError, match="negative"):
        payouts(-1, 6)


def test_a_tournament_s_own_percentages_split_the_pool() -> None:
    assert payouts(1000, 30, [50, 30, 20]) == (500, 300, 200)
    # a field smaller than the places paid: the unpaid places' share goes to first
    assert payouts(1000, 2, [50, 30, 20]) == (700, 300)


def test_percentages_that_do_not_add_up_to_100_are_refused() -> None:
    with pytest.raises(ValueError, match="add up to 100"):
        payouts(1000, 10, [50, 30])
    with pytest.raises(ValueError, match="add up to 100"):
        payouts(1000, 10, [110, -10])


@given(
    st.integers(0, 10**7),
    st.integers(1, 200),
    st.lists(st.integers(1, 100), min_size=1, max_size=12).filter(lambda s: sum(s) <= 100),
)
def test_own_percentages_always_pay_out_the_whole_pool(
    pool: int, entrants: int, shares: list[int]
) -> None:
    shares[0] += 100 - sum(shares)
    assert sum(payouts(pool, entrants, shares)) == pool


# rule 19
def test_of_two_players_busting_together_the_shorter_stack_finishes_lower() -> None:
    assert finishing_places({"ann": 300, "bob": 900}, players_left=4) == {"ann": 4, "bob": 3}


# rule 19
def test_players_busting_together_with_equal_stacks_share_the_place() -> None:
    places = finishing_places({"ann": 500, "bob": 500, "cy": 200}, players_left=6)
    assert places == {"ann": 4, "bob": 4, "cy": 6}


def test_a_lone_bust_takes_the_last_place() -> None:
    assert finishing_places({7: 1500}, players_left=6) == {7: 6}


def test_finishing_places_refuse_impossible_counts() -> None:
    with pytest.raises(ValueError, match="between one and players_left"):
        finishing_places({}, players_left=3)
    with pytest.raises(ValueError, match="between one and players_left"):
        finishing_places({1: 5, 2: 5}, players_left=1)
