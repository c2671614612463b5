"""The moving button and blinds between hands (rules 17 and 18)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.deal import new_hand
from engine.positions import Positions, first_positions, next_positions, seats_passed
from engine.state import NO_SMALL_BLIND


def test_the_first_hand_puts_the_blinds_left_of_the_drawn_button() -> None:
    assert first_positions(4, occupied=(0, 1, 2, 3, 4, 5)) == Positions(4, 5, 0)


def test_a_drawn_empty_seat_passes_the_button_to_the_next_player() -> None:
    assert first_positions(1, occupied=(0, 2, 3, 5)) == Positions(2, 3, 5)


def test_heads_up_from_the_start_the_button_posts_the_small_blind() -> None:
    assert first_positions(3, occupied=(1, 3)) == Positions(3, 3, 1)


def test_with_everyone_still_in_everything_moves_one_seat() -> None:
    assert next_positions(Positions(0, 1, 2), occupied=range(6)) == Positions(1, 2, 3)


# rule 17
def test_when_the_big_blind_busts_the_next_hand_has_a_dead_small_blind() -> None:
    after = next_positions(Positions(0, 1, 2), occupied=(0, 1, 3, 4, 5))
    assert after == Positions(1, None, 3)


# rule 17
def test_after_a_dead_small_blind_the_button_lands_on_an_empty_seat() -> None:
    after = next_positions(Positions(1, None, 3), occupied=(0, 1, 3, 4, 5))
    assert after == Positions(2, 3, 4)


# rule 17
def test_when_the_small_blind_busts_the_next_button_is_dead() -> None:
    after = next_positions(Positions(0, 1, 2), occupied=(0, 2, 3, 4, 5))
    assert after == Positions(1, 2, 3)


# rule 18
def test_going_heads_up_nobody_posts_the_big_blind_twice_in_a_row() -> None:
    # Seat 4 was the big blind; seats 0 and 2 bust. Seat 5 is due the big blind,
    # seat 4 takes the button and the small blind.
    after = next_positions(Positions(2, 3, 4), occupied=(4, 5))
    assert after == Positions(4, 4, 5)
    assert next_positions(after, occupied=(4, 5)) == Positions(5, 5, 4)


# rule 18
def test_when_the_big_blind_busts_going_heads_up_the_next_player_posts_it() -> None:
    after = next_positions(Positions(0, 1, 2), occupied=(0, 1))
    assert after == Positions(1, 1, 0)


# rules 17 and 29
def test_from_heads_up_to_three_the_button_leaves_the_big_blind() -> None:
    # seat 1 had the button and the small blind heads-up; seat 2 is back. Seat 1 is
    # due the big blind, so the button goes just before the small blind: onto seat 2.
    assert next_positions(Positions(1, 1, 0), occupied=(0, 1, 2), seat_count=3) == Positions(
        2, 0, 1
    )
    # ... or onto an empty seat there: a dead button, with the newcomer under the gun
    assert next_positions(Positions(1, 1, 0), occupied=(0, 1, 4)) == Positions(5, 0, 1)


def test_positions_need_two_players_on_real_seats() -> None:
    with pytest.raises(ValueError, match="at least two players"):
        first_positions(0, occupied=(3,))
    with pytest.raises(ValueError, match="seat numbers from 0 to 5"):
        next_positions(Positions(0, 1, 2), occupied=(0, 6))


def clockwise_between(start: int, end: int, seat_count: int) -> list[int]:
    """Seats strictly after ``start`` and before ``end``, clockwise."""
    seats = []
    seat = (start + 1) % seat_count
    while seat != end:
        seats.append(seat)
        seat = (seat + 1) % seat_count
    return seats


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[int, list[set[int]], int]:
    """A table size, the occupied seats hand after hand (busts only), the first button."""
    seat_count = draw(st.integers(2, 10))
    occupied = set(draw(st.sets(st.integers(0, seat_count - 1), min_size=2)))
    history = [set(occupied)]
    while len(occupied) > 2 or (len(occupied) == 2 and draw(st.booleans())):
        busted = draw(st.sets(st.sampled_from(sorted(occupied)), max_size=len(occupied) - 2))
        occupied -= busted
        history.append(set(occupied))
        if len(history) > 40:
            break
    return seat_count, history, draw(st.integers(0, seat_count - 1))


# rules 17 and 18
@settings(max_examples=300, deadline=None)
@given(tournaments())
def test_the_big_blind_never_repeats_or_skips_a_player(
    table: tuple[int, list[set[int]], int],
) -> None:
    seat_count, history, button = table
    positions = first_positions(button, history[0], seat_count)
    for before, occupied in zip(history, history[1:], strict=False):
        assert positions.big_blind_seat in before
        snapshot = set(occupied)
        after = next_positions(positions, occupied, seat_count)
        assert occupied == snapshot  # the input is left alone
        assert after.big_blind_seat != positions.big_blind_seat
        skipped = set(clockwise_between(positions.big_blind_seat, after.big_blind_seat, seat_count))
        assert not skipped & occupied  # rule 17: exactly one player forward
        if len(occupied) == 2:
            assert after.button == after.small_blind_seat  # rule 18
        else:
            between = clockwise_between(after.button, after.big_blind_seat, seat_count)
            expected = [] if after.small_blind_seat is None else [after.small_blind_seat]
            assert [s for s in between if s in occupied] == expected
        stacks = [100 if s in occupied else None for s in range(seat_count)]
        sb = after.small_blind_seat
        state = new_hand(
            stacks,
            after.button,
            small_blind_seat=NO_SMALL_BLIND if sb is None else sb,
            big_blind_seat=after.big_blind_seat,
        )
        assert state.big_blind_seat == after.big_blind_seat
        positions = after


# rule 29
def test_the_big_blind_passes_the_seats_between_its_last_two_places() -> None:
    # seats 3 and 4 sat out: the big blind went from 2 to 5 past them
    assert seats_passed(Positions(0, 1, 2), Positions(1, 2, 5)) == (3, 4)


# rule 29
def test_a_big_blind_moving_one_seat_passes_nobody() -> None:
    assert seats_passed(Positions(0, 1, 2), Positions(1, 2, 3)) == ()


# rule 29
def test_the_big_blind_passes_seats_across_the_end_of_the_ring() -> None:
    assert seats_passed(Positions(3, 4, 5), Positions(4, 5, 1), seat_count=6) == (0,)
