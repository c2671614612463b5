"""PHH files of hands with the home-game options (rules 23-25), written and read.

Felt writes a straddle as the third forced bet, a bomb pot as everyone's ante
with no blinds, and a second run-out, which PHH has no notation for, in the
user-defined fields ``_runouts`` and ``_second_board``. PokerKit replays the
straddle and the bomb pot to Felt's final stacks; ``from_phh`` reads all three
back to the same hand, reads PokerKit's own bomb-pot files (with their checks
before the flop), and refuses the shapes Felt does not deal, saying why."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest
from pokerkit import HandHistory

from engine.actions import Fold, RaiseTo
from engine.betting import apply_action
from engine.cards import cards_str, new_deck
from engine.deal import new_hand
from engine.events import BoardDealt, Event, RunoutsChosen
from engine.formats.phh import PhhError, PhhIllegalAction, from_phh, phh_order, to_phh
from engine.formats.phh_notation import toml_value
from engine.formats.pokerstars import to_pokerstars
from engine.games import GAMES
from engine.state import HandState
from engine.streets import choose_runouts
from tests.engine.history_helpers import (
    pokerkit_history,
    random_action,
    random_home_hand,
    split_pot_count,
)


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


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("option", ["straddle", "bomb_pot"])
def test_pokerkit_replays_felt_s_straddle_and_bomb_pot_files_to_the_same_stacks(
    option: str, game: str
) -> None:
    for seed in range(100):
        hand = random_home_hand(Random(seed), option, game=game)
        text = to_phh(hand)
        ours = [hand.stacks[seat] for seat in phh_order(hand)]
        theirs = pokerkit_final_stacks(text)
        if theirs != ours:  # rule 12: PokerKit may move an odd chip between tied winners
            moved = sum(abs(a - b) for a, b in zip(ours, theirs, strict=True))
            assert 0 < moved <= 2 * split_pot_count(hand), f"seed {seed}\n{text}"


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


def test_a_bomb_pot_s_pokerstars_summary_names_no_blinds() -> None:
    text = to_pokerstars(played(Random(1), bomb_pot=20))
    summary = text.split("*** SUMMARY ***")[1]
    assert "(button)" in summary and "blind)" not in summary


def test_pokerstars_text_counts_raises_from_the_straddle_and_names_both_run_outs() -> None:
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
    chosen = twice.events.index(RunoutsChosen(2))
    for event in twice.events[:chosen]:  # streets both boards share keep their plain names
        if isinstance(event, BoardDealt):
            title = event.street.upper()
            assert f"*** {title} ***" in text and f"*** FIRST {title} ***" not in text
    run_out = {e.street.upper() for e in twice.events[chosen:] if isinstance(e, BoardDealt)}
    assert all(f"*** FIRST {title} ***" in text for title in run_out)


# ---------------------------------------------------------------- reading back


def _said(state: HandState) -> list[Event]:
    """The events after ``hand_started`` that a file can say: it cannot say that a
    second run-out was offered and declined (rule 25), so ``runouts_chosen`` of 1
    is left out."""
    return [e for e in state.events[1:] if not (isinstance(e, RunoutsChosen) and e.count == 1)]


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("option", ["straddle", "bomb_pot", "run_it_twice"])
def test_random_hands_with_an_option_survive_the_round_trip(option: str, game: str) -> None:
    ran_twice = 0
    for seed in range(150):
        original = random_home_hand(Random(seed), option, game=game)
        text = to_phh(original)
        copy = from_phh(text)
        where = f"seed {seed}\n{text}"
        assert copy.stacks == original.stacks, where
        assert (copy.board, copy.second_board) == (original.board, original.second_board), where
        assert copy.holes == original.holes, where
        assert _said(copy) == _said(original), where
        assert copy.straddle_seat == original.straddle_seat, where
        assert copy.bomb_pot == original.bomb_pot, where
        assert copy.run_it_twice == bool(original.second_board), where
        assert to_phh(copy) == text, where
        ran_twice += bool(copy.second_board)
    assert option != "run_it_twice" or ran_twice > 30  # a third of these hands or more


BOMB_POT = """variant = "NT"
antes = [20, 20, 20, 20]
blinds_or_straddles = [0, 0, 0, 0]
min_bet = 10
starting_stacks = [500, 300, 400, 250]
"""
DEALT = ["d dh p1 AsAh", "d dh p2 KsKh", "d dh p3 QsQh", "d dh p4 JsJh"]
FLOP = "d db 2c7d9h"
STRADDLED = BOMB_POT.replace("[20, 20, 20, 20]", "[0, 0, 0, 0]").replace(
    "blinds_or_straddles = [0, 0, 0, 0]", "blinds_or_straddles = [5, 10, 20, 0]"
)


def _file(header: str, actions: list[str], extra: str = "") -> str:
    return f"{header}actions = [{', '.join(toml_value(a) for a in actions)}]\n{extra}"


def test_a_bomb_pot_is_read_from_antes_with_no_blinds_and_starts_on_the_flop() -> None:
    state = from_phh(_file(BOMB_POT, [*DEALT, FLOP]))
    assert state.bomb_pot == 20 and state.ante == 0 and state.street == "flop"
    assert state.big_blind == 10 and state.actor == phh_order(state)[0]  # p1 opens the flop
    assert [state.stacks[seat] for seat in phh_order(state)] == [480, 280, 380, 230]


def test_pokerkit_s_checks_before_a_bomb_pot_s_flop_are_accepted_and_change_nothing() -> None:
    checks = ["p1 cc", "p2 cc", "p3 cc", "p4 cc"]
    with_checks = from_phh(_file(BOMB_POT, [*DEALT, *checks, FLOP, "p1 cbr 10"]))
    without = from_phh(_file(BOMB_POT, [*DEALT, FLOP, "p1 cbr 10"]))
    assert with_checks.events == without.events
    # all-in for their stake, p2 and p4 are not asked to check
    short = BOMB_POT.replace("[500, 300, 400, 250]", "[500, 15, 400, 20]")
    assert from_phh(_file(short, [*DEALT, "p1 cc", "p3 cc", FLOP])).street == "flop"


@pytest.mark.parametrize("game", list(GAMES))
def test_bomb_pots_pokerkit_played_and_wrote_import_to_its_stacks(game: str) -> None:
    outcomes = [pokerkit_option_outcome(seed, game, "bomb_pot") for seed in range(100)]
    assert outcomes.count("same stacks") > 80


@pytest.mark.parametrize("game", list(GAMES))
def test_straddles_pokerkit_played_and_wrote_import_or_are_refused_by_rule_23(game: str) -> None:
    outcomes = Counter(pokerkit_option_outcome(seed, game, "straddle") for seed in range(100))
    assert outcomes["same stacks"] > 50
    assert outcomes["refused by rule 23"] > 10  # PokerKit's raises to three big blinds


def pokerkit_option_outcome(seed: int, game: str, option: str) -> str:
    """A bomb pot or a straddled hand PokerKit plays with random decisions and
    writes, read by Felt: "same stacks", or a difference a documented rule
    explains: rule 4 (PokerKit reopens the betting after some short all-ins),
    rule 9 (a short big blind), rule 12 (odd chips) or rule 23 (PokerKit's
    smallest raise over a straddle adds one big blind, Felt's the straddle)."""
    text, theirs = pokerkit_history(Random(seed), game=game, **{option: True})
    try:
        state = from_phh(text)
    except PhhError as error:
        rule = next((r for r in ("rule 4", "rule 9", "rule 23") if f"({r})" in error.reason), None)
        assert rule is not None, f"seed {seed}: {error}\n{text}"
        return f"refused by {rule}"
    ours = [state.stacks[seat] for seat in phh_order(state)]
    if ours == theirs:
        return "same stacks"
    moved = sum(abs(a - b) for a, b in zip(ours, theirs, strict=True))
    assert sum(ours) == sum(theirs) and moved <= 2 * split_pot_count(state), f"seed {seed}"
    return "odd chips moved by rule 12"


def test_a_straddle_is_read_as_the_third_forced_bet_of_the_player_after_the_big_blind() -> None:
    state = from_phh(_file(STRADDLED, [*DEALT, "p4 f", "p1 f", "p2 f"]))
    order = phh_order(state)
    assert state.straddle_seat == order[2] and state.big_blind_seat == order[1]
    assert [state.stacks[seat] for seat in order] == [495, 290, 415, 250]
    dead_small_blind = STRADDLED.replace("[5, 10, 20, 0]", "[10, 20, 0, 0]")
    state = from_phh(_file(dead_small_blind, [*DEALT, "p3 f", "p4 f"]))
    assert state.small_blind_seat is None and state.straddle_seat == phh_order(state)[1]


@pytest.mark.parametrize(
    ("header", "reason"),
    [
        (STRADDLED.replace("[5, 10, 20, 0]", "[5, 10, 30, 0]"),
         "p3's forced bet of 30 is above the big blind (min_bet 10), and a straddle is exactly"
         " two big blinds, 20 (rule 23)"),
        (STRADDLED.replace("[5, 10, 20, 0]", "[5, 10, 0, 20]"),
         "p4 straddles, but only the player after the big blind (p3) may (rule 23)"),
        (STRADDLED.replace("[5, 10, 20, 0]", "[5, 10, 20, 20]"),
         "blinds_or_straddles must name a big blind, at most a small blind and at most one"
         " straddle"),
        (STRADDLED.replace("[500, 300, 400, 250]", "[500, 300, 19, 250]"),
         "p3 cannot cover the straddle of 20, as Felt requires (rule 23)"),
        ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [10, 20]\nmin_bet = 10\n'
         "starting_stacks = [500, 500]\n",
         "p1 straddles heads-up: a straddle needs three players (rule 23)"),
    ],
)  # fmt: skip
def test_a_straddle_felt_does_not_deal_is_refused_saying_why(header: str, reason: str) -> None:
    with pytest.raises(PhhError) as caught:
        from_phh(_file(header, []))
    assert caught.value.reason == reason
    assert caught.value.action_index is None


BOMB_RULE = (
    "nobody bets before the flop of a bomb pot (rule 24); the file may only have every"
    " player with chips check there, in turn from p1, and "
)


@pytest.mark.parametrize(
    ("actions", "waiting"),
    [
        (["p1 cbr 20"], "p1 is to check"),
        (["p2 cc"], "p1 is to check"),
        (["p1 cc", "p3 cc"], "p2 is to check"),
        (["p1 cc", "p2 cc", FLOP], "p3 is to check"),
        (["p1 cc", "p2 cc", "p3 cc", "p4 cc", "p1 cc"],
         "every player has checked: 'd db' comes first"),
    ],
)  # fmt: skip
def test_a_bomb_pot_refuses_anything_but_everyone_s_checks_before_the_flop(
    actions: list[str], waiting: str
) -> None:
    with pytest.raises(PhhError) as caught:
        from_phh(_file(BOMB_POT, [*DEALT, *actions]))
    index = len(DEALT) + len(actions) - 1
    assert (caught.value.action_index, caught.value.reason) == (index, BOMB_RULE + waiting)


def _run_twice_file() -> tuple[str, HandState]:
    for seed in range(100):
        hand = random_home_hand(Random(seed), "run_it_twice")
        if hand.second_board[:3] == hand.board[:3] and len(hand.players) > 2:
            return to_phh(hand), hand
    raise AssertionError("no hand was run twice")


def test_a_second_board_is_dealt_when_the_hand_asks_how_many_times_to_run() -> None:
    text, hand = _run_twice_file()
    copy = from_phh(text)
    assert copy.events[1:] == hand.events[1:]  # RunoutsChosen(2) where the hand asked
    assert RunoutsChosen(2) in copy.events
    without = from_phh(text.replace("_runouts = 2\n", "").split("_second_board")[0])
    assert not without.second_board  # without the fields, the file is a hand run once


def _fields_replaced(text: str, runouts: str, second: str) -> str:
    lines = [line for line in text.splitlines() if not line.startswith(("_runouts", "_second"))]
    return "\n".join([*lines, runouts, second]) + "\n"


def test_a_second_board_that_does_not_fit_the_hand_is_refused() -> None:
    text, hand = _run_twice_file()
    first, second = hand.board, hand.second_board
    shared = 5 - sum(len(e.cards) for e in hand.events if isinstance(e, BoardDealt) and e.run)
    assert shared >= 3  # the run-out was chosen on the flop or the turn
    spare = next(c for c in range(52) if c not in {*first, *second, *sum(hand.holes, ())})
    more_shared = first[: shared + 1] + second[shared + 1 :]
    fewer_shared = (*first[: shared - 1], spare, *second[shared:])
    for wrong in (more_shared, fewer_shared):
        with pytest.raises(PhhError) as caught:
            written = f'_second_board = "{cards_str(wrong)}"'
            from_phh(_fields_replaced(text, "_runouts = 2", written))
        assert caught.value.reason == (
            f"_second_board {cards_str(wrong)} does not fit the hand: the run-out was chosen"
            f" when the board was [{cards_str(first[:shared])}], so the second board starts with"
            " those cards and takes the others from the deck after the first board's"
        ), text
    hole = cards_str(hand.holes[hand.players[0]][:1])
    doubled = f'_second_board = "{cards_str(second[:4])}{hole}"'
    with pytest.raises(PhhError, match=f"a card is dealt twice: {hole} is already named by act"):
        from_phh(_fields_replaced(text, "_runouts = 2", doubled))
    its_own_twice = f'_second_board = "{cards_str((*second[:3], spare, spare))}"'
    with pytest.raises(PhhError) as caught:
        from_phh(_fields_replaced(text, "_runouts = 2", its_own_twice))
    assert caught.value.reason == (
        f"_second_board: a card is dealt twice: {cards_str((spare,))} is already named by"
        " this entry"
    )


RUN_ONCE = _file(STRADDLED, [*DEALT, "p4 f", "p1 f", "p2 f"])
BOTH = "a hand run twice has _runouts = 2 and its _second_board, as Felt writes"
CARDS = '_second_board = "2c3c4c5c6c"'


@pytest.mark.parametrize(
    ("runouts", "second", "reason"),
    [
        ("_runouts = 2", "", BOTH),
        ("", CARDS, BOTH),
        ("_runouts = 3", CARDS, BOTH),
        ("_runouts = 2.0", CARDS, BOTH),
        ("_runouts = 2", '_second_board = "2c3c4c"', "_second_board must name five cards, not"
                                                      " '2c3c4c'"),
        ("_runouts = 2", '_second_board = "2c3c4c5c??"', "_second_board must name five cards,"
                                                          " not '2c3c4c5c??'"),
        ("_runouts = 2", '_second_board = "2c3c4c5c6x"',
         "_second_board: '6x' is not a card: ranks are 23456789TJQKA, suits are cdhs"),
        ("_runouts = 2", CARDS, "the file says the board was run twice (_runouts = 2), but the"
                                " hand never asked how many times to run it (rule 25)"),
    ],
)  # fmt: skip
def test_run_out_fields_that_say_nothing_a_hand_could_do_are_refused(
    runouts: str, second: str, reason: str
) -> None:
    with pytest.raises(PhhError) as caught:
        from_phh(RUN_ONCE + f"{runouts}\n{second}\n")
    assert (caught.value.action_index, caught.value.reason) == (None, reason)


def test_a_raise_over_a_straddle_below_felt_s_minimum_is_refused_naming_rule_23() -> None:
    with pytest.raises(PhhIllegalAction) as caught:
        from_phh(_file(STRADDLED, [*DEALT, "p4 cbr 30"]))
    assert caught.value.reason == (
        "raise to 30 is below the minimum raise to 40; over a straddle Felt's smallest raise"
        " adds the straddle (rule 23)"
    )
    omaha = STRADDLED.replace('"NT"', '"PO"')
    with pytest.raises(PhhIllegalAction) as too_big:  # the pot limit, not the straddle
        from_phh(_file(omaha, ["p4 cbr 200"]))
    assert "rule 23" not in too_big.value.reason
