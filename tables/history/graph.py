"""A player's winnings graph as inline SVG, drawn on the server (no script, no CDN).

Two lines over the hands in order: the running total of chips won, and the
running total with all-in hands counted at their expected value.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate

from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT, MARGIN = 640, 240, 36


def winnings_svg(nets: Sequence[int], evs: Sequence[float]) -> SafeString:
    """The graph for hands in play order (SVG built from numbers only, so safe as is)."""
    if not nets:
        return mark_safe("")
    actual = [0.0, *accumulate(float(n) for n in nets)]
    expected = [0.0, *accumulate(evs)]
    low = min(min(actual), min(expected), 0.0)
    high = max(max(actual), max(expected), 0.0)
    span = (high - low) or 1.0
    count = len(actual) - 1 or 1

    def point(index: int, value: float) -> str:
        x = MARGIN + index * (WIDTH - 2 * MARGIN) / count
        y = HEIGHT - MARGIN - (value - low) * (HEIGHT - 2 * MARGIN) / span
        return f"{x:.1f},{y:.1f}"

    def line(values: list[float], css: str) -> str:
        points = " ".join(point(i, v) for i, v in enumerate(values))
        return f'<polyline class="{css}" fill="none" points="{points}"/>'

    zero = point(0, 0.0).split(",")[1]
    parts = [
        f'<svg class="winnings" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="Winnings over {len(nets)} hands: {actual[-1]:.0f} chips won, '
        f'{expected[-1]:.0f} with all-in EV">',
        f'<line class="axis" x1="{MARGIN}" y1="{zero}" x2="{WIDTH - MARGIN}" y2="{zero}"/>',
        f'<text class="tick" x="2" y="{MARGIN}">{high:.0f}</text>',
        f'<text class="tick" x="2" y="{HEIGHT - MARGIN}">{low:.0f}</text>',
        f'<text class="tick" x="{WIDTH - 4}" y="{HEIGHT - 8}" text-anchor="end">'
        f"{len(nets)} hand{'' if len(nets) == 1 else 's'}</text>",
        line(expected, "ev"),
        line(actual, "net"),
        "</svg>",
    ]
    return mark_safe("".join(parts))  # noqa: S308 - numbers and fixed text only
