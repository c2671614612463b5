"""``engine.fairness.verify`` over a hand as the hand API gives it: what ``python -m
engine verify`` finds in a saved hand file."""

from __future__ import annotations

from typing import Any

from engine.fairness import verify


def answer_problems(hand: dict[str, Any], **options: Any) -> list[str]:
    """What does not check out in ``hand`` (``options``: the seal noted at the table,
    ``published_commitment``, and the viewer's own cut value, ``own_value``)."""
    return verify(
        hand["fairness"],
        button=hand["button"],
        hole_cards={p["seat"]: p["hole_cards"] for p in hand["players"]},
        board=hand["board"],
        game=hand.get("game"),
        **options,
    )
