"""Seating a multi-table tournament: the draw, balancing, breaking, the final table.

Pure functions of plain values (seat numbers, player ids, the seat of the
last big blind) and an ``rng`` passed in; the tournament service applies
what they return between hands (docs/tournaments.md).

- The draw spreads N players over ceil(N / seats) tables whose sizes differ
  by at most one, each in a random seat.
- Only a table between hands gives up players. The smallest table that the
  other tables have room for is broken, its players drawn at random into
  the free seats, the smallest tables filled first.
- While a table between hands has more than one player more than the
  smallest table, the player due the big blind next there (the biggest such
  table first) moves to the worst position at a smallest table: the free
  seat that posts the big blind soonest (TDA rule: balancing). A table in a
  hand is balanced when its hand ends, so every table between hands is
  within one player of the smallest.
- A moved player never lands in the small blind: the seat of the last big
  blind, when empty, would post the next small blind, so nobody arrives there.
- Once the players left fit at one table, the tables wait until all are
  between hands; then everyone is redrawn at random at one final table.

>>> from random import Random
>>> [len(table) for table in draw(["a", "b", "c", "d", "e"], 3, Random(1))]
[3, 2]
>>> worst_seat(TableSeating(1, 6, {0: "a", 1: "b", 4: "c"}, big_blind_seat=1), Random(1))
2
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from random import Random


@dataclass(frozen=True, slots=True)
class TableSeating:
    """One table: who sits where, and the big blind of its hand in play (or last hand).

    ``big_blind_seat`` is None before a table's first hand. Only a table
    ``is_between_hands`` gives up players; any table may receive them.
    ``blocked`` seats are neither free nor playing (a busted player's, shown
    until the next hand).
    """

    table: int
    seat_count: int
    players: dict[int, Hashable]
    big_blind_seat: int | None = None
    is_between_hands: bool = True
    blocked: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Move:
    """``player`` goes from ``from_table`` to seat ``to_seat`` of ``to_table``."""

    player: Hashable
    from_table: int
    to_table: int
    to_seat: int


@dataclass(frozen=True, slots=True)
class SeatingPlan:
    """What to do between hands: moves (breaks first), the tables left empty, and the
    final table's seats when everyone is redrawn (then every table is left empty)."""

    moves: tuple[Move, ...] = ()
    broken: tuple[int, ...] = ()
    final_table: dict[int, Hashable] | None = None
    is_waiting_for_final_table: bool = False


def table_count(players: int, seats_per_table: int) -> int:
    """How many tables ``players`` need (ceil)."""
    if players < 1 or seats_per_table < 2:
        raise ValueError("a draw needs players and tables of at least two seats")
    return -(-players // seats_per_table)


def draw(
    players: Sequence[Hashable], seats_per_table: int, rng: Random
) -> list[dict[int, Hashable]]:
    """Everyone at random over the fewest tables, sizes differing by at most one;
    each table maps seat numbers to players."""
    tables = table_count(len(players), seats_per_table)
    order = list(players)
    rng.shuffle(order)
    smaller, bigger_count = divmod(len(order), tables)
    seated: list[dict[int, Hashable]] = []
    start = 0
    for index in range(tables):
        size = smaller + (1 if index < bigger_count else 0)
        seats = rng.sample(range(seats_per_table), size)
        seated.append(dict(zip(seats, order[start : start + size], strict=True)))
        start += size
    return seated


def _empty_seats(table: TableSeating) -> list[int]:
    return [n for n in range(table.seat_count) if n not in table.players and n not in table.blocked]


def arrival_seats(table: TableSeating) -> list[int]:
    """Empty seats a moved player may take: all but the last big blind's, which would
    post the small blind next hand."""
    return [n for n in _empty_seats(table) if n != table.big_blind_seat]


def worst_seat(table: TableSeating, rng: Random) -> int:
    """The free seat that posts the big blind soonest, never the small blind; any free
    seat, drawn at random, before the table's first hand."""
    free = arrival_seats(table)
    if not free:
        raise ValueError("the table has no seat to arrive in")
    if table.big_blind_seat is None:
        return rng.choice(free)
    return min(free, key=lambda n: (n - table.big_blind_seat) % table.seat_count)  # type: ignore[operator]


def next_big_blind(table: TableSeating) -> int:
    """The seat due the big blind next hand (a random player before the first hand is
    the caller's: here the lowest seat after the last big blind, or the lowest)."""
    if not table.players:
        raise ValueError("an empty table has no big blind")
    after = -1 if table.big_blind_seat is None else table.big_blind_seat
    return min(table.players, key=lambda n: (n - after - 1) % table.seat_count)


@dataclass
class _Room:
    """The plan's working copy of the tables."""

    tables: dict[int, TableSeating]
    moves: list[Move] = field(default_factory=list)
    broken: list[int] = field(default_factory=list)

    def seat(self, player: Hashable, source: int, target: int, seat: int) -> None:
        old, new = self.tables[source], self.tables[target]
        left = {n: p for n, p in old.players.items() if p != player}
        self.tables[source] = replace(old, players=left)
        self.tables[target] = replace(new, players={**new.players, seat: player})
        self.moves.append(Move(player, source, target, seat))

    def size(self, table: int) -> int:
        return len(self.tables[table].players)


def plan(tables: Sequence[TableSeating], seats_per_table: int, rng: Random) -> SeatingPlan:
    """What the tournament's seating needs now, after a hand ended somewhere."""
    occupied = [t for t in tables if t.players]
    empty = tuple(t.table for t in tables if not t.players)
    players = [p for t in occupied for p in t.players.values()]
    if len(occupied) > 1 and len(players) <= seats_per_table:
        if not all(t.is_between_hands for t in occupied):
            return SeatingPlan(broken=empty, is_waiting_for_final_table=True)
        final = draw(players, seats_per_table, rng)[0]
        return SeatingPlan(broken=tuple(t.table for t in tables), final_table=final)
    room = _Room({t.table: t for t in occupied}, broken=list(empty))
    while _break_one(room, rng):
        pass
    while _balance_one(room, rng):
        pass
    return SeatingPlan(tuple(room.moves), tuple(room.broken))


def _break_one(room: _Room, rng: Random) -> bool:
    """Break the smallest table between hands the others have room for; whether one was."""
    candidates = sorted(
        (t for t in room.tables.values() if t.is_between_hands),
        key=lambda t: (len(t.players), t.table),
    )
    for table in candidates:
        others = [t for t in room.tables.values() if t.table != table.table]
        if not others or sum(len(arrival_seats(t)) for t in others) < len(table.players):
            continue
        movers = list(table.players.values())
        rng.shuffle(movers)
        for player in movers:
            open_tables = [t for t in others if arrival_seats(room.tables[t.table])]
            fewest = min(room.size(t.table) for t in open_tables)
            target = rng.choice([t.table for t in open_tables if room.size(t.table) == fewest])
            seat = rng.choice(arrival_seats(room.tables[target]))
            room.seat(player, table.table, target, seat)
        del room.tables[table.table]
        room.broken.append(table.table)
        return True
    return False


def _balance_one(room: _Room, rng: Random) -> bool:
    """Move one player from the biggest table between hands that is more than one
    bigger than a smallest table; whether one moved."""
    sizes = {n: len(t.players) for n, t in room.tables.items()}
    if not sizes:
        return False
    smallest = min(sizes.values())
    sources = [n for n, t in room.tables.items() if t.is_between_hands and sizes[n] > smallest + 1]
    if not sources:
        return False
    source = room.tables[max(sources, key=lambda n: (sizes[n], -n))]
    target = rng.choice(sorted(n for n in sizes if sizes[n] == smallest))
    player = source.players[next_big_blind(source)]
    room.seat(player, source.table, target, worst_seat(room.tables[target], rng))
    return True
