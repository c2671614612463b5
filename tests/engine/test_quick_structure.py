"""The quick structure (engine/quick_structure.py): a few choices make a blind
structure a director would accept, ending at four starting stacks."""

from __future__ import annotations

import pytest

from engine import SPEEDS, quick_structure
from engine.quick_structure import MOST_LEVELS


@pytest.mark.parametrize("speed", sorted(SPEEDS))
def test_every_speed_rises_to_four_stacks_in_even_big_blinds(speed: str) -> None:
    levels = quick_structure(starting_stack=5000, level_minutes=20, speed=speed).levels
    bigs = [level.big_blind for level in levels]
    assert bigs == sorted(set(bigs))  # every level higher than the one before
    assert bigs[-1] >= 4 * 5000 > bigs[-2]
    assert all(level.small_blind * 2 == level.big_blind for level in levels)
    assert all(level.minutes == 20 for level in levels)
    assert len(levels) <= MOST_LEVELS


def test_antes_start_once_the_big_blind_is_ten_times_the_first() -> None:
    levels = quick_structure(starting_stack=1500, level_minutes=15).levels
    first = levels[0].big_blind
    assert [level.ante > 0 for level in levels] == [
        level.big_blind >= 10 * first for level in levels
    ]


def test_a_slower_speed_makes_more_levels() -> None:
    counts = [
        len(quick_structure(starting_stack=5000, level_minutes=20, speed=speed).levels)
        for speed in ("slow", "steady", "fast")
    ]
    assert counts == sorted(counts, reverse=True) and counts[0] > counts[-1]


def test_a_target_length_brings_the_big_blind_to_a_stack_about_then() -> None:
    quick = quick_structure(
        starting_stack=10_000, level_minutes=20, target_minutes=240, break_every_levels=4
    )
    breaks = dict(quick.breaks)
    clock, playing = 0, quick.levels[0]
    for number, level in enumerate(quick.levels, start=1):
        if clock > 240:
            break
        playing = level
        clock += level.minutes + breaks.get(number, 0)
    assert 5_000 <= playing.big_blind <= 20_000
    assert quick.breaks[:3] == ((4, 10), (8, 10), (12, 10))
    assert all(after < len(quick.levels) for after, _ in quick.breaks)  # none after the last


def test_a_target_too_short_or_too_long_is_held_to_the_fastest_or_slowest_rise() -> None:
    rushed = quick_structure(starting_stack=10_000, level_minutes=20, target_minutes=20)
    fastest = quick_structure(starting_stack=10_000, level_minutes=20, target_minutes=1)
    assert rushed.levels == fastest.levels
    leisurely = quick_structure(starting_stack=1500, level_minutes=1, target_minutes=6000)
    slowest = quick_structure(starting_stack=1500, level_minutes=1, target_minutes=9000)
    assert leisurely.levels == slowest.levels
    assert len(leisurely.levels) > len(rushed.levels)


def test_no_breaks_unless_asked() -> None:
    assert quick_structure(starting_stack=1500, level_minutes=15).breaks == ()


@pytest.mark.parametrize(
    "choices",
    [
        {"starting_stack": 1, "level_minutes": 10},
        {"starting_stack": 1500, "level_minutes": 0},
        {"starting_stack": 1500, "level_minutes": 10, "break_every_levels": -1},
    ],
)
def test_impossible_choices_are_refused(choices: dict[str, int]) -> None:
    with pytest.raises(ValueError, match="stack"):
        quick_structure(**choices)
