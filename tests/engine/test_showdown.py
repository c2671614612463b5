"""Showdown order, show or muck, and the all-in run-out (rules 13-15)."""

from __future__ import annotations

from engine.cards import cards
from engine.evaluator import describe, evaluate
from engine.events import BoardDealt, CardsMucked, CardsShown, PotAwarded
from engine.showdown import showdown_order
from tests.engine.dealing import deal, play

BOARD = "7c8d9hJsQs"


def reveals(state) -> list[tuple[str, int]]:  # type: ignore[no-untyped-def]
    return [(e.kind, e.seat) for e in state.events if isinstance(e, CardsShown | CardsMucked)]


def to_river(holes: dict[int, str], board: str = BOARD):  # type: ignore[no-untyped-def]
    """Three players, button 0, everyone checks to the river."""
    state = deal([100, 100, 100], button=0, holes=holes, board=board)
    return play(state, "c", "c", "x", *"xxxxxx")


# rule 13
def test_the_last_player_to_bet_on_the_river_shows_first() -> None:
    state = to_river({0: "AsAh", 1: "KsKh", 2: "2c3d"})
    assert showdown_order(play(state, "x", 10, "c")) == (2, 0, 1)
    state = play(state, "x", 10, "c", "c")
    assert reveals(state) == [("cards_shown", 2), ("cards_shown", 0), ("cards_mucked", 1)]


# rule 13
def test_with_no_river_bet_the_first_live_player_left_of_the_button_shows_first() -> None:
    state = play(to_river({0: "AsAh", 1: "KsKh", 2: "2c3d"}), "x", "x", "x")
    assert reveals(state) == [("cards_shown", 1), ("cards_mucked", 2), ("cards_shown", 0)]


# rule 15
def test_a_hand_that_ties_the_best_shown_hand_is_shown() -> None:
    state = play(to_river({0: "AhKs", 1: "AsKh", 2: "2c3d"}, "AdKd4h7s2s"), "x", "x", "x")
    assert reveals(state) == [("cards_shown", 1), ("cards_mucked", 2), ("cards_shown", 0)]
    assert [a.shares for a in state.events if isinstance(a, PotAwarded)] == [((1, 3), (0, 3))]


# rule 15
def test_a_winning_hand_is_always_shown_and_named() -> None:
    state = play(to_river({0: "AsAh", 1: "KsKh", 2: "2c3d"}), "x", "x", "x")
    award = next(e for e in state.events if isinstance(e, PotAwarded))
    assert award.shares == ((0, 6),)
    assert ("cards_shown", 0) in reveals(state)
    assert award.description == describe(evaluate(cards("AsAh" + BOARD)))


# rule 15
def test_a_hand_that_wins_uncontested_is_never_shown() -> None:
    state = play(deal([100, 100, 100], button=0), 10, "f", "f")
    assert reveals(state) == []
    award = next(e for e in state.events if isinstance(e, PotAwarded))
    assert award.description is None


# rule 14 (the TDA's "face up for all-ins"), over rule 15
def test_with_a_player_all_in_every_live_hand_is_tabled_even_one_that_wins_nothing() -> None:
    holes = {0: "AsAh", 1: "KsKh", 2: "QsQh"}
    state = deal([20, 100, 100], button=2, holes=holes, board="2c3d7h8sJc")
    state = play(state, "c", 20, "c", "c", 10, "c", *"xxxx")  # a flop bet makes a side pot
    assert reveals(state) == [("cards_shown", 0), ("cards_shown", 1), ("cards_shown", 2)]
    assert state.stacks == (60, 90, 70)


# rule 14
def test_when_all_are_all_in_every_hand_is_shown_before_the_board_is_dealt() -> None:
    holes = {0: "AsAh", 1: "KsKh", 2: "QsQh"}
    state = deal([100, 100, 100], button=0, holes=holes, board="7c8d9hJs2s")
    state = play(state, 100, "c", "c")
    assert state.is_over
    assert reveals(state) == [("cards_shown", 0), ("cards_shown", 1), ("cards_shown", 2)]
    first_board = next(i for i, e in enumerate(state.events) if isinstance(e, BoardDealt))
    last_shown = max(i for i, e in enumerate(state.events) if isinstance(e, CardsShown))
    assert last_shown < first_board
    assert all(state.has_shown)


# rule 14
def test_an_all_in_called_on_the_turn_runs_out_the_river() -> None:
    holes = {0: "AsAh", 1: "KsKh"}
    state = deal([100, 100, 100], button=0, holes=holes, board=BOARD)
    state = play(state, "c", "c", "x", "x", "x", "x", 98, "f", "c")
    assert [e.street for e in state.events if isinstance(e, BoardDealt)] == [
        "flop",
        "turn",
        "river",
    ]
    assert reveals(state) == [("cards_shown", 1), ("cards_shown", 0)]
    assert state.stacks == (202, 0, 98)
