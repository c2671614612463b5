"""Seating a multi-table tournament: the draw, breaking, balancing, the final table."""

from __future__ import annotations

import random
from collections.abc import Hashable

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import engine
from engine.seating import (
    Move,
    SeatingPlan,
    TableSeating,
    arrival_seats,
    draw,
    next_big_blind,
    plan,
    table_count,
    worst_seat,
)


def apply(tables: list[TableSeating], result: SeatingPlan) -> dict[int, dict[int, Hashable]]:
    """The tables after the plan (final table under id 0)."""
    if result.final_table is not None:
        return {0: dict(result.final_table)}
    seated = {t.table: dict(t.players) for t in tables}
    for move in result.moves:
        source = seated[move.from_table]
        seat = next(n for n, p in source.items() if p == move.player)
        del source[seat]
        assert move.to_seat not in seated[move.to_table], "a seat taken twice"
        seated[move.to_table][move.to_seat] = move.player
    for broken in result.broken:
        assert not seated.pop(broken), "a broken table keeps no player"
    return seated


def test_thirty_players_at_six_seats_make_five_full_tables() -> None:
    tables = draw(list(range(30)), 6, random.Random(7))
    assert [len(t) for t in tables] == [6, 6, 6, 6, 6]


def test_a_draw_needs_players_and_real_tables() -> None:
    with pytest.raises(ValueError):
        table_count(0, 6)
    with pytest.raises(ValueError):
        table_count(5, 1)


@given(st.integers(1, 200), st.integers(2, 9), st.randoms(use_true_random=False))
def test_the_draw_seats_everyone_once_over_the_fewest_even_tables(
    players: int, seats: int, rng: random.Random
) -> None:
    tables = draw(list(range(players)), seats, rng)
    assert len(tables) == -(-players // seats)
    sizes = [len(t) for t in tables]
    assert max(sizes) - min(sizes) <= 1
    assert sorted(p for t in tables for p in t.values()) == list(range(players))
    assert all(0 <= n < seats for t in tables for n in t)


def test_the_player_due_the_big_blind_moves_to_the_worst_seat_of_the_short_table() -> None:
    big = TableSeating(1, 6, {0: "a", 1: "b", 2: "c", 3: "d", 4: "e", 5: "f"}, big_blind_seat=2)
    short = TableSeating(2, 6, {0: "g", 1: "h", 4: "i", 5: "j"}, big_blind_seat=0)
    result = plan([big, short], 6, random.Random(3))
    # "d" (seat 3) is due the big blind next at the big table; at the short one the
    # big blind was seat 0, so seat 2 is the first free seat it reaches (seat 1 is taken)
    assert result.moves == (Move("d", 1, 2, 2),)


def test_nobody_arrives_in_the_seat_that_posts_the_next_small_blind() -> None:
    # the last big blind (seat 3) busted: whoever sat there would post the small blind
    table = TableSeating(1, 6, {0: "a", 1: "b"}, big_blind_seat=3)
    assert 3 not in arrival_seats(table)
    assert worst_seat(table, random.Random(1)) == 4


@given(
    st.integers(3, 9).flatmap(
        lambda count: st.tuples(
            st.just(count),
            st.sets(st.integers(0, count - 1), min_size=2, max_size=count - 1),
            st.integers(0, count - 1),
        )
    ),
    st.randoms(use_true_random=False),
)
def test_an_arrival_posts_the_big_blind_soonest_and_never_the_small_blind(
    case: tuple[int, set[int], int], rng: random.Random
) -> None:
    count, occupied, last_big_blind = case
    table = TableSeating(1, count, {n: n for n in occupied}, big_blind_seat=last_big_blind)
    assume(arrival_seats(table))
    seat = worst_seat(table, rng)
    before = engine.Positions(last_big_blind, None, last_big_blind)
    after = engine.next_positions(before, {*occupied, seat}, count)
    assert after.small_blind_seat != seat
    for other in arrival_seats(table):  # no other free seat reaches the big blind sooner
        assert (seat - last_big_blind) % count <= (other - last_big_blind) % count


def test_a_busted_player_s_seat_takes_nobody_until_it_is_cleared() -> None:
    table = TableSeating(1, 6, {0: "a"}, big_blind_seat=0, blocked=frozenset({1, 2}))
    assert arrival_seats(table) == [3, 4, 5]


def test_a_table_with_no_seat_to_arrive_in_refuses_a_player() -> None:
    with pytest.raises(ValueError):
        worst_seat(TableSeating(1, 2, {0: "a"}, big_blind_seat=1), random.Random(1))
    with pytest.raises(ValueError):
        next_big_blind(TableSeating(1, 6, {}))


def test_before_its_first_hand_a_table_takes_a_player_in_any_free_seat() -> None:
    table = TableSeating(1, 6, {0: "a", 1: "b"})
    assert worst_seat(table, random.Random(2)) in {2, 3, 4, 5}
    assert next_big_blind(table) == 0


def test_a_table_the_others_have_room_for_is_broken() -> None:
    short = TableSeating(1, 6, {0: "a", 3: "b"}, big_blind_seat=0)
    other = TableSeating(2, 6, {0: "c", 2: "d", 3: "e", 4: "f"}, big_blind_seat=1)
    third = TableSeating(3, 6, {0: "g", 1: "h", 2: "i", 3: "j"}, big_blind_seat=5)
    result = plan([short, other, third], 6, random.Random(5))
    assert result.broken == (1,)
    seated = apply([short, other, third], result)
    assert [len(seated[2]), len(seated[3])] == [5, 5]
    # the empty seats of the last big blinds (2: seat 1, 3: seat 5) post the small blind
    assert (2, 1) not in [(m.to_table, m.to_seat) for m in result.moves]
    assert (3, 5) not in [(m.to_table, m.to_seat) for m in result.moves]


def test_the_players_left_wait_then_meet_at_one_final_table() -> None:
    busy = TableSeating(1, 6, {0: "a", 1: "b", 2: "c"}, big_blind_seat=0, is_between_hands=False)
    done = TableSeating(2, 6, {0: "d", 4: "e"}, big_blind_seat=4)
    waiting = plan([busy, done], 6, random.Random(1))
    assert waiting.is_waiting_for_final_table and not waiting.moves
    final = plan([TableSeating(1, 6, {0: "a", 1: "b", 2: "c"}, 0), done], 6, random.Random(1))
    assert final.broken == (1, 2)
    assert sorted(final.final_table.values()) == ["a", "b", "c", "d", "e"]  # type: ignore[union-attr]


def test_a_table_in_a_hand_gives_up_nobody() -> None:
    busy = TableSeating(1, 6, {n: n for n in range(6)}, big_blind_seat=0, is_between_hands=False)
    short = TableSeating(2, 6, {0: 10, 1: 11, 2: 12}, big_blind_seat=0)
    assert plan([busy, short], 6, random.Random(1)) == SeatingPlan()


def test_empty_tables_are_closed_with_the_rest_untouched() -> None:
    empty = TableSeating(1, 6, {}, big_blind_seat=0)
    full = TableSeating(2, 6, {n: n for n in range(6)}, big_blind_seat=0)
    full_too = TableSeating(3, 6, {n: n + 6 for n in range(6)}, big_blind_seat=0)
    assert plan([empty, full, full_too], 6, random.Random(1)) == SeatingPlan(broken=(1,))


@st.composite
def tournaments(draw_: st.DrawFn) -> tuple[list[TableSeating], int]:
    seats = draw_(st.integers(2, 9))
    tables = []
    for table_id in range(1, draw_(st.integers(1, 6)) + 1):
        taken = draw_(st.sets(st.integers(0, seats - 1), max_size=seats))
        big_blind = draw_(st.none() | st.integers(0, seats - 1))
        tables.append(
            TableSeating(
                table_id,
                seats,
                {n: (table_id, n) for n in taken},
                big_blind,
                draw_(st.booleans()),
            )
        )
    return tables, seats


@given(tournaments(), st.randoms(use_true_random=False))
def test_a_plan_keeps_everyone_seated_once_and_moves_only_from_tables_between_hands(
    case: tuple[list[TableSeating], int], rng: random.Random
) -> None:
    tables, seats = case
    result = plan(tables, seats, rng)
    seated = apply(tables, result)
    everyone = sorted(p for t in tables for p in t.players.values())  # type: ignore[type-var]
    assert sorted(p for t in seated.values() for p in t.values()) == everyone  # type: ignore[type-var]
    between = {t.table for t in tables if t.is_between_hands}
    by_id = {t.table: t for t in tables}
    for move in result.moves:
        assert move.from_table in between
        assert move.to_seat != by_id[move.to_table].big_blind_seat  # never the small blind
    if seated and not result.is_waiting_for_final_table:
        smallest = min(len(t) for t in seated.values())
        for table in tables:  # the band: a table between hands is within one of the smallest
            if table.is_between_hands and table.table in seated:
                assert len(seated[table.table]) <= smallest + 1
    if all(t.is_between_hands for t in tables) and everyone:
        sizes = [len(t) for t in seated.values()]
        assert max(sizes) - min(sizes) <= 1
        assert len(seated) == 1 or len(everyone) > seats  # the final table when they fit
