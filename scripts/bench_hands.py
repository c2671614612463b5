"""Full-hand benchmark: ``python scripts/bench_hands.py [--hands N] [--runs R]``.

Six players, blinds 1/2, stacks 200, a fresh hand each time. Every engine
plays the same seeded decision stream: one draw per decision, ``r < 0.25``
folds when facing a bet (checks otherwise), ``r < 0.85`` checks or calls,
``r < 0.97`` makes the minimum raise, the rest go all-in (raises fall back
to a call when raising is not allowed). Each engine shuffles its own deck
(Felt from a second seeded generator, so that the decision stream stays
the same), so the hands differ but the workload is alike. Figures are medians of
several runs, run in turns; ``scripts/bench_engine.py`` includes this section.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from random import Random
from typing import TYPE_CHECKING

# Run as a file, the script sees only scripts/ on its path; the engine is at the root.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.actions import Action, Call, Check, Fold, RaiseTo  # noqa: E402
from engine.betting import apply_action, legal_actions  # noqa: E402
from engine.deal import new_hand  # noqa: E402

if TYPE_CHECKING:
    from bench_engine import Options, Row

PLAYERS = 6
STACK = 200


def _choice(roll: float, facing_bet: bool) -> str:
    if roll < 0.25:
        return "fold" if facing_bet else "check_call"
    if roll < 0.85:
        return "check_call"
    return "min_raise" if roll < 0.97 else "all_in"


_CHECK, _CALL, _FOLD = Check(), Call(), Fold()  # actions are values: one of each will do


def felt_hands(count: int, seed: int) -> int:
    """Play ``count`` hands with Felt; returns the number of decisions."""
    rng = Random(seed)
    # The decks come from a generator of their own, so that the decisions draw
    # the same stream of numbers as the other engines' (which shuffle their own way).
    deck_rng = Random(seed + 1)
    decisions = 0
    for number in range(count):
        state = new_hand([STACK] * PLAYERS, button=number % PLAYERS, rng=deck_rng)
        while not state.is_over:
            legal = legal_actions(state)
            choice = _choice(rng.random(), not legal.can_check)
            action: Action = _CHECK if legal.can_check else _CALL
            if choice == "fold":
                action = _FOLD
            elif legal.min_raise_to is not None and legal.max_raise_to is not None:
                if choice == "min_raise":
                    action = RaiseTo(legal.min_raise_to)
                elif choice == "all_in":
                    action = RaiseTo(legal.max_raise_to)
            state = apply_action(state, action)
            decisions += 1
    return decisions


def pokerkit_hands(count: int, seed: int) -> int:
    """The same workload with PokerKit (dealing and showdown automated)."""
    from pokerkit import Automation, Mode, NoLimitTexasHoldem

    automations = tuple(Automation)
    rng = Random(seed)
    decisions = 0
    for _ in range(count):
        state = NoLimitTexasHoldem.create_state(
            automations, False, 0, (1, 2), 2, (STACK,) * PLAYERS, PLAYERS, mode=Mode.TOURNAMENT
        )
        while state.status:
            facing = bool(state.checking_or_calling_amount)
            choice = _choice(rng.random(), facing)
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            if choice == "fold":
                state.fold()
            elif choice == "min_raise" and low is not None:
                state.complete_bet_or_raise_to(low)
            elif choice == "all_in" and high is not None:
                state.complete_bet_or_raise_to(high)
            else:
                state.check_or_call()
            decisions += 1
    return decisions


def texasholdem_hands(count: int, seed: int) -> int:
    """The same workload with the ``texasholdem`` package."""
    from texasholdem import ActionType, TexasHoldEm  # type: ignore[import-untyped]

    rng = Random(seed)
    decisions = 0
    for _ in range(count):
        game = TexasHoldEm(buyin=STACK, big_blind=2, small_blind=1, max_players=PLAYERS)
        game.start_hand()
        while game.is_hand_running():
            player = game.current_player
            facing = game.chips_to_call(player) > 0
            choice = _choice(rng.random(), facing)
            if choice == "fold":
                game.take_action(ActionType.FOLD)
            elif choice in ("min_raise", "all_in") and game.validate_move(
                action=ActionType.RAISE, total=game.value_to_total(game.min_raise(), player)
            ):
                if choice == "all_in":
                    game.take_action(ActionType.ALL_IN)
                else:
                    total = game.value_to_total(game.min_raise(), player)
                    game.take_action(ActionType.RAISE, total=total)
            else:
                game.take_action(ActionType.CALL if facing else ActionType.CHECK)
            decisions += 1
    return decisions


ENGINES: dict[str, Callable[[int, int], int]] = {
    "Felt": felt_hands,
    "texasholdem 0.11": texasholdem_hands,
    "PokerKit 0.7": pokerkit_hands,
}


def rows(hands: int = 2000, runs: int = 5, seed: int = 20261121) -> list[Row]:
    """Median seconds per engine for ``hands`` full hands, as ``bench_engine`` rows."""
    from bench_engine import Row, race

    contenders: dict[str, Callable[[], object]] = {
        name: partial(play, hands, seed) for name, play in ENGINES.items()
    }
    seconds = race(contenders, runs)
    felt = seconds["Felt"]
    return [
        Row("full hands (6-max, 1/2)", f"{name}: hands", spent, hands, felt)
        for name, spent in seconds.items()
    ]


def section(options: Options) -> list[Row]:
    """The ``bench_engine`` section: 1 full hand per 100 evaluator hands, at most 2000."""
    return rows(
        hands=min(2000, max(100, options.hands // 100)), runs=options.runs, seed=options.seed
    )


def main(argv: Sequence[str] | None = None) -> None:
    from bench_engine import format_table

    parser = argparse.ArgumentParser(prog="python scripts/bench_hands.py", description=__doc__)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261121)
    args = parser.parse_args(argv)
    print(f"{args.hands:,} full hands per run, median of {args.runs} runs\n")
    print(format_table(rows(args.hands, args.runs, args.seed)))


if __name__ == "__main__":
    main()
