"""What filling the all-in EV after the hand saves the hand's locked transaction.

``python manage.py bench_allin_ev [--hands N]`` plays N preflop all-ins of 2
and of 6 players through the engine and times their tracker facts both ways,
side by side: with the exact all-in EV (what the locked transaction computed
before) and without it (what it computes now; tables/history/allin_ev.py
fills the EV in afterwards). Medians, in milliseconds.
"""

from __future__ import annotations

import statistics
import time
from random import Random
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

import engine
from tables.history.facts import hand_facts
from tables.management.arguments import positive_int


def preflop_all_in(players: int, rng: Random) -> engine.HandState:
    """Everyone shoves or calls a shove; the board runs out."""
    stacks = [1000 + 100 * seat for seat in range(players)]
    state = engine.new_hand(stacks, button=0, small_blind=10, big_blind=20, rng=rng)
    while not state.is_over:
        most = engine.legal_actions(state).max_raise_to
        move = engine.RaiseTo(most) if most is not None and state.current_bet < most else None
        state = engine.apply_action(state, move or engine.Call())
    return state


def median_ms(states: list[engine.HandState], with_allin_ev: bool) -> float:
    times = []
    for state in states:
        start = time.perf_counter()
        hand_facts(state, with_allin_ev=with_allin_ev)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


class Command(BaseCommand):
    help = "Time a hand's facts with and without the all-in EV (medians, ms)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=positive_int, default=20)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        rng = Random(options["seed"])
        for players in (2, 6):
            states = [preflop_all_in(players, rng) for _ in range(options["hands"])]
            with_ev, without = median_ms(states, True), median_ms(states, False)
            self.stdout.write(
                f"{players}-way preflop all-in, {len(states)} hands: facts with the EV "
                f"{with_ev:.2f} ms, without {without:.2f} ms (median)"
            )
