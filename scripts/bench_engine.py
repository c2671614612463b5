"""Engine benchmarks: ``python scripts/bench_engine.py [--quick]``.

Each section is a function ``section(options) -> list[Row]``; ``main`` runs
them all and prints one table. A later section (the full-hand benchmark) can
live in ``scripts/bench_hands.py``: if that module exists and defines
``section(options)``, it is run too.

Peers (treys, eval7, phevaluator, PokerKit) are dev dependencies used only here, which is
why this lives in scripts/ and not in the shipped engine package. Cards
are converted to each library's representation before any timing starts, and
every figure is the median of several runs over the same seeded hands.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random

import eval7  # type: ignore[import-untyped]
import numpy as np
import phevaluator  # type: ignore[import-untyped]
import treys  # type: ignore[import-untyped]
from pokerkit import Card, Deck, OmahaHoldemHand, calculate_equities

# Run as a file, the script sees only scripts/ on its path; the engine is at the root.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import card_str, cards  # noqa: E402
from engine.equity import equity, estimate_equity  # noqa: E402
from engine.evaluator import evaluate, evaluate_batch, evaluate_omaha  # noqa: E402
from engine.omaha_batch import evaluate_omaha_batch  # noqa: E402


@dataclass(frozen=True)
class Options:
    hands: int = 200_000
    runs: int = 5
    seed: int = 20261121


@dataclass(frozen=True)
class Row:
    section: str
    name: str
    seconds: float  # median wall time of one run
    items: int  # hands (or calculations) per run
    baseline: float | None = None  # Felt's seconds for the same work, for the ratio

    @property
    def per_item_us(self) -> float:
        return self.seconds / self.items * 1e6

    @property
    def rate(self) -> float:
        return self.items / self.seconds

    @property
    def ratio(self) -> str:
        """How many times slower than Felt this peer is (Felt's own rows: "1.00x")."""
        return "" if self.baseline is None else f"{self.seconds / self.baseline:.2f}x"


def median_seconds(work: Callable[[], object], runs: int) -> float:
    return race({"work": work}, runs)["work"]


def race(contenders: dict[str, Callable[[], object]], runs: int) -> dict[str, float]:
    """Median seconds of each contender, run in turns so that a busy machine slows all alike."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(runs):
        for name, work in contenders.items():
            start = time.perf_counter()
            work()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(spent) for name, spent in times.items()}


def random_hands(options: Options) -> list[tuple[int, ...]]:
    rng = Random(options.seed)
    return [tuple(rng.sample(range(52), 7)) for _ in range(options.hands)]


def _loop(function: Callable[..., object], hands: Sequence[object], splat: bool = False) -> None:
    if splat:
        for hand in hands:
            function(*hand)  # type: ignore[misc]
    else:
        for hand in hands:
            function(hand)


def evaluator_section(options: Options) -> list[Row]:
    """(a) One 7-card hand per call: Felt's evaluate against treys, eval7, phevaluator."""
    hands = random_hands(options)
    texts = [[card_str(c) for c in hand] for hand in hands]
    treys_hands = [[treys.Card.new(t) for t in hand] for hand in texts]
    treys_split = [(hand[:2], hand[2:]) for hand in treys_hands]
    eval7_hands = [[eval7.Card(t) for t in hand] for hand in texts]
    phe_hands = [[phevaluator.Card(t).id_ for t in hand] for hand in texts]
    treys_evaluator = treys.Evaluator()

    return raced_rows(
        "evaluate, 7 cards",
        {
            "Felt evaluate": lambda: _loop(evaluate, hands),
            "treys Evaluator.evaluate": lambda: _loop(treys_evaluator.evaluate, treys_split, True),
            "eval7.evaluate (C)": lambda: _loop(eval7.evaluate, eval7_hands),
            "phevaluator evaluate_cards (C)": lambda: _loop(
                phevaluator.evaluate_cards, phe_hands, True
            ),
        },
        len(hands),
        options.runs,
    )


def raced_rows(
    section: str, contenders: dict[str, Callable[[], object]], items: int, runs: int
) -> list[Row]:
    """``race`` the contenders, the first of them Felt's, each row compared with it."""
    medians = race(contenders, runs)
    felt = next(iter(medians.values()))
    return [Row(section, name, seconds, items, felt) for name, seconds in medians.items()]


def batch_section(options: Options) -> list[Row]:
    """(b) Many hands at once: evaluate_batch against phevaluator called per hand."""
    hands = random_hands(options)
    as_int64 = np.array(hands, dtype=np.int64)
    as_uint8 = as_int64.astype(np.uint8)
    phe_hands = [[phevaluator.Card(card_str(c)).id_ for c in hand] for hand in hands]
    medians = race(
        {
            "Felt evaluate_batch (int64 array)": lambda: evaluate_batch(as_int64),
            "Felt evaluate_batch (uint8 array)": lambda: evaluate_batch(as_uint8),
            "phevaluator evaluate_cards per hand": lambda: _loop(
                phevaluator.evaluate_cards, phe_hands, True
            ),
        },
        options.runs,
    )
    felt = medians["Felt evaluate_batch (int64 array)"]
    return [
        Row("evaluate_batch, 7 cards", name, seconds, len(hands), felt)
        for name, seconds in medians.items()
    ]


def equity_section(options: Options) -> list[Row]:
    """(c) Exact preflop equity, AsAh vs KdKc: all 1,712,304 boards."""
    hands = [cards("AsAh"), cards("KdKc")]
    seconds = median_seconds(lambda: equity(hands), options.runs)
    return [
        Row("equity (per board)", "AsAh vs KdKc preflop, all 1,712,304 boards", seconds, 1_712_304)
    ]


def omaha_section(options: Options) -> list[Row]:
    """(d) One Omaha hand at the river per call (4 hole cards, 5 on the board): Felt's
    evaluate_omaha against PokerKit's OmahaHoldemHand, on a fiftieth as many hands
    (PokerKit's is the slower by far); and the same hands at once, evaluate_omaha_batch."""
    rng = Random(options.seed)
    deals = [rng.sample(range(52), 9) for _ in range(max(1, options.hands // 50))]
    ours = [(deal[:4], deal[4:]) for deal in deals]
    texts = [("".join(map(card_str, hole)), "".join(map(card_str, board))) for hole, board in ours]
    holes, boards = np.array([hole for hole, _ in ours]), np.array([board for _, board in ours])
    evaluate_omaha_batch(holes[:1], boards[:1])  # its table is built on first use, not timed
    return raced_rows(
        "Omaha, 4 + 5 cards",
        {
            "Felt evaluate_omaha": lambda: _loop(evaluate_omaha, ours, True),
            "PokerKit OmahaHoldemHand.from_game": lambda: _loop(
                OmahaHoldemHand.from_game, texts, True
            ),
            "Felt evaluate_omaha_batch (numpy arrays)": lambda: evaluate_omaha_batch(holes, boards),
        },
        len(deals),
        options.runs,
    )


OMAHA_SPOTS = (
    ("Omaha equity, flop 2-way", ("AsAhKsKh", "JdTd9c8c"), "Qd7d2c"),
    ("Omaha equity, flop 3-way", ("AsKsQdJd", "7h7c6h5c", "AdAc2h3h"), "Ts9s4h"),
    ("Omaha equity, preflop", ("AsAhKsKh", "JdTd9c8c"), ""),
)


def omaha_equity_section(options: Options) -> list[Row]:
    """(e) Omaha all-in equity of one spot: Felt's estimate_equity (exact on the flop,
    20,000 sampled run-outs before it) and, before the flop, its exact count, against
    PokerKit's calculate_equities sampling a hundredth as many run-outs as there are
    hands in the options (2,000 by default, 200 with --quick)."""
    samples = max(100, options.hands // 100)
    rows = []
    for section, hands, board in OMAHA_SPOTS:
        rows += _omaha_spot_rows(section, hands, board, samples, options)
    return rows


def _omaha_spot_rows(
    section: str, hands: Sequence[str], board: str, samples: int, options: Options
) -> list[Row]:
    ours, known = [cards(hand) for hand in hands], cards(board)
    ranges = [{frozenset(Card.parse(hand))} for hand in hands]
    contenders = {
        "Felt estimate_equity": lambda: estimate_equity(ours, known, rng=Random(options.seed)),
        f"PokerKit calculate_equities, {samples:,} runs": lambda: calculate_equities(
            ranges,
            Card.parse(board),
            4,
            5,
            Deck.STANDARD,
            (OmahaHoldemHand,),
            sample_count=samples,
        ),
    }
    if not board:
        contenders["Felt equity (exact)"] = lambda: equity(ours, known)
    return raced_rows(section, contenders, 1, options.runs)


SECTIONS: list[Callable[[Options], list[Row]]] = [
    evaluator_section,
    batch_section,
    equity_section,
    omaha_section,
    omaha_equity_section,
]


def extra_sections() -> list[Callable[[Options], list[Row]]]:
    """Sections other modules contribute (scripts/bench_hands.py, when it exists)."""
    try:
        module = importlib.import_module("bench_hands")
    except ModuleNotFoundError:
        return []
    section = getattr(module, "section", None)
    return [section] if callable(section) else []


def format_table(rows: Sequence[Row]) -> str:
    header = f"{'section':<26}{'measurement':<42}{'median s':>10}{'us/item':>12}"
    header += f"{'items/s':>14}{'vs Felt':>10}"
    lines = [header, "-" * len(header)]
    for row in rows:
        lines.append(
            f"{row.section:<26}{row.name:<42}{row.seconds:>10.4f}{row.per_item_us:>12.3f}"
            f"{row.rate:>14,.0f}{row.ratio:>10}"
        )
    lines.append(
        "vs Felt: the row's time divided by Felt's for the same work (higher = Felt faster)"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python scripts/bench_engine.py", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="20,000 hands, 3 runs: a smoke run")
    parser.add_argument("--seed", type=int, default=Options.seed)
    args = parser.parse_args(argv)
    options = Options(seed=args.seed)
    if args.quick:
        options = Options(hands=20_000, runs=3, seed=args.seed)
    print(f"{options.hands:,} seeded random 7-card hands, median of {options.runs} runs\n")
    rows: list[Row] = []
    for section in [*SECTIONS, *extra_sections()]:
        rows.extend(section(options))
    print(format_table(rows))


if __name__ == "__main__":
    main()
