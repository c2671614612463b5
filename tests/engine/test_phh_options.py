"""PHH files of hands with the home-game options (rules 23-25), as Felt writes them:
PokerKit replays the straddle and the bomb pot to Felt's final stacks, and a
second run-out, which PHH has no notation for, travels in user-defined fields."""

from __future__ import annotations

from random import Random

import pytest
from pokerkit import HandHistory

from engine.actions import Fold, RaiseTo
from engine.betting import apply_action
from engine.cards import cards_str, new_deck
from engine.deal import new_hand
from engine.formats.phh import PhhError, from_phh, phh_order, to_phh
from engine.formats.pokerstars import to_pokerstars
from engine.state import HandState
from engine.streets import choose_runouts
from tests.engine.history_helpers import random_action


def played(rng: Random, **options: object) -> HandState:
    """A four-player hand with ``options``, random decisions to the end."""
    state = new_hand([400, 300, 500, 250], rng.randrange(4), 5, 10, deck=new_deck(rng), **options)  # type: ignore[arg-type]
    while not state.is_over:
        if state.runout_pending:
            state = choose_runouts(state, 2)
        else:
            state = apply_action(state, random_action(state, rng))
    return state


def pokerkit_final_stacks(text: str) -> list[int]:
    *_, last = iter(HandHistory.loads(text))
    return list(last.stacks)


@pytest.mark.parametrize(
    "options", [{"straddle": True}, {"bomb_pot": 20}], ids=["straddle", "bomb"]
)
def test_pokerkit_replays_felt_s_straddle_and_bomb_pot_files_to_the_same_stacks(
    options: dict[str, object],
) -> None:
    for seed in range(60):
        hand = played(Random(seed), **options)
        text = to_phh(hand)
        ours = [hand.stacks[seat] for seat in phh_order(hand)]
        assert pokerkit_final_stacks(text) == ours, f"seed {seed}\n{text}"


def test_a_straddle_is_the_third_forced_bet_and_a_bomb_pot_everyone_s_ante() -> None:
    straddled = played(Random(1), straddle=True)
    assert "blinds_or_straddles = [5, 10, 20, 0]" in to_phh(straddled)
    bomb = played(Random(1), bomb_pot=20)
    text = to_phh(bomb)
    assert "antes = [20, 20, 20, 20]" in text and "blinds_or_straddles = [0, 0, 0, 0]" in text


def test_a_second_board_is_written_beside_the_actions_not_in_them() -> None:
    for seed in range(200):
        hand = played(Random(seed), run_it_twice=True)
        if hand.second_board:
            break
    else:
        raise AssertionError("no hand was run twice")
    text = to_phh(hand)
    assert "_runouts = 2" in text
    assert f'_second_board = "{cards_str(hand.second_board)}"' in text
    dealt = "".join(line.split()[-1].strip('",') for line in text.splitlines() if " db " in line)
    assert dealt == cards_str(hand.board)  # the first board only, as PokerKit reads it
    HandHistory.loads(text)  # PokerKit reads the file


def test_felt_refuses_to_read_a_straddle_back_rather_than_misread_it() -> None:
    with pytest.raises(PhhError, match="blinds_or_straddles must name a big blind"):
        from_phh(to_phh(played(Random(2), straddle=True)))


def test_pokerstars_text_counts_raises_from_the_straddle_and_names_both_boards() -> None:
    hand = new_hand([400, 300, 500, 250], 0, 5, 10, deck=new_deck(Random(3)), straddle=True)
    hand = apply_action(hand, RaiseTo(60))
    while not hand.is_over:  # everyone else folds
        hand = apply_action(hand, Fold())
    text = to_pokerstars(hand)
    assert ": posts straddle 20" in text and ": raises 40 to 60" in text
    for seed in range(200):
        twice = played(Random(seed), run_it_twice=True)
        if twice.second_board:
            break
    text = to_pokerstars(twice)
    assert "*** SECOND RIVER ***" in text and "*** FIRST RIVER ***" in text
    assert f"[{' '.join(cards_str((c,)) for c in twice.second_board[:4])}]" in text
