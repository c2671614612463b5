"""The level editor's rows on a club's scheduling page: levels and breaks in one list.

Each row is posted as one value of each of ``row_kind``, ``row_small_blind``,
``row_big_blind``, ``row_ante`` and ``row_minutes``, in the order shown, so the page
works the same with or without its script (``static/js/schedule.js`` adds, removes and
moves rows; without it the rows are edited in place, with a few blank ones to fill).
``read_rows`` turns them into ``schedule_tournament``'s ``levels`` and ``breaks``, whose
checks stay the authority; a refusal about one level or break is shown on its row.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import engine

FIELDS = ("kind", "small_blind", "big_blind", "ante", "minutes")
SPARE_ROWS = 3  # blank rows for adding levels when the page runs without its script
DEFAULT_BREAK_MINUTES = 10


@dataclass
class Row:
    """One row as typed (strings), and what is wrong with it, if anything."""

    kind: str = "level"  # or "break"
    small_blind: str = ""
    big_blind: str = ""
    ante: str = ""
    minutes: str = ""
    error: str = ""
    number: int = 0  # a level's, as shown (1 = the first); breaks have none

    @property
    def is_break(self) -> bool:
        return self.kind == "break"

    @property
    def is_blank(self) -> bool:
        return not any((self.small_blind, self.big_blind, self.ante, self.minutes))


@dataclass
class ReadRows:
    """The rows read: the service's ``levels`` and ``breaks``, and which row each came
    from (an index into the rows) so that a refusal lands on the right one."""

    levels: list[dict[str, Any]] = field(default_factory=list)
    breaks: list[dict[str, int]] = field(default_factory=list)
    level_rows: list[int] = field(default_factory=list)
    break_rows: list[int] = field(default_factory=list)
    has_errors: bool = False


def _text(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)


def preset_rows(name: str) -> list[Row]:
    """A built-in structure's levels, as rows to start from."""
    return [
        Row("level", _text(level.small_blind), _text(level.big_blind), _text(level.ante),
            _text(level.minutes))
        for level in engine.STRUCTURES[name].levels
    ]  # fmt: skip


def quick_rows(structure: engine.QuickStructure) -> list[Row]:
    """A quick structure's levels and breaks as rows, each break after its level."""
    breaks = dict(structure.breaks)
    rows: list[Row] = []
    for number, level in enumerate(structure.levels, start=1):
        rows.append(
            Row("level", _text(level.small_blind), _text(level.big_blind), _text(level.ante),
                _text(level.minutes))
        )  # fmt: skip
        if number in breaks:
            rows.append(Row("break", minutes=str(breaks[number])))
    return rows


def presets() -> dict[str, dict[str, Any]]:
    """Every built-in structure for the page's preset buttons: its stack and levels."""
    return {
        name: {
            "starting_stack": structure.starting_stack,
            "levels": [
                [level.small_blind, level.big_blind, level.ante, level.minutes]
                for level in structure.levels
            ],
        }
        for name, structure in engine.STRUCTURES.items()
    }


def posted_rows(data: Mapping[str, Any]) -> list[Row] | None:
    """The rows of a posted form, in order; None when their fields do not line up (a
    tampered or truncated post)."""
    columns = [data.getlist(f"row_{name}") for name in FIELDS]  # type: ignore[attr-defined]
    if len({len(column) for column in columns}) != 1:
        return None
    return [Row(*(value.strip() for value in values)) for values in zip(*columns, strict=True)]


def shown(rows: list[Row]) -> list[Row]:
    """The rows to show: numbered, blank ones moved to the end (a few to fill in)."""
    rows = [row for row in rows if not row.is_blank]
    number = 0
    for row in rows:
        if not row.is_break:
            number += 1
            row.number = number
    spare = [Row(number=number + n) for n in range(1, SPARE_ROWS + 1)]
    return rows + spare


def _whole(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 10 else None


def read_rows(rows: list[Row]) -> ReadRows:
    """Levels and breaks from the rows, blank ones skipped. A row that cannot be read
    gets its ``error``; the service checks the values of the others."""
    read = ReadRows()
    for index, row in enumerate(rows):
        if row.is_blank:
            continue
        minutes = _whole(row.minutes)
        if row.is_break:
            if minutes is None:
                row.error = "Give the break's minutes as a whole number."
            elif not read.levels:
                row.error = "A break comes after a level: move it down."
            else:
                read.breaks.append({"after_level": len(read.levels), "minutes": minutes})
                read.break_rows.append(index)
            continue
        if row.kind != "level":
            row.error = "A row is a level or a break."
            continue
        small, big = _whole(row.small_blind), _whole(row.big_blind)
        ante = _whole(row.ante) if row.ante else 0
        if None in (small, big, ante, minutes):
            row.error = (
                "Give the small blind, big blind and minutes as whole numbers "
                "(the ante too, or leave it empty)."
            )
            continue
        read.levels.append(
            {"small_blind": small, "big_blind": big, "ante": ante, "minutes": minutes}
        )
        read.level_rows.append(index)
    read.has_errors = any(row.error for row in rows)
    return read
