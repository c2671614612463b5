"""The state of one hand (``engine.deal.new_hand`` starts one).

A ``HandState`` is an immutable value: ``engine.apply_action`` returns a new
one. Per-seat data are tuples indexed by seat number (empty seats hold 0,
``False`` or ``()``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from engine.construction import frozen_from_dict
from engine.events import Event
from engine.pots import Pot, build_pots

NO_SMALL_BLIND: Final = -1
"""Pass as ``small_blind_seat`` to play a hand without a small blind (dead small blind)."""

STREETS: Final = ("preflop", "flop", "turn", "river")
OVER: Final = "over"


@dataclass(frozen=True)
class HandState:
    """One hand at a moment between two decisions.

    ``game`` is the code of the game dealt (``engine.games``: ``"nlhe"`` or
    ``"plo"``). The home-game options: ``straddle_seat`` posted a straddle
    of two big blinds (rule 23), ``bomb_pot`` is what every player posted in a
    bomb pot (rule 24; 0 in an ordinary hand), and ``run_it_twice`` offers a
    second run-out when the players are all-in before the river (rule 25):
    the hand then waits with ``runout_pending`` until ``choose_runouts``;
    ``second_board`` holds the second run's board, ``()`` when run once.
    ``street`` is ``"preflop"``, ``"flop"``, ``"turn"``, ``"river"`` or, once
    the hand is finished, ``"over"``. ``actor`` is the seat whose decision is
    pending (``None`` once over). ``stacks`` are the chips behind each seat
    (final stacks once over); ``bets`` the chips put in on this street;
    ``contributed`` the chips put in during the whole hand, antes included.
    ``players`` are the seats dealt in, in seat order. ``acted_at`` is, per
    seat, the street's bet level when the seat last acted (-1: not yet acted
    on this street); it decides whether a short all-in reopened the betting
    for that seat (rules 4 and 5).
    """

    game: str
    small_blind: int
    big_blind: int
    ante: int
    button: int
    small_blind_seat: int | None
    big_blind_seat: int
    straddle_seat: int | None
    bomb_pot: int
    run_it_twice: bool
    runout_pending: bool
    second_board: tuple[int, ...]
    starting_stacks: tuple[int | None, ...]
    deck: tuple[int, ...]
    is_dealt_in: tuple[bool, ...]
    players: tuple[int, ...]
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    contributed: tuple[int, ...]
    has_folded: tuple[bool, ...]
    acted_at: tuple[int, ...]
    has_shown: tuple[bool, ...]
    holes: tuple[tuple[int, ...], ...]
    board: tuple[int, ...]
    next_card: int
    street: str
    actor: int | None
    current_bet: int
    min_raise_increment: int
    last_aggressor: int | None
    events: tuple[Event, ...]

    @property
    def is_over(self) -> bool:
        """True once every pot has been paid out."""
        return self.street == OVER

    @property
    def seat_count(self) -> int:
        """Number of seats at the table, empty ones included."""
        return len(self.stacks)

    def hole_cards(self, seat: int) -> tuple[int, ...]:
        """The seat's hole cards, two or four by the game (``()`` for a seat not dealt in)."""
        return self.holes[seat]

    def is_live(self, seat: int) -> bool:
        """Dealt in and not folded: still contesting the pot."""
        return self.is_dealt_in[seat] and not self.has_folded[seat]

    def is_all_in(self, seat: int) -> bool:
        """Live with no chips behind."""
        return self.is_live(seat) and self.stacks[seat] == 0

    @property
    def pots(self) -> tuple[Pot, ...]:
        """Chips gathered from finished streets, split into main and side pots.

        This street's bets are in ``bets``, not yet in a pot; once the hand is
        over every pot has been paid out and this is empty (rule 16).
        """
        if self.is_over:
            return ()
        gathered = tuple(c - b for c, b in zip(self.contributed, self.bets, strict=True))
        live = tuple(self.is_live(s) for s in range(self.seat_count))
        return build_pots(gathered, live, self.stacks)


def from_fields(fields: dict[str, Any]) -> HandState:
    """The ``HandState`` holding ``fields`` (every field, by name), built without the
    dataclass ``__init__`` (``engine.construction``). ``fields`` becomes the state's
    own: pass a fresh dict."""
    return frozen_from_dict(HandState, fields)


def evolve(state: HandState, **changes: Any) -> HandState:
    """A copy of ``state`` with ``changes``: ``dataclasses.replace``, faster."""
    fields = state.__dict__.copy()
    fields.update(changes)
    return from_fields(fields)
