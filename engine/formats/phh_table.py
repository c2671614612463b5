"""Where a PHH file's players sit, and what they are forced to bet.

``read_table`` turns a file's ``seats``, ``seat_count``, ``antes``,
``blinds_or_straddles`` and ``min_bet`` into the arguments of
``engine.new_hand``, recognising the two home-game options a file can say
through its forced bets (rules 23 and 24 of ``docs/rules.md``):

- a straddle: a forced bet of exactly two big blinds (``min_bet`` is the big
  blind) from the player after the big blind, at a table of three players
  or more, who covers it. Any other forced bet above the big blind is
  refused, naming the player and why: a bigger straddle, a straddle out of
  turn, a second straddle, one heads-up, or one the player cannot cover;
- a bomb pot: every blind zero and everyone's (uniform) ante positive. The
  ante is the bomb pot's stake, and the hand starts on the flop
  (:mod:`engine.formats.phh_replay` explains the preflop checks some
  writers add).

>>> from engine.formats.phh_notation import parse_phh
>>> read_table(parse_phh('''variant = "NT"
... antes = [0, 0, 0, 0]
... blinds_or_straddles = [5, 10, 20, 0]
... min_bet = 10
... starting_stacks = [500, 500, 500, 500]
... actions = []''')).straddle
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.formats.phh_notation import PhhError, PhhFile
from engine.state import NO_SMALL_BLIND

__all__ = ["PhhTable", "read_table"]


@dataclass(frozen=True)
class PhhTable:
    """Where the file's players sit, and the hand's forced bets.

    ``small_blind_seat`` and ``big_blind_seat`` are ``None`` in a bomb pot,
    which has no blinds (``new_hand`` then places them where it would).
    """

    seats: tuple[int, ...]  # 0-based seat of each PHH player
    seat_count: int
    small_blind: int
    big_blind: int
    ante: int
    small_blind_seat: int | None
    big_blind_seat: int | None
    straddle: bool = False
    bomb_pot: int = 0


def read_table(phh: PhhFile) -> PhhTable:
    """The table of ``phh``; raises :class:`PhhError` for forced bets Felt cannot deal."""
    count = phh.player_count
    seats = _seat_numbers(phh.fields, count)
    seat_count = phh.fields.get("seat_count", max(seats) + 1)
    if isinstance(seat_count, bool) or not isinstance(seat_count, int):
        raise PhhError(f"seat_count must be an integer, not {seat_count!r}")
    if seat_count <= max(seats):
        raise PhhError(f"seat_count {seat_count} is too small for seat {max(seats) + 1}")
    ante = _ante(phh)
    forced = list(phh.blinds_or_straddles)
    if count == 2:
        forced.reverse()  # the standard reverses forced bets heads-up
    if not any(forced) and ante:  # rule 24: only everyone's stake, no blinds
        return PhhTable(seats, seat_count, max(1, phh.min_bet // 2), phh.min_bet, 0, None, None,
                        bomb_pot=ante)  # fmt: skip
    straddler = _straddler(forced, phh)
    if straddler is not None:
        forced[straddler] = 0
    posters = [player for player, amount in enumerate(forced) if amount]
    amounts = sorted(forced[player] for player in posters)
    if not 1 <= len(posters) <= 2:
        raise PhhError(
            "blinds_or_straddles must name a big blind, at most a small blind and at most"
            " one straddle"
        )
    if phh.min_bet != amounts[-1]:
        raise PhhError(f"min_bet {phh.min_bet} must equal the big blind {amounts[-1]}")
    big = max(posters, key=lambda player: (forced[player], player))
    if straddler is not None:
        _check_straddler(straddler, big, phh, ante)
    small = [seats[player] for player in posters if player != big]
    return PhhTable(
        seats=seats,
        seat_count=seat_count,
        small_blind=amounts[0] if small else max(1, amounts[0] // 2),
        big_blind=amounts[-1],
        ante=ante,
        small_blind_seat=small[0] if small else NO_SMALL_BLIND,
        big_blind_seat=seats[big],
        straddle=straddler is not None,
    )


def _ante(phh: PhhFile) -> int:
    if len(set(phh.antes)) != 1:
        raise PhhError("only uniform antes are supported (antes must all be equal)")
    return phh.antes[0]


def _straddler(forced: list[int], phh: PhhFile) -> int | None:
    """The player whose forced bet is above the big blind (``min_bet``): a straddle,
    which must be exactly two big blinds (rule 23); ``None`` when there is none."""
    top = max(range(len(forced)), key=lambda player: (forced[player], player))
    if forced[top] <= phh.min_bet:
        return None
    player = f"p{top + 1}"
    if forced[top] != 2 * phh.min_bet:
        raise PhhError(
            f"{player}'s forced bet of {forced[top]} is above the big blind (min_bet"
            f" {phh.min_bet}), and a straddle is exactly two big blinds, {2 * phh.min_bet}"
            " (rule 23)"
        )
    if len(forced) < 3:
        raise PhhError(f"{player} straddles heads-up: a straddle needs three players (rule 23)")
    return top


def _check_straddler(straddler: int, big: int, phh: PhhFile, ante: int) -> None:
    player, amount = f"p{straddler + 1}", 2 * phh.min_bet
    under_the_gun = (big + 1) % phh.player_count
    if straddler != under_the_gun:
        raise PhhError(
            f"{player} straddles, but only the player after the big blind"
            f" (p{under_the_gun + 1}) may (rule 23)"
        )
    if phh.starting_stacks[straddler] < ante + amount:
        raise PhhError(f"{player} cannot cover the straddle of {amount}, as Felt requires"
                       " (rule 23)")  # fmt: skip


def _seat_numbers(fields: Mapping[str, object], count: int) -> tuple[int, ...]:
    """0-based seats of the players, checked to go clockwise from the button."""
    raw = fields.get("seats", list(range(1, count + 1)))
    if (
        not isinstance(raw, list)
        or len(raw) != count
        or not all(type(seat) is int and seat >= 1 for seat in raw)
        or len(set(raw)) != count
    ):
        raise PhhError(f"seats must list {count} different seat numbers from 1")
    seats = tuple(seat - 1 for seat in raw)
    start = seats.index(min(seats))
    if list(seats[start:] + seats[:start]) != sorted(seats):
        raise PhhError("seats must go clockwise from the first player to the button")
    return seats
