"""Prize equity by the independent chip model, chip-chop deals, and deals in whole
points (rule 28)."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import permutations
from math import ceil, prod

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.icm import chip_chop_deal, chip_chop_equities, icm_deal, icm_equities


def every_finishing_order(stacks: list[int], prizes: list[int]) -> list[Fraction]:
    """ICM the slow way: each finishing order's chance, place by place, times its prizes."""
    equities = [Fraction(0)] * len(stacks)
    for finish in permutations(range(len(stacks))):
        left = sum(stacks)
        chances = []
        for player in finish:
            chances.append(Fraction(stacks[player], left))
            left -= stacks[player]
        chance = prod(chances, start=Fraction(1))
        for place, player in enumerate(finish[: len(prizes)]):
            equities[player] += chance * prizes[place]
    return equities


def table(max_players: int) -> st.SearchStrategy[tuple[list[int], list[int]]]:
    """Stacks and prizes (largest first, no more prizes than players)."""
    return st.integers(2, max_players).flatmap(
        lambda count: st.tuples(
            st.lists(st.integers(1, 10**6), min_size=count, max_size=count),
            st.lists(st.integers(0, 10**5), min_size=0, max_size=count).map(
                lambda prizes: sorted(prizes, reverse=True)
            ),
        )
    )


# ------------------------------------------------------------ published figures


def test_it_gives_the_published_four_handed_figures_to_the_cent() -> None:
    """Stacks 5000/3000/1500/500, prizes 500/300/200: the page gives the equities
    377.78, 312.89, 225.60 and 83.73 (https://pailiku.com/tools/icm-calculator/result)."""
    equities = icm_equities([5000, 3000, 1500, 500], [500, 300, 200])
    assert [round(float(e), 2) for e in equities] == [377.78, 312.89, 225.60, 83.73]


def test_it_gives_the_published_three_handed_figures_to_the_dime() -> None:
    """Stacks 60,000/30,000/10,000, prizes $500/$300/$200: the page gives $412.40,
    $338.30 and $249.30, figures to the tenth of a dollar (412.38 to the cent)
    (https://beatthefish.com/tools/icm-calculator/)."""
    equities = icm_equities([60_000, 30_000, 10_000], [500, 300, 200])
    assert [round(float(e), 1) for e in equities] == [412.4, 338.3, 249.3]


def test_a_chip_chop_gives_the_published_figures_rounded_up_to_the_cent() -> None:
    """Five players with 15,000/12,000/10,000/6,000/500 chips, $570 left to pay and
    $57 for the next player out: the page gives $155.28, $135.63, $122.52, $96.32 and
    $60.28, each rounded up to the cent (they add up to $570.03)
    (https://help.nj.betmgm.com/en/poker-help/game-rules/faq/tournaments/deal-making/chip-payout)."""
    stacks = [15_000, 12_000, 10_000, 6_000, 500]
    prizes = [200, 130, 100, 83, 57]  # any prizes adding up to 570 with 57 for 5th
    shares = chip_chop_equities(stacks, prizes)
    assert [ceil(share * 100) / 100 for share in shares] == [155.28, 135.63, 122.52, 96.32, 60.28]
    # the deal in cents: whole cents that add up to the $570 exactly
    cents = chip_chop_deal(stacks, [prize * 100 for prize in prizes])
    assert sum(cents) == 57_000
    assert cents == (15_528, 13_562, 12_252, 9_631, 6_027)


# ------------------------------------------------------------ the model


def test_heads_up_the_model_is_the_chip_count() -> None:
    assert icm_equities([300, 100], [100, 50]) == (Fraction(175, 2), Fraction(125, 2))
    assert chip_chop_equities([300, 100], [100, 50]) == icm_equities([300, 100], [100, 50])


def test_a_player_alone_wins_the_first_prize() -> None:
    assert icm_equities([5], [100]) == (100,)


def test_places_beyond_the_prizes_pay_nothing() -> None:
    assert icm_equities([1, 1, 1], []) == (0, 0, 0)
    # one prize: the chance of first place is the share of the chips
    assert icm_equities([1, 2, 3], [60]) == (10, 20, 30)


def test_seven_players_match_every_finishing_order() -> None:
    stacks = [9_000, 1, 250, 7_777, 3_000, 3_000, 500_000]
    prizes = [400, 250, 150, 100, 50, 30]
    assert list(icm_equities(stacks, prizes)) == every_finishing_order(stacks, prizes)


@given(table(max_players=6))
def test_it_matches_every_finishing_order(game: tuple[list[int], list[int]]) -> None:
    stacks, prizes = game
    assert list(icm_equities(stacks, prizes)) == every_finishing_order(stacks, prizes)


@given(table(max_players=9))
def test_equities_add_up_to_the_prizes_exactly(game: tuple[list[int], list[int]]) -> None:
    stacks, prizes = game
    assert sum(icm_equities(stacks, prizes)) == sum(prizes)
    assert sum(chip_chop_equities(stacks, prizes)) == sum(prizes)


@given(table(max_players=7))
def test_more_chips_are_never_worth_less(game: tuple[list[int], list[int]]) -> None:
    stacks, prizes = game
    for values in (icm_equities(stacks, prizes), chip_chop_equities(stacks, prizes)):
        by_stack = sorted(zip(stacks, values, strict=True))
        assert [value for _, value in by_stack] == sorted(values)


@given(st.integers(2, 9), st.integers(1, 10**6), table(max_players=9))
def test_equal_stacks_are_worth_the_same(
    count: int, chips: int, game: tuple[list[int], list[int]]
) -> None:
    _, prizes = game
    prizes = prizes[:count]
    values = icm_equities([chips] * count, prizes)
    assert set(values) == {Fraction(sum(prizes), count)}


@pytest.mark.parametrize("share", [0.999, 0.9999])
def test_a_chip_leader_with_nearly_every_chip_is_worth_nearly_the_first_prize(
    share: float,
) -> None:
    total = 10**6
    leader = round(total * share)
    short = (total - leader) // 4
    stacks = [leader, short, short, short, total - leader - 3 * short]
    prizes = [500, 250, 150, 100]
    leader_value = icm_equities(stacks, prizes)[0]
    chance_not_first = Fraction(total - leader, total)
    # first place but for the chips of the others, and never less than nothing
    assert 500 * (1 - chance_not_first) <= leader_value < 500


# ------------------------------------------------------------ chip chop


def test_a_chip_chop_guarantees_the_last_place_s_prize() -> None:
    # 100 each, then the other 700 by chips: 350, 210, 140
    assert chip_chop_equities([500, 300, 200], [600, 300, 100]) == (450, 310, 240)


def test_a_chip_chop_with_more_players_than_prizes_is_the_plain_chip_count() -> None:
    assert chip_chop_equities([500, 300, 200], [600, 400]) == (500, 300, 200)


# ------------------------------------------------------------ deals in whole points


def test_a_deal_rounds_by_the_largest_remainders() -> None:
    # 45.18, 32.25, 22.57: the point left over goes to .57
    assert icm_deal([50, 30, 20], [70, 30]) == (45, 32, 23)


def test_equal_remainders_go_to_the_larger_stack_first() -> None:
    # 87.5 and 62.5
    assert icm_deal([300, 100], [100, 50]) == (88, 62)
    assert icm_deal([100, 300], [100, 50]) == (62, 88)


def test_equal_remainders_and_stacks_go_by_the_order_given() -> None:
    assert chip_chop_deal([1, 1, 1], [100]) == (34, 33, 33)
    assert chip_chop_deal([1, 1, 1], [100], order=[2, 0, 1]) == (33, 33, 34)
    assert chip_chop_deal([1, 1, 1], [101], order=[2, 0, 1]) == (34, 33, 34)
    assert icm_deal([7, 7, 7, 7], [10, 5], order=[3, 2, 1, 0]) == (3, 4, 4, 4)


def test_an_order_that_is_not_every_player_once_is_refused() -> None:
    for order in ([0, 1], [0, 0, 1], [1, 2, 3]):
        with pytest.raises(ValueError, match="order must list each player index from 0 to 2"):
            icm_deal([1, 2, 3], [10, 5], order=order)


def test_points_kept_for_the_winner_come_off_the_first_prize() -> None:
    # prizes 80/50 are dealt: 72.5 and 57.5; the winner later adds the 20 kept
    assert icm_deal([300, 100], [100, 50], kept_for_winner=20) == (73, 57)
    assert chip_chop_deal([500, 300, 200], [600, 300, 100], kept_for_winner=300) == (300, 220, 180)


def test_at_most_the_gap_between_first_and_second_can_be_kept() -> None:
    assert sum(icm_deal([1, 2, 3], [100, 60, 0], kept_for_winner=40)) == 120
    with pytest.raises(ValueError, match=r"between 0 and the first prize minus the second \(40\)"):
        icm_deal([1, 2, 3], [100, 60], kept_for_winner=41)
    with pytest.raises(ValueError, match="not -1"):
        chip_chop_deal([1, 2, 3], [100, 60], kept_for_winner=-1)
    # a single prize may be kept whole
    assert chip_chop_deal([1, 2, 3], [100], kept_for_winner=100) == (0, 0, 0)


@given(
    table(max_players=8),
    st.integers(0, 10**5),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_a_deal_pays_out_exactly_and_never_a_point_from_the_exact_value(
    game: tuple[list[int], list[int]], first: int, chop: bool, rng: random.Random
) -> None:
    stacks, prizes = game
    prizes = sorted([first, *prizes[1:]], reverse=True)[: len(stacks)]
    order = list(range(len(stacks)))
    rng.shuffle(order)
    kept = (prizes[0] - (prizes[1] if len(prizes) > 1 else 0)) // 3
    deal, exact = (chip_chop_deal, chip_chop_equities) if chop else (icm_deal, icm_equities)
    points = deal(stacks, prizes, kept_for_winner=kept, order=order)
    values = exact(stacks, [prizes[0] - kept, *prizes[1:]])
    assert sum(points) == sum(prizes) - kept
    assert all(abs(point - value) < 1 for point, value in zip(points, values, strict=True))


# ------------------------------------------------------------ refusals


@pytest.mark.parametrize("function", [icm_equities, chip_chop_equities, icm_deal, chip_chop_deal])
def test_impossible_tables_are_refused_with_a_reason(function) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="at least one player"):
        function([], [])
    with pytest.raises(ValueError, match="every stack must be positive: player 1 has 0 chips"):
        function([10, 0], [5])
    with pytest.raises(ValueError, match="every stack must be positive: player 0 has -3 chips"):
        function([-3, 10], [5])
    with pytest.raises(ValueError, match="3 prizes for 2 players"):
        function([10, 20], [3, 2, 1])
    with pytest.raises(ValueError, match="prizes cannot be negative"):
        function([10, 20], [5, -1])


def test_a_deal_needs_a_prize_to_share() -> None:
    with pytest.raises(ValueError, match="a deal needs at least one prize"):
        icm_deal([1, 2], [])
